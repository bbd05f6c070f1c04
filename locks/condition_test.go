package locks_test

import (
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/loomgo/loom/internal/testutil"
	"github.com/loomgo/loom/locks"
	"github.com/loomgo/loom/thread"
)

func TestConditionAwaitSignalWithoutLockPanicsIMSE(t *testing.T) {
	var l locks.ReentrantLock
	c := l.NewCondition()
	testutil.MustPanic(t, locks.ErrIllegalMonitorState, func() { c.Await() })
	testutil.MustPanic(t, locks.ErrIllegalMonitorState, func() { c.AwaitTimeout(time.Millisecond) })
	testutil.MustPanic(t, locks.ErrIllegalMonitorState, func() { c.AwaitUntil(time.Now()) })
	testutil.MustPanic(t, locks.ErrIllegalMonitorState, func() { c.AwaitNanos(time.Millisecond) })
	testutil.MustPanic(t, locks.ErrIllegalMonitorState, c.AwaitUninterruptibly)
	testutil.MustPanic(t, locks.ErrIllegalMonitorState, c.Signal)
	testutil.MustPanic(t, locks.ErrIllegalMonitorState, c.SignalAll)
	testutil.MustPanic(t, locks.ErrIllegalMonitorState, func() { l.HasWaiters(c) })
	l.Lock()
	th := startVirtual(func() { testutil.MustPanic(t, locks.ErrIllegalMonitorState, c.Signal) })
	testutil.Join(t, th)
	l.Unlock()
}

func TestConditionInspectionMisusePanics(t *testing.T) {
	var l, other locks.ReentrantLock
	c := other.NewCondition()
	l.Lock()
	defer l.Unlock()
	testutil.MustPanic(t, thread.ErrNilArgument, func() { l.HasWaiters(nil) })
	testutil.MustPanic(t, thread.ErrNilArgument, func() { l.WaitQueueLength(nil) })
	testutil.MustPanic(t, thread.ErrNilArgument, func() { l.WaitingThreads(nil) })
	testutil.MustPanic(t, thread.ErrIllegalArgument, func() { l.HasWaiters(c) })
	testutil.MustPanic(t, thread.ErrIllegalArgument, func() { l.WaitQueueLength(c) })
	testutil.MustPanic(t, thread.ErrIllegalArgument, func() { l.WaitingThreads(c) })
}

func TestConditionTimedAwaitsTimeOut(t *testing.T) {
	for _, k := range kinds {
		t.Run(k.name, func(t *testing.T) {
			var l locks.ReentrantLock
			c := l.NewCondition()
			th := k.start(func() {
				l.Lock()
				defer l.Unlock()
				start := time.Now()
				if ok, err := c.AwaitTimeout(30 * time.Millisecond); ok || err != nil {
					t.Errorf("AwaitTimeout = %v, %v; want false, nil", ok, err)
				}
				if el := time.Since(start); el < 30*time.Millisecond {
					t.Errorf("AwaitTimeout returned after %v", el)
				}
				if ok, err := c.AwaitUntil(time.Now().Add(30 * time.Millisecond)); ok || err != nil {
					t.Errorf("AwaitUntil = %v, %v; want false, nil", ok, err)
				}
				if left, err := c.AwaitNanos(30 * time.Millisecond); left > 0 || err != nil {
					t.Errorf("AwaitNanos = %v, %v; want <= 0, nil", left, err)
				}
				if ok, _ := c.AwaitTimeout(-time.Second); ok {
					t.Error("AwaitTimeout(negative) reported a signal")
				}
				if ok, _ := c.AwaitUntil(time.Now().Add(-time.Hour)); ok {
					t.Error("AwaitUntil(past) reported a signal")
				}
				if !l.IsHeldByCurrentThread() || l.HoldCount() != 1 {
					t.Error("lock not held again after timed awaits")
				}
			})
			testutil.Join(t, th)
		})
	}
}

func TestConditionAwaitReturnsWhenSignalled(t *testing.T) {
	for _, k := range kinds {
		t.Run(k.name, func(t *testing.T) {
			var l locks.ReentrantLock
			c := l.NewCondition()
			ready := false
			th := k.start(func() {
				l.Lock()
				defer l.Unlock()
				for !ready {
					if err := c.Await(); err != nil {
						t.Error(err)
						return
					}
				}
			})
			eventually(t, "a waiter", func() bool {
				l.Lock()
				defer l.Unlock()
				return l.HasWaiters(c)
			})
			l.Lock()
			ready = true
			c.Signal()
			if l.HasWaiters(c) {
				t.Error("HasWaiters after Signal")
			}
			if st := th.State(); st != thread.Waiting {
				t.Errorf("signalled waiter state %v before unlock, want WAITING (re-acquiring)", st)
			}
			l.Unlock()
			testutil.Join(t, th)
		})
	}
}

func TestConditionAwaitRestoresHoldCount(t *testing.T) {
	var l locks.ReentrantLock
	c := l.NewCondition()
	th := startVirtual(func() {
		l.Lock()
		l.Lock()
		l.Lock()
		if ok, _ := c.AwaitTimeout(10 * time.Millisecond); ok {
			t.Error("signalled unexpectedly")
		}
		if got := l.HoldCount(); got != 3 {
			t.Errorf("HoldCount after await = %d, want 3", got)
		}
		l.Unlock()
		l.Unlock()
		l.Unlock()
	})
	testutil.Join(t, th)
	// while it waits, the lock is entirely free
	var l2 locks.ReentrantLock
	c2 := l2.NewCondition()
	th = startVirtual(func() {
		l2.Lock()
		l2.Lock()
		c2.AwaitUninterruptibly()
		if got := l2.HoldCount(); got != 2 {
			t.Errorf("HoldCount after await = %d, want 2", got)
		}
		l2.Unlock()
		l2.Unlock()
	})
	eventually(t, "waiting", func() bool { return th.State() == thread.Waiting && !l2.IsLocked() })
	l2.Lock()
	c2.Signal()
	l2.Unlock()
	testutil.Join(t, th)
}

func TestConditionSignalWakesFifo(t *testing.T) {
	var l locks.ReentrantLock
	c := l.NewCondition()
	var mu sync.Mutex
	var order []int
	var ths []*thread.Thread
	for i := range 4 {
		th := startVirtual(func() {
			l.Lock()
			defer l.Unlock()
			c.AwaitUninterruptibly()
			mu.Lock()
			order = append(order, i)
			mu.Unlock()
		})
		eventually(t, "waiter", func() bool {
			l.Lock()
			defer l.Unlock()
			return l.WaitQueueLength(c) == i+1
		})
		ths = append(ths, th)
	}
	l.Lock()
	if diff := cmp.Diff(ids(ths), ids(l.WaitingThreads(c))); diff != "" {
		t.Errorf("WaitingThreads (-want +got):\n%s", diff)
	}
	for range 4 {
		c.Signal()
	}
	l.Unlock()
	for _, th := range ths {
		testutil.Join(t, th)
	}
	if diff := cmp.Diff([]int{0, 1, 2, 3}, order); diff != "" {
		t.Errorf("wake order (-want +got):\n%s", diff)
	}
}

func TestConditionSignalAllWakesAll(t *testing.T) {
	var l locks.ReentrantLock
	c := l.NewCondition()
	var ths []*thread.Thread
	for i := range 6 {
		start := startVirtual
		if i%2 == 1 {
			start = func(f func()) *thread.Thread { return thread.OfPlatform().Start(f) }
		}
		ths = append(ths, start(func() {
			l.Lock()
			defer l.Unlock()
			if err := c.Await(); err != nil {
				t.Error(err)
			}
		}))
	}
	eventually(t, "6 waiters", func() bool {
		l.Lock()
		defer l.Unlock()
		return l.WaitQueueLength(c) == 6
	})
	l.Lock()
	c.SignalAll()
	if l.HasWaiters(c) {
		t.Error("waiters left after SignalAll")
	}
	l.Unlock()
	for _, th := range ths {
		testutil.Join(t, th)
	}
}

func TestConditionSignalWithNoWaiterIsNotRemembered(t *testing.T) {
	var l locks.ReentrantLock
	c := l.NewCondition()
	l.Lock()
	c.Signal()
	c.SignalAll()
	if ok, _ := c.AwaitTimeout(20 * time.Millisecond); ok {
		t.Error("an earlier Signal was remembered")
	}
	l.Unlock()
}

func TestConditionAwaitWithInterruptSetReturnsErrInterrupted(t *testing.T) {
	var l locks.ReentrantLock
	c := l.NewCondition()
	th := startVirtual(func() {
		l.Lock()
		defer l.Unlock()
		for _, await := range []func() error{
			c.Await,
			func() error { _, err := c.AwaitTimeout(time.Hour); return err },
			func() error { _, err := c.AwaitUntil(time.Now().Add(time.Hour)); return err },
			func() error { _, err := c.AwaitNanos(time.Hour); return err },
		} {
			thread.Current().Interrupt()
			if err := await(); !errors.Is(err, thread.ErrInterrupted) {
				t.Errorf("await with status set = %v, want ErrInterrupted", err)
			}
			if thread.Current().IsInterrupted() {
				t.Error("status not cleared")
			}
			if !l.IsHeldByCurrentThread() {
				t.Error("lock not held")
			}
		}
	})
	testutil.Join(t, th)
}

func TestConditionAwaitInterruptedBeforeSignalReturnsErrInterruptedAfterReacquiring(t *testing.T) {
	for _, k := range kinds {
		t.Run(k.name, func(t *testing.T) {
			var l locks.ReentrantLock
			c := l.NewCondition()
			th := k.start(func() {
				l.Lock()
				defer l.Unlock()
				l.Lock()
				defer l.Unlock()
				if _, err := c.AwaitTimeout(time.Hour); !errors.Is(err, thread.ErrInterrupted) {
					t.Errorf("AwaitTimeout = %v, want ErrInterrupted", err)
				}
				if thread.Current().IsInterrupted() {
					t.Error("status not cleared")
				}
				if l.HoldCount() != 2 {
					t.Errorf("HoldCount = %d, want 2", l.HoldCount())
				}
			})
			testutil.WaitState(t, th, thread.TimedWaiting)
			l.Lock()
			th.Interrupt()
			time.Sleep(10 * time.Millisecond)
			if !th.IsAlive() {
				t.Error("interrupted waiter returned without the lock")
			}
			l.Unlock()
			testutil.Join(t, th)
		})
	}
}

func TestConditionAwaitInterruptedAfterSignalReturnsNormallyWithStatusSet(t *testing.T) {
	for _, k := range kinds {
		t.Run(k.name, func(t *testing.T) {
			var l locks.ReentrantLock
			c := l.NewCondition()
			th := k.start(func() {
				l.Lock()
				defer l.Unlock()
				if err := c.Await(); err != nil {
					t.Errorf("Await = %v, want nil (signal came first)", err)
				}
				if !thread.Current().IsInterrupted() {
					t.Error("interrupt after the signal lost: status not set")
				}
			})
			eventually(t, "waiter", func() bool {
				l.Lock()
				defer l.Unlock()
				return l.HasWaiters(c)
			})
			l.Lock()
			c.Signal()
			th.Interrupt()
			l.Unlock()
			testutil.Join(t, th)
		})
	}
}

func TestConditionAwaitUninterruptiblyKeepsWaitingAndSetsStatus(t *testing.T) {
	var l locks.ReentrantLock
	c := l.NewCondition()
	th := startVirtual(func() {
		l.Lock()
		defer l.Unlock()
		c.AwaitUninterruptibly()
		if !thread.Current().IsInterrupted() {
			t.Error("status not set after an interrupted AwaitUninterruptibly")
		}
	})
	eventually(t, "waiter", func() bool {
		l.Lock()
		defer l.Unlock()
		return l.HasWaiters(c)
	})
	th.Interrupt()
	time.Sleep(20 * time.Millisecond)
	l.Lock()
	if !l.HasWaiters(c) {
		t.Error("AwaitUninterruptibly stopped waiting on interrupt")
	}
	c.Signal()
	l.Unlock()
	testutil.Join(t, th)
}

// A waiter signalled before its timeout, but unable to re-acquire until long after, reports
// the signal, never a timeout.
func TestConditionSignalledWaiterIsNotReportedTimedOut(t *testing.T) {
	var l locks.ReentrantLock
	c := l.NewCondition()
	th := startVirtual(func() {
		l.Lock()
		defer l.Unlock()
		if ok, err := c.AwaitTimeout(50 * time.Millisecond); !ok || err != nil {
			t.Errorf("AwaitTimeout = %v, %v; want true (signalled)", ok, err)
		}
	})
	eventually(t, "waiter", func() bool {
		l.Lock()
		defer l.Unlock()
		return l.HasWaiters(c)
	})
	l.Lock()
	c.Signal()
	time.Sleep(150 * time.Millisecond) // past the waiter's timeout, still holding the lock
	l.Unlock()
	testutil.Join(t, th)
}

// A waiter that timed out is skipped by Signal, which goes to the next one.
func TestConditionSignalSkipsWaiterThatGaveUp(t *testing.T) {
	var l locks.ReentrantLock
	c := l.NewCondition()
	gaveUp := startVirtual(func() {
		l.Lock()
		defer l.Unlock()
		if ok, _ := c.AwaitTimeout(20 * time.Millisecond); ok {
			t.Error("short waiter signalled")
		}
	})
	eventually(t, "first waiter", func() bool {
		l.Lock()
		defer l.Unlock()
		return l.HasWaiters(c)
	})
	signalled := make(chan bool, 1)
	second := startVirtual(func() {
		l.Lock()
		defer l.Unlock()
		ok, _ := c.AwaitTimeout(longWait)
		signalled <- ok
	})
	testutil.Join(t, gaveUp)
	eventually(t, "second waiter", func() bool {
		l.Lock()
		defer l.Unlock()
		return l.WaitQueueLength(c) == 1
	})
	l.Lock()
	c.Signal()
	l.Unlock()
	if !<-signalled {
		t.Error("Signal did not reach the second waiter")
	}
	testutil.Join(t, second)
}
