package locks_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/loomgo/loom/internal/testutil"
	"github.com/loomgo/loom/locks"
	"github.com/loomgo/loom/thread"
)

// Ports of the JSR-166 TCK's StampedLockTest. Each test that waits runs its waiting threads on
// virtual and platform threads.

const forever = time.Duration(math.MaxInt64)

func assertValid(t *testing.T, l *locks.StampedLock, stamp int64) int64 {
	t.Helper()
	if stamp == 0 || !l.Validate(stamp) {
		t.Fatalf("stamp %#x: zero or does not validate (%v)", stamp, l)
	}
	return stamp
}

func assertUnlocked(t *testing.T, l *locks.StampedLock) {
	t.Helper()
	if l.IsReadLocked() || l.IsWriteLocked() || l.ReadLockCount() != 0 {
		t.Fatalf("%v: not unlocked", l)
	}
	assertValid(t, l, l.TryOptimisticRead())
}

func mustNot(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

type stampLocker struct {
	name string
	lock func(*testing.T, *locks.StampedLock) int64
}

type stampUnlocker struct {
	name   string
	unlock func(*testing.T, *locks.StampedLock, int64)
}

func readLockers() []stampLocker {
	return []stampLocker{
		{"ReadLock", func(_ *testing.T, l *locks.StampedLock) int64 { return l.ReadLock() }},
		{"TryReadLock", func(_ *testing.T, l *locks.StampedLock) int64 { return l.TryReadLock() }},
		{"ReadLockInterruptibly", func(t *testing.T, l *locks.StampedLock) int64 {
			s, err := l.ReadLockInterruptibly()
			mustNot(t, err)
			return s
		}},
		{"TryReadLockTimeout(MinInt64)", func(t *testing.T, l *locks.StampedLock) int64 {
			s, err := l.TryReadLockTimeout(math.MinInt64)
			mustNot(t, err)
			return s
		}},
		{"TryReadLockTimeout(0)", func(t *testing.T, l *locks.StampedLock) int64 {
			s, err := l.TryReadLockTimeout(0)
			mustNot(t, err)
			return s
		}},
		{"TryConvertToReadLock(optimistic)", func(_ *testing.T, l *locks.StampedLock) int64 {
			return l.TryConvertToReadLock(l.TryOptimisticRead())
		}},
	}
}

func readUnlockers() []stampUnlocker {
	return []stampUnlocker{
		{"UnlockRead", func(_ *testing.T, l *locks.StampedLock, s int64) { l.UnlockRead(s) }},
		{"TryUnlockRead", func(t *testing.T, l *locks.StampedLock, _ int64) {
			if !l.TryUnlockRead() {
				t.Fatal("TryUnlockRead = false")
			}
		}},
		{"AsReadLock().Unlock", func(_ *testing.T, l *locks.StampedLock, _ int64) { l.AsReadLock().Unlock() }},
		{"Unlock", func(_ *testing.T, l *locks.StampedLock, s int64) { l.Unlock(s) }},
		{"TryConvertToOptimisticRead", func(t *testing.T, l *locks.StampedLock, s int64) {
			assertValid(t, l, l.TryConvertToOptimisticRead(s))
		}},
	}
}

func writeLockers() []stampLocker {
	return []stampLocker{
		{"WriteLock", func(_ *testing.T, l *locks.StampedLock) int64 { return l.WriteLock() }},
		{"TryWriteLock", func(_ *testing.T, l *locks.StampedLock) int64 { return l.TryWriteLock() }},
		{"WriteLockInterruptibly", func(t *testing.T, l *locks.StampedLock) int64 {
			s, err := l.WriteLockInterruptibly()
			mustNot(t, err)
			return s
		}},
		{"TryWriteLockTimeout(MinInt64)", func(t *testing.T, l *locks.StampedLock) int64 {
			s, err := l.TryWriteLockTimeout(math.MinInt64)
			mustNot(t, err)
			return s
		}},
		{"TryWriteLockTimeout(0)", func(t *testing.T, l *locks.StampedLock) int64 {
			s, err := l.TryWriteLockTimeout(0)
			mustNot(t, err)
			return s
		}},
		{"TryConvertToWriteLock(optimistic)", func(_ *testing.T, l *locks.StampedLock) int64 {
			return l.TryConvertToWriteLock(l.TryOptimisticRead())
		}},
	}
}

func writeUnlockers() []stampUnlocker {
	return []stampUnlocker{
		{"UnlockWrite", func(_ *testing.T, l *locks.StampedLock, s int64) { l.UnlockWrite(s) }},
		{"TryUnlockWrite", func(t *testing.T, l *locks.StampedLock, _ int64) {
			if !l.TryUnlockWrite() {
				t.Fatal("TryUnlockWrite = false")
			}
		}},
		{"AsWriteLock().Unlock", func(_ *testing.T, l *locks.StampedLock, _ int64) { l.AsWriteLock().Unlock() }},
		{"Unlock", func(_ *testing.T, l *locks.StampedLock, s int64) { l.Unlock(s) }},
		{"TryConvertToOptimisticRead", func(t *testing.T, l *locks.StampedLock, s int64) {
			assertValid(t, l, l.TryConvertToOptimisticRead(s))
		}},
	}
}

func TestStampedLock_testConstructor(t *testing.T) {
	var zero locks.StampedLock
	assertUnlocked(t, &zero)
	assertUnlocked(t, new(locks.StampedLock))
}

func TestStampedLock_testWriteLock_lockUnlock(t *testing.T) {
	var l locks.StampedLock
	for _, lk := range writeLockers() {
		for _, ul := range writeUnlockers() {
			s := assertValid(t, &l, lk.lock(t, &l))
			if !l.IsWriteLocked() || l.IsReadLocked() || l.ReadLockCount() != 0 {
				t.Fatalf("%s: %v", lk.name, &l)
			}
			ul.unlock(t, &l, s)
			assertUnlocked(t, &l)
		}
	}
}

func TestStampedLock_testReadLock_lockUnlock(t *testing.T) {
	var l locks.StampedLock
	for _, lk := range readLockers() {
		for _, ul := range readUnlockers() {
			var s int64
			for i := range 2 {
				s = assertValid(t, &l, lk.lock(t, &l))
				if l.IsWriteLocked() || !l.IsReadLocked() || l.ReadLockCount() != int64(i+1) {
					t.Fatalf("%s #%d: %v", lk.name, i, &l)
				}
			}
			for i := range 2 {
				if got := l.ReadLockCount(); got != int64(2-i) {
					t.Fatalf("%s/%s: ReadLockCount = %d, want %d", lk.name, ul.name, got, 2-i)
				}
				ul.unlock(t, &l, s)
			}
			assertUnlocked(t, &l)
		}
	}
}

func TestStampedLock_testTryUnlockWrite_failure(t *testing.T) {
	var l locks.StampedLock
	if l.TryUnlockWrite() {
		t.Fatal("TryUnlockWrite on an unlocked lock")
	}
	for _, lk := range readLockers() {
		for _, ul := range readUnlockers() {
			s := assertValid(t, &l, lk.lock(t, &l))
			if l.TryUnlockWrite() || !l.IsReadLocked() {
				t.Fatalf("%s: TryUnlockWrite succeeded on a read lock", lk.name)
			}
			ul.unlock(t, &l, s)
			assertUnlocked(t, &l)
		}
	}
}

func TestStampedLock_testTryUnlockRead_failure(t *testing.T) {
	var l locks.StampedLock
	if l.TryUnlockRead() {
		t.Fatal("TryUnlockRead on an unlocked lock")
	}
	for _, lk := range writeLockers() {
		for _, ul := range writeUnlockers() {
			s := lk.lock(t, &l)
			if l.TryUnlockRead() || !l.IsWriteLocked() {
				t.Fatalf("%s: TryUnlockRead succeeded on a write lock", lk.name)
			}
			ul.unlock(t, &l, s)
			assertUnlocked(t, &l)
		}
	}
}

func TestStampedLock_testValidate0(t *testing.T) {
	var l locks.StampedLock
	if l.Validate(0) {
		t.Fatal("Validate(0) = true")
	}
}

func TestStampedLock_testValidate(t *testing.T) {
	var l locks.StampedLock
	for _, lk := range readLockers() {
		for _, ul := range readUnlockers() {
			s := assertValid(t, &l, lk.lock(t, &l))
			ul.unlock(t, &l, s)
		}
	}
	for _, lk := range writeLockers() {
		for _, ul := range writeUnlockers() {
			s := assertValid(t, &l, lk.lock(t, &l))
			ul.unlock(t, &l, s)
		}
	}
}

func TestStampedLock_testValidate2(t *testing.T) {
	var l locks.StampedLock
	s := assertValid(t, &l, l.WriteLock())
	w, err := l.TryWriteLockTimeout(-time.Second)
	mustNot(t, err)
	for _, failed := range []int64{l.TryWriteLock(), w, l.TryReadLock(), l.TryOptimisticRead()} {
		if l.Validate(failed) {
			t.Errorf("stamp %#x of a failed attempt validates", failed)
		}
	}
	l.UnlockWrite(s)
}

// interruptibleStampedActions are the interruptible acquisitions of l, each reporting its error.
func interruptibleStampedActions(l *locks.StampedLock, blockingOnly, writersOnly bool) []func() error {
	stamp := func(_ int64, err error) error { return err }
	bools := func(_ bool, err error) error { return err }
	acts := []func() error{
		func() error { return stamp(l.WriteLockInterruptibly()) },
		func() error { return stamp(l.TryWriteLockTimeout(forever)) },
		func() error { return l.AsWriteLock().LockInterruptibly() },
		func() error { return bools(l.AsWriteLock().TryLockTimeout(forever)) },
	}
	if !writersOnly {
		acts = append(acts,
			func() error { return stamp(l.ReadLockInterruptibly()) },
			func() error { return stamp(l.TryReadLockTimeout(forever)) },
			func() error { return l.AsReadLock().LockInterruptibly() },
			func() error { return bools(l.AsReadLock().TryLockTimeout(forever)) },
		)
	}
	if !blockingOnly {
		acts = append(acts,
			func() error { return stamp(l.TryWriteLockTimeout(math.MinInt64)) },
			func() error { return stamp(l.TryReadLockTimeout(math.MinInt64)) },
			func() error { return bools(l.AsWriteLock().TryLockTimeout(0)) },
			func() error { return bools(l.AsReadLock().TryLockTimeout(0)) },
		)
	}
	rand.Shuffle(len(acts), func(i, j int) { acts[i], acts[j] = acts[j], acts[i] })
	return acts
}

func assertPreInterruptedFail(t *testing.T, acts []func() error) {
	t.Helper()
	for i, act := range acts {
		thread.Current().Interrupt()
		if err := act(); !errors.Is(err, thread.ErrInterrupted) {
			t.Errorf("action %d: err = %v, want ErrInterrupted", i, err)
		}
		if thread.Interrupted() {
			t.Errorf("action %d left the interrupt status set", i)
		}
	}
}

func TestStampedLock_testInterruptibleOperationsThrowInterruptedExceptionWhenPreInterrupted(t *testing.T) {
	var l locks.StampedLock
	assertPreInterruptedFail(t, interruptibleStampedActions(&l, false, false))
	s := l.WriteLock()
	assertPreInterruptedFail(t, interruptibleStampedActions(&l, false, false))
	l.UnlockWrite(s)
	s = l.ReadLock()
	assertPreInterruptedFail(t, interruptibleStampedActions(&l, false, false))
	l.UnlockRead(s)
	assertUnlocked(t, &l)
}

// assertInterruptedWhileBlocked runs each action on its own thread (alternately virtual and
// platform), waits until all block, interrupts them and checks each got ErrInterrupted.
func assertInterruptedWhileBlocked(t *testing.T, acts []func() error) {
	t.Helper()
	var ths []*thread.Thread
	for i, act := range acts {
		ths = append(ths, kinds[i%2].start(func() {
			if err := act(); !errors.Is(err, thread.ErrInterrupted) {
				t.Errorf("action %d: err = %v, want ErrInterrupted", i, err)
			}
			if thread.Interrupted() {
				t.Errorf("action %d left the interrupt status set", i)
			}
		}))
	}
	for _, th := range ths {
		testutil.WaitState(t, th, parkedState(th))
	}
	for _, th := range ths {
		th.Interrupt()
	}
	testutil.Join(t, ths...)
}

// parkedState is WAITING, or TIMED_WAITING for the timed forms: accept either by looking.
func parkedState(th *thread.Thread) thread.State {
	for {
		if st := th.State(); st == thread.Waiting || st == thread.TimedWaiting {
			return st
		}
		time.Sleep(time.Millisecond)
	}
}

func TestStampedLock_testInterruptibleOperationsThrowInterruptedExceptionWriteLockedInterrupted(t *testing.T) {
	var l locks.StampedLock
	s := l.WriteLock()
	assertInterruptedWhileBlocked(t, interruptibleStampedActions(&l, true, false))
	l.UnlockWrite(s)
	assertUnlocked(t, &l)
}

func TestStampedLock_testInterruptibleOperationsThrowInterruptedExceptionReadLockedInterrupted(t *testing.T) {
	var l locks.StampedLock
	s := l.ReadLock()
	assertInterruptedWhileBlocked(t, interruptibleStampedActions(&l, true, true))
	l.UnlockRead(s)
	assertUnlocked(t, &l)
}

func TestStampedLock_testNonInterruptibleOperationsIgnoreInterrupts(t *testing.T) {
	var l locks.StampedLock
	thread.Current().Interrupt()
	for _, ul := range readUnlockers() {
		ul.unlock(t, &l, assertValid(t, &l, l.ReadLock()))
		ul.unlock(t, &l, assertValid(t, &l, l.TryReadLock()))
	}
	l.AsReadLock().Lock()
	if !l.IsReadLocked() || l.ReadLockCount() != 1 {
		t.Errorf("AsReadLock().Lock with the interrupt status set: IsReadLocked %v, ReadLockCount %d", l.IsReadLocked(), l.ReadLockCount())
	}
	l.AsReadLock().Unlock()
	for _, ul := range writeUnlockers() {
		ul.unlock(t, &l, assertValid(t, &l, l.WriteLock()))
		ul.unlock(t, &l, assertValid(t, &l, l.TryWriteLock()))
	}
	l.AsWriteLock().Lock()
	if !l.IsWriteLocked() {
		t.Error("AsWriteLock().Lock with the interrupt status set returned without the write lock")
	}
	l.AsWriteLock().Unlock()
	if !thread.Interrupted() {
		t.Fatal("interrupt status lost")
	}
}

// A blocked, uninterruptible WriteLock keeps waiting through an interrupt and returns with the
// status set.
func TestStampedLockWriteLockWaitsThroughInterruptAndKeepsStatus(t *testing.T) {
	for _, k := range kinds {
		t.Run(k.name, func(t *testing.T) {
			var l locks.StampedLock
			rs := l.ReadLock()
			th := k.start(func() {
				s := l.WriteLock()
				if !thread.Interrupted() {
					t.Error("interrupt status not set after WriteLock")
				}
				l.UnlockWrite(s)
			})
			testutil.WaitState(t, th, thread.Waiting)
			th.Interrupt()
			time.Sleep(10 * time.Millisecond)
			if !l.IsReadLocked() || l.IsWriteLocked() {
				t.Fatal("writer got in while read-locked")
			}
			l.UnlockRead(rs)
			testutil.Join(t, th)
			assertUnlocked(t, &l)
		})
	}
}

func TestStampedLock_testTryWriteLock(t *testing.T) {
	var l locks.StampedLock
	s := l.TryWriteLock()
	if s == 0 || !l.IsWriteLocked() || l.TryWriteLock() != 0 {
		t.Fatalf("TryWriteLock: %#x %v", s, &l)
	}
	l.UnlockWrite(s)
	if l.Validate(s) {
		t.Fatal("write stamp validates after unlock")
	}
}

func TestStampedLock_testTryWriteLockWhenLocked(t *testing.T) {
	for _, k := range kinds {
		var l locks.StampedLock
		s := l.WriteLock()
		th := k.start(func() {
			if l.TryWriteLock() != 0 || l.TryReadLock() != 0 {
				t.Error("Try* succeeded while write-locked")
			}
		})
		testutil.Join(t, th)
		l.UnlockWrite(s)
	}
}

func TestStampedLock_testMultipleReadLocks(t *testing.T) {
	for _, k := range kinds {
		var l locks.StampedLock
		s := l.ReadLock()
		th := k.start(func() {
			s2 := assertValid(t, &l, l.TryReadLock())
			l.UnlockRead(s2)
			s3, err := l.TryReadLockTimeout(longWait)
			mustNot(t, err)
			l.UnlockRead(assertValid(t, &l, s3))
			l.UnlockRead(assertValid(t, &l, l.ReadLock()))
			l.AsReadLock().Lock()
			if !l.IsReadLocked() {
				t.Error("AsReadLock().Lock returned without a read lock")
			}
			l.AsReadLock().Unlock()
			mustNot(t, l.AsReadLock().LockInterruptibly())
			l.AsReadLock().Unlock()
			if ok, err := l.AsReadLock().TryLockTimeout(math.MinInt64); !ok || err != nil {
				t.Errorf("TryLockTimeout = %v, %v", ok, err)
			}
			l.AsReadLock().Unlock()
		})
		testutil.Join(t, th)
		l.UnlockRead(s)
		assertUnlocked(t, &l)
	}
}

func TestStampedLock_testWriteAfterReadLock(t *testing.T) {
	for _, k := range kinds {
		var l locks.StampedLock
		rs := l.ReadLock()
		th := k.start(func() {
			s := l.WriteLock()
			if !l.IsWriteLocked() || l.IsReadLocked() {
				t.Error("writer holds with readers")
			}
			l.UnlockWrite(s)
		})
		testutil.WaitState(t, th, thread.Waiting)
		if l.IsWriteLocked() || !l.IsReadLocked() {
			t.Fatal("state changed while writer waits")
		}
		l.UnlockRead(rs)
		testutil.Join(t, th)
		assertUnlocked(t, &l)
	}
}

func TestStampedLock_testWriteAfterMultipleReadLocks(t *testing.T) {
	for _, k := range kinds {
		var l locks.StampedLock
		s := l.ReadLock()
		testutil.Join(t, k.start(func() { l.UnlockRead(l.ReadLock()) }))
		th := k.start(func() { l.UnlockWrite(l.WriteLock()) })
		testutil.WaitState(t, th, thread.Waiting)
		if !l.IsReadLocked() || l.IsWriteLocked() {
			t.Fatal("writer got in")
		}
		l.UnlockRead(s)
		testutil.Join(t, th)
		assertUnlocked(t, &l)
	}
}

func TestStampedLock_testReadAfterWriteLock(t *testing.T) {
	var l locks.StampedLock
	s := l.WriteLock()
	var ths []*thread.Thread
	for _, k := range kinds {
		ths = append(ths, k.start(func() {
			rs := l.ReadLock()
			if !l.IsReadLocked() || l.IsWriteLocked() {
				t.Error("reader holds with a writer")
			}
			l.UnlockRead(rs)
		}))
	}
	for _, th := range ths {
		testutil.WaitState(t, th, thread.Waiting)
	}
	if !l.IsWriteLocked() || l.IsReadLocked() {
		t.Fatal("state changed while readers wait")
	}
	l.UnlockWrite(s)
	testutil.Join(t, ths...)
	assertUnlocked(t, &l)
}

func TestStampedLock_testTryLockWhenReadLocked(t *testing.T) {
	for _, k := range kinds {
		var l locks.StampedLock
		s := l.ReadLock()
		testutil.Join(t, k.start(func() {
			l.UnlockRead(assertValid(t, &l, l.TryReadLock()))
			if l.TryWriteLock() != 0 {
				t.Error("TryWriteLock succeeded while read-locked")
			}
		}))
		l.UnlockRead(s)
	}
}

func TestStampedLock_testTimedLock_Timeout(t *testing.T) {
	const d = 30 * time.Millisecond
	var wl, rl locks.StampedLock
	ws := wl.WriteLock()
	rs := rl.ReadLock()
	for _, try := range []func() (int64, error){
		func() (int64, error) { return wl.TryReadLockTimeout(0) },
		func() (int64, error) { return wl.TryReadLockTimeout(math.MinInt64) },
		func() (int64, error) { return wl.TryWriteLockTimeout(0) },
		func() (int64, error) { return wl.TryWriteLockTimeout(math.MinInt64) },
		func() (int64, error) { return rl.TryWriteLockTimeout(0) },
		func() (int64, error) { return rl.TryWriteLockTimeout(math.MinInt64) },
	} {
		if s, err := try(); s != 0 || err != nil {
			t.Errorf("expired try = %#x, %v", s, err)
		}
	}
	for _, v := range []interface {
		TryLockTimeout(time.Duration) (bool, error)
	}{wl.AsReadLock(), wl.AsWriteLock(), rl.AsWriteLock()} {
		if ok, err := v.TryLockTimeout(0); ok || err != nil {
			t.Errorf("expired view try = %v, %v", ok, err)
		}
	}
	var ths []*thread.Thread
	for i, try := range []func() (int64, error){
		func() (int64, error) { return wl.TryWriteLockTimeout(d) },
		func() (int64, error) { return wl.TryReadLockTimeout(d) },
		func() (int64, error) { return rl.TryWriteLockTimeout(d) },
	} {
		ths = append(ths, kinds[i%2].start(func() {
			start := time.Now()
			if s, err := try(); s != 0 || err != nil {
				t.Errorf("timed try = %#x, %v", s, err)
			}
			if el := time.Since(start); el < d {
				t.Errorf("timed out after %v < %v", el, d)
			}
		}))
	}
	testutil.Join(t, ths...)
	wl.UnlockWrite(ws)
	rl.UnlockRead(rs)
	assertUnlocked(t, &wl)
	assertUnlocked(t, &rl)
}

func TestStampedLock_testWriteLockInterruptibly(t *testing.T) {
	var l locks.StampedLock
	s, err := l.WriteLockInterruptibly()
	mustNot(t, err)
	if !l.IsWriteLocked() {
		t.Fatal("not write-locked")
	}
	l.UnlockWrite(s)
}

func TestStampedLock_testReadLockInterruptibly(t *testing.T) {
	var l locks.StampedLock
	s, err := l.ReadLockInterruptibly()
	mustNot(t, err)
	assertValid(t, &l, s)
	l.UnlockRead(s)
	mustNot(t, l.AsReadLock().LockInterruptibly())
	if !l.IsReadLocked() {
		t.Fatal("not read-locked")
	}
	l.AsReadLock().Unlock()
	assertUnlocked(t, &l)
}

func TestStampedLock_testToString(t *testing.T) {
	var l locks.StampedLock
	check := func(want string) {
		t.Helper()
		if got := l.String(); !strings.HasPrefix(got, "StampedLock@") || !strings.Contains(got, want) {
			t.Errorf("String() = %q, want it to contain %q", got, want)
		}
	}
	check("[Unlocked]")
	s := l.WriteLock()
	check("[Write-locked]")
	l.UnlockWrite(s)
	l.ReadLock()
	l.ReadLock()
	check("[Read-locks:2]")
}

func TestStampedLock_testValidateOptimistic(t *testing.T) {
	var l locks.StampedLock
	assertValid(t, &l, l.TryOptimisticRead())
	for _, lk := range writeLockers() {
		s := assertValid(t, &l, lk.lock(t, &l))
		if l.TryOptimisticRead() != 0 {
			t.Fatalf("%s: optimistic read while write-locked", lk.name)
		}
		l.UnlockWrite(s)
		if l.Validate(s) {
			t.Fatal("write stamp validates after unlock")
		}
	}
	for _, lk := range readLockers() {
		s := assertValid(t, &l, lk.lock(t, &l))
		p := assertValid(t, &l, l.TryOptimisticRead())
		l.UnlockRead(s)
		if !l.Validate(s) || !l.Validate(p) {
			t.Fatalf("%s: read or optimistic stamp invalid after a read unlock", lk.name)
		}
	}
	assertValid(t, &l, l.TryOptimisticRead())
}

func TestStampedLock_testValidateOptimisticWriteLocked(t *testing.T) {
	var l locks.StampedLock
	p := assertValid(t, &l, l.TryOptimisticRead())
	s := assertValid(t, &l, l.WriteLock())
	if l.Validate(p) || l.TryOptimisticRead() != 0 {
		t.Fatal("optimistic stamp valid across a write lock")
	}
	l.UnlockWrite(s)
}

func TestStampedLock_testValidateOptimisticWriteLocked2(t *testing.T) {
	for _, k := range kinds {
		var l locks.StampedLock
		p := assertValid(t, &l, l.TryOptimisticRead())
		locked := locks.NewCountDownLatch(1)
		th := k.start(func() {
			if _, err := l.WriteLockInterruptibly(); err != nil {
				t.Error(err)
			}
			locked.CountDown()
			if _, err := l.WriteLockInterruptibly(); !errors.Is(err, thread.ErrInterrupted) {
				t.Errorf("second WriteLockInterruptibly = %v, want ErrInterrupted", err)
			}
		})
		mustNot(t, locked.Await())
		if l.Validate(p) || l.TryOptimisticRead() != 0 {
			t.Fatal("optimistic stamp valid across another thread's write lock")
		}
		testutil.WaitState(t, th, thread.Waiting)
		th.Interrupt()
		testutil.Join(t, th)
		if !l.IsWriteLocked() {
			t.Fatal("first write lock lost")
		}
	}
}

func TestStampedLock_testTryConvertToOptimisticRead(t *testing.T) {
	var l locks.StampedLock
	if l.TryConvertToOptimisticRead(0) != 0 {
		t.Fatal("converted stamp 0")
	}
	s := assertValid(t, &l, l.TryOptimisticRead())
	if l.TryConvertToOptimisticRead(s) != s {
		t.Fatal("optimistic stamp does not convert to itself")
	}
	for _, lk := range writeLockers() {
		s = assertValid(t, &l, lk.lock(t, &l))
		p := assertValid(t, &l, l.TryConvertToOptimisticRead(s))
		if l.Validate(s) {
			t.Fatalf("%s: write stamp still valid", lk.name)
		}
		assertValid(t, &l, p)
		assertUnlocked(t, &l)
	}
	for _, lk := range readLockers() {
		s = assertValid(t, &l, lk.lock(t, &l))
		q := assertValid(t, &l, l.TryOptimisticRead())
		if l.TryConvertToOptimisticRead(q) != q || !l.IsReadLocked() {
			t.Fatalf("%s: optimistic conversion while read-locked", lk.name)
		}
		p := assertValid(t, &l, l.TryConvertToOptimisticRead(s))
		assertValid(t, &l, s)
		assertValid(t, &l, p)
		assertUnlocked(t, &l)
		if l.TryConvertToOptimisticRead(q) != q {
			t.Fatal("q does not convert to itself")
		}
	}
}

func TestStampedLock_testTryConvertToReadLock(t *testing.T) {
	var l locks.StampedLock
	if l.TryConvertToReadLock(0) != 0 {
		t.Fatal("converted stamp 0")
	}
	s := assertValid(t, &l, l.TryOptimisticRead())
	p := assertValid(t, &l, l.TryConvertToReadLock(s))
	if !l.IsReadLocked() || l.ReadLockCount() != 1 || !l.Validate(s) {
		t.Fatalf("optimistic to read: %v", &l)
	}
	l.UnlockRead(p)

	s = assertValid(t, &l, l.TryOptimisticRead())
	l.ReadLock()
	p = assertValid(t, &l, l.TryConvertToReadLock(s))
	if l.ReadLockCount() != 2 {
		t.Fatalf("ReadLockCount = %d, want 2", l.ReadLockCount())
	}
	l.UnlockRead(p)
	l.UnlockRead(p)
	assertUnlocked(t, &l)

	for _, ul := range readUnlockers() {
		for _, lk := range writeLockers() {
			s = assertValid(t, &l, lk.lock(t, &l))
			p = assertValid(t, &l, l.TryConvertToReadLock(s))
			if l.Validate(s) || !l.IsReadLocked() || l.ReadLockCount() != 1 {
				t.Fatalf("%s: write to read: %v", lk.name, &l)
			}
			ul.unlock(t, &l, p)
		}
		for _, lk := range readLockers() {
			s = assertValid(t, &l, lk.lock(t, &l))
			if l.TryConvertToReadLock(s) != s || l.ReadLockCount() != 1 {
				t.Fatalf("%s: read stamp does not convert to itself", lk.name)
			}
			ul.unlock(t, &l, s)
		}
	}
	assertUnlocked(t, &l)
}

func TestStampedLock_testTryConvertToWriteLock(t *testing.T) {
	var l locks.StampedLock
	if l.TryConvertToWriteLock(0) != 0 {
		t.Fatal("converted stamp 0")
	}
	s := l.TryOptimisticRead()
	p := l.TryConvertToWriteLock(s)
	if s == 0 || p == 0 || !l.IsWriteLocked() {
		t.Fatal("optimistic to write failed")
	}
	l.UnlockWrite(p)
	for _, ul := range writeUnlockers() {
		for _, lk := range writeLockers() {
			s = assertValid(t, &l, lk.lock(t, &l))
			if l.TryConvertToWriteLock(s) != s || !l.IsWriteLocked() {
				t.Fatalf("%s: write stamp does not convert to itself", lk.name)
			}
			ul.unlock(t, &l, s)
		}
		for _, lk := range readLockers() {
			s = assertValid(t, &l, lk.lock(t, &l))
			p = assertValid(t, &l, l.TryConvertToWriteLock(s))
			if l.Validate(s) || !l.IsWriteLocked() {
				t.Fatalf("%s: read to write: %v", lk.name, &l)
			}
			ul.unlock(t, &l, p)
		}
	}
	for _, lk := range readLockers() {
		s = assertValid(t, &l, lk.lock(t, &l))
		p = assertValid(t, &l, lk.lock(t, &l))
		if l.TryConvertToWriteLock(s) != 0 || l.ReadLockCount() != 2 {
			t.Fatalf("%s: converted while two readers hold", lk.name)
		}
		assertValid(t, &l, s)
		assertValid(t, &l, p)
		l.Unlock(p)
		l.Unlock(s)
		assertUnlocked(t, &l)
	}
}

// viewLockers are Java's lockLockers: each way to take a sync.Locker-style view.
type stampedView interface {
	Lock()
	LockInterruptibly() error
	TryLock() bool
	TryLockTimeout(time.Duration) (bool, error)
	Unlock()
}

func viewLockers(t *testing.T, v stampedView) []func() {
	try := func(ok bool, err error) {
		t.Helper()
		if !ok || err != nil {
			t.Fatalf("lock failed: %v %v", ok, err)
		}
	}
	return []func(){
		v.Lock,
		func() { mustNot(t, v.LockInterruptibly()) },
		func() { try(v.TryLock(), nil) },
		func() { try(v.TryLockTimeout(math.MinInt64)) },
		func() { try(v.TryLockTimeout(0)) },
		func() { try(v.TryLockTimeout(forever)) },
	}
}

var (
	_ sync.Locker = (*locks.StampedReadLock)(nil)
	_ sync.Locker = (*locks.StampedWriteLock)(nil)
)

func testWriteView(t *testing.T, sl *locks.StampedLock, v stampedView) {
	for _, lock := range viewLockers(t, v) {
		lock()
		if !sl.IsWriteLocked() || sl.IsReadLocked() || v.TryLock() {
			t.Fatalf("write view: %v", sl)
		}
		v.Unlock()
		assertUnlocked(t, sl)
	}
}

func testReadView(t *testing.T, sl *locks.StampedLock, v stampedView) {
	for _, lock := range viewLockers(t, v) {
		lock()
		if !sl.IsReadLocked() || sl.IsWriteLocked() || sl.ReadLockCount() != 1 {
			t.Fatalf("read view: %v", sl)
		}
		lock()
		if sl.ReadLockCount() != 2 {
			t.Fatalf("read view twice: %v", sl)
		}
		v.Unlock()
		v.Unlock()
		assertUnlocked(t, sl)
	}
}

func TestStampedLock_testAsWriteLock(t *testing.T) {
	var sl locks.StampedLock
	testWriteView(t, &sl, sl.AsWriteLock())
}

func TestStampedLock_testAsReadLock(t *testing.T) {
	var sl locks.StampedLock
	testReadView(t, &sl, sl.AsReadLock())
}

func TestStampedLock_testAsReadWriteLockWriteLock(t *testing.T) {
	var sl locks.StampedLock
	testWriteView(t, &sl, sl.AsReadWriteLock().WriteLock())
}

func TestStampedLock_testAsReadWriteLockReadLock(t *testing.T) {
	var sl locks.StampedLock
	testReadView(t, &sl, sl.AsReadWriteLock().ReadLock())
}

func TestStampedLock_testLockViewsDoNotSupportConditions(t *testing.T) {
	var sl locks.StampedLock
	testutil.MustPanic(t, locks.ErrUnsupported, func() { sl.AsWriteLock().NewCondition() })
	testutil.MustPanic(t, locks.ErrUnsupported, func() { sl.AsReadLock().NewCondition() })
	testutil.MustPanic(t, locks.ErrUnsupported, func() { sl.AsReadWriteLock().WriteLock().NewCondition() })
	testutil.MustPanic(t, locks.ErrUnsupported, func() { sl.AsReadWriteLock().ReadLock().NewCondition() })
}

func TestStampedLockViewUnlockWhenNotHeldPanicsIMSE(t *testing.T) {
	var sl locks.StampedLock
	testutil.MustPanic(t, locks.ErrIllegalMonitorState, sl.AsWriteLock().Unlock)
	testutil.MustPanic(t, locks.ErrIllegalMonitorState, sl.AsReadLock().Unlock)
	s := sl.ReadLock()
	testutil.MustPanic(t, locks.ErrIllegalMonitorState, sl.AsWriteLock().Unlock)
	sl.UnlockRead(s)
	s = sl.WriteLock()
	testutil.MustPanic(t, locks.ErrIllegalMonitorState, sl.AsReadLock().Unlock)
	sl.UnlockWrite(s)
	assertUnlocked(t, &sl)
}

func TestStampedLock_testCannotUnlockOptimisticReadStamps(t *testing.T) {
	imse := func(f func()) { t.Helper(); testutil.MustPanic(t, locks.ErrIllegalMonitorState, f) }
	{
		var sl locks.StampedLock
		s := assertValid(t, &sl, sl.TryOptimisticRead())
		imse(func() { sl.UnlockRead(s) })
		imse(func() { sl.Unlock(s) })
		sl.WriteLock()
		imse(func() { sl.Unlock(s) })
	}
	{
		var sl locks.StampedLock
		sl.ReadLock()
		s := assertValid(t, &sl, sl.TryOptimisticRead())
		imse(func() { sl.UnlockRead(s) })
		imse(func() { sl.Unlock(s) })
	}
	writeLock := func(sl *locks.StampedLock) int64 { return sl.WriteLock() }
	readLock := func(sl *locks.StampedLock) int64 { return sl.ReadLock() }
	secondRead := func(sl *locks.StampedLock) int64 { sl.ReadLock(); return sl.ReadLock() }
	for _, c := range []struct {
		from, then func(*locks.StampedLock) int64
	}{
		{writeLock, writeLock}, {writeLock, readLock},
		{readLock, writeLock}, {readLock, readLock},
		{secondRead, readLock}, // a reader still holds: only another reader can get in
	} {
		var sl locks.StampedLock
		s := assertValid(t, &sl, sl.TryConvertToOptimisticRead(c.from(&sl)))
		c.then(&sl)
		imse(func() { sl.UnlockWrite(s) })
		imse(func() { sl.UnlockRead(s) })
		imse(func() { sl.Unlock(s) })
	}
}

func TestStampedLock_testInvalidStampsThrowIllegalMonitorStateException(t *testing.T) {
	imse := func(f func()) { t.Helper(); testutil.MustPanic(t, locks.ErrIllegalMonitorState, f) }
	var sl locks.StampedLock
	imse(func() { sl.UnlockWrite(0) })
	imse(func() { sl.UnlockRead(0) })
	imse(func() { sl.Unlock(0) })
	optimistic := sl.TryOptimisticRead()
	read := sl.ReadLock()
	sl.UnlockRead(read)
	write := sl.WriteLock()
	sl.UnlockWrite(write)
	stale := []int64{optimistic, read, write}
	assertStale := func() {
		t.Helper()
		for _, s := range stale {
			imse(func() { sl.UnlockWrite(s) })
			imse(func() { sl.UnlockRead(s) })
			imse(func() { sl.Unlock(s) })
		}
	}
	assertStale()
	for _, lk := range readLockers() {
		for _, ul := range readUnlockers() {
			s := assertValid(t, &sl, lk.lock(t, &sl))
			assertStale()
			imse(func() { sl.UnlockWrite(s) })
			imse(func() { sl.UnlockRead(sl.TryOptimisticRead()) })
			imse(func() { sl.UnlockRead(0) })
			ul.unlock(t, &sl, s)
			assertUnlocked(t, &sl)
			assertStale()
		}
	}
	for _, lk := range writeLockers() {
		for _, ul := range writeUnlockers() {
			s := assertValid(t, &sl, lk.lock(t, &sl))
			assertStale()
			imse(func() { sl.UnlockRead(s) })
			imse(func() { sl.UnlockWrite(0) })
			ul.unlock(t, &sl, s)
			assertUnlocked(t, &sl)
			assertStale()
		}
	}
}

// Read locks nest past the 126 readers the state word counts (into the overflow count).
func TestStampedLock_testDeeplyNestedReadLocks(t *testing.T) {
	var l locks.StampedLock
	const depth = 300
	lks, uls := readLockers(), readUnlockers()
	stamps := make([]int64, depth)
	for i := range depth {
		stamps[i] = lks[i%len(lks)].lock(t, &l)
		if l.ReadLockCount() != int64(i+1) || !l.IsReadLocked() {
			t.Fatalf("depth %d: ReadLockCount = %d", i+1, l.ReadLockCount())
		}
	}
	if l.TryWriteLock() != 0 {
		t.Fatal("write lock while 300 readers hold")
	}
	for i := range depth {
		if l.ReadLockCount() != int64(depth-i) {
			t.Fatalf("unlock %d: ReadLockCount = %d", i, l.ReadLockCount())
		}
		uls[i%len(uls)].unlock(t, &l, stamps[depth-1-i])
	}
	assertUnlocked(t, &l)
}

// Many threads read-locking and unlocking concurrently across the overflow boundary keep an
// exact count.
func TestStampedLockReaderOverflowUnderContention(t *testing.T) {
	var l locks.StampedLock
	const threads, holds = 8, 40 // 320 holds at the peak: past the 126 in the word
	start := locks.NewCountDownLatch(1)
	held := locks.NewCountDownLatch(threads)
	release := locks.NewCountDownLatch(1)
	var ths []*thread.Thread
	for i := range threads {
		ths = append(ths, kinds[i%2].start(func() {
			_ = start.Await()
			var ss []int64
			for range holds {
				ss = append(ss, l.ReadLock())
			}
			held.CountDown()
			_ = release.Await()
			for _, s := range ss {
				l.UnlockRead(s)
			}
		}))
	}
	start.CountDown()
	mustNot(t, held.Await())
	if got := l.ReadLockCount(); got != threads*holds {
		t.Fatalf("ReadLockCount = %d, want %d", got, threads*holds)
	}
	release.CountDown()
	testutil.Join(t, ths...)
	assertUnlocked(t, &l)
}

func TestStampedLock_testNonReentrant(t *testing.T) {
	var l locks.StampedLock
	s := l.WriteLock()
	for _, try := range []func() (int64, error){
		func() (int64, error) { return l.TryWriteLockTimeout(0) },
		func() (int64, error) { return l.TryReadLockTimeout(0) },
	} {
		if got, err := try(); got != 0 || err != nil {
			t.Fatalf("reentrant acquire = %#x, %v", got, err)
		}
	}
	assertValid(t, &l, s)
	l.UnlockWrite(s)
	s, err := l.TryWriteLockTimeout(24 * time.Hour)
	mustNot(t, err)
	if got, _ := l.TryWriteLockTimeout(0); got != 0 {
		t.Fatal("write lock is reentrant")
	}
	l.UnlockWrite(assertValid(t, &l, s))
	s = l.ReadLock()
	if got, _ := l.TryWriteLockTimeout(0); got != 0 {
		t.Fatal("read lock upgraded by TryWriteLock")
	}
	l.UnlockRead(assertValid(t, &l, s))
}

func TestStampedLock_testNoOwnership(t *testing.T) {
	for i, lk := range writeLockers() {
		for j, ul := range writeUnlockers() {
			var l locks.StampedLock
			s := lk.lock(t, &l)
			testutil.Join(t, kinds[(i+j)%2].start(func() {
				ul.unlock(t, &l, s)
				if l.IsWriteLocked() || l.Validate(s) {
					t.Errorf("%s/%s from another thread: %v", lk.name, ul.name, &l)
				}
			}))
		}
	}
}

// point is the StampedLock javadoc's sample, with the coordinates read optimistically, so
// atomically (see StampedLock's documentation).
type point struct {
	x, y atomic.Uint64 // math.Float64bits
	sl   locks.StampedLock
}

func (p *point) load() (float64, float64) {
	return math.Float64frombits(p.x.Load()), math.Float64frombits(p.y.Load())
}

func (p *point) set(x, y float64) {
	p.x.Store(math.Float64bits(x))
	p.y.Store(math.Float64bits(y))
}

func (p *point) move(dx, dy float64) {
	s := p.sl.WriteLock()
	defer p.sl.UnlockWrite(s)
	x, y := p.load()
	p.set(x+dx, y+dy)
}

func (p *point) distanceFromOrigin() float64 {
	s := p.sl.TryOptimisticRead()
	for {
		if s == 0 {
			s = p.sl.ReadLock()
		}
		x, y := p.load()
		if s = p.sl.TryConvertToOptimisticRead(s); s != 0 {
			return math.Hypot(x, y)
		}
	}
}

func (p *point) distanceFromOrigin2() float64 {
	s := p.sl.TryOptimisticRead()
	defer func() {
		if locks.IsReadLockStamp(s) {
			p.sl.UnlockRead(s)
		}
	}()
	for ; ; s = p.sl.ReadLock() {
		if s == 0 {
			continue
		}
		x, y := p.load()
		if p.sl.Validate(s) {
			return math.Hypot(x, y)
		}
	}
}

func (p *point) moveIfAtOrigin(nx, ny float64) {
	s := p.sl.ReadLock()
	defer func() { p.sl.Unlock(s) }()
	for {
		if x, y := p.load(); x != 0 || y != 0 {
			return
		}
		if ws := p.sl.TryConvertToWriteLock(s); ws != 0 {
			s = ws
			p.set(nx, ny)
			return
		}
		p.sl.UnlockRead(s)
		s = p.sl.WriteLock()
	}
}

func TestStampedLock_testSampleUsage(t *testing.T) {
	var p point
	p.move(3, 4)
	if d := p.distanceFromOrigin(); d != 5 {
		t.Fatalf("distance = %v", d)
	}
	p.moveIfAtOrigin(5, 12)
	if d := p.distanceFromOrigin2(); d != 5 {
		t.Fatalf("distance2 = %v", d)
	}
	var q point
	q.moveIfAtOrigin(5, 12)
	if d := q.distanceFromOrigin2(); d != 13 {
		t.Fatalf("moved distance = %v", d)
	}
	assertUnlocked(t, &q.sl)
}

func TestStampedLock_testStampStateInspectionMethods(t *testing.T) {
	type kind struct{ write, read, lock, optimistic bool }
	inspect := func(s int64) kind {
		return kind{locks.IsWriteLockStamp(s), locks.IsReadLockStamp(s), locks.IsLockStamp(s), locks.IsOptimisticReadStamp(s)}
	}
	var l locks.StampedLock
	check := func(s int64, want kind) {
		t.Helper()
		if got := inspect(s); got != want {
			t.Errorf("stamp %#x: %+v, want %+v", s, got, want)
		}
	}
	check(0, kind{})
	ws := l.WriteLock()
	check(ws, kind{write: true, lock: true})
	l.UnlockWrite(ws)
	check(ws, kind{write: true, lock: true})
	rs := l.ReadLock()
	check(rs, kind{read: true, lock: true})
	l.UnlockRead(rs)
	check(rs, kind{read: true, lock: true})
	os := l.TryOptimisticRead()
	rs = l.TryConvertToReadLock(os)
	ws = l.TryConvertToWriteLock(rs)
	for range 2 {
		check(os, kind{optimistic: true})
		check(rs, kind{read: true, lock: true})
		check(ws, kind{write: true, lock: true})
	}
	l.UnlockWrite(ws)
	assertUnlocked(t, &l)
}

// Optimistic readers never accept a torn snapshot: writers keep two words equal (and a third
// a function of them) under the write lock; readers check the invariant whenever Validate
// says their reads were consistent. Readers and writers mix virtual and platform threads, and
// some readers fall back to read locks and conversions.
func TestStampedLockStressOptimisticReadsNeverSeeTornWrites(t *testing.T) {
	for seed := range uint64(4) {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			var (
				l       locks.StampedLock
				a, b, c atomic.Int64
				stop    atomic.Bool
				valid   atomic.Int64
			)
			writer := func(r *rand.Rand) {
				for i := int64(1); !stop.Load(); i++ {
					s := l.WriteLock()
					a.Store(i)
					if r.IntN(4) == 0 {
						thread.Yield() // widen the window a torn read would need
					}
					b.Store(i)
					c.Store(3 * i)
					if r.IntN(2) == 0 {
						l.UnlockWrite(s)
					} else {
						l.Unlock(l.TryConvertToReadLock(s)) // write -> read -> unlock
					}
					if r.IntN(8) == 0 {
						_ = thread.Sleep(20 * time.Microsecond) // leave readers windows to validate in
					}
				}
			}
			reader := func(r *rand.Rand) {
				for !stop.Load() {
					s := l.TryOptimisticRead()
					x, y, z := a.Load(), b.Load(), c.Load()
					if l.Validate(s) && s != 0 {
						valid.Add(1)
						if x != y || z != 3*x {
							t.Errorf("torn snapshot validated: %d %d %d", x, y, z)
							stop.Store(true)
						}
						continue
					}
					if r.IntN(2) == 0 {
						rs := l.ReadLock()
						if x, y, z := a.Load(), b.Load(), c.Load(); x != y || z != 3*x {
							t.Errorf("torn snapshot under read lock: %d %d %d", x, y, z)
						}
						l.UnlockRead(rs)
					}
				}
			}
			var ths []*thread.Thread
			for i := range 6 {
				r := rand.New(rand.NewPCG(seed, uint64(i)))
				f := reader
				if i < 2 {
					f = writer
				}
				ths = append(ths, kinds[i%2].start(func() { f(r) }))
			}
			// Run for 150 ms, and on until readers have validated enough (a loaded machine).
			for start := time.Now(); time.Since(start) < 150*time.Millisecond ||
				valid.Load() < 1000 && time.Since(start) < longWait; {
				time.Sleep(5 * time.Millisecond)
			}
			stop.Store(true)
			testutil.Join(t, ths...)
			if valid.Load() == 0 {
				t.Error("no optimistic read validated")
			}
			assertUnlocked(t, &l)
		})
	}
}
