package locks

import (
	"fmt"
	"time"

	"github.com/loomgo/loom/internal/rt"
	"github.com/loomgo/loom/internal/waitq"
	"github.com/loomgo/loom/thread"
	"github.com/petermattis/goid"
)

// A ReentrantLock is a reentrant mutual-exclusion lock owned by a thread: the thread that
// locked it last and has not yet unlocked it as many times. It ports
// java.util.concurrent.locks.ReentrantLock. The zero value is an unlocked non-fair lock;
// [NewReentrantLock](true) makes a fair one. A ReentrantLock must not be copied after first use.
//
// Waiting threads queue in FIFO order. A non-fair lock lets a thread that arrives just as the
// lock is released take it ahead of the queue (barging), which gives much better throughput; a
// fair lock grants it to the longest-waiting thread (TryLock still barges, as in Java).
//
// A virtual thread waiting for the lock unmounts (unless it is pinned, e.g. inside a Monitor
// under PinSynchronized). Unlike a [sync.Mutex], the lock knows its owner: only the owner may
// unlock it, and the owner may lock it again. Unlock synchronizes before the Lock that next
// acquires it. ReentrantLock implements [sync.Locker].
type ReentrantLock struct {
	_    noCopy
	s    exclusive
	fair bool
}

// NewReentrantLock returns an unlocked lock, fair or not. It ports new [ReentrantLock](fair).
func NewReentrantLock(fair bool) *ReentrantLock {
	return &ReentrantLock{fair: fair}
}

// Lock acquires the lock, blocking until it is free, and adds one hold if the current thread
// already owns it. A virtual thread unmounts while it waits. Lock is not interruptible: an
// interrupt while waiting is remembered and the interrupt status is set when Lock returns. It
// panics with [ErrMaxCount] past 2,147,483,647 holds. It ports ReentrantLock.lock().
func (l *ReentrantLock) Lock() { lockFast(l) } // see fastpath.go

// LockInterruptibly is Lock that gives up when the current thread is interrupted, before
// (even if the lock is free) or while waiting: it then returns [thread.ErrInterrupted], clears
// the interrupt status and holds nothing. It ports ReentrantLock.lockInterruptibly().
func (l *ReentrantLock) LockInterruptibly() error {
	if interrupted() {
		return thread.ErrInterrupted
	}
	if l.s.lock(rt.Checked(goid.Get()), l.fair) {
		return nil
	}
	_, err := l.s.q.Acquire(&l.s, 1, false, waitq.Wait{Timeout: -1, Interruptible: true, Reason: rt.ParkWaiting, Blocker: l})
	return err
}

// TryLock acquires the lock only if it is free or already owned by the current thread, and
// reports whether it did. It never waits, and it barges ahead of waiting threads even on a fair
// lock (use TryLockTimeout(0) to respect fairness). It ports ReentrantLock.tryLock().
func (l *ReentrantLock) TryLock() bool {
	return l.s.lock(gid(), false)
}

// TryLockTimeout acquires the lock if it becomes available within d, and reports whether it
// did; a virtual thread unmounts while it waits. It honours fairness: TryLockTimeout(0) on a
// fair lock with queued threads fails at once. If the current thread is interrupted before or
// while waiting it returns false, [thread.ErrInterrupted] and clears the interrupt status. On
// failure nothing is held. It ports ReentrantLock.tryLock(long, TimeUnit).
func (l *ReentrantLock) TryLockTimeout(d time.Duration) (bool, error) {
	if interrupted() {
		return false, thread.ErrInterrupted
	}
	if l.s.lock(gid(), l.fair) {
		return true, nil
	}
	if d <= 0 {
		return false, nil
	}
	return l.s.q.Acquire(&l.s, 1, false, waitq.Wait{Timeout: d, Interruptible: true, Reason: rt.ParkWaiting, Blocker: l})
}

// Unlock removes one hold; the lock is free when the last hold is removed, and the
// longest-waiting thread is then woken. It panics with [ErrIllegalMonitorState] if the current
// thread does not own the lock (including when it is unlocked). It ports ReentrantLock.unlock().
func (l *ReentrantLock) Unlock() { unlockFast(l) }

// NewCondition returns a new Condition bound to l. It ports ReentrantLock.newCondition().
func (l *ReentrantLock) NewCondition() *Condition {
	return &Condition{lock: l, s: &l.s, blocker: l}
}

// IsHeldByCurrentThread reports whether the current thread owns the lock. It ports
// ReentrantLock.isHeldByCurrentThread().
func (l *ReentrantLock) IsHeldByCurrentThread() bool { return l.s.heldByCurrent() }

// HoldCount returns the number of holds the current thread has on the lock: 0 if it does not
// own it. It ports ReentrantLock.getHoldCount().
func (l *ReentrantLock) HoldCount() int { return l.s.holdCount() }

// IsLocked reports whether any thread owns the lock. It ports ReentrantLock.isLocked().
func (l *ReentrantLock) IsLocked() bool { return l.s.isLocked() }

// IsFair reports whether the lock is fair. It ports ReentrantLock.isFair().
func (l *ReentrantLock) IsFair() bool { return l.fair }

// Owner returns the thread that owns the lock, or nil if it is free (a snapshot). It ports
// ReentrantLock.getOwner(); deadlock detection follows it from a thread's Blocker.
func (l *ReentrantLock) Owner() *thread.Thread { return l.s.ownerThread() }

// HasQueuedThreads reports whether any thread is waiting to acquire the lock (a snapshot). It
// ports ReentrantLock.hasQueuedThreads().
func (l *ReentrantLock) HasQueuedThreads() bool { return l.s.q.HasQueuedThreads() }

// HasQueuedThread reports whether t is waiting to acquire the lock. It panics with
// [thread.ErrNilArgument] if t is nil. It ports ReentrantLock.hasQueuedThread.
func (l *ReentrantLock) HasQueuedThread(t *thread.Thread) bool {
	if t == nil {
		panicNil("thread")
	}
	return l.s.q.Contains(t)
}

// QueueLength returns the number of threads waiting to acquire the lock (an estimate). It ports
// ReentrantLock.getQueueLength().
func (l *ReentrantLock) QueueLength() int { return l.s.q.Len() }

// QueuedThreads returns the threads waiting to acquire the lock, longest-waiting first. It
// ports ReentrantLock.getQueuedThreads().
func (l *ReentrantLock) QueuedThreads() []*thread.Thread { return l.s.q.Threads() }

// HasWaiters reports whether any thread is waiting on c. It panics with [thread.ErrNilArgument]
// if c is nil, [thread.ErrIllegalArgument] if c belongs to another lock, and
// [ErrIllegalMonitorState] if the current thread does not own l. It ports
// ReentrantLock.hasWaiters.
func (l *ReentrantLock) HasWaiters(c *Condition) bool {
	l.checkCondition(c)
	return l.s.q.HasWaiters(&c.c)
}

// WaitQueueLength returns the number of threads waiting on c; it panics as HasWaiters. It ports
// ReentrantLock.getWaitQueueLength.
func (l *ReentrantLock) WaitQueueLength(c *Condition) int {
	l.checkCondition(c)
	return l.s.q.WaitQueueLength(&c.c)
}

// WaitingThreads returns the threads waiting on c, longest-waiting first; it panics as
// HasWaiters. It ports ReentrantLock.getWaitingThreads.
func (l *ReentrantLock) WaitingThreads(c *Condition) []*thread.Thread {
	l.checkCondition(c)
	return l.s.q.WaitingThreads(&c.c)
}

func (l *ReentrantLock) checkCondition(c *Condition) {
	if c == nil {
		panicNil("condition")
	}
	if c.lock != l {
		panicIAE("not owner")
	}
	if !l.IsHeldByCurrentThread() {
		panicIMSE()
	}
}

// String returns "[ReentrantLock]@<addr>[Unlocked]" or "...[Locked by thread <name>]", as Java's
// toString.
func (l *ReentrantLock) String() string {
	return fmt.Sprintf("ReentrantLock@%p%s", l, lockState(l.s.ownerThread(), l.IsLocked()))
}

func lockState(o *thread.Thread, locked bool) string {
	if !locked {
		return "[Unlocked]"
	}
	name := ""
	if o != nil {
		name = o.Name()
	}
	return "[Locked by thread " + name + "]"
}
