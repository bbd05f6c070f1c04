package locks_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/loomgo/loom/internal/testutil"
	"github.com/loomgo/loom/locks"
	"github.com/loomgo/loom/thread"
)

var (
	_ thread.Owned = (*locks.ReentrantLock)(nil)
	_ thread.Owned = (*locks.Monitor)(nil)
	_ thread.Owned = (*locks.ReentrantReadWriteLock)(nil)
)

// cycleFrom follows Blocker -> Owner from th and returns the cycle it enters, if any: the shape
// of ThreadMXBean.findDeadlockedThreads.
func cycleFrom(th *thread.Thread) []*thread.Thread {
	var path []*thread.Thread
	for cur := th; cur != nil; {
		if i := slices.Index(path, cur); i >= 0 {
			return path[i:]
		}
		path = append(path, cur)
		o, ok := cur.Blocker().(thread.Owned)
		if !ok {
			return nil
		}
		cur = o.Owner()
	}
	return nil
}

func TestDeadlockTwoLocksFormACycleOfOwners(t *testing.T) {
	var a, b locks.ReentrantLock
	gotA, gotB := locks.NewCountDownLatch(1), locks.NewCountDownLatch(1)
	t1 := startVirtual(func() {
		a.Lock()
		defer a.Unlock()
		gotA.CountDown()
		gotB.Await()
		if err := b.LockInterruptibly(); err == nil {
			b.Unlock()
			t.Error("t1 got b")
		}
	})
	t2 := thread.OfPlatform().Start(func() {
		b.Lock()
		defer b.Unlock()
		gotB.CountDown()
		gotA.Await()
		getThrough(t, &a) // gets a once t1 gives up
	})
	eventually(t, "both blocked", func() bool { return a.HasQueuedThread(t2) && b.HasQueuedThread(t1) })
	if t1.Blocker() != &b || t2.Blocker() != &a || a.Owner() != t1 || b.Owner() != t2 {
		t.Fatalf("blockers %v %v owners %v %v", t1.Blocker(), t2.Blocker(), a.Owner(), b.Owner())
	}
	cycle := cycleFrom(t1)
	if len(cycle) != 2 || !slices.Contains(cycle, t1) || !slices.Contains(cycle, t2) {
		t.Fatalf("cycle %v, want t1 and t2", cycle)
	}
	if got := thread.FindDeadlocked(); !slices.Contains(got, t1) || !slices.Contains(got, t2) {
		t.Errorf("thread.FindDeadlocked() = %v, want t1 and t2", got)
	}
	t1.Interrupt() // break it
	testutil.Join(t, t1)
	testutil.Join(t, t2)
}

func TestDeadlockMonitorAndLockFormACycleOfOwners(t *testing.T) {
	var m locks.Monitor
	var l locks.ReentrantLock
	holds := locks.NewCountDownLatch(2)
	t1 := startVirtual(func() {
		m.Synchronized(func() {
			holds.CountDown()
			holds.Await()
			if err := l.LockInterruptibly(); !errors.Is(err, thread.ErrInterrupted) {
				t.Errorf("LockInterruptibly = %v", err)
				l.Unlock()
			}
		})
	})
	t2 := startVirtual(func() {
		l.Lock()
		defer l.Unlock()
		holds.CountDown()
		holds.Await()
		m.Enter() // BLOCKED on the monitor
		m.Exit()
	})
	testutil.WaitState(t, t2, thread.Blocked)
	eventually(t, "t1 queued", func() bool { return l.HasQueuedThread(t1) })
	if cycle := cycleFrom(t2); len(cycle) != 2 {
		t.Fatalf("cycle %v, want 2 threads", cycle)
	}
	if got := thread.FindDeadlocked(); !slices.Contains(got, t1) || !slices.Contains(got, t2) {
		t.Errorf("thread.FindDeadlocked() = %v, want t1 and t2", got)
	}
	t1.Interrupt()
	testutil.Join(t, t1)
	testutil.Join(t, t2)
}

// Threads waiting on a Condition or in Monitor.Wait are not deadlocked on the lock's owner.
func TestDeadlockWaitersAreNotReported(t *testing.T) {
	var l locks.ReentrantLock
	c := l.NewCondition()
	var m locks.Monitor
	w1 := startVirtual(func() { l.Lock(); c.AwaitUninterruptibly(); l.Unlock() })
	w2 := startVirtual(func() { m.Synchronized(func() { m.Wait() }) })
	testutil.WaitState(t, w1, thread.Waiting)
	testutil.WaitState(t, w2, thread.Waiting)
	if got := thread.FindDeadlocked(); slices.Contains(got, w1) || slices.Contains(got, w2) {
		t.Errorf("FindDeadlocked() = %v", got)
	}
	l.Lock()
	c.Signal()
	l.Unlock()
	m.Synchronized(m.Notify)
	testutil.Join(t, w1, w2)
}
