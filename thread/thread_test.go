package thread_test

import (
	"errors"
	"fmt"
	"github.com/loomgo/loom/internal/testutil"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/loomgo/loom/thread"
)

func TestUnstartedThreadIsNewAndStartMakesItRun(t *testing.T) {
	for _, virtual := range []bool{true, false} {
		var ran atomic.Bool
		var th *thread.Thread
		if virtual {
			th = thread.OfVirtual().Unstarted(func() { ran.Store(true) })
		} else {
			th = thread.OfPlatform().Unstarted(func() { ran.Store(true) })
		}
		if th.State() != thread.New || th.IsAlive() {
			t.Fatalf("unstarted: state %v alive %v", th.State(), th.IsAlive())
		}
		if th.IsVirtual() != virtual {
			t.Fatalf("IsVirtual = %v", th.IsVirtual())
		}
		th.Start()
		join(t, th)
		if !ran.Load() || th.State() != thread.Terminated || th.IsAlive() {
			t.Fatalf("after join: ran %v state %v", ran.Load(), th.State())
		}
	}
}

func TestStartTwiceOrAfterTerminationPanicsIllegalThreadState(t *testing.T) {
	th := thread.StartVirtualThread(func() {})
	mustPanic(t, thread.ErrIllegalThreadState, th.Start)
	join(t, th)
	mustPanic(t, thread.ErrIllegalThreadState, th.Start)
	p := thread.OfPlatform().Start(func() {})
	join(t, p)
	mustPanic(t, thread.ErrIllegalThreadState, p.Start)
	mustPanic(t, thread.ErrIllegalThreadState, thread.Current().Start)
}

func TestNilTaskPanicsNilArgument(t *testing.T) {
	mustPanic(t, thread.ErrNilArgument, func() { thread.StartVirtualThread(nil) })
	mustPanic(t, thread.ErrNilArgument, func() { thread.OfPlatform().Unstarted(nil) })
	mustPanic(t, thread.ErrNilArgument, func() { thread.OfVirtual().Factory().NewThread(nil) })
	mustPanic(t, thread.ErrNilArgument, func() { thread.OfVirtual().UncaughtExceptionHandler(nil) })
}

func TestBuilderNameCounterAndFactorySnapshot(t *testing.T) {
	b := thread.OfVirtual().NameCounter("duke-", 100)
	var names []string
	for range 3 {
		names = append(names, b.Unstarted(func() {}).Name())
	}
	f := b.Factory()
	names = append(names, f.NewThread(func() {}).Name(), f.NewThread(func() {}).Name())
	want := []string{"duke-100", "duke-101", "duke-102", "duke-103", "duke-104"}
	if diff := cmp.Diff(want, names); diff != "" {
		t.Fatalf("names (-want +got):\n%s", diff)
	}
	// later builder changes do not affect the factory
	b.Name("other")
	if got := f.NewThread(func() {}).Name(); got != "duke-105" {
		t.Fatalf("factory after builder change: %q", got)
	}
	mustPanic(t, thread.ErrIllegalArgument, func() { thread.OfPlatform().NameCounter("x", -1) })
}

func TestFactoryIsSafeForConcurrentUse(t *testing.T) {
	f := thread.OfPlatform().NameCounter("w-", 0).Factory()
	var mu sync.Mutex
	seen := map[string]bool{}
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 100 {
				n := f.NewThread(func() {}).Name()
				mu.Lock()
				seen[n] = true
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if len(seen) != 800 {
		t.Fatalf("%d distinct names, want 800", len(seen))
	}
}

func TestDefaultNames(t *testing.T) {
	if n := thread.OfVirtual().Unstarted(func() {}).Name(); n != "" {
		t.Errorf("virtual default name %q, want empty", n)
	}
	if n := thread.OfPlatform().Unstarted(func() {}).Name(); !regexp.MustCompile(`^Thread-\d+$`).MatchString(n) {
		t.Errorf("platform default name %q", n)
	}
	th := thread.OfVirtual().Name("fred").Unstarted(func() {})
	th.SetName("barney")
	if th.Name() != "barney" {
		t.Errorf("SetName: %q", th.Name())
	}
}

func TestThreadIDsArePositiveUniqueAndMainIsOne(t *testing.T) {
	// TestMain's goroutine is not the program's main goroutine under go test, so check the
	// format of a fresh platform thread and uniqueness instead.
	a := thread.OfVirtual().Unstarted(func() {})
	b := thread.OfPlatform().Unstarted(func() {})
	if a.ThreadID() <= 1 || b.ThreadID() <= 1 || a.ThreadID() == b.ThreadID() {
		t.Fatalf("ids %d %d", a.ThreadID(), b.ThreadID())
	}
	if cur := thread.Current(); cur.ThreadID() != thread.Current().ThreadID() {
		t.Fatal("Current not stable")
	}
}

func TestVirtualThreadsAreDaemonWithNormPriority(t *testing.T) {
	th := thread.OfVirtual().Unstarted(func() { thread.Park() })
	if !th.IsDaemon() || th.Priority() != thread.NormPriority {
		t.Fatalf("daemon %v priority %d", th.IsDaemon(), th.Priority())
	}
	th.SetDaemon(true) // no-op while NEW
	mustPanic(t, thread.ErrIllegalArgument, func() { th.SetDaemon(false) })
	th.SetPriority(thread.MaxPriority) // ignored
	if th.Priority() != thread.NormPriority {
		t.Fatalf("priority changed to %d", th.Priority())
	}
	mustPanic(t, thread.ErrIllegalArgument, func() { th.SetPriority(11) })
	th.Start()
	mustPanic(t, thread.ErrIllegalArgument, func() { th.SetDaemon(false) }) // IAE checked first
	mustPanic(t, thread.ErrIllegalThreadState, func() { th.SetDaemon(true) })
	thread.Unpark(th)
	join(t, th)
}

func TestPlatformDaemonAndPriority(t *testing.T) {
	th := thread.OfPlatform().Daemon(true).Priority(7).Unstarted(func() {})
	if !th.IsDaemon() || th.Priority() != 7 {
		t.Fatalf("daemon %v priority %d", th.IsDaemon(), th.Priority())
	}
	th.SetDaemon(false)
	if th.IsDaemon() {
		t.Fatal("SetDaemon(false) before start ignored")
	}
	mustPanic(t, thread.ErrIllegalArgument, func() { thread.OfPlatform().Priority(0) })
	mustPanic(t, thread.ErrIllegalArgument, func() { thread.OfPlatform().StackSize(-1) })
	release := make(chan struct{})
	th = thread.OfPlatform().Start(func() { <-release })
	mustPanic(t, thread.ErrIllegalThreadState, func() { th.SetDaemon(true) })
	close(release)
	join(t, th)
}

func TestToStringFormats(t *testing.T) {
	s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 1})
	defer s.Close()
	var running string
	th := thread.OfVirtual().Scheduler(s).Unstarted(func() {
		running = thread.Current().String()
		thread.Park()
	})
	id := th.ThreadID()
	if got, want := th.String(), fmt.Sprintf("VirtualThread[#%d]/new", id); got != want {
		t.Errorf("new: %q, want %q", got, want)
	}
	th.Start()
	waitState(t, th, thread.Waiting)
	if got, want := th.String(), fmt.Sprintf("VirtualThread[#%d]/waiting", id); got != want {
		t.Errorf("parked: %q, want %q", got, want)
	}
	if want := fmt.Sprintf(`^VirtualThread\[#%d\]/runnable@ForkJoinPool-\d+-worker-1$`, id); !regexp.MustCompile(want).MatchString(running) {
		t.Errorf("running: %q, want %s", running, want)
	}
	th.SetName("fred")
	if got, want := th.String(), fmt.Sprintf("VirtualThread[#%d,fred]/waiting", id); got != want {
		t.Errorf("named: %q, want %q", got, want)
	}
	thread.Unpark(th)
	join(t, th)
	if got, want := th.String(), fmt.Sprintf("VirtualThread[#%d,fred]/terminated", id); got != want {
		t.Errorf("terminated: %q, want %q", got, want)
	}

	p := thread.OfPlatform().Name("worker").Unstarted(func() {})
	if got, want := p.String(), fmt.Sprintf("Thread[#%d,worker,5,main]", p.ThreadID()); got != want {
		t.Errorf("platform: %q, want %q", got, want)
	}
	p.Start()
	join(t, p)
	if got, want := p.String(), fmt.Sprintf("Thread[#%d,worker,5,]", p.ThreadID()); got != want {
		t.Errorf("platform terminated: %q, want %q", got, want)
	}
}

func TestCurrentInsideVirtualThreadIsTheVirtualThread(t *testing.T) {
	var got [3]*thread.Thread
	th := thread.StartVirtualThread(func() {
		got[0] = thread.Current()
		thread.Sleep(time.Millisecond)
		got[1] = thread.Current()
		thread.Yield()
		got[2] = thread.Current()
	})
	join(t, th)
	for i, g := range got {
		if g != th {
			t.Errorf("Current %d = %v, want %v", i, g, th)
		}
	}
}

func TestCurrentOnForeignGoroutineIsStablePlatformThread(t *testing.T) {
	done := make(chan [2]*thread.Thread)
	release := make(chan struct{})
	go func() {
		a := thread.Current()
		b := thread.Current()
		done <- [2]*thread.Thread{a, b}
		<-release // alive while the test looks at its Thread
	}()
	r := <-done
	if r[0] != r[1] || r[0].IsVirtual() || r[0].State() != thread.Runnable {
		t.Fatalf("foreign: %v %v", r[0], r[1])
	}
	close(release)
}

func TestForeignAttachmentsAreBounded(t *testing.T) {
	var ths []*thread.Thread
	for range 5000 {
		done := make(chan *thread.Thread)
		go func() { done <- thread.Current() }()
		ths = append(ths, <-done)
	}
	// the sweep runs when foreign attachments pass their limit; the dead goroutines' threads are
	// then terminated and dropped
	terminated := 0
	for _, th := range ths {
		if th.State() == thread.Terminated {
			terminated++
		}
	}
	if terminated < 3000 {
		t.Fatalf("only %d of 5000 dead foreign attachments were swept", terminated)
	}
}

func TestDetachTerminatesTheAttachment(t *testing.T) {
	done := make(chan *thread.Thread)
	go func() {
		a := thread.Current()
		thread.Detach()
		b := thread.Current()
		thread.Detach()
		if a == b {
			t.Error("Detach kept the attachment")
		}
		done <- a
	}()
	if a := <-done; a.State() != thread.Terminated {
		t.Fatalf("detached: %v", a.State())
	}
}

func TestStatesParkSleepJoinTerminated(t *testing.T) {
	for _, virtual := range []bool{true, false} {
		b := thread.OfVirtual().Unstarted
		if !virtual {
			b = thread.OfPlatform().Unstarted
		}
		step := make(chan int, 1)
		th := b(func() {
			thread.Park()
			thread.Sleep(time.Hour) // interrupted below
			thread.Current().SetName("done")
		})
		th.Start()
		waitState(t, th, thread.Waiting)
		thread.Unpark(th)
		waitState(t, th, thread.TimedWaiting)
		th.Interrupt()
		join(t, th)
		if th.State() != thread.Terminated || th.Name() != "done" {
			t.Fatalf("virtual=%v: state %v", virtual, th.State())
		}
		_ = step
	}
}

func TestJoinWaitingStateAndTimedJoin(t *testing.T) {
	target := thread.StartVirtualThread(func() { thread.Park() })
	joiner := thread.StartVirtualThread(func() { target.Join() })
	waitState(t, joiner, thread.Waiting)
	var ok bool
	timed := thread.StartVirtualThread(func() { ok, _ = target.JoinTimeout(time.Hour) })
	waitState(t, timed, thread.TimedWaiting)
	if ok2, err := target.JoinTimeout(20 * time.Millisecond); ok2 || err != nil {
		t.Fatalf("JoinTimeout on live thread = %v, %v", ok2, err)
	}
	thread.Unpark(target)
	join(t, joiner, timed)
	if !ok {
		t.Fatal("timed join did not see termination")
	}
	if ok, err := target.JoinTimeout(-time.Second); !ok || err != nil {
		t.Fatalf("JoinTimeout(negative) on terminated = %v, %v", ok, err)
	}
}

func TestJoinOnNewThreadReturnsButJoinTimeoutPanics(t *testing.T) {
	th := thread.OfVirtual().Unstarted(func() {})
	if err := th.Join(); err != nil {
		t.Fatal(err)
	}
	mustPanic(t, thread.ErrIllegalThreadState, func() { th.JoinTimeout(time.Second) })
}

func TestJoinIsNotWokenByTargetParkActivity(t *testing.T) {
	stop := make(chan struct{})
	var joinerDone atomic.Bool
	target := thread.StartVirtualThread(func() {
		for {
			select {
			case <-stop:
				return
			default:
			}
			thread.ParkNanos(time.Millisecond)
		}
	})
	joiner := thread.StartVirtualThread(func() { target.Join(); joinerDone.Store(true) })
	time.Sleep(50 * time.Millisecond)
	if joinerDone.Load() {
		t.Fatal("join returned while target alive")
	}
	close(stop)
	join(t, joiner)
	if !joinerDone.Load() {
		t.Fatal("joiner")
	}
}

func TestInterruptBeforeStartIsKept(t *testing.T) {
	var seen atomic.Bool
	th := thread.OfVirtual().Unstarted(func() { seen.Store(thread.Current().IsInterrupted()) })
	th.Interrupt()
	if !th.IsInterrupted() {
		t.Fatal("interrupt of NEW thread not recorded")
	}
	th.Start()
	join(t, th)
	if !seen.Load() || !th.IsInterrupted() {
		t.Fatal("interrupt status lost")
	}
}

func TestInterruptedClearsStatus(t *testing.T) {
	th := thread.StartVirtualThread(func() {
		thread.Current().Interrupt()
		if !thread.Interrupted() {
			t.Error("Interrupted() = false after self-interrupt")
		}
		if thread.Interrupted() || thread.Current().IsInterrupted() {
			t.Error("status not cleared")
		}
	})
	join(t, th)
}

func TestSleepWithInterruptSetReturnsErrInterruptedAndClears(t *testing.T) {
	for _, virtual := range []bool{true, false} {
		var err error
		var after bool
		task := func() {
			thread.Current().Interrupt()
			err = thread.Sleep(time.Hour)
			after = thread.Current().IsInterrupted()
		}
		var th *thread.Thread
		if virtual {
			th = thread.StartVirtualThread(task)
		} else {
			th = thread.OfPlatform().Start(task)
		}
		join(t, th)
		if !errors.Is(err, thread.ErrInterrupted) || after {
			t.Fatalf("virtual=%v: err %v status %v", virtual, err, after)
		}
	}
}

func TestSleepNegativeReturnsAtOnceKeepingInterrupt(t *testing.T) {
	th := thread.StartVirtualThread(func() {
		thread.Current().Interrupt()
		if err := thread.Sleep(-time.Second); err != nil {
			t.Error(err)
		}
		if !thread.Interrupted() {
			t.Error("negative sleep cleared the status")
		}
	})
	join(t, th)
}

func TestInterruptWakesSleeper(t *testing.T) {
	errc := make(chan error, 1)
	th := thread.StartVirtualThread(func() { errc <- thread.Sleep(time.Hour) })
	waitState(t, th, thread.TimedWaiting)
	th.Interrupt()
	if err := <-errc; !errors.Is(err, thread.ErrInterrupted) {
		t.Fatal(err)
	}
	join(t, th)
	if th.IsInterrupted() {
		t.Fatal("status not cleared by Sleep")
	}
}

func TestInterruptWakesParkWithoutClearing(t *testing.T) {
	th := thread.StartVirtualThread(func() {
		thread.Park()
		if !thread.Current().IsInterrupted() {
			t.Error("park cleared the status")
		}
		// park with the status set returns at once and leaves it set
		thread.Park()
		thread.ParkNanos(time.Hour)
		if !thread.Interrupted() {
			t.Error("status lost")
		}
	})
	waitState(t, th, thread.Waiting)
	th.Interrupt()
	join(t, th)
}

func TestInterruptWakesJoin(t *testing.T) {
	target := thread.StartVirtualThread(func() { thread.Park() })
	var err error
	joiner := thread.StartVirtualThread(func() { err = target.Join() })
	waitState(t, joiner, thread.Waiting)
	joiner.Interrupt()
	join(t, joiner)
	if !errors.Is(err, thread.ErrInterrupted) || joiner.IsInterrupted() {
		t.Fatalf("err %v status %v", err, joiner.IsInterrupted())
	}
	thread.Unpark(target)
	join(t, target)
}

func TestParkPermitIsBinary(t *testing.T) {
	th := thread.StartVirtualThread(func() {
		me := thread.Current()
		thread.Unpark(me)
		thread.Unpark(me)
		thread.Park() // returns at once
		start := time.Now()
		thread.ParkNanos(50 * time.Millisecond) // the second unpark is not remembered
		if time.Since(start) < 40*time.Millisecond {
			t.Error("two unparks gave two permits")
		}
	})
	join(t, th)
}

func TestUnparkNilIsANoOp(t *testing.T) { thread.Unpark(nil) }

func TestSleepNeitherConsumesNorGrantsPermit(t *testing.T) {
	th := thread.StartVirtualThread(func() {
		thread.Unpark(thread.Current())
		thread.Sleep(10 * time.Millisecond)
		start := time.Now()
		thread.Park() // the permit from before the sleep is still there
		if time.Since(start) > 500*time.Millisecond {
			t.Error("sleep consumed the permit")
		}
	})
	join(t, th)
}

func TestUnparkDoesNotShortenSleep(t *testing.T) {
	start := time.Now()
	th := thread.StartVirtualThread(func() { thread.Sleep(100 * time.Millisecond) })
	waitState(t, th, thread.TimedWaiting)
	for range 5 {
		thread.Unpark(th)
		time.Sleep(5 * time.Millisecond)
	}
	join(t, th)
	if el := time.Since(start); el < 95*time.Millisecond {
		t.Fatalf("sleep took %v", el)
	}
}

func TestYieldNeitherConsumesNorGrantsPermit(t *testing.T) {
	th := thread.StartVirtualThread(func() {
		thread.Unpark(thread.Current())
		thread.Yield()
		start := time.Now()
		thread.Park()
		if time.Since(start) > 500*time.Millisecond {
			t.Error("yield consumed the permit")
		}
	})
	join(t, th)
}

func TestYieldLetsQueuedThreadsRunFirst(t *testing.T) {
	s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 1})
	defer s.Close()
	var mu sync.Mutex
	var order []string
	rec := func(x string) { mu.Lock(); order = append(order, x); mu.Unlock() }
	gate := thread.OfVirtual().Scheduler(s).Start(func() {
		a := thread.OfVirtual().Scheduler(s).Start(func() { rec("A"); thread.Yield(); rec("A") })
		b := thread.OfVirtual().Scheduler(s).Start(func() { rec("B") })
		// this thread keeps the only carrier until it parks in Join: A then B run in order
		a.Join()
		b.Join()
	})
	join(t, gate)
	if diff := cmp.Diff([]string{"A", "B", "A"}, order); diff != "" {
		t.Fatalf("order (-want +got):\n%s", diff)
	}
}

func TestPanicInOneThreadLeavesOthersRunning(t *testing.T) {
	var handled atomic.Value
	var handlerThread atomic.Pointer[thread.Thread]
	bad := thread.OfVirtual().Name("bad").UncaughtExceptionHandler(func(th *thread.Thread, v any) {
		handlerThread.Store(thread.Current())
		handled.Store(v)
	}).Start(func() { panic("boom") })
	good := thread.StartVirtualThread(func() { thread.Sleep(10 * time.Millisecond) })
	join(t, bad, good)
	if handled.Load() != "boom" || handlerThread.Load() != bad {
		t.Fatalf("handler got %v on %v", handled.Load(), handlerThread.Load())
	}
	if good.State() != thread.Terminated {
		t.Fatal(good.State())
	}
}

func TestDefaultUncaughtExceptionHandler(t *testing.T) {
	got := make(chan any, 1)
	thread.SetDefaultUncaughtExceptionHandler(func(th *thread.Thread, v any) { got <- v })
	defer thread.SetDefaultUncaughtExceptionHandler(nil)
	join(t, thread.OfPlatform().Start(func() { panic(errors.New("platform boom")) }))
	if v := <-got; fmt.Sprint(v) != "platform boom" {
		t.Fatal(v)
	}
}

func TestGoexitInTaskEndsOnlyThatThread(t *testing.T) {
	s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 1})
	defer s.Close()
	th := thread.OfVirtual().Scheduler(s).Start(func() { runtimeGoexit() })
	join(t, th)
	// the carrier survived: another thread still runs on the scheduler
	var ran atomic.Bool
	join(t, thread.OfVirtual().Scheduler(s).Start(func() { ran.Store(true) }))
	if !ran.Load() {
		t.Fatal("scheduler dead after Goexit")
	}
}

func TestStateStrings(t *testing.T) {
	got := []string{}
	for s := thread.New; s <= thread.Terminated; s++ {
		got = append(got, s.String())
	}
	want := []string{"NEW", "RUNNABLE", "BLOCKED", "WAITING", "TIMED_WAITING", "TERMINATED"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatal(diff)
	}
}

func TestVirtualThreadCreatedByVirtualThreadUsesParentScheduler(t *testing.T) {
	s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 1})
	defer s.Close()
	var carrier string
	th := thread.OfVirtual().Scheduler(s).Start(func() {
		c := thread.StartVirtualThread(func() { carrier = thread.Current().Carrier() })
		c.Join()
	})
	join(t, th)
	if !strings.HasPrefix(carrier, "ForkJoinPool-") || !strings.HasSuffix(carrier, "-worker-1") {
		t.Fatalf("child carrier %q", carrier)
	}
	// a thread is counted out of Live just after its joiners are released
	waitQuiescent(t, s)
}

func TestClosedSchedulerRejects(t *testing.T) {
	s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 1})
	s.Close()
	th := thread.OfVirtual().Scheduler(s).Unstarted(func() {})
	if err := th.TryStart(); !errors.Is(err, thread.ErrRejected) {
		t.Fatal(err)
	}
	if th.State() != thread.Terminated {
		t.Fatal(th.State())
	}
	mustPanic(t, thread.ErrIllegalThreadState, func() { thread.DefaultScheduler().Close() })
}

func TestCloseWaitsForThreads(t *testing.T) {
	s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 2})
	var done atomic.Int32
	for range 10 {
		thread.OfVirtual().Scheduler(s).Start(func() { thread.Sleep(20 * time.Millisecond); done.Add(1) })
	}
	s.Close()
	if done.Load() != 10 {
		t.Fatalf("Close returned with %d of 10 done", done.Load())
	}
}

var mustPanic = testutil.MustPanic
var waitState = testutil.WaitState
var join = testutil.Join

// A virtual thread may lock its OS thread inside Native and park there: it pins its carrier and
// never switches its continuation while locked (outside Native the Go runtime would end the
// process, see Native). After Native it parks and unmounts as usual.
func TestNativeLetsAVirtualThreadLockItsOSThread(t *testing.T) {
	s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 1})
	defer s.Close()
	var pinned, after atomic.Bool
	th := thread.OfVirtual().Scheduler(s).Start(func() {
		thread.Native(func() {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			if err := thread.Sleep(time.Millisecond); err != nil {
				t.Error(err)
			}
			thread.Yield()
			pinned.Store(true)
		})
		if err := thread.Sleep(time.Millisecond); err != nil {
			t.Error(err)
		}
		after.Store(true)
	})
	join(t, th)
	if !pinned.Load() || !after.Load() {
		t.Fatalf("pinned part ran: %v, part after Native ran: %v", pinned.Load(), after.Load())
	}
}
