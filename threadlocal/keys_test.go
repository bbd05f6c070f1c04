package threadlocal_test

import (
	"runtime"
	"testing"
	"time"

	"github.com/loomgo/loom/thread"
	"github.com/loomgo/loom/threadlocal"
)

// Keys index a dense slice in every thread and are reused once their ThreadLocal is
// garbage-collected (internal/rt's locals.go). These tests pin the three promises that makes.

// collect drops the last reference the caller handed over (the ThreadLocal's key stays) and
// runs the collector until the ThreadLocal's cleanup has freed the key.
func collect(t *testing.T, key uint64) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for threadlocal.Live(key) {
		if time.Now().After(deadline) {
			t.Fatalf("key %#x still live 10 s after its ThreadLocal became unreachable", key)
		}
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
}

// newDropped makes a ThreadLocal, sets v in the current thread, and returns only its key: the
// ThreadLocal itself is unreachable once this returns.
func newDropped[T any](v T) uint64 {
	tl := threadlocal.New[T]()
	tl.Set(v)
	return threadlocal.KeyOf(tl)
}

// A ThreadLocal that gets the index of a collected one never sees the value the dead one left
// in a thread: its generation differs.
func TestReusedIndexDoesNotSeeDeadThreadLocalsValue(t *testing.T) {
	run(t, func() {
		old := newDropped("dead value")
		collect(t, old)
		var tl *threadlocal.ThreadLocal[string]
		for range 1000 { // the freed index is the smallest free one, so it comes back soon
			tl = threadlocal.New[string]()
			if uint32(threadlocal.KeyOf(tl)) == uint32(old) {
				break
			}
		}
		k := threadlocal.KeyOf(tl)
		if uint32(k) != uint32(old) {
			t.Fatalf("index %d never reissued (last key %#x)", uint32(old), k)
		}
		if k == old {
			t.Fatalf("key %#x issued twice", k)
		}
		if got := tl.Get(); got != "" {
			t.Errorf("new ThreadLocal on a reused index read %q, want the zero value", got)
		}
		tl.Set("new")
		if got := tl.Get(); got != "new" {
			t.Errorf("Get after Set = %q", got)
		}
	})
}

// ThreadLocals made, used and dropped one after another do not grow a thread's slice: indices
// are reused, so the slice stays about as long as the peak number alive at once, not the number
// ever made, and shrinks back once they are collected. (A million of them outside -race.)
func TestDroppedThreadLocalsDoNotGrowThreadSlices(t *testing.T) {
	n := droppedThreadLocals
	run(t, func() {
		peak := 0
		var last []uint64
		for i := range n {
			tl := threadlocal.WithInitial(func() int { return i })
			if got := tl.Get(); got != i {
				t.Fatalf("Get = %d, want %d", got, i)
			}
			if i >= n-1000 {
				last = append(last, threadlocal.KeyOf(tl))
			}
			if i%1000 == 999 {
				runtime.GC() // let cleanups free the keys of the dropped ones
				d, more := threadlocal.Slots()
				peak = max(peak, d+more)
			}
		}
		t.Logf("%d ThreadLocals made and dropped: the thread's values peaked at %d slots", n, peak)
		// Cleanups run some time after a collection, so a few thousand may be alive at a check;
		// without reuse the thread would hold n.
		if peak > 10_000 {
			t.Errorf("thread's values grew to %d slots", peak)
		}
		for _, k := range last {
			collect(t, k)
		}
		threadlocal.New[int]().Set(1) // a slow path: sweeps and shrinks
		if d, more := threadlocal.Slots(); d > 16 || more > 0 {
			t.Errorf("once every ThreadLocal was collected: %d dense slots, %d in the map; want a handful", d, more)
		}
	})
}

// More ThreadLocals alive at once than a slice holds: the excess go to a map in the thread, and
// every value is still the thread's own.
func TestManyLiveThreadLocals(t *testing.T) {
	const n = 3000
	tls := make([]*threadlocal.ThreadLocal[int], n)
	for i := range tls {
		tls[i] = threadlocal.New[int]()
	}
	check := func(off int) {
		for i, tl := range tls {
			tl.Set(i + off)
		}
		for i, tl := range tls {
			if got := tl.Get(); got != i+off {
				t.Errorf("tls[%d].Get = %d, want %d", i, got, i+off)
				return
			}
		}
		for i, tl := range tls {
			if i%2 == 0 {
				tl.Remove()
			}
		}
		for i, tl := range tls {
			want := i + off
			if i%2 == 0 {
				want = 0
			}
			if got := tl.Get(); got != want {
				t.Errorf("after Remove: tls[%d].Get = %d, want %d", i, got, want)
				return
			}
		}
	}
	run(t, func() {
		check(1)
		if d, more := threadlocal.Slots(); d > 1024 || more == 0 {
			t.Errorf("slots: %d dense, %d in the map; want at most 1024 dense and the rest in the map", d, more)
		}
	})
	run(t, func() { check(100_000) }) // another thread: its own values
}

// A dead inheritable ThreadLocal's value is not inherited: its childValue is not called.
func TestDeadInheritableIsNotInherited(t *testing.T) {
	run(t, func() {
		calls := 0
		key := func() uint64 {
			tl := threadlocal.NewInheritable(func(p int) int { calls++; return p })
			tl.Set(1)
			return threadlocal.KeyOf(tl)
		}()
		collect(t, key)
		if err := thread.OfVirtual().Start(func() {}).Join(); err != nil {
			t.Fatal(err)
		}
		if calls != 0 {
			t.Errorf("childValue of a collected ThreadLocal called %d times", calls)
		}
	})
}

// A value left by a collected ThreadLocal is released by the thread's next sweep (the first
// value it stores for some ThreadLocal afterwards), not kept for the thread's life.
func TestDeadThreadLocalsValueReleasedBySweep(t *testing.T) {
	type big struct{ _ [1 << 10]byte }
	released := make(chan struct{})
	run(t, func() {
		key := func() uint64 {
			b := &big{}
			runtime.AddCleanup(b, func(ch chan struct{}) { close(ch) }, released)
			return newDropped(b)
		}()
		collect(t, key)
		other := threadlocal.New[int]()
		other.Set(1) // a slow path: sweeps the stale slot
		deadline := time.After(10 * time.Second)
		for {
			runtime.GC()
			select {
			case <-released:
				return
			case <-deadline:
				t.Error("the dead ThreadLocal's value is still reachable from the thread")
				return
			case <-time.After(time.Millisecond):
			}
		}
	})
}
