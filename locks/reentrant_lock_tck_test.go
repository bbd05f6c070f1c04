package locks_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/loomgo/loom/internal/testutil"
	"github.com/loomgo/loom/locks"
	"github.com/loomgo/loom/thread"
)

// Ports of the JSR-166 TCK's ReentrantLockTest not covered by reentrant_lock_test.go and
// condition_test.go, fair and non-fair, on virtual threads.

// awaitMethod is the TCK's AwaitMethod: await "indefinitely" in one of four ways.
type awaitMethod struct {
	name  string
	await func(c *locks.Condition) error
}

var awaitMethods = []awaitMethod{
	{"await", func(c *locks.Condition) error { return c.Await() }},
	{"awaitTimed", func(c *locks.Condition) error {
		ok, err := c.AwaitTimeout(2 * longWait)
		if err == nil && !ok {
			return fmt.Errorf("awaitTimed timed out")
		}
		return err
	}},
	{"awaitNanos", func(c *locks.Condition) error {
		timeout := 2 * longWait
		left, err := c.AwaitNanos(timeout)
		if err == nil && (left <= timeout/2 || left > timeout) {
			return fmt.Errorf("awaitNanos left %v of %v", left, timeout)
		}
		return err
	}},
	{"awaitUntil", func(c *locks.Condition) error {
		ok, err := c.AwaitUntil(time.Now().Add(2 * longWait))
		if err == nil && !ok {
			return fmt.Errorf("awaitUntil timed out")
		}
		return err
	}},
}

func assertNotLocked(t *testing.T, l *locks.ReentrantLock) {
	t.Helper()
	if l.IsLocked() || l.IsHeldByCurrentThread() || l.Owner() != nil || l.HoldCount() != 0 {
		t.Fatalf("lock %v: want unlocked", l)
	}
}

func assertLockedByMe(t *testing.T, l *locks.ReentrantLock) {
	t.Helper()
	if !l.IsLocked() || l.Owner() != thread.Current() || !l.IsHeldByCurrentThread() || l.HoldCount() == 0 {
		t.Errorf("lock %v: want held by the current thread", l)
	}
}

// assertHasWaiters checks, holding l, that exactly ths wait on c.
func assertHasWaiters(t *testing.T, l *locks.ReentrantLock, c *locks.Condition, ths ...*thread.Thread) {
	t.Helper()
	l.Lock()
	defer l.Unlock()
	got := l.WaitingThreads(c)
	if l.HasWaiters(c) != (len(ths) > 0) || l.WaitQueueLength(c) != len(ths) || len(got) != len(ths) {
		t.Fatalf("waiters %v, want %v", got, ths)
	}
	for _, th := range ths {
		if !slices.Contains(got, th) {
			t.Fatalf("waiters %v, want %v", got, ths)
		}
	}
}

func lockQueued(l *locks.ReentrantLock, th *thread.Thread) func() bool {
	return func() bool { return l.HasQueuedThread(th) }
}

// testHasQueuedThread, testGetQueuedThreads: an interrupted lockInterruptibly leaves the queue.
func TestReentrantLockTest_testQueuedThreadsAfterInterrupt(t *testing.T) {
	forFairness(t, func(t *testing.T, fair bool) {
		l := locks.NewReentrantLock(fair)
		l.Lock()
		t1 := party(t, thread.ErrInterrupted, l.LockInterruptibly)
		eventually(t, "t1 queued", lockQueued(l, t1))
		t2 := startVirtual(func() {
			if err := l.LockInterruptibly(); err == nil {
				l.Unlock()
			}
		})
		eventually(t, "t2 queued", lockQueued(l, t2))
		if got := l.QueuedThreads(); len(got) != 2 || l.QueueLength() != 2 {
			t.Fatalf("queued %v", got)
		}
		t1.Interrupt()
		testutil.Join(t, t1)
		if l.HasQueuedThread(t1) || !l.HasQueuedThread(t2) || len(l.QueuedThreads()) != 1 || !l.HasQueuedThreads() {
			t.Fatalf("after the interrupt: queued %v", l.QueuedThreads())
		}
		l.Unlock()
		testutil.Join(t, t2)
		if l.HasQueuedThreads() || len(l.QueuedThreads()) != 0 {
			t.Fatalf("queued %v at the end", l.QueuedThreads())
		}
		testutil.MustPanic(t, thread.ErrNilArgument, func() { l.HasQueuedThread(nil) })
	})
}

// testTryLock_Interruptible and testLockInterruptibly: an interrupt ends a timed tryLock or a
// lockInterruptibly that waits; the holder keeps the lock.
func TestReentrantLockTest_testTryLockAndLockInterruptiblyAreInterruptible(t *testing.T) {
	forFairness(t, func(t *testing.T, fair bool) {
		l := locks.NewReentrantLock(fair)
		if err := l.LockInterruptibly(); err != nil {
			t.Fatal(err)
		}
		assertLockedByMe(t, l)
		for _, try := range []func() error{
			l.LockInterruptibly,
			func() error { _, err := l.TryLockTimeout(2 * longWait); return err },
		} {
			th := party(t, thread.ErrInterrupted, try)
			eventually(t, "queued", lockQueued(l, th))
			th.Interrupt()
			if !l.IsLocked() || !l.IsHeldByCurrentThread() {
				t.Fatal("the holder lost the lock")
			}
			testutil.Join(t, th)
		}
		l.Unlock()
		assertNotLocked(t, l)
	})
}

// testIsLocked: isLocked follows every hold, from this thread and another.
func TestReentrantLockTest_testIsLocked(t *testing.T) {
	forFairness(t, func(t *testing.T, fair bool) {
		l := locks.NewReentrantLock(fair)
		steps := []bool{}
		steps = append(steps, l.IsLocked())
		l.Lock()
		steps = append(steps, l.IsLocked())
		l.Lock()
		steps = append(steps, l.IsLocked())
		l.Unlock()
		steps = append(steps, l.IsLocked())
		l.Unlock()
		steps = append(steps, l.IsLocked())
		if !slices.Equal(steps, []bool{false, true, true, true, false}) {
			t.Fatalf("IsLocked steps %v", steps)
		}
		b := locks.NewCyclicBarrier(2, nil)
		th := startVirtual(func() {
			l.Lock()
			b.Await()
			b.Await()
			l.Unlock()
		})
		b.Await()
		if !l.IsLocked() {
			t.Error("not locked while another thread holds it")
		}
		b.Await()
		testutil.Join(t, th)
		if l.IsLocked() {
			t.Error("locked after the other thread unlocked")
		}
	})
}

// testAwait_IMSE: every await form panics with ErrIllegalMonitorState, at once, without the lock.
func TestReentrantLockTest_testAwait_IMSE(t *testing.T) {
	forFairness(t, func(t *testing.T, fair bool) {
		l := locks.NewReentrantLock(fair)
		c := l.NewCondition()
		for _, m := range awaitMethods {
			start := time.Now()
			testutil.MustPanic(t, locks.ErrIllegalMonitorState, func() { m.await(c) })
			if time.Since(start) > longWait {
				t.Errorf("%s waited before it failed", m.name)
			}
		}
		testutil.MustPanic(t, locks.ErrIllegalMonitorState, c.Signal)
	})
}

// testInterruptible: each await form returns ErrInterrupted (status cleared) holding the lock
// again, and leaves no waiter behind.
func TestReentrantLockTest_testInterruptible(t *testing.T) {
	for _, m := range awaitMethods {
		t.Run(m.name, func(t *testing.T) {
			forFairness(t, func(t *testing.T, fair bool) {
				l := locks.NewReentrantLock(fair)
				c := l.NewCondition()
				locked := locks.NewCountDownLatch(1)
				th := startVirtual(func() {
					l.Lock()
					locked.CountDown()
					if err := m.await(c); err != thread.ErrInterrupted {
						t.Errorf("await = %v, want ErrInterrupted", err)
					}
					assertLockedByMe(t, l)
					l.Unlock()
					if thread.Interrupted() {
						t.Error("interrupt status left set")
					}
				})
				locked.Await()
				eventually(t, "waiting", func() bool { return th.State() == thread.Waiting || th.State() == thread.TimedWaiting })
				assertHasWaiters(t, l, c, th)
				th.Interrupt()
				testutil.Join(t, th)
				assertNotLocked(t, l)
				assertHasWaiters(t, l, c)
			})
		})
	}
}

// testSignalAll: signalAll wakes waiters of every await form.
func TestReentrantLockTest_testSignalAll(t *testing.T) {
	for _, m := range awaitMethods {
		t.Run(m.name, func(t *testing.T) {
			forFairness(t, func(t *testing.T, fair bool) {
				l := locks.NewReentrantLock(fair)
				c := l.NewCondition()
				pleaseSignal := locks.NewCountDownLatch(2)
				awaiter := func() {
					l.Lock()
					pleaseSignal.CountDown()
					if err := m.await(c); err != nil {
						t.Error(err)
					}
					l.Unlock()
				}
				t1, t2 := startVirtual(awaiter), startVirtual(awaiter)
				pleaseSignal.Await()
				eventually(t, "both waiting", func() bool {
					l.Lock()
					defer l.Unlock()
					return l.WaitQueueLength(c) == 2
				})
				l.Lock()
				c.SignalAll()
				l.Unlock()
				assertHasWaiters(t, l, c)
				testutil.Join(t, t1, t2)
			})
		})
	}
}

// testSignalWakesFifo: a signalled waiter moves to the lock's queue, in signal order, while the
// signaller still holds the lock.
func TestReentrantLockTest_testSignalWakesFifo(t *testing.T) {
	forFairness(t, func(t *testing.T, fair bool) {
		l := locks.NewReentrantLock(fair)
		c := l.NewCondition()
		start := func() *thread.Thread {
			th := startVirtual(func() { l.Lock(); c.Await(); l.Unlock() })
			eventually(t, "waiting", func() bool { l.Lock(); defer l.Unlock(); return slices.Contains(l.WaitingThreads(c), th) })
			return th
		}
		t1 := start()
		t2 := start()
		l.Lock()
		if l.HasQueuedThreads() {
			t.Fatal("queued before any signal")
		}
		c.Signal()
		if got := l.WaitingThreads(c); !slices.Equal(got, []*thread.Thread{t2}) || !l.HasQueuedThread(t1) || l.HasQueuedThread(t2) {
			t.Fatalf("after one signal: waiting %v, queued %v", got, l.QueuedThreads())
		}
		c.Signal()
		if l.HasWaiters(c) || !slices.Equal(l.QueuedThreads(), []*thread.Thread{t1, t2}) {
			t.Fatalf("after two signals: queued %v, want [t1 t2]", l.QueuedThreads())
		}
		l.Unlock()
		testutil.Join(t, t1, t2)
	})
}

// testAwaitLockCount: await restores each waiter's own hold count.
func TestReentrantLockTest_testAwaitLockCount(t *testing.T) {
	forFairness(t, func(t *testing.T, fair bool) {
		l := locks.NewReentrantLock(fair)
		c := l.NewCondition()
		pleaseSignal := locks.NewCountDownLatch(2)
		waiter := func(holds int) func() {
			return func() {
				for range holds {
					l.Lock()
				}
				pleaseSignal.CountDown()
				c.Await()
				if l.HoldCount() != holds || !l.IsHeldByCurrentThread() {
					t.Errorf("HoldCount %d after await, want %d", l.HoldCount(), holds)
				}
				for range holds {
					l.Unlock()
				}
			}
		}
		t1, t2 := startVirtual(waiter(1)), startVirtual(waiter(2))
		pleaseSignal.Await()
		eventually(t, "both waiting", func() bool { l.Lock(); defer l.Unlock(); return l.WaitQueueLength(c) == 2 })
		l.Lock()
		if l.HoldCount() != 1 {
			t.Fatalf("signaller HoldCount %d", l.HoldCount())
		}
		c.SignalAll()
		l.Unlock()
		testutil.Join(t, t1, t2)
	})
}

// testAwaitUninterruptibly: interrupted before or during, awaitUninterruptibly keeps waiting
// until signalled and returns with the status set.
func TestReentrantLockTest_testAwaitUninterruptibly(t *testing.T) {
	forFairness(t, func(t *testing.T, fair bool) {
		l := locks.NewReentrantLock(fair)
		c := l.NewCondition()
		pleaseInterrupt := locks.NewCountDownLatch(2)
		body := func(interruptFirst bool) func() {
			return func() {
				l.Lock()
				pleaseInterrupt.CountDown()
				if interruptFirst {
					thread.Current().Interrupt()
				}
				c.AwaitUninterruptibly()
				if !thread.Interrupted() {
					t.Error("interrupt status lost")
				}
				l.Unlock()
			}
		}
		t1, t2 := startVirtual(body(true)), startVirtual(body(false))
		pleaseInterrupt.Await()
		eventually(t, "both waiting", func() bool { l.Lock(); defer l.Unlock(); return l.WaitQueueLength(c) == 2 })
		t2.Interrupt()
		time.Sleep(tckTimeout)
		testutil.WaitState(t, t1, thread.Waiting)
		testutil.WaitState(t, t2, thread.Waiting)
		l.Lock()
		c.SignalAll()
		l.Unlock()
		testutil.Join(t, t1, t2)
	})
}

// testBug8187408 (JDK-8187408): a rogue thread calling await without the lock, over and over,
// must not corrupt the condition's queue of real waiters.
func TestReentrantLockTest_testBug8187408(t *testing.T) {
	for seed := range uint64(4) {
		r := rand.New(rand.NewPCG(seed, 3))
		m := awaitMethods[r.IntN(len(awaitMethods))]
		n := 2 + r.IntN(8)
		var l locks.ReentrantLock
		c := l.NewCondition()
		done := locks.NewCountDownLatch(n)
		rogue := startVirtual(func() {
			for done.Count() > 0 {
				testutil.MustPanic(t, locks.ErrIllegalMonitorState, func() { m.await(c) })
				thread.Yield()
			}
		})
		var waiters []*thread.Thread
		for range n {
			waiters = append(waiters, startVirtual(func() {
				l.Lock()
				defer l.Unlock()
				done.CountDown()
				if err := c.Await(); err != nil {
					t.Error(err)
				}
			}))
		}
		if ok, _ := done.AwaitTimeout(longWait); !ok {
			t.Fatal("waiters did not start")
		}
		eventually(t, "all waiting", func() bool { l.Lock(); defer l.Unlock(); return l.WaitQueueLength(c) == n })
		l.Lock()
		c.SignalAll()
		l.Unlock()
		testutil.Join(t, append(waiters, rogue)...)
	}
}
