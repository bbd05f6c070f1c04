package waitq_test

import (
	"sync/atomic"
	"testing"

	"github.com/loomgo/loom/internal/rt"
	"github.com/loomgo/loom/internal/waitq"
	"github.com/loomgo/loom/thread"
)

// mutex is a minimal exclusive lock over a Queue, for condition tests.
type mutex struct {
	owner atomic.Int64
	q     waitq.Queue
}

func (m *mutex) TryAcquire(t *thread.Thread, _ int64) bool {
	return m.owner.CompareAndSwap(0, t.ThreadID())
}
func (m *mutex) TryAcquireShared(*thread.Thread, int64) int64 { return -1 }
func (m *mutex) ReleaseAll() int64                            { m.owner.Store(0); m.q.Wake(); return 1 }

func (m *mutex) lock() {
	if !m.TryAcquire(thread.Current(), 1) {
		m.q.Acquire(m, 1, false, waitq.Untimed(rt.ParkWaiting, m))
	}
}
func (m *mutex) unlock() { m.ReleaseAll() }

// A waiter that is giving up (cancelled, not yet gone) must not absorb a Signal: the signal goes
// to the next waiter.
func TestSignalSkipsAWaiterBeingCancelled(t *testing.T) {
	var m mutex
	var c waitq.Cond
	await := func() {
		m.lock()
		m.q.Await(&c, &m, waitq.Untimed(rt.ParkWaiting, &c), waitq.Untimed(rt.ParkWaiting, &m))
		m.unlock()
	}
	a := thread.StartVirtualThread(await)
	eventually(t, func() bool { return m.q.WaitQueueLength(&c) == 1 })
	b := thread.StartVirtualThread(await)
	eventually(t, func() bool { return m.q.WaitQueueLength(&c) == 2 })

	m.lock()
	na := waitq.CancelFirstWaiter(&c) // a is timing out at this very moment
	if !m.q.Signal(&c, false) {
		t.Error("Signal reported no waiter, though b waits")
	}
	if m.q.HasWaiters(&c) && m.q.WaitQueueLength(&c) != 1 {
		t.Errorf("%d waiters left, want only the cancelled one", m.q.WaitQueueLength(&c))
	}
	m.q.FinishCancel(&c, na)
	m.unlock()
	join(t, a)
	join(t, b) // hangs if the signal went to a
}
