package waitq_test

import (
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/loomgo/loom/internal/rt"
	"github.com/loomgo/loom/internal/waitq"
	"github.com/loomgo/loom/thread"
)

// gate is a test synchronizer: exclusive acquires succeed while open (and close it), shared
// ones while open (and leave it open). deny, if set, runs at the start of every try and makes
// it fail when it returns true.
type gate struct {
	open atomic.Bool
	deny func(t *thread.Thread) bool
}

func (g *gate) TryAcquire(t *thread.Thread, _ int64) bool {
	if g.deny != nil && g.deny(t) {
		return false
	}
	return g.open.CompareAndSwap(true, false)
}

func (g *gate) TryAcquireShared(t *thread.Thread, _ int64) int64 {
	if g.deny != nil && g.deny(t) {
		return -1
	}
	if g.open.Load() {
		return 1
	}
	return -1
}

func join(t *testing.T, th *thread.Thread) {
	t.Helper()
	if ok, _ := th.JoinTimeout(10 * time.Second); !ok {
		t.Fatalf("%v did not finish", th)
	}
}

func eventually(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("timed out")
		}
		time.Sleep(time.Millisecond)
	}
}

// The first node is woken by a release but gives up (here: interrupted at the moment it tries)
// without taking the resource: it must pass the wake-up to the node behind it, or that node
// would sleep forever beside a free resource.
func TestCancelledFirstNodePassesTheWakeOn(t *testing.T) {
	var q waitq.Queue
	g := &gate{}
	var a *thread.Thread
	var fired atomic.Bool
	g.deny = func(t *thread.Thread) bool {
		if t == a && g.open.Load() && fired.CompareAndSwap(false, true) {
			t.Interrupt() // the interrupt races the release and wins: a gives up
			return true
		}
		return false
	}
	aDone := make(chan error, 1)
	a = thread.OfVirtual().Unstarted(func() {
		_, err := q.Acquire(g, 1, false, waitq.Wait{Timeout: -1, Interruptible: true, Reason: rt.ParkWaiting})
		aDone <- err
	})
	a.Start()
	eventually(t, func() bool { return q.Len() == 1 })
	b := thread.StartVirtualThread(func() {
		q.Acquire(g, 1, false, waitq.Untimed(rt.ParkWaiting, nil))
	})
	eventually(t, func() bool { return q.Len() == 2 })
	g.open.Store(true)
	q.Wake()
	if err := <-aDone; !errors.Is(err, thread.ErrInterrupted) {
		t.Fatalf("first node: %v, want ErrInterrupted", err)
	}
	join(t, a)
	join(t, b) // hangs if the wake-up was lost
	if q.HasQueuedThreads() {
		t.Fatal("queue not empty")
	}
}

// One Wake lets every shared waiter through: each passes it on to the next.
func TestSharedAcquirePropagatesTheWake(t *testing.T) {
	var q waitq.Queue
	g := &gate{}
	var ths []*thread.Thread
	for i := range 6 {
		start := thread.StartVirtualThread
		if i%2 == 1 {
			start = func(f func()) *thread.Thread { return thread.OfPlatform().Start(f) }
		}
		ths = append(ths, start(func() { q.Acquire(g, 1, true, waitq.Untimed(rt.ParkWaiting, nil)) }))
		eventually(t, func() bool { return q.Len() == i+1 })
	}
	if len(q.Threads()) != 6 || !q.Contains(ths[0]) || q.FirstQueuedIsExclusive() {
		t.Fatal("queue inspection wrong")
	}
	g.open.Store(true)
	q.Wake()
	for _, th := range ths {
		join(t, th)
	}
}

// A timed acquire that times out leaves the queue as if it had never come.
func TestTimedAcquireTimesOutAndLeaves(t *testing.T) {
	var q waitq.Queue
	g := &gate{}
	th := thread.StartVirtualThread(func() {
		ok, err := q.Acquire(g, 1, false, waitq.Wait{Timeout: 20 * time.Millisecond, Reason: rt.ParkWaiting})
		if ok || err != nil {
			t.Errorf("Acquire = %v, %v; want timeout", ok, err)
		}
	})
	join(t, th)
	if q.HasQueuedThreads() || q.Len() != 0 {
		t.Fatal("timed-out node left in the queue")
	}
}
