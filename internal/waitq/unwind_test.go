package waitq_test

import (
	"errors"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/loomgo/loom/internal/rt"
	"github.com/loomgo/loom/internal/waitq"
	"github.com/loomgo/loom/thread"
)

var errOverflow = errors.New("count overflow")

// overflowing is a synchronizer whose queued try panics once, as a read lock does at Java's
// "Maximum lock count exceeded" (AQS's acquire cancels its node on any Throwable and rethrows).
type overflowing struct {
	gate
	panicNext atomic.Bool
}

func (o *overflowing) TryAcquire(t *thread.Thread, n int64) bool {
	if o.open.Load() && o.panicNext.CompareAndSwap(true, false) {
		panic(errOverflow)
	}
	return o.gate.TryAcquire(t, n)
}

// Issue 15, defect 7's class: a panic that unwinds a queued acquire must take its node out of
// the queue, or every later acquire waits behind a thread that is not waiting any more.
func TestPanicInQueuedTryLeavesTheQueue(t *testing.T) {
	var q waitq.Queue
	s := &overflowing{}
	s.panicNext.Store(true)
	var got any
	a := thread.StartVirtualThread(func() {
		defer func() { got = recover() }()
		q.Acquire(s, 1, false, waitq.Untimed(rt.ParkWaiting, nil))
	})
	eventually(t, func() bool { return q.Len() == 1 })
	s.open.Store(true)
	q.Wake()
	join(t, a)
	if got != errOverflow {
		t.Fatalf("recovered %v, want the try's panic", got)
	}
	if q.Len() != 0 || q.HasQueuedThreads() {
		t.Fatalf("queue length %d after the panic, want 0", q.Len())
	}
	b := thread.StartVirtualThread(func() { q.Acquire(s, 1, false, waitq.Untimed(rt.ParkWaiting, nil)) })
	join(t, b) // the gate is still open: b must not queue behind a's node
}

// parkHook replaces rt.Park for the current test: fn runs before every park of the thread it
// names (and may panic or call runtime.Goexit), as user code reached from inside a park would.
func parkHook(t *testing.T, who *atomic.Pointer[thread.Thread], fn func()) {
	orig := rt.Park
	rt.Park = func(d time.Duration, reason int, blocker any) {
		if thread.Current() == who.Load() {
			fn()
		}
		orig(d, reason, blocker)
	}
	t.Cleanup(func() { rt.Park = orig })
}

// A panic or runtime.Goexit that reaches the waiting loop of an acquire or an await (through a
// park) leaves the sync queue and the condition as if the thread had never come, and an await
// takes the lock back before the unwinding goes on (so a deferred Unlock finds it held).
func TestUnwindingThroughAParkLeavesQueueAndCondition(t *testing.T) {
	for _, how := range []string{"panic", "Goexit"} {
		t.Run(how, func(t *testing.T) {
			var who atomic.Pointer[thread.Thread]
			parkHook(t, &who, func() {
				who.Store(nil) // once
				if how == "panic" {
					panic(errOverflow)
				}
				runtime.Goexit()
			})
			var m mutex
			var c waitq.Cond
			// an acquire that unwinds while queued behind the holder
			m.lock()
			var heldAfter atomic.Bool
			a := thread.OfVirtual().Unstarted(func() {
				defer func() { recover() }()
				m.lock()
			})
			who.Store(a)
			a.Start()
			join(t, a)
			if m.q.Len() != 0 {
				t.Fatalf("acquire: queue length %d after unwinding, want 0", m.q.Len())
			}
			m.unlock()

			// an await that unwinds while waiting on the condition
			w := thread.OfVirtual().Unstarted(func() {
				m.lock()
				defer func() {
					heldAfter.Store(m.owner.Load() == thread.Current().ThreadID())
					m.unlock()
					recover()
				}()
				m.q.Await(&c, &m, waitq.Untimed(rt.ParkWaiting, &c), waitq.Untimed(rt.ParkWaiting, &m))
			})
			who.Store(w)
			w.Start()
			join(t, w)
			if !heldAfter.Load() {
				t.Error("await: the lock was not held again when the unwinding reached the caller")
			}
			if m.q.HasWaiters(&c) || m.q.Len() != 0 {
				t.Errorf("await: %d waiters, %d queued after unwinding; want none", m.q.WaitQueueLength(&c), m.q.Len())
			}
			// the lock and the condition still work
			m.lock()
			if m.q.Signal(&c, false) {
				t.Error("Signal found a waiter that had gone")
			}
			m.unlock()
		})
	}
}
