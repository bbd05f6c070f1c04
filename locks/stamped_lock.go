package locks

import (
	"fmt"
	"math"
	"runtime"
	"sync/atomic"
	"time"

	"github.com/loomgo/loom/internal/rt"
	"github.com/loomgo/loom/internal/waitq"
	"github.com/loomgo/loom/thread"
)

// StampedLock, as java.util.concurrent.locks.StampedLock.
//
// # Model
//
// The whole lock is one 64-bit word, laid out as Java's:
//
//	bits 0-6  reader count (0..126; 127 means "the overflow count is being updated")
//	bit  7    write-locked (wBit)
//	bits 8-63 version: advanced by every write unlock (origin is 256; it never returns to 0)
//
// A stamp is a value of that word. A write stamp is the word right after the write lock was
// taken (wBit set); a read stamp has a non-zero reader count; an optimistic stamp is the word's
// version bits (sBits) at a moment it was not write-locked. Stamps are never 0, which is what
// the Try methods return on failure. Readers beyond 126 are counted in readerOverflow, updated
// by whoever CASes the reader bits from 126 to 127 (a tiny spin lock) and stores them back.
//
// Locking is a CAS on the word. A thread that cannot have the lock now queues on a waitq.Queue
// (writers exclusively, readers shared) whose Sync tries the same CAS, and parks (a virtual
// thread unmounts). A write unlock and the last read unlock call Wake. Writers barge (a writer
// arriving just as the lock frees takes it ahead of the queue), and readLock's first CAS
// barges too, as Java's do; a reader that misses it waits behind a queued writer, so writers
// are not starved by a stream of readers.
//
// # Why nothing is lost
//
// Wake-ups are the wait queue's argument (internal/waitq): a waiter is queued before its first
// try, and an unlock changes the word before it looks for a queued thread, so with Go's
// sequentially consistent atomics one of the two sees the other; the park permit covers the
// window between a failed try and the park. Shared acquires propagate: a reader that gets the
// lock as first node wakes the node behind it.
//
// Optimistic reads: a reader loads the word (R1: version v, wBit clear), reads the protected
// data (R2), then validate loads the word again (R3) and compares versions. A writer CASes wBit
// in (W1), writes the data (W2), and stores the next version (W3). Every one of these is a
// sync/atomic operation, and Go's atomics are sequentially consistent: all of them fall in one
// total order consistent with each goroutine's program order. If R3 sees version v, no W1 lies
// between R1 and R3 (a W1 there would have set wBit or advanced the version, which never comes
// back to v). So every writer's W2s lie wholly before R1 (its W3 precedes R1, as R1 saw wBit
// clear) or wholly after R3: R2 saw one consistent snapshot. This is what Java's
// validate gets from its load fence; Go needs no fence, but it does need the data reads in R2
// to be sync/atomic loads (atomic.Int64, atomic.Pointer, ...): a plain read racing a writer is
// a data race under the Go memory model and is reported by the race detector, even though the
// validation would throw its result away.
//
// The lock is not reentrant and has no owner, as in Java: a thread that holds the write lock
// and asks for it again waits forever, and any thread may unlock with a valid stamp.

const (
	lgReaders       = 7
	rUnit     int64 = 1
	wBit            = int64(1) << lgReaders
	rBits           = wBit - 1
	rFull           = rBits - 1
	aBits           = rBits | wBit
	sBits           = ^rBits
	// rSafe clears the bits that make the one-CAS read fast path unsafe: write-locked, or 64
	// or more readers (near the overflow).
	rSafe  = ^(int64(3) << (lgReaders - 1))
	origin = wBit << 1
)

// A StampedLock is a capability-based lock with three modes: writing, reading, and optimistic
// reading. Each lock method returns a stamp that the matching unlock takes; the Try forms
// return 0 when they fail. It ports java.util.concurrent.locks.StampedLock. The zero value is
// an unlocked lock. A StampedLock must not be copied after first use.
//
// Optimistic reading ([StampedLock.TryOptimisticRead] then [StampedLock.Validate]) costs two
// atomic loads and never blocks writers; the fields read under it must be read with sync/atomic
// (see the comment on the type's implementation for the happens-before argument). Unlike
// [ReentrantReadWriteLock], a StampedLock is not reentrant, has no owner (any thread may
// unlock with a valid stamp) and has no conditions. A virtual thread waiting for the lock
// unmounts. An unlock synchronizes before the lock acquisition that follows it, and a write
// unlock before every Validate that fails because of it.
type StampedLock struct {
	_              noCopy
	enc            atomic.Int64 // the state word XOR origin, so that the zero value is Java's initial state
	readerOverflow atomic.Int64 // readers beyond rFull; written only by the rBits spin-lock holder
	q              waitq.Queue
}

func (l *StampedLock) load() int64             { return l.enc.Load() ^ origin }
func (l *StampedLock) cas(old, new int64) bool { return l.enc.CompareAndSwap(old^origin, new^origin) }
func (l *StampedLock) store(s int64)           { l.enc.Store(s ^ origin) }

// stampedAcquire is the waitq.Sync of one queued acquire: it remembers the stamp of the CAS
// that succeeded. Only the waiting thread calls it.
type stampedAcquire struct {
	l     *StampedLock
	stamp int64
}

func (a *stampedAcquire) TryAcquire(*thread.Thread, int64) bool {
	a.stamp = a.l.tryAcquireWrite()
	return a.stamp != 0
}

func (a *stampedAcquire) TryAcquireShared(*thread.Thread, int64) int64 {
	if a.stamp = a.l.tryAcquireRead(); a.stamp == 0 {
		return -1
	}
	return 1 // a reader behind may get in too
}

func (l *StampedLock) tryAcquireWrite() int64 {
	if s := l.load(); s&aBits == 0 && l.cas(s, s|wBit) {
		return s | wBit
	}
	return 0
}

func (l *StampedLock) tryAcquireRead() int64 {
	for {
		s := l.load()
		m := s & aBits
		switch {
		case m < rFull:
			if l.cas(s, s+rUnit) {
				return s + rUnit
			}
		case m == wBit:
			return 0
		default:
			if next := l.tryIncReaderOverflow(s); next != 0 {
				return next
			}
		}
	}
}

// tryIncReaderOverflow counts one more reader when the reader bits are full. It returns 0 if
// it must be retried (another thread holds the overflow spin lock, or the word changed).
func (l *StampedLock) tryIncReaderOverflow(s int64) int64 {
	if s&aBits != rFull {
		runtime.Gosched() // Java: Thread.onSpinWait
		return 0
	}
	if !l.cas(s, s|rBits) {
		return 0
	}
	if l.readerOverflow.Load() == math.MaxInt64 {
		l.store(s)
		panic(fmt.Errorf("%w: stamped lock read count", ErrMaxCount))
	}
	l.readerOverflow.Add(1)
	l.store(s)
	return s
}

// tryDecReaderOverflow removes one reader when the reader bits are full; 0 means retry.
func (l *StampedLock) tryDecReaderOverflow(s int64) int64 {
	if s&aBits != rFull {
		runtime.Gosched()
		return 0
	}
	if !l.cas(s, s|rBits) {
		return 0
	}
	next := s - rUnit
	if l.readerOverflow.Load() > 0 {
		l.readerOverflow.Add(-1)
		next = s
	}
	l.store(next)
	return next
}

// acquire queues the current thread until it gets the lock (shared: for reading), the timeout
// elapses (timeout < 0: never) or, if interruptible, it is interrupted. It returns the stamp,
// or 0 and the reason.
func (l *StampedLock) acquire(shared, interruptible bool, timeout time.Duration) (int64, error) {
	a := stampedAcquire{l: l}
	ok, err := l.q.Acquire(&a, 1, shared, waitq.Wait{Timeout: timeout, Interruptible: interruptible, Reason: rt.ParkWaiting, Blocker: l})
	if !ok {
		return 0, err
	}
	return a.stamp, nil
}

// WriteLock acquires the lock exclusively, blocking until it is available, and returns a
// write stamp for UnlockWrite or a conversion. A virtual thread unmounts while it waits. It is
// not interruptible: an interrupt while waiting sets the status on return. It ports
// StampedLock.writeLock().
func (l *StampedLock) WriteLock() int64 {
	if s := l.load() &^ aBits; l.cas(s, s|wBit) {
		return s | wBit
	}
	if s := l.tryAcquireWrite(); s != 0 {
		return s
	}
	s, _ := l.acquire(false, false, -1)
	return s
}

// TryWriteLock acquires the lock exclusively if it is immediately available, returning a
// write stamp, or 0 if it is not. It ports StampedLock.tryWriteLock().
func (l *StampedLock) TryWriteLock() int64 { return l.tryAcquireWrite() }

// TryWriteLockTimeout acquires the lock exclusively if it becomes available within d,
// returning a write stamp, or 0 when d elapses first (d <= 0 only tries). If the current thread
// is interrupted before (even when the lock is free) or while waiting, it returns 0,
// [thread.ErrInterrupted] and clears the status. It ports StampedLock.tryWriteLock(long,
// TimeUnit).
func (l *StampedLock) TryWriteLockTimeout(d time.Duration) (int64, error) {
	if interrupted() {
		return 0, thread.ErrInterrupted
	}
	if s := l.tryAcquireWrite(); s != 0 || d <= 0 {
		return s, nil
	}
	return l.acquire(false, true, d)
}

// WriteLockInterruptibly is [WriteLock] that gives up when the current thread is interrupted,
// before or while waiting: it then returns 0, [thread.ErrInterrupted], and clears the status. It
// ports StampedLock.writeLockInterruptibly().
func (l *StampedLock) WriteLockInterruptibly() (int64, error) {
	if interrupted() {
		return 0, thread.ErrInterrupted
	}
	if s := l.tryAcquireWrite(); s != 0 {
		return s, nil
	}
	return l.acquire(false, true, -1)
}

// ReadLock acquires the lock for reading (shared with other readers), blocking while it is
// write-locked, and returns a read stamp for UnlockRead or a conversion. A reader that has to
// wait queues behind waiting writers. It is not interruptible. It ports StampedLock.readLock().
func (l *StampedLock) ReadLock() int64 {
	if s := l.load() & rSafe; l.cas(s, s+rUnit) {
		return s + rUnit
	}
	if !l.q.HasQueuedThreads() {
		if s := l.tryAcquireRead(); s != 0 {
			return s
		}
	}
	s, _ := l.acquire(true, false, -1)
	return s
}

// TryReadLock acquires the lock for reading if it is not write-locked, returning a read stamp,
// or 0 if it is. It ports StampedLock.tryReadLock().
func (l *StampedLock) TryReadLock() int64 { return l.tryAcquireRead() }

// TryReadLockTimeout acquires the lock for reading if that becomes possible within d,
// returning a read stamp, or 0 when d elapses first (d <= 0 only tries). It returns 0,
// [thread.ErrInterrupted] and clears the status if the current thread is interrupted before or
// while waiting. It ports StampedLock.tryReadLock(long, TimeUnit).
func (l *StampedLock) TryReadLockTimeout(d time.Duration) (int64, error) {
	if interrupted() {
		return 0, thread.ErrInterrupted
	}
	if s := l.tryAcquireRead(); s != 0 || d <= 0 {
		return s, nil
	}
	return l.acquire(true, true, d)
}

// ReadLockInterruptibly is [ReadLock] that gives up when the current thread is interrupted,
// before or while waiting: it then returns 0, [thread.ErrInterrupted], and clears the status. It
// ports StampedLock.readLockInterruptibly().
func (l *StampedLock) ReadLockInterruptibly() (int64, error) {
	if interrupted() {
		return 0, thread.ErrInterrupted
	}
	if !l.q.HasQueuedThreads() {
		if s := l.tryAcquireRead(); s != 0 {
			return s, nil
		}
	}
	return l.acquire(true, true, -1)
}

// TryOptimisticRead returns a stamp to validate later, or 0 if the lock is write-locked. It
// never blocks and changes nothing. It ports StampedLock.tryOptimisticRead().
func (l *StampedLock) TryOptimisticRead() int64 {
	// A branch, not a branch-free mask: uncontended, it is always predicted, and it costs less.
	if s := l.load(); s&wBit == 0 {
		return s & sBits
	}
	return 0
}

// Validate reports whether the lock has not been write-locked since stamp was issued; it is
// always true for the stamp of a lock still held, and false for 0. After an optimistic read,
// a true result means the values read (with sync/atomic) since TryOptimisticRead are a
// consistent snapshot. It ports StampedLock.validate.
func (l *StampedLock) Validate(stamp int64) bool {
	// stamp&sBits == state&sBits, with state = enc^origin, and origin within sBits.
	return (stamp^l.enc.Load())&sBits == origin
}

// unlockedState is write-locked state s unlocked: wBit cleared by carrying it into the
// version, which skips 0 when it wraps.
func unlockedState(s int64) int64 {
	if s += wBit; s == 0 {
		return origin
	}
	return s
}

// releaseWrite unlocks write-locked state s and wakes the queue.
func (l *StampedLock) releaseWrite(s int64) int64 {
	next := unlockedState(s)
	l.store(next)
	l.q.Wake()
	return next
}

// UnlockWrite releases the write lock held with stamp. It panics with [ErrIllegalMonitorState]
// if stamp is not the lock's current write stamp. It ports StampedLock.unlockWrite.
func (l *StampedLock) UnlockWrite(stamp int64) {
	if l.load() != stamp || stamp&wBit == 0 {
		panicIMSE()
	}
	l.releaseWrite(stamp)
}

// UnlockRead releases one read hold taken with stamp. It panics with [ErrIllegalMonitorState] if
// stamp is not a read stamp of the lock's current version or the lock is not read-locked. It
// ports StampedLock.unlockRead.
func (l *StampedLock) UnlockRead(stamp int64) {
	if stamp&rBits != 0 {
		for {
			s := l.load()
			m := s & rBits
			if s&sBits != stamp&sBits || m == 0 {
				break
			}
			if m < rFull {
				if l.cas(s, s-rUnit) {
					if m == rUnit {
						l.q.Wake()
					}
					return
				}
			} else if l.tryDecReaderOverflow(s) != 0 {
				return
			}
		}
	}
	panicIMSE()
}

// Unlock releases the lock mode that stamp holds: UnlockWrite for a write stamp, else
// UnlockRead. It panics with [ErrIllegalMonitorState] as they do. It ports StampedLock.unlock.
func (l *StampedLock) Unlock(stamp int64) {
	if stamp&wBit != 0 {
		l.UnlockWrite(stamp)
		return
	}
	l.UnlockRead(stamp)
}

// TryConvertToWriteLock returns a write stamp for the mode stamp holds, or 0: a write stamp
// converts to itself; a read stamp converts if the caller is the only reader (its read hold
// becomes the write lock); an optimistic stamp converts if the lock is free and unchanged
// since stamp. It never blocks. It ports StampedLock.tryConvertToWriteLock.
func (l *StampedLock) TryConvertToWriteLock(stamp int64) int64 {
	a := stamp & aBits
	for {
		s := l.load()
		if s&sBits != stamp&sBits {
			return 0
		}
		switch m := s & aBits; {
		case m == 0:
			if a != 0 {
				return 0
			}
			if l.cas(s, s|wBit) {
				return s | wBit
			}
		case m == wBit:
			if a != m {
				return 0
			}
			return stamp
		case m == rUnit && a != 0:
			if next := s - rUnit + wBit; l.cas(s, next) {
				return next
			}
		default:
			return 0
		}
	}
}

// TryConvertToReadLock returns a read stamp for the mode stamp holds, or 0: a write stamp
// converts by releasing the write lock and taking a read hold (waking waiting readers); a read
// stamp converts to itself; an optimistic stamp converts if the lock is not write-locked and
// unchanged since stamp. It never blocks. It ports StampedLock.tryConvertToReadLock.
func (l *StampedLock) TryConvertToReadLock(stamp int64) int64 {
	for {
		s := l.load()
		if s&sBits != stamp&sBits {
			return 0
		}
		switch a := stamp & aBits; {
		case a >= wBit:
			if s != stamp {
				return 0
			}
			// The write lock becomes a read hold in one store (we hold the lock, nobody else
			// writes the word); then the queued readers may share it.
			next := unlockedState(s) + rUnit
			l.store(next)
			l.q.Wake()
			return next
		case a == 0:
			if s&aBits < rFull {
				if l.cas(s, s+rUnit) {
					return s + rUnit
				}
			} else if next := l.tryIncReaderOverflow(s); next != 0 {
				return next
			}
		default:
			if s&aBits == 0 {
				return 0
			}
			return stamp
		}
	}
}

// TryConvertToOptimisticRead releases the lock mode stamp holds and returns an optimistic
// stamp (validating from now on), or 0 if stamp does not hold the lock. An optimistic stamp
// that still validates converts to itself. It ports StampedLock.tryConvertToOptimisticRead.
func (l *StampedLock) TryConvertToOptimisticRead(stamp int64) int64 {
	for {
		s := l.load()
		if s&sBits != stamp&sBits {
			return 0
		}
		a := stamp & aBits
		m := s & aBits
		switch {
		case a >= wBit:
			if s != stamp {
				return 0
			}
			return l.releaseWrite(s)
		case a == 0:
			return stamp
		case m == 0:
			return 0
		case m < rFull:
			if l.cas(s, s-rUnit) {
				if m == rUnit {
					l.q.Wake()
				}
				return (s - rUnit) & sBits
			}
		default:
			if next := l.tryDecReaderOverflow(s); next != 0 {
				return next & sBits
			}
		}
	}
}

// TryUnlockWrite releases the write lock if it is held, without a stamp, and reports whether
// it was. It is for recovery after errors. It ports StampedLock.tryUnlockWrite.
func (l *StampedLock) TryUnlockWrite() bool {
	if s := l.load(); s&wBit != 0 {
		l.releaseWrite(s)
		return true
	}
	return false
}

// TryUnlockRead releases one read hold if the lock is read-locked, without a stamp, and
// reports whether it was. It ports StampedLock.tryUnlockRead.
func (l *StampedLock) TryUnlockRead() bool {
	for {
		s := l.load()
		m := s & aBits
		if m == 0 || m >= wBit {
			return false
		}
		if m < rFull {
			if l.cas(s, s-rUnit) {
				if m == rUnit {
					l.q.Wake()
				}
				return true
			}
		} else if l.tryDecReaderOverflow(s) != 0 {
			return true
		}
	}
}

// IsWriteLocked reports whether the lock is held exclusively. It ports
// StampedLock.isWriteLocked.
func (l *StampedLock) IsWriteLocked() bool { return l.load()&wBit != 0 }

// IsReadLocked reports whether the lock is held for reading. It ports
// StampedLock.isReadLocked.
func (l *StampedLock) IsReadLocked() bool { return l.load()&rBits != 0 }

// ReadLockCount returns the number of read holds (a snapshot). It ports
// StampedLock.getReadLockCount.
func (l *StampedLock) ReadLockCount() int64 { return l.readLockCount(l.load()) }

func (l *StampedLock) readLockCount(s int64) int64 {
	m := s & rBits
	if m >= rFull {
		return rFull + l.readerOverflow.Load()
	}
	return m
}

// String returns "[StampedLock]@<addr>[Unlocked]", "...[Write-locked]" or "...[Read-locks:N]", as
// Java's toString.
func (l *StampedLock) String() string {
	s := l.load()
	state := "[Unlocked]"
	switch {
	case s&wBit != 0:
		state = "[Write-locked]"
	case s&rBits != 0:
		state = fmt.Sprintf("[Read-locks:%d]", l.readLockCount(s))
	}
	return fmt.Sprintf("StampedLock@%p%s", l, state)
}

// IsWriteLockStamp reports whether stamp was returned by a successful write-lock operation
// (whether or not the lock is still held). It ports StampedLock.isWriteLockStamp.
func IsWriteLockStamp(stamp int64) bool { return stamp&aBits == wBit }

// IsReadLockStamp reports whether stamp was returned by a successful read-lock operation. It
// ports StampedLock.isReadLockStamp.
func IsReadLockStamp(stamp int64) bool { return stamp&rBits != 0 }

// IsLockStamp reports whether stamp was returned by a successful read- or write-lock
// operation. It ports StampedLock.isLockStamp.
func IsLockStamp(stamp int64) bool { return stamp&aBits != 0 }

// IsOptimisticReadStamp reports whether stamp was returned by a successful optimistic read.
// It ports StampedLock.isOptimisticReadStamp.
func IsOptimisticReadStamp(stamp int64) bool { return stamp&aBits == 0 && stamp != 0 }

// StampedReadLock is a [StampedLock] seen as a plain lock in read mode, without stamps: Lock
// takes a read hold and Unlock releases one (any one: the lock has no owner). It implements
// [sync.Locker]. It ports the Lock returned by StampedLock.asReadLock().
type StampedReadLock StampedLock

// StampedWriteLock is a [StampedLock] seen as a plain lock in write mode, without stamps. It
// implements [sync.Locker]. It ports the Lock returned by StampedLock.asWriteLock().
type StampedWriteLock StampedLock

// StampedReadWriteLock is a [StampedLock] seen as a read-write lock pair. It ports the
// ReadWriteLock returned by StampedLock.asReadWriteLock().
type StampedReadWriteLock StampedLock

// AsReadLock returns the lock's read-mode view. It ports StampedLock.asReadLock().
func (l *StampedLock) AsReadLock() *StampedReadLock { return (*StampedReadLock)(l) }

// AsWriteLock returns the lock's write-mode view. It ports StampedLock.asWriteLock().
func (l *StampedLock) AsWriteLock() *StampedWriteLock { return (*StampedWriteLock)(l) }

// AsReadWriteLock returns the lock's read-write view. It ports StampedLock.asReadWriteLock().
func (l *StampedLock) AsReadWriteLock() *StampedReadWriteLock { return (*StampedReadWriteLock)(l) }

// ReadLock returns the read-mode view. It ports ReadWriteLock.readLock().
func (v *StampedReadWriteLock) ReadLock() *StampedReadLock { return (*StampedReadLock)(v) }

// WriteLock returns the write-mode view. It ports ReadWriteLock.writeLock().
func (v *StampedReadWriteLock) WriteLock() *StampedWriteLock { return (*StampedWriteLock)(v) }

// Lock takes a read hold as [StampedLock.ReadLock] does.
func (v *StampedReadLock) Lock() { (*StampedLock)(v).ReadLock() }

// LockInterruptibly takes a read hold as [StampedLock.ReadLockInterruptibly] does.
func (v *StampedReadLock) LockInterruptibly() error {
	_, err := (*StampedLock)(v).ReadLockInterruptibly()
	return err
}

// TryLock takes a read hold if the lock is not write-locked, and reports whether it did.
func (v *StampedReadLock) TryLock() bool { return (*StampedLock)(v).TryReadLock() != 0 }

// TryLockTimeout is [StampedLock.TryReadLockTimeout], reporting success as a bool.
func (v *StampedReadLock) TryLockTimeout(d time.Duration) (bool, error) {
	s, err := (*StampedLock)(v).TryReadLockTimeout(d)
	return s != 0, err
}

// Unlock releases one read hold, with no stamp. It panics with [ErrIllegalMonitorState] if the
// lock is not read-locked. It ports the view's unlock (StampedLock.unstampedUnlockRead).
func (v *StampedReadLock) Unlock() {
	if !(*StampedLock)(v).TryUnlockRead() {
		panicIMSE()
	}
}

// NewCondition panics with [ErrUnsupported]: stamped locks have no conditions, as in Java.
func (v *StampedReadLock) NewCondition() *Condition {
	panic(fmt.Errorf("%w: stamped locks do not support conditions", ErrUnsupported))
}

// Lock takes the write lock as [StampedLock.WriteLock] does.
func (v *StampedWriteLock) Lock() { (*StampedLock)(v).WriteLock() }

// LockInterruptibly takes the write lock as [StampedLock.WriteLockInterruptibly] does.
func (v *StampedWriteLock) LockInterruptibly() error {
	_, err := (*StampedLock)(v).WriteLockInterruptibly()
	return err
}

// TryLock takes the write lock if it is free, and reports whether it did.
func (v *StampedWriteLock) TryLock() bool { return (*StampedLock)(v).TryWriteLock() != 0 }

// TryLockTimeout is [StampedLock.TryWriteLockTimeout], reporting success as a bool.
func (v *StampedWriteLock) TryLockTimeout(d time.Duration) (bool, error) {
	s, err := (*StampedLock)(v).TryWriteLockTimeout(d)
	return s != 0, err
}

// Unlock releases the write lock, with no stamp. It panics with [ErrIllegalMonitorState] if the
// lock is not write-locked. It ports the view's unlock (StampedLock.unstampedUnlockWrite).
func (v *StampedWriteLock) Unlock() {
	if !(*StampedLock)(v).TryUnlockWrite() {
		panicIMSE()
	}
}

// NewCondition panics with [ErrUnsupported]: stamped locks have no conditions, as in Java.
func (v *StampedWriteLock) NewCondition() *Condition {
	panic(fmt.Errorf("%w: stamped locks do not support conditions", ErrUnsupported))
}
