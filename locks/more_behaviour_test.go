package locks_test

import (
	"errors"
	"testing"
	"time"

	"github.com/loomgo/loom/internal/testutil"
	"github.com/loomgo/loom/locks"
	"github.com/loomgo/loom/thread"
)

// TCK testInterruptible_await / _awaitNanos / _awaitUntil: every interruptible await form gives
// up with ErrInterrupted when interrupted while waiting, holding the lock again.
func TestConditionInterruptibleAwaitForms(t *testing.T) {
	forms := map[string]func(c *locks.Condition) error{
		"Await":        func(c *locks.Condition) error { return c.Await() },
		"AwaitTimeout": func(c *locks.Condition) error { _, err := c.AwaitTimeout(time.Hour); return err },
		"AwaitNanos":   func(c *locks.Condition) error { _, err := c.AwaitNanos(time.Hour); return err },
		"AwaitUntil": func(c *locks.Condition) error {
			_, err := c.AwaitUntil(time.Now().Add(time.Hour))
			return err
		},
	}
	for name, await := range forms {
		t.Run(name, func(t *testing.T) {
			for _, fair := range []bool{false, true} {
				l := locks.NewReentrantLock(fair)
				c := l.NewCondition()
				th := startVirtual(func() {
					l.Lock()
					defer l.Unlock()
					if err := await(c); !errors.Is(err, thread.ErrInterrupted) {
						t.Errorf("%s = %v, want ErrInterrupted", name, err)
					}
					if !l.IsHeldByCurrentThread() {
						t.Error("lock not held after an interrupted await")
					}
				})
				eventually(t, "waiter", func() bool {
					l.Lock()
					defer l.Unlock()
					return l.HasWaiters(c)
				})
				th.Interrupt()
				testutil.Join(t, th)
			}
		})
	}
}

// TCK CountDownLatchTest.testTimedAwait_Interruptible.
func TestCountDownLatchTimedAwaitInterruptible(t *testing.T) {
	l := locks.NewCountDownLatch(1)
	th := startVirtual(func() {
		if ok, err := l.AwaitTimeout(time.Hour); ok || !errors.Is(err, thread.ErrInterrupted) {
			t.Errorf("AwaitTimeout = %v, %v; want ErrInterrupted", ok, err)
		}
	})
	testutil.WaitState(t, th, thread.TimedWaiting)
	th.Interrupt()
	testutil.Join(t, th)
}

// jtreg MonitorWaitNotify.testWaitNotify3 (pinned): under PinSynchronized too, a notified
// virtual thread is BLOCKED until the notifier exits.
func TestMonitorNotifiedWaiterIsBlockedWhenPinned(t *testing.T) {
	s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 1, Pinning: thread.PinSynchronized})
	defer s.Close()
	var m locks.Monitor
	th := thread.OfVirtual().Scheduler(s).Start(func() { m.Synchronized(func() { m.Wait() }) })
	eventually(t, "waiting", func() bool { return len(m.WaitingThreads()) == 1 })
	m.Enter()
	m.Notify()
	testutil.WaitState(t, th, thread.Blocked)
	m.Exit()
	testutil.Join(t, th)
}

// jtreg MonitorEnterExit.testReenterWithContention: 256-deep reentry while other threads
// contend.
func TestMonitorReenterWithContention(t *testing.T) {
	var m locks.Monitor
	n := 0
	var ths []*thread.Thread
	for i := range 4 {
		ths = append(ths, kinds[i%2].start(func() {
			var enter func(depth int)
			enter = func(depth int) {
				m.Synchronized(func() {
					n++
					if depth < 256 {
						enter(depth + 1)
					}
				})
			}
			enter(1)
		}))
	}
	for _, th := range ths {
		testutil.Join(t, th)
	}
	if n != 4*256 || m.Owner() != nil {
		t.Fatalf("n = %d, owner %v", n, m.Owner())
	}
}

// jtreg MonitorWaitNotify/MonitorEnterExit.testParkingPermitNotConsumed: a monitor wait or a
// contended entry neither consumes LockSupport's permit...
func TestMonitorWaitAndEnterDoNotConsumeParkPermit(t *testing.T) {
	var m locks.Monitor
	entered := locks.NewCountDownLatch(1)
	th := startVirtual(func() {
		thread.Unpark(thread.Current())
		m.Synchronized(func() { m.WaitTimeout(10 * time.Millisecond) })
		entered.Await()
		m.Synchronized(func() {}) // blocks: the test goroutine holds m
		start := time.Now()
		thread.ParkNanos(5 * time.Second) // the permit is still there
		if el := time.Since(start); el > 2*time.Second {
			t.Errorf("park waited %v: a monitor wait or entry consumed the permit", el)
		}
	})
	m.Enter()
	entered.CountDown()
	testutil.WaitState(t, th, thread.Blocked)
	m.Exit()
	testutil.Join(t, th)
}

// ...nor grants it: after being notified and after blocking on entry, a thread's park still
// waits.
func TestMonitorNotifyAndExitDoNotOfferParkPermit(t *testing.T) {
	var m locks.Monitor
	th := startVirtual(func() {
		m.Synchronized(func() { m.Wait() })
		start := time.Now()
		thread.ParkNanos(50 * time.Millisecond)
		if el := time.Since(start); el < 40*time.Millisecond {
			t.Errorf("park returned after %v: notify or exit left a permit", el)
		}
	})
	testutil.WaitState(t, th, thread.Waiting)
	m.Enter()
	m.Notify()
	testutil.WaitState(t, th, thread.Blocked)
	m.Exit()
	testutil.Join(t, th)
}
