package threadlocal_test

import (
	"errors"
	"fmt"
	"github.com/loomgo/loom/internal/testutil"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/loomgo/loom/thread"
	"github.com/loomgo/loom/threadlocal"
)

// run runs fn on a new virtual thread and waits for it.
func run(t *testing.T, fn func()) {
	t.Helper()
	th := thread.OfVirtual().Start(fn)
	if err := th.Join(); err != nil {
		t.Fatal(err)
	}
}

// TCK ThreadLocalTest.testRemove: remove restores the initial value.
func TestRemoveRestoresInitialValue(t *testing.T) {
	run(t, func() {
		tl := threadlocal.WithInitial(func() int { return 1 })
		if got := tl.Get(); got != 1 {
			t.Errorf("Get() = %d, want 1", got)
		}
		tl.Set(2)
		if got := tl.Get(); got != 2 {
			t.Errorf("Get() after Set(2) = %d, want 2", got)
		}
		tl.Remove()
		if got := tl.Get(); got != 1 {
			t.Errorf("Get() after Remove = %d, want 1", got)
		}
	})
}

// TCK ThreadLocalTest.testRemoveITL: the same for an InheritableThreadLocal.
func TestRemoveInheritableRestoresInitialValue(t *testing.T) {
	run(t, func() {
		tl := threadlocal.NewInheritable[int](nil)
		tl.Set(2)
		tl.Remove()
		if got := tl.Get(); got != 0 {
			t.Errorf("Get() after Remove = %d, want 0", got)
		}
	})
}

// TCK ThreadLocalTest.testGenericITL: child threads see the values derived by childValue, through
// several generations.
func TestInheritableChildValueThroughGenerations(t *testing.T) {
	tl := threadlocal.NewInheritable(func(parent int) int { return parent + 1 })
	var got []int
	var mu sync.Mutex
	var spawn func(depth int)
	spawn = func(depth int) {
		mu.Lock()
		got = append(got, tl.Get())
		mu.Unlock()
		if depth == 0 {
			return
		}
		th := thread.OfVirtual().Start(func() { spawn(depth - 1) })
		th.Join()
	}
	run(t, func() {
		tl.Set(10)
		spawn(4)
	})
	if diff := cmp.Diff([]int{10, 11, 12, 13, 14}, got); diff != "" {
		t.Errorf("values by generation (-want +got):\n%s", diff)
	}
}

func TestInitialSupplierCalledOncePerThread(t *testing.T) {
	var calls atomic.Int64
	tl := threadlocal.WithInitial(func() string { calls.Add(1); return "init" })
	for range 3 {
		run(t, func() {
			for range 5 {
				if got := tl.Get(); got != "init" {
					t.Errorf("Get() = %q", got)
				}
			}
		})
	}
	if got := calls.Load(); got != 3 {
		t.Errorf("supplier called %d times for 3 threads, want 3", got)
	}
}

// Java's set(null) is a real value; in Go that is setting T's zero value.
func TestSetZeroValueIsARealValue(t *testing.T) {
	run(t, func() {
		var calls int
		tl := threadlocal.WithInitial(func() *int { calls++; n := 7; return &n })
		tl.Set(nil)
		if got := tl.Get(); got != nil {
			t.Errorf("Get() after Set(nil) = %v, want nil", got)
		}
		if calls != 0 {
			t.Errorf("supplier called %d times after Set, want 0", calls)
		}
	})
}

func TestInterfaceTypedNilValue(t *testing.T) {
	run(t, func() {
		tl := threadlocal.WithInitial(func() error { return errors.New("x") })
		tl.Set(nil)
		if got := tl.Get(); got != nil {
			t.Errorf("Get() = %v, want nil", got)
		}
	})
}

func TestWithInitialNilPanics(t *testing.T) {
	mustPanic(t, thread.ErrNilArgument, func() { threadlocal.WithInitial[int](nil) })
}

func TestZeroValueThreadLocalIsUsable(t *testing.T) {
	var a, b threadlocal.ThreadLocal[string]
	run(t, func() {
		a.Set("a")
		b.Set("b")
		if a.Get() != "a" || b.Get() != "b" {
			t.Errorf("got %q %q, want a b", a.Get(), b.Get())
		}
	})
	run(t, func() {
		if a.Get() != "" {
			t.Errorf("fresh thread sees %q", a.Get())
		}
	})
}

// The classic experiment: a thread-local set in two virtual threads and in main; each sees only
// its own value, and main sees none first.
func TestTwoVirtualThreadsAndMainSeeOnlyTheirOwnValue(t *testing.T) {
	tl := threadlocal.New[string]()
	seen := make(chan string, 2) // results only; the threads block through loom
	if got := tl.Get(); got != "" {
		t.Fatalf("main sees %q before any Set, want none", got)
	}
	var ths []*thread.Thread
	for _, name := range []string{"vt-1", "vt-2"} {
		ths = append(ths, thread.OfVirtual().Start(func() {
			tl.Set(name)
			thread.Sleep(20 * time.Millisecond) // unmount; the value stays with the thread
			seen <- name + "=" + tl.Get()
		}))
	}
	tl.Set("main")
	for _, th := range ths {
		th.Join()
	}
	got := []string{<-seen, <-seen}
	if got[0] > got[1] {
		got[0], got[1] = got[1], got[0]
	}
	if diff := cmp.Diff([]string{"vt-1=vt-1", "vt-2=vt-2"}, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if v := tl.Get(); v != "main" {
		t.Errorf("main sees %q, want main", v)
	}
	tl.Remove()
}

// jtreg ThreadLocals.testThreadLocal1/2: a virtual thread's value is its own, not its carrier's,
// and survives parking and moving to another carrier.
func TestVirtualThreadValueIndependentOfCarrierAndSurvivesUnmount(t *testing.T) {
	s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 1})
	defer s.Close()
	tl := threadlocal.New[int]()
	const n = 50
	var bad atomic.Int64
	var ths []*thread.Thread
	for i := range n {
		ths = append(ths, thread.OfVirtual().Scheduler(s).Start(func() {
			if tl.Get() != 0 {
				bad.Add(1)
			}
			tl.Set(i)
			for range 3 {
				thread.Sleep(time.Millisecond)
				thread.Yield()
				if tl.Get() != i {
					bad.Add(1)
				}
			}
		}))
	}
	for _, th := range ths {
		th.Join()
	}
	if bad.Load() != 0 {
		t.Errorf("%d reads saw another thread's value", bad.Load())
	}
}

// jtreg ThreadLocals.testInheritedThreadLocal1/2: inheritance happens when the thread is created,
// not when it starts; later changes on either side are not seen by the other.
func TestInheritanceHappensAtCreationNotStart(t *testing.T) {
	tl := threadlocal.NewInheritable[string](nil)
	run(t, func() {
		tl.Set("at-create")
		var got string
		child := thread.OfVirtual().Unstarted(func() {
			got = tl.Get()
			tl.Set("child")
		})
		tl.Set("at-start")
		child.Start()
		child.Join()
		if got != "at-create" {
			t.Errorf("child saw %q, want at-create", got)
		}
		if v := tl.Get(); v != "at-start" {
			t.Errorf("parent sees %q after child's Set, want at-start", v)
		}
	})
}

func TestChildValueComputedOnCreatingThread(t *testing.T) {
	var where atomic.Pointer[thread.Thread]
	tl := threadlocal.NewInheritable(func(p int) int {
		where.Store(thread.Current())
		return p * 2
	})
	run(t, func() {
		me := thread.Current()
		tl.Set(21)
		var got int
		child := thread.OfPlatform().Unstarted(func() { got = tl.Get() })
		if where.Load() != me {
			t.Errorf("childValue ran on %v, want the creating thread %v", where.Load(), me)
		}
		child.Start()
		child.Join()
		if got != 42 {
			t.Errorf("platform child got %d, want 42", got)
		}
	})
}

// jtreg BuilderTest.testInheritedThreadLocals1/2, ThreadLocals.testInheritedThreadLocal4/5.
func TestBuilderInheritInheritableThreadLocalsFalse(t *testing.T) {
	tl := threadlocal.NewInheritable[string](nil)
	plain := threadlocal.New[string]()
	run(t, func() {
		tl.Set("parent")
		plain.Set("parent")
		for _, tc := range []struct {
			name string
			b    interface{ Start(func()) *thread.Thread }
			want string
		}{
			{"virtual", thread.OfVirtual(), "parent"},
			{"virtual-noinherit", thread.OfVirtual().InheritInheritableThreadLocals(false), ""},
			{"platform", thread.OfPlatform(), "parent"},
			{"platform-noinherit", thread.OfPlatform().InheritInheritableThreadLocals(false), ""},
		} {
			var got, gotPlain string
			tc.b.Start(func() { got, gotPlain = tl.Get(), plain.Get() }).Join()
			if got != tc.want {
				t.Errorf("%s: inheritable = %q, want %q", tc.name, got, tc.want)
			}
			if gotPlain != "" {
				t.Errorf("%s: plain ThreadLocal inherited %q", tc.name, gotPlain)
			}
		}
	})
}

// A thread that never touched an inheritable thread-local passes nothing on: childValue is not
// called and the child starts from the initial value.
func TestUntouchedInheritableIsNotInherited(t *testing.T) {
	var calls atomic.Int64
	tl := threadlocal.NewInheritable(func(p int64) int64 { calls.Add(1); return p + 1 })
	run(t, func() {
		var got int64 = -1
		thread.OfVirtual().Start(func() { got = tl.Get() }).Join()
		if got != 0 {
			t.Errorf("child of an untouched parent got %d, want 0", got)
		}
	})
	if calls.Load() != 0 {
		t.Errorf("childValue called %d times, want 0", calls.Load())
	}
}

func TestForeignGoroutinesHaveTheirOwnValues(t *testing.T) {
	tl := threadlocal.New[int]()
	var wg sync.WaitGroup
	var bad atomic.Int64
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer thread.Detach()
			if tl.Get() != 0 {
				bad.Add(1)
			}
			tl.Set(i)
			runtime.Gosched()
			if tl.Get() != i {
				bad.Add(1)
			}
		}()
	}
	wg.Wait()
	if bad.Load() != 0 {
		t.Errorf("%d foreign goroutines saw a value not their own", bad.Load())
	}
}

// Values are released when their thread terminates: the value becomes unreachable.
func TestValuesReleasedWhenThreadTerminates(t *testing.T) {
	type big struct{ _ [1 << 10]byte }
	tl := threadlocal.New[*big]()
	var released atomic.Int64
	const n = 100
	for range n {
		run(t, func() {
			b := &big{}
			runtime.AddCleanup(b, func(int) { released.Add(1) }, 0)
			tl.Set(b)
		})
	}
	deadline := time.Now().Add(5 * time.Second)
	for released.Load() < n && time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	if got := released.Load(); got < n {
		t.Errorf("%d of %d values released after their threads ended", got, n)
	}
}

// Stress: many threads, several thread-locals, random Set/Get/Remove; every read sees exactly
// what this thread last wrote (or the initial value).
func TestStressRandomSetGetRemove(t *testing.T) {
	tls := []*threadlocal.ThreadLocal[int]{
		threadlocal.New[int](),
		threadlocal.WithInitial(func() int { return -1 }),
		threadlocal.NewInheritable(func(p int) int { return p }),
	}
	initial := []int{0, -1, 0}
	var bad atomic.Int64
	var ths []*thread.Thread
	for seed := range 64 {
		b := thread.OfVirtual()
		if seed%4 == 0 {
			b = b.InheritInheritableThreadLocals(false)
		}
		ths = append(ths, b.Start(func() {
			r := rand.New(rand.NewPCG(uint64(seed), 1))
			shadow := map[int]int{}
			for range 500 {
				i := r.IntN(len(tls))
				switch r.IntN(4) {
				case 0:
					v := r.Int()
					tls[i].Set(v)
					shadow[i] = v
				case 1:
					tls[i].Remove()
					delete(shadow, i)
				default:
					want, ok := shadow[i]
					if !ok {
						want = initial[i]
						shadow[i] = want
					}
					if tls[i].Get() != want {
						bad.Add(1)
					}
				}
				if r.IntN(50) == 0 {
					thread.Yield()
				}
			}
		}))
	}
	for _, th := range ths {
		th.Join()
	}
	if bad.Load() != 0 {
		t.Errorf("%d reads disagreed with the thread's own writes", bad.Load())
	}
}

func ExampleThreadLocal() {
	requestID := threadlocal.New[string]()
	var out [2]string
	a := thread.OfVirtual().Start(func() { requestID.Set("req-1"); out[0] = requestID.Get() })
	b := thread.OfVirtual().Start(func() { requestID.Set("req-2"); out[1] = requestID.Get() })
	a.Join()
	b.Join()
	fmt.Println(out[0], out[1])
	fmt.Printf("main: %q\n", requestID.Get())
	// Output:
	// req-1 req-2
	// main: ""
}

func ExampleWithInitial() {
	counter := threadlocal.WithInitial(func() int { return 100 })
	thread.OfVirtual().Start(func() {
		counter.Set(counter.Get() + 1)
		fmt.Println(counter.Get())
		counter.Remove()
		fmt.Println(counter.Get())
	}).Join()
	// Output:
	// 101
	// 100
}

func ExampleNewInheritable() {
	user := threadlocal.NewInheritable(func(parent string) string { return parent + " (inherited)" })
	thread.OfVirtual().Start(func() {
		user.Set("duke")
		thread.OfVirtual().Start(func() { fmt.Println(user.Get()) }).Join()
		thread.OfVirtual().InheritInheritableThreadLocals(false).
			Start(func() { fmt.Printf("%q\n", user.Get()) }).Join()
	}).Join()
	// Output:
	// duke (inherited)
	// ""
}

// jtreg ThreadLocals.testInheritedThreadLocal1/2/4: a virtual thread inherits from a platform
// parent (here the test's goroutine); its own Set does not reach the parent; the builder can
// turn inheritance off.
func TestInheritFromPlatformParent(t *testing.T) {
	tl := threadlocal.NewInheritable[*int](nil)
	obj := new(int)
	tl.Set(obj)
	defer tl.Remove()
	var got, gotNoInherit *int
	thread.OfVirtual().Start(func() {
		got = tl.Get()
		tl.Set(new(int))
	}).Join()
	thread.OfVirtual().InheritInheritableThreadLocals(false).Start(func() { gotNoInherit = tl.Get() }).Join()
	if got != obj || gotNoInherit != nil {
		t.Errorf("child got %p (want %p), no-inherit child got %v", got, obj, gotNoInherit)
	}
	if tl.Get() != obj {
		t.Error("the child's Set changed the parent's value")
	}
}

var mustPanic = testutil.MustPanic
