package locks_test

import (
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/loomgo/loom/internal/testutil"
	"github.com/loomgo/loom/locks"
	"github.com/loomgo/loom/thread"
)

var (
	_ sync.Locker = (*locks.ReadLock)(nil)
	_ sync.Locker = (*locks.WriteLock)(nil)
)

func TestReentrantReadWriteLockConstructor(t *testing.T) {
	var zero locks.ReentrantReadWriteLock
	if zero.IsFair() || zero.IsWriteLocked() || zero.ReadLockCount() != 0 {
		t.Error("zero value is not an unlocked non-fair lock")
	}
	if !locks.NewReentrantReadWriteLock(true).IsFair() || locks.NewReentrantReadWriteLock(false).IsFair() {
		t.Error("fairness not set")
	}
}

func TestReentrantReadWriteLockWriteAndReadHoldCounts(t *testing.T) {
	rw := locks.NewReentrantReadWriteLock(false)
	for i := 1; i <= 5; i++ {
		rw.WriteLock().Lock()
		if rw.WriteHoldCount() != i || rw.WriteLock().HoldCount() != i || !rw.IsWriteLockedByCurrentThread() {
			t.Fatalf("write hold count %d, want %d", rw.WriteHoldCount(), i)
		}
	}
	for range 5 {
		rw.WriteLock().Unlock()
	}
	for i := 1; i <= 5; i++ {
		rw.ReadLock().Lock()
		if rw.ReadHoldCount() != i || rw.ReadLockCount() != i {
			t.Fatalf("read hold count %d / %d, want %d", rw.ReadHoldCount(), rw.ReadLockCount(), i)
		}
	}
	th := startVirtual(func() {
		if rw.ReadHoldCount() != 0 {
			t.Error("another thread sees our read holds")
		}
		rw.ReadLock().Lock()
		if rw.ReadHoldCount() != 1 {
			t.Error("second reader's count")
		}
		rw.ReadLock().Unlock()
	})
	testutil.Join(t, th)
	for range 5 {
		rw.ReadLock().Unlock()
	}
	if rw.ReadLockCount() != 0 || rw.ReadHoldCount() != 0 {
		t.Fatal("read holds left")
	}
}

func TestReentrantReadWriteLockUnlockWithoutHoldingPanicsIMSE(t *testing.T) {
	var rw locks.ReentrantReadWriteLock
	testutil.MustPanic(t, locks.ErrIllegalMonitorState, rw.WriteLock().Unlock)
	testutil.MustPanic(t, locks.ErrIllegalMonitorState, rw.ReadLock().Unlock)
	rw.ReadLock().Lock()
	th := startVirtual(func() {
		testutil.MustPanic(t, locks.ErrIllegalMonitorState, rw.ReadLock().Unlock)
		testutil.MustPanic(t, locks.ErrIllegalMonitorState, rw.WriteLock().Unlock)
	})
	testutil.Join(t, th)
	if rw.ReadLockCount() != 1 {
		t.Fatal("a foreign unlock changed the count")
	}
	rw.ReadLock().Unlock()
	testutil.MustPanic(t, locks.ErrUnsupported, func() { rw.ReadLock().NewCondition() })
}

func TestReentrantReadWriteLockTryLockWhenWriteLocked(t *testing.T) {
	var rw locks.ReentrantReadWriteLock
	rw.WriteLock().Lock()
	th := startVirtual(func() {
		if rw.ReadLock().TryLock() || rw.WriteLock().TryLock() {
			t.Error("TryLock succeeded while another thread writes")
		}
		if ok, _ := rw.ReadLock().TryLockTimeout(10 * time.Millisecond); ok {
			t.Error("read TryLockTimeout succeeded while another thread writes")
		}
		if ok, _ := rw.WriteLock().TryLockTimeout(10 * time.Millisecond); ok {
			t.Error("write TryLockTimeout succeeded while another thread writes")
		}
	})
	testutil.Join(t, th)
	rw.WriteLock().Unlock()
}

func TestReentrantReadWriteLockMultipleReadLocks(t *testing.T) {
	var rw locks.ReentrantReadWriteLock
	rw.ReadLock().Lock()
	var ths []*thread.Thread
	for i := range 4 {
		ths = append(ths, kinds[i%2].start(func() {
			if !rw.ReadLock().TryLock() {
				t.Error("second reader refused")
				return
			}
			if ok, _ := rw.ReadLock().TryLockTimeout(time.Second); !ok {
				t.Error("reentrant read TryLockTimeout refused")
			}
			if rw.WriteLock().TryLock() {
				t.Error("write TryLock succeeded while others read (upgrade)")
			}
			rw.ReadLock().Unlock()
			rw.ReadLock().Unlock()
		}))
	}
	for _, th := range ths {
		testutil.Join(t, th)
	}
	rw.ReadLock().Unlock()
}

func TestReentrantReadWriteLockWriterWaitsForReadersAndReadersForWriter(t *testing.T) {
	for _, fair := range []bool{false, true} {
		rw := locks.NewReentrantReadWriteLock(fair)
		rw.ReadLock().Lock()
		var writing atomic.Bool
		w := startVirtual(func() {
			rw.WriteLock().Lock()
			writing.Store(true)
			time.Sleep(10 * time.Millisecond)
			writing.Store(false)
			rw.WriteLock().Unlock()
		})
		eventually(t, "writer queued", func() bool { return rw.HasQueuedThread(w) })
		var readers []*thread.Thread
		for i := range 3 {
			r := kinds[i%2].start(func() {
				rw.ReadLock().Lock()
				if writing.Load() {
					t.Error("reader inside while writer writes")
				}
				rw.ReadLock().Unlock()
			})
			eventually(t, "reader queued behind the writer", func() bool { return rw.HasQueuedThread(r) })
			readers = append(readers, r)
		}
		// the reader that holds the lock may still re-enter despite the queued writer
		if ok, _ := rw.ReadLock().TryLockTimeout(0); !ok {
			t.Errorf("fair=%v: reentrant read blocked behind a queued writer", fair)
		} else {
			rw.ReadLock().Unlock()
		}
		if rw.QueueLength() != 4 {
			t.Errorf("QueueLength = %d, want 4", rw.QueueLength())
		}
		rw.ReadLock().Unlock()
		testutil.Join(t, w)
		for _, r := range readers {
			testutil.Join(t, r)
		}
		if rw.HasQueuedThreads() || rw.IsWriteLocked() || rw.ReadLockCount() != 0 {
			t.Error("state left behind")
		}
	}
}

func TestReentrantReadWriteLockDowngradeWriteToRead(t *testing.T) {
	var rw locks.ReentrantReadWriteLock
	rw.WriteLock().Lock()
	reader := startVirtual(func() { readThrough(t, &rw) })
	eventually(t, "reader queued", func() bool { return rw.HasQueuedThread(reader) })
	rw.ReadLock().Lock() // the writer may read even with a queued reader
	rw.WriteLock().Unlock()
	if rw.IsWriteLocked() || rw.ReadHoldCount() != 1 {
		t.Fatal("downgrade failed")
	}
	testutil.Join(t, reader) // now readers share
	if rw.WriteLock().TryLock() {
		t.Fatal("upgrade read->write succeeded")
	}
	rw.ReadLock().Unlock()
	if !rw.WriteLock().TryLock() {
		t.Fatal("write lock refused when free")
	}
	rw.WriteLock().Unlock()
}

func TestReentrantReadWriteLockWriterReentersWithQueuedThreads(t *testing.T) {
	rw := locks.NewReentrantReadWriteLock(true)
	rw.WriteLock().Lock()
	w2 := startVirtual(func() { writeThrough(t, rw) })
	eventually(t, "writer queued", func() bool { return rw.HasQueuedThread(w2) })
	rw.WriteLock().Lock()
	if ok, _ := rw.WriteLock().TryLockTimeout(0); !ok {
		t.Error("reentrant fair TryLockTimeout(0) refused")
	}
	if rw.WriteHoldCount() != 3 {
		t.Errorf("WriteHoldCount = %d", rw.WriteHoldCount())
	}
	rw.WriteLock().Unlock()
	rw.WriteLock().Unlock()
	rw.WriteLock().Unlock()
	testutil.Join(t, w2)
}

func TestReentrantReadWriteLockInterruptibleAndTimedLocks(t *testing.T) {
	var rw locks.ReentrantReadWriteLock
	rw.WriteLock().Lock()
	var step atomic.Int32
	th := startVirtual(func() {
		if err := rw.WriteLock().LockInterruptibly(); !errors.Is(err, thread.ErrInterrupted) {
			t.Errorf("write LockInterruptibly = %v", err)
		}
		step.Store(1)
		if err := rw.ReadLock().LockInterruptibly(); !errors.Is(err, thread.ErrInterrupted) {
			t.Errorf("read LockInterruptibly = %v", err)
		}
		if ok, err := rw.ReadLock().TryLockTimeout(20 * time.Millisecond); ok || err != nil {
			t.Errorf("read TryLockTimeout = %v, %v; want timeout", ok, err)
		}
		thread.Current().Interrupt()
		if ok, err := rw.WriteLock().TryLockTimeout(time.Second); ok || !errors.Is(err, thread.ErrInterrupted) {
			t.Errorf("write TryLockTimeout with status set = %v, %v", ok, err)
		}
	})
	testutil.WaitState(t, th, thread.Waiting)
	th.Interrupt()
	eventually(t, "second wait", func() bool { return step.Load() == 1 && rw.QueueLength() == 1 && th.State() == thread.Waiting })
	th.Interrupt()
	testutil.Join(t, th)
	if rw.HasQueuedThreads() {
		t.Error("queued threads left")
	}
	if th.Blocker() != nil {
		t.Error("blocker left")
	}
	rw.WriteLock().Unlock()
}

func TestReentrantReadWriteLockWriteConditionAwaitSignal(t *testing.T) {
	var rw locks.ReentrantReadWriteLock
	c := rw.WriteLock().NewCondition()
	testutil.MustPanic(t, locks.ErrIllegalMonitorState, func() { c.Await() })
	done := false
	th := startVirtual(func() {
		rw.WriteLock().Lock()
		rw.WriteLock().Lock()
		for !done {
			c.Await()
		}
		if rw.WriteHoldCount() != 2 {
			t.Errorf("WriteHoldCount after await = %d", rw.WriteHoldCount())
		}
		rw.WriteLock().Unlock()
		rw.WriteLock().Unlock()
	})
	eventually(t, "waiter", func() bool {
		rw.WriteLock().Lock()
		defer rw.WriteLock().Unlock()
		return rw.HasWaiters(c) && rw.WaitQueueLength(c) == 1 && len(rw.WaitingThreads(c)) == 1
	})
	rw.WriteLock().Lock()
	done = true
	c.Signal()
	rw.WriteLock().Unlock()
	testutil.Join(t, th)
	var other locks.ReentrantReadWriteLock
	rw.WriteLock().Lock()
	testutil.MustPanic(t, thread.ErrIllegalArgument, func() { rw.HasWaiters(other.WriteLock().NewCondition()) })
	rw.WriteLock().Unlock()
}

func TestReentrantReadWriteLockOwnerAndString(t *testing.T) {
	var rw locks.ReentrantReadWriteLock
	if rw.Owner() != nil || !strings.HasSuffix(rw.String(), "[Write locks = 0, Read locks = 0]") {
		t.Errorf("Owner %v String %q", rw.Owner(), rw.String())
	}
	rw.WriteLock().Lock()
	rw.ReadLock().Lock()
	if rw.Owner() != thread.Current() || !strings.HasSuffix(rw.String(), "[Write locks = 1, Read locks = 1]") {
		t.Errorf("Owner %v String %q", rw.Owner(), rw.String())
	}
	if !strings.HasSuffix(rw.WriteLock().String(), "[Locked by thread main]") && !strings.Contains(rw.WriteLock().String(), "[Locked by thread ") {
		t.Errorf("WriteLock String %q", rw.WriteLock().String())
	}
	if !strings.HasSuffix(rw.ReadLock().String(), "[Read locks = 1]") {
		t.Errorf("ReadLock String %q", rw.ReadLock().String())
	}
	rw.ReadLock().Unlock()
	rw.WriteLock().Unlock()
}

func TestReentrantReadWriteLockMutualExclusionStress(t *testing.T) {
	for _, fair := range []bool{false, true} {
		rw := locks.NewReentrantReadWriteLock(fair)
		var readers, writers atomic.Int32
		var ths []*thread.Thread
		for i := range 8 {
			ths = append(ths, kinds[i%2].start(func() {
				for j := range 300 {
					if (i+j)%4 == 0 {
						rw.WriteLock().Lock()
						if writers.Add(1) != 1 || readers.Load() != 0 {
							t.Error("writer not alone")
						}
						writers.Add(-1)
						rw.WriteLock().Unlock()
					} else {
						rw.ReadLock().Lock()
						readers.Add(1)
						if writers.Load() != 0 {
							t.Error("reader with a writer")
						}
						readers.Add(-1)
						rw.ReadLock().Unlock()
					}
				}
			}))
		}
		for _, th := range ths {
			testutil.Join(t, th)
		}
		if rw.ReadLockCount() != 0 || rw.IsWriteLocked() {
			t.Fatal("holds left")
		}
	}
}
