package queue

import (
	"fmt"
	"sync/atomic"
	"time"

	"github.com/loomgo/loom/internal/rt"
	"github.com/loomgo/loom/internal/waitq"
	"github.com/loomgo/loom/thread"
)

// qlock is the lock of an [ArrayBlockingQueue], with its conditions ([qcond]): what Java's
// ArrayBlockingQueue gets from its private ReentrantLock, built on loom's one wait queue
// (internal/waitq) as package locks builds ReentrantLock, but with the current thread looked
// up once per operation and passed in.
//
// Why not a [locks.ReentrantLock]: that lock cannot be told who the caller is, so a put or a
// take paid for the caller's identity four times (the interrupt check on entry, the owner's
// goroutine id on lock, again on unlock, and the owner record when producer and consumer take
// turns), each a goroutine-id read or a thread look-up; on one carrier that was half the cost of
// moving an element (BenchmarkOneToOneVsChannel). Here one [thread.Current] serves the interrupt
// check and the owner record, and unlock checks nothing: only this package locks it, always in
// pairs.
//
// Measured with BenchmarkOneToOneVsChannel (one producer, one consumer, capacity 128): on one
// carrier 2.1x a buffered channel with the ReentrantLock, 1.4x with this lock (the owner a
// pointer to the Thread: 1.9x, its CAS and store pay GC write barriers; hence the thread id); on
// two carriers 1.3x and 0.9x. Unlike ReentrantLock, a contended lockSlow queues at once without
// spinning first: the queue's own spin (spinUntil) is where waiting for the partner pays, and
// ProducerConsumer with 8 producers and 8 consumers got faster, not slower.
//
// Behaviour is the ReentrantLock's: non-fair locks barge, fair ones do not while threads are
// queued; waiters park through [thread.Park] (a virtual thread unmounts); an interruptible
// acquire fails with [thread.ErrInterrupted] on entry or while queued; the lock is reentrant,
// since user code (the [WithEqual] function) runs under it and may use the queue.
type qlock struct {
	owner atomic.Int64 // the owner's thread id; 0: free (an id, not a pointer: no write barrier)
	extra int64        // the owner's holds beyond the first (reentry), guarded by the lock
	fair  bool
	q     waitq.Queue
}

var _ waitq.Owned = (*qlock)(nil)

// lockAs takes the lock for t, the current thread, waiting uninterruptibly if need be.
func (l *qlock) lockAs(t *thread.Thread) {
	if !l.tryFast(t) {
		l.lockSlow(t, false)
	}
}

// lockInterruptiblyAs takes the lock for t, the current thread, unless t is interrupted on
// entry or while waiting: then it returns [thread.ErrInterrupted] and clears the status.
func (l *qlock) lockInterruptiblyAs(t *thread.Thread) error {
	if !t.IsInterrupted() && l.tryFast(t) {
		return nil
	}
	return l.lockSlow(t, true)
}

// tryFast takes a non-fair lock that is free, with one CAS: the fast path of lockAs and
// lockInterruptiblyAs. Those two exceed the inliner's budget (a call with arguments costs most
// of it), so the queue's hot paths write them out: tryFast, then lockSlow if it fails.
func (l *qlock) tryFast(t *thread.Thread) bool {
	return !l.fair && l.owner.CompareAndSwap(0, t.ThreadID())
}

// lockSlow is the rest of lockAs and lockInterruptiblyAs: the interrupt check on entry, the
// fair lock's barging rule, reentry, and the wait.
//
//go:noinline
func (l *qlock) lockSlow(t *thread.Thread, interruptible bool) error {
	if interruptible && t.IsInterrupted() && thread.Interrupted() {
		return thread.ErrInterrupted
	}
	id := t.ThreadID()
	switch o := l.owner.Load(); {
	case o == 0:
		if (!l.fair || !l.q.HasQueuedThreads()) && l.owner.CompareAndSwap(0, id) {
			return nil
		}
	case o == id:
		l.extra++
		return nil
	}
	_, err := l.q.Acquire(l, 1, false, waitq.Wait{Timeout: -1, Interruptible: interruptible, Reason: rt.ParkWaiting, Blocker: l})
	return err
}

// Lock, LockInterruptibly and Unlock are for the slow paths (spinUntil).
func (l *qlock) Lock()                    { l.lockAs(thread.Current()) }
func (l *qlock) LockInterruptibly() error { return l.lockInterruptiblyAs(thread.Current()) }

// Unlock releases one hold; the caller holds the lock.
func (l *qlock) Unlock() {
	if l.extra > 0 {
		l.extra--
		return
	}
	l.owner.Store(0)
	l.q.WakeExclusive() // after the store: see waitq's "Why nothing is lost"
}

// TryAcquire implements waitq.Sync (for the first queued thread, t).
func (l *qlock) TryAcquire(t *thread.Thread, n int64) bool {
	switch o := l.owner.Load(); {
	case o == 0:
		if l.owner.CompareAndSwap(0, t.ThreadID()) {
			l.extra = n - 1
			return true
		}
	case o == t.ThreadID():
		l.extra += n
		return true
	}
	return false
}

// TryAcquireShared implements waitq.Sync: there is no shared mode.
func (l *qlock) TryAcquireShared(*thread.Thread, int64) int64 { return -1 }

// ReleaseAll implements waitq.Owned (for a wait on a condition).
func (l *qlock) ReleaseAll() int64 {
	n := l.extra + 1
	l.extra = 0
	l.owner.Store(0)
	l.q.WakeExclusive()
	return n
}

// String names the lock in thread dumps, as the blocker of a thread waiting for it.
func (l *qlock) String() string { return fmt.Sprintf("ReentrantLock@%p", l) }

// qcond is a condition of a qlock, with the methods [await] uses; the lock is held when they
// are called.
type qcond struct {
	l *qlock
	c waitq.Cond
}

func (c *qcond) wait(d time.Duration) (bool, error) {
	return c.l.q.Await(&c.c, c.l, waitq.Wait{Timeout: d, Interruptible: true, Reason: rt.ParkWaiting, Blocker: c}, waitq.Untimed(rt.ParkWaiting, c.l))
}

// Await waits until signalled or interrupted, as [locks.Condition.Await].
func (c *qcond) Await() error {
	_, err := c.wait(-1)
	return err
}

// AwaitTimeout waits at most d, as [locks.Condition.AwaitTimeout].
func (c *qcond) AwaitTimeout(d time.Duration) (bool, error) { return c.wait(max(d, 0)) }

// Signal wakes the longest-waiting thread, as [locks.Condition.Signal].
func (c *qcond) Signal() { c.l.q.Signal(&c.c, false) }

// SignalAll wakes every waiting thread, as [locks.Condition.SignalAll].
func (c *qcond) SignalAll() { c.l.q.SignalAll(&c.c, false) }

// String names the condition in thread dumps, as the blocker of a thread waiting on it.
func (c *qcond) String() string { return fmt.Sprintf("Condition@%p", c) }
