package locks_test

import (
	"math"
	"sync/atomic"
	"testing"
	"time"

	"github.com/loomgo/loom/internal/testutil"
	"github.com/loomgo/loom/locks"
	"github.com/loomgo/loom/thread"
)

// Issue 15, defect 1, in package locks: every timed wait given math.MaxInt64 (Java's
// Long.MAX_VALUE, "forever") waits like the untimed one. On main the deadline overflowed in the
// park below them, and each of these re-parked for "the time left" about 10^5 times per 100 ms
// while reporting TIMED_WAITING. Each is woken at the end by an interrupt.
func TestMaxInt64TimeoutsWaitWithoutSpinning(t *testing.T) {
	forever := time.Duration(math.MaxInt64)
	for _, c := range []struct {
		name string
		// setup returns the wait (run on the waiter, holding nothing) and a cleanup
		setup func() (wait func(), cleanup func())
	}{
		{"Condition.AwaitTimeout", func() (func(), func()) {
			var l locks.ReentrantLock
			c := l.NewCondition()
			return func() { l.Lock(); c.AwaitTimeout(forever); l.Unlock() }, nil
		}},
		{"Condition.AwaitNanos", func() (func(), func()) {
			var l locks.ReentrantLock
			c := l.NewCondition()
			return func() { l.Lock(); c.AwaitNanos(forever); l.Unlock() }, nil
		}},
		{"Condition.AwaitUntil", func() (func(), func()) {
			var l locks.ReentrantLock
			c := l.NewCondition()
			return func() { l.Lock(); c.AwaitUntil(time.Now().Add(forever)); l.Unlock() }, nil
		}},
		{"Monitor.WaitTimeout", func() (func(), func()) {
			var m locks.Monitor
			return func() { m.Synchronized(func() { m.WaitTimeout(forever) }) }, nil
		}},
		{"ReentrantLock.TryLockTimeout", func() (func(), func()) {
			var l locks.ReentrantLock
			locked := make(chan struct{})
			release := make(chan struct{})
			go func() { l.Lock(); close(locked); <-release; l.Unlock() }()
			<-locked
			return func() { l.TryLockTimeout(forever) }, func() { close(release) }
		}},
		{"Semaphore.TryAcquireTimeout", func() (func(), func()) {
			s := locks.NewSemaphore(0, false)
			return func() { s.TryAcquireTimeout(forever) }, nil
		}},
		{"CountDownLatch.AwaitTimeout", func() (func(), func()) {
			l := locks.NewCountDownLatch(1)
			return func() { l.AwaitTimeout(forever) }, nil
		}},
		{"CyclicBarrier.AwaitTimeout", func() (func(), func()) {
			b := locks.NewCyclicBarrier(2, nil)
			return func() { b.AwaitTimeout(forever) }, nil
		}},
		{"ReadLock.TryLockTimeout", func() (func(), func()) {
			rw := locks.NewReentrantReadWriteLock(false)
			locked := make(chan struct{})
			release := make(chan struct{})
			go func() { rw.WriteLock().Lock(); close(locked); <-release; rw.WriteLock().Unlock() }()
			<-locked
			return func() { rw.ReadLock().TryLockTimeout(forever) }, func() { close(release) }
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			wait, cleanup := c.setup()
			if cleanup != nil {
				defer cleanup()
			}
			s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 1})
			defer s.Close()
			var returned atomic.Bool
			th := thread.OfVirtual().Scheduler(s).Start(func() { wait(); returned.Store(true) })
			testutil.WaitState(t, th, thread.TimedWaiting)
			before := s.Stats().Submitted
			time.Sleep(100 * time.Millisecond)
			if n := s.Stats().Submitted - before; n != 0 {
				t.Errorf("resumed %d times in 100ms while it should wait", n)
			}
			if returned.Load() || th.State() != thread.TimedWaiting {
				t.Errorf("returned=%v, state %v; want still TIMED_WAITING", returned.Load(), th.State())
			}
			th.Interrupt()
			testutil.Join(t, th)
		})
	}
}

// Condition.awaitNanos returns an estimate of the time left; from a timeout of Long.MIN_VALUE
// it must stay <= 0 (a subtraction that wrapped around reported ~292 years left).
func TestConditionAwaitNanosExtremeTimeouts(t *testing.T) {
	var l locks.ReentrantLock
	c := l.NewCondition()
	l.Lock()
	defer l.Unlock()
	for _, d := range []time.Duration{math.MinInt64, -1, 0} {
		left, err := c.AwaitNanos(d)
		if err != nil || left > 0 {
			t.Errorf("AwaitNanos(%d) = %v, %v; want <= 0 (timed out)", d, left, err)
		}
	}
}
