package locks_test

import (
	"math"
	"strings"
	"testing"

	"github.com/loomgo/loom/internal/testutil"
	"github.com/loomgo/loom/locks"
	"github.com/loomgo/loom/thread"
)

// Issue 15, defect 6, and its class: every counter checks both ends and fails as Java does (an
// Error there, a panic with a recognisable value here), leaving the count as it was.

// mustPanicWith is testutil.MustPanic that also checks the panic message names Java's Error.
func mustPanicWith(t *testing.T, want error, javaMsg string, fn func()) {
	t.Helper()
	testutil.MustPanic(t, want, fn)
	defer func() {
		if r := recover(); r != nil {
			if err, ok := r.(error); !ok || !strings.Contains(err.Error(), javaMsg) {
				t.Errorf("panic %v, want a message with %q", r, javaMsg)
			}
		}
	}()
	fn()
}

func TestSemaphoreReducePermitsUnderflowPanics(t *testing.T) {
	s := locks.NewSemaphore(math.MinInt+1, false)
	mustPanicWith(t, locks.ErrCountUnderflow, "Permit count underflow", func() { s.ReducePermits(10) })
	if got := s.AvailablePermits(); got != math.MinInt+1 {
		t.Fatalf("permits %d after the failed reduce, want MinInt+1 (unchanged)", got)
	}
	s.ReducePermits(1) // to the bottom exactly
	if got := s.AvailablePermits(); got != math.MinInt {
		t.Fatalf("permits %d, want MinInt", got)
	}
}

func TestSemaphoreReleaseOverflowPanics(t *testing.T) {
	s := locks.NewSemaphore(math.MaxInt-1, false)
	mustPanicWith(t, locks.ErrMaxCount, "Maximum permit count exceeded", func() { s.ReleaseN(2) })
	if got := s.AvailablePermits(); got != math.MaxInt-1 {
		t.Fatalf("permits %d after the failed release, want MaxInt-1 (unchanged)", got)
	}
	s.Release() // to the top exactly
	mustPanicWith(t, locks.ErrMaxCount, "Maximum permit count exceeded", s.Release)
}

// Java's own Semaphore wraps here (from Integer.MIN_VALUE+1, tryAcquire(10) succeeds and leaves
// 2147483639 permits, checked on JDK 25); loom does not grant permits that do not exist.
func TestSemaphoreAcquireNearMinIntDoesNotWrap(t *testing.T) {
	s := locks.NewSemaphore(math.MinInt+1, false)
	if s.TryAcquireN(10) {
		t.Fatalf("TryAcquireN(10) from MinInt+1 succeeded, leaving %d permits", s.AvailablePermits())
	}
	if ok, err := s.TryAcquireNTimeout(10, 0); ok || err != nil {
		t.Fatalf("TryAcquireNTimeout(10, 0) = %v, %v", ok, err)
	}
	if got := s.AvailablePermits(); got != math.MinInt+1 {
		t.Fatalf("permits %d, want unchanged", got)
	}
}

func TestReentrantLockMaximumLockCountExceeded(t *testing.T) {
	var l locks.ReentrantLock
	l.Lock()
	locks.SetHoldCount(&l, math.MaxInt32)
	mustPanicWith(t, locks.ErrMaxCount, "Maximum lock count exceeded", l.Lock)
	mustPanicWith(t, locks.ErrMaxCount, "Maximum lock count exceeded", func() { l.TryLock() })
	if got := l.HoldCount(); got != math.MaxInt32 {
		t.Fatalf("HoldCount %d after the failed lock, want unchanged", got)
	}
	locks.SetHoldCount(&l, 1)
	l.Unlock()
	if l.IsLocked() {
		t.Fatal("still locked")
	}
}

func TestMonitorMaximumRecursionExceeded(t *testing.T) {
	var m locks.Monitor
	m.Enter()
	locks.SetHoldCount(&m, math.MaxInt32)
	mustPanicWith(t, locks.ErrMaxCount, "Maximum lock count exceeded", m.Enter)
	locks.SetHoldCount(&m, 1)
	m.Exit()
	if m.IsHeldByCurrentThread() {
		t.Fatal("still held")
	}
}

func TestReentrantReadWriteLockMaximumLockCountExceeded(t *testing.T) {
	rw := locks.NewReentrantReadWriteLock(false)
	rw.WriteLock().Lock()
	locks.SetWriteHoldCount(rw, math.MaxInt32)
	mustPanicWith(t, locks.ErrMaxCount, "Maximum lock count exceeded", rw.WriteLock().Lock)
	locks.SetWriteHoldCount(rw, 1)
	rw.WriteLock().Unlock()

	locks.AddReadHolds(rw, math.MaxInt32) // as if two billion readers held it
	mustPanicWith(t, locks.ErrMaxCount, "Maximum lock count exceeded", rw.ReadLock().Lock)
	if ok := rw.WriteLock().TryLock(); ok {
		t.Fatal("write lock taken while read holds remain")
	}
	locks.AddReadHolds(rw, -math.MaxInt32)
	rw.ReadLock().Lock() // the failed read lock left the count as it was
	if rw.ReadHoldCount() != 1 || rw.ReadLockCount() != 1 {
		t.Fatalf("read holds %d, count %d", rw.ReadHoldCount(), rw.ReadLockCount())
	}
	rw.ReadLock().Unlock()
}

func TestCountDownLatchAndBarrierRejectBadCounts(t *testing.T) {
	testutil.MustPanic(t, thread.ErrIllegalArgument, func() { locks.NewCountDownLatch(-1) })
	testutil.MustPanic(t, thread.ErrIllegalArgument, func() { locks.NewCyclicBarrier(0, nil) })
	testutil.MustPanic(t, thread.ErrIllegalArgument, func() { locks.NewCyclicBarrier(-1, nil) })
	l := locks.NewCountDownLatch(1)
	l.CountDown()
	l.CountDown() // at zero: nothing, never below
	if l.Count() != 0 {
		t.Fatalf("count %d", l.Count())
	}
}
