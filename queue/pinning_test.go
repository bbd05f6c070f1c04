package queue_test

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/loomgo/loom/locks"
	"github.com/loomgo/loom/queue"
	"github.com/loomgo/loom/thread"
)

// JAVA-SEMANTICS 187: a virtual thread blocked on a queue unmounts, except under Java 21's
// rules when it holds a monitor: then it parks its carrier. With one carrier, another virtual
// thread runs meanwhile only in the first case.
func TestVirtualThreadWaitingOnAQueueInsideAMonitorPinsUnderPinSynchronized(t *testing.T) {
	for _, mode := range []thread.PinningMode{thread.PinNone, thread.PinSynchronized} {
		s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 1, Pinning: mode})
		q := queue.NewLinkedBlockingQueue[int](0)
		var m locks.Monitor
		taker := thread.OfVirtual().Scheduler(s).Start(func() {
			m.Synchronized(func() {
				if _, err := q.Take(); err != nil {
					t.Error(err)
				}
			})
		})
		awaitState(t, taker, thread.Waiting)
		var ran atomic.Bool
		other := thread.OfVirtual().Scheduler(s).Start(func() { ran.Store(true) })
		time.Sleep(100 * time.Millisecond)
		if pinned := !ran.Load(); pinned != (mode == thread.PinSynchronized) {
			t.Errorf("%v: other virtual thread ran = %v while the taker waited", mode, ran.Load())
		}
		q.Put(1) // from this platform thread: releases the taker either way
		join(t, taker)
		join(t, other)
		s.Close()
	}
}
