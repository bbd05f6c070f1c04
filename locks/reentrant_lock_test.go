package locks_test

import (
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/loomgo/loom/internal/testutil"
	"github.com/loomgo/loom/locks"
	"github.com/loomgo/loom/thread"
)

var _ sync.Locker = (*locks.ReentrantLock)(nil)

func TestReentrantLockConstructorSetsFairness(t *testing.T) {
	var zero locks.ReentrantLock
	if zero.IsFair() || zero.IsLocked() {
		t.Errorf("zero value: fair=%v locked=%v, want false false", zero.IsFair(), zero.IsLocked())
	}
	if locks.NewReentrantLock(false).IsFair() {
		t.Error("NewReentrantLock(false) is fair")
	}
	if !locks.NewReentrantLock(true).IsFair() {
		t.Error("NewReentrantLock(true) is not fair")
	}
}

func TestReentrantLockGetHoldCountCountsReentrantHolds(t *testing.T) {
	for _, fair := range []bool{false, true} {
		l := locks.NewReentrantLock(fair)
		for i := 1; i <= 10; i++ {
			l.Lock()
			if got := l.HoldCount(); got != i {
				t.Fatalf("HoldCount = %d, want %d", got, i)
			}
		}
		for i := 9; i >= 0; i-- {
			l.Unlock()
			if got := l.HoldCount(); got != i {
				t.Fatalf("HoldCount = %d, want %d", got, i)
			}
		}
		if l.IsLocked() {
			t.Fatal("locked after the last unlock")
		}
	}
}

func TestReentrantLockUnlockWithoutHoldingPanicsIMSE(t *testing.T) {
	var l locks.ReentrantLock
	testutil.MustPanic(t, locks.ErrIllegalMonitorState, l.Unlock)
	l.Lock()
	th := startVirtual(func() { testutil.MustPanic(t, locks.ErrIllegalMonitorState, l.Unlock) })
	testutil.Join(t, th)
	if !l.IsHeldByCurrentThread() || l.HoldCount() != 1 {
		t.Fatal("a failed foreign unlock changed the lock")
	}
	l.Unlock()
}

func TestReentrantLockTryLockWhenFreeAndWhenLocked(t *testing.T) {
	var l locks.ReentrantLock
	if !l.TryLock() {
		t.Fatal("TryLock on a free lock failed")
	}
	if !l.TryLock() || l.HoldCount() != 2 {
		t.Fatal("TryLock is not reentrant")
	}
	th := startVirtual(func() {
		if l.TryLock() {
			t.Error("TryLock succeeded on a lock held by another thread")
		}
		if ok, err := l.TryLockTimeout(0); ok || err != nil {
			t.Errorf("TryLockTimeout(0) = %v, %v", ok, err)
		}
	})
	testutil.Join(t, th)
	l.Unlock()
	l.Unlock()
}

// On one carrier, a thread that unlocks keeps running while the waiter it woke is still queued,
// so the lock is free with a queued thread: TryLock barges, TryLockTimeout(0) respects fairness.
func TestReentrantLockTryLockBargesOnFairLockButTryLockTimeoutZeroDoesNot(t *testing.T) {
	s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 1})
	defer s.Close()
	l := locks.NewReentrantLock(true)
	var waiter *thread.Thread
	owner := thread.OfVirtual().Scheduler(s).Start(func() {
		l.Lock()
		waiter = thread.OfVirtual().Scheduler(s).Start(func() { getThrough(t, l) })
		for !l.HasQueuedThread(waiter) {
			thread.Yield()
		}
		l.Unlock()
		if ok, err := l.TryLockTimeout(0); ok || err != nil {
			t.Errorf("TryLockTimeout(0) on a fair lock with a queued thread = %v, %v; want false", ok, err)
		}
		if !l.TryLock() {
			t.Error("TryLock did not barge on a free fair lock")
		}
		l.Unlock()
	})
	testutil.Join(t, owner)
	testutil.Join(t, waiter)
}

func TestReentrantLockTryLockTimeoutTimesOut(t *testing.T) {
	for _, k := range kinds {
		t.Run(k.name, func(t *testing.T) {
			for _, fair := range []bool{false, true} {
				l := locks.NewReentrantLock(fair)
				l.Lock()
				th := k.start(func() {
					start := time.Now()
					ok, err := l.TryLockTimeout(50 * time.Millisecond)
					if ok || err != nil {
						t.Errorf("TryLockTimeout = %v, %v; want false, nil", ok, err)
					}
					if el := time.Since(start); el < 50*time.Millisecond {
						t.Errorf("gave up after %v, before the timeout", el)
					}
				})
				testutil.Join(t, th)
				if l.HasQueuedThreads() {
					t.Error("timed-out thread still queued")
				}
				l.Unlock()
			}
		})
	}
}

func TestReentrantLockLockInterruptiblyInterruptedBeforeLockReturnsErrInterrupted(t *testing.T) {
	var l locks.ReentrantLock
	th := startVirtual(func() {
		thread.Current().Interrupt()
		if err := l.LockInterruptibly(); !errors.Is(err, thread.ErrInterrupted) {
			t.Errorf("LockInterruptibly = %v, want ErrInterrupted", err)
		}
		if thread.Current().IsInterrupted() {
			t.Error("interrupt status not cleared")
		}
		if l.IsLocked() {
			t.Error("lock taken despite the interrupt")
		}
		thread.Current().Interrupt()
		if ok, err := l.TryLockTimeout(time.Second); ok || !errors.Is(err, thread.ErrInterrupted) {
			t.Errorf("TryLockTimeout = %v, %v, want ErrInterrupted", ok, err)
		}
	})
	testutil.Join(t, th)
}

func TestReentrantLockLockInterruptiblyInterruptedWhileWaiting(t *testing.T) {
	for _, k := range kinds {
		t.Run(k.name, func(t *testing.T) {
			var l locks.ReentrantLock
			l.Lock()
			th := k.start(func() {
				if err := l.LockInterruptibly(); !errors.Is(err, thread.ErrInterrupted) {
					t.Errorf("LockInterruptibly = %v, want ErrInterrupted", err)
				}
				if thread.Current().IsInterrupted() {
					t.Error("interrupt status not cleared")
				}
			})
			eventually(t, "queued", func() bool { return l.HasQueuedThread(th) })
			if st := th.State(); st != thread.Waiting && st != thread.Runnable {
				t.Errorf("state %v, want WAITING", st)
			}
			th.Interrupt()
			testutil.Join(t, th)
			if l.HasQueuedThreads() || l.HoldCount() != 1 {
				t.Error("interrupted waiter left state behind")
			}
			l.Unlock()
		})
	}
}

func TestReentrantLockTryLockTimeoutInterruptedWhileWaiting(t *testing.T) {
	var l locks.ReentrantLock
	l.Lock()
	th := startVirtual(func() {
		ok, err := l.TryLockTimeout(longWait)
		if ok || !errors.Is(err, thread.ErrInterrupted) {
			t.Errorf("TryLockTimeout = %v, %v, want false, ErrInterrupted", ok, err)
		}
	})
	testutil.WaitState(t, th, thread.TimedWaiting)
	th.Interrupt()
	testutil.Join(t, th)
	l.Unlock()
}

func TestReentrantLockLockIsNotInterruptible(t *testing.T) {
	for _, k := range kinds {
		t.Run(k.name, func(t *testing.T) {
			var l locks.ReentrantLock
			l.Lock()
			th := k.start(func() {
				l.Lock()
				if !thread.Current().IsInterrupted() {
					t.Error("interrupt during Lock lost: status not set on return")
				}
				l.Unlock()
			})
			eventually(t, "queued", func() bool { return l.HasQueuedThread(th) })
			th.Interrupt()
			time.Sleep(20 * time.Millisecond)
			if !th.IsAlive() || !l.HasQueuedThread(th) {
				t.Error("interrupt made Lock give up")
			}
			l.Unlock()
			testutil.Join(t, th)
		})
	}
}

func TestReentrantLockWaitingThreadIsWaitingOnTheLock(t *testing.T) {
	var l locks.ReentrantLock
	l.Lock()
	th := startVirtual(func() { getThrough(t, &l) })
	testutil.WaitState(t, th, thread.Waiting)
	if b := th.Blocker(); b != &l {
		t.Errorf("Blocker() = %v, want the lock", b)
	}
	if l.Owner() != thread.Current() {
		t.Errorf("Owner() = %v, want %v", l.Owner(), thread.Current())
	}
	l.Unlock()
	testutil.Join(t, th)
	if l.Owner() != nil {
		t.Errorf("Owner() of a free lock = %v", l.Owner())
	}
}

func TestReentrantLockHasQueuedThreadsAndQueueLength(t *testing.T) {
	for _, fair := range []bool{false, true} {
		l := locks.NewReentrantLock(fair)
		if l.HasQueuedThreads() || l.QueueLength() != 0 {
			t.Fatal("queued threads on a fresh lock")
		}
		l.Lock()
		t1 := startVirtual(func() { getThrough(t, l) })
		eventually(t, "t1 queued", func() bool { return l.QueueLength() == 1 })
		t2 := thread.OfPlatform().Start(func() { getThrough(t, l) })
		eventually(t, "t2 queued", func() bool { return l.QueueLength() == 2 })
		if diff := cmp.Diff(ids([]*thread.Thread{t1, t2}), ids(l.QueuedThreads())); diff != "" {
			t.Errorf("QueuedThreads (-want +got):\n%s", diff)
		}
		if !l.HasQueuedThread(t1) || !l.HasQueuedThread(t2) || l.HasQueuedThread(thread.Current()) {
			t.Error("HasQueuedThread wrong")
		}
		l.Unlock()
		testutil.Join(t, t1)
		testutil.Join(t, t2)
		if l.HasQueuedThreads() || l.QueueLength() != 0 || l.HasQueuedThread(t1) {
			t.Error("queue not empty at the end")
		}
	}
	testutil.MustPanic(t, thread.ErrNilArgument, func() { new(locks.ReentrantLock).HasQueuedThread(nil) })
}

func TestReentrantLockFairLockGrantsInArrivalOrder(t *testing.T) {
	l := locks.NewReentrantLock(true)
	l.Lock()
	var mu sync.Mutex
	var order []int
	var ths []*thread.Thread
	for i := range 5 {
		th := startVirtual(func() {
			l.Lock()
			mu.Lock()
			order = append(order, i)
			mu.Unlock()
			l.Unlock()
		})
		eventually(t, "queued", func() bool { return l.HasQueuedThread(th) })
		ths = append(ths, th)
	}
	l.Unlock()
	for _, th := range ths {
		testutil.Join(t, th)
	}
	if diff := cmp.Diff([]int{0, 1, 2, 3, 4}, order); diff != "" {
		t.Errorf("grant order (-want +got):\n%s", diff)
	}
}

func TestReentrantLockToString(t *testing.T) {
	var l locks.ReentrantLock
	if s := l.String(); !strings.HasSuffix(s, "[Unlocked]") {
		t.Errorf("String() = %q", s)
	}
	l.Lock()
	if s := l.String(); !strings.HasSuffix(s, "[Locked by thread "+thread.Current().Name()+"]") {
		t.Errorf("String() = %q", s)
	}
	l.Unlock()
}

func TestReentrantLockMutualExclusionAcrossVirtualAndPlatformThreads(t *testing.T) {
	for _, fair := range []bool{false, true} {
		l := locks.NewReentrantLock(fair)
		var inside atomic.Int32
		count := 0
		var ths []*thread.Thread
		for i := range 8 {
			body := func() {
				for range 500 {
					l.Lock()
					if inside.Add(1) != 1 {
						t.Error("two threads inside the lock")
					}
					count++
					inside.Add(-1)
					l.Unlock()
				}
			}
			if i%2 == 0 {
				ths = append(ths, startVirtual(body))
			} else {
				ths = append(ths, thread.OfPlatform().Start(body))
			}
		}
		for _, th := range ths {
			testutil.Join(t, th)
		}
		if count != 8*500 {
			t.Errorf("count = %d, want %d", count, 8*500)
		}
	}
}

func TestReentrantLockWorksOnForeignGoroutines(t *testing.T) {
	var l locks.ReentrantLock
	var wg sync.WaitGroup
	n := 0
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer thread.Detach()
			for range 200 {
				l.Lock()
				n++
				l.Unlock()
			}
		}()
	}
	wg.Wait()
	if n != 800 {
		t.Errorf("n = %d, want 800", n)
	}
}
