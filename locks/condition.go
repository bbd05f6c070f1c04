package locks

import (
	"fmt"
	"time"

	"github.com/loomgo/loom/internal/rt"
	"github.com/loomgo/loom/internal/waitq"
	"github.com/loomgo/loom/thread"
)

// A Condition is a queue of threads waiting, with a lock released, for a state that another
// thread signals: the lock's counterpart of [Monitor.Wait] and Notify. It ports
// java.util.concurrent.locks.Condition (AbstractQueuedSynchronizer.ConditionObject). Get one
// from [ReentrantLock.NewCondition] or the write lock of a [ReentrantReadWriteLock]; it must not be
// copied.
//
// Every method must be called with the lock held exclusively by the current thread, or it
// panics with [ErrIllegalMonitorState]. Await releases every hold on the lock while it waits and
// restores the same hold count before it returns, whatever the outcome. Signals are not
// remembered: a Signal with no waiter does nothing. Signalled waiters are woken in the order
// they started waiting. Waiters may return spuriously, so wait in a loop on your predicate.
//
// Interrupts follow Java exactly: interrupted before being signalled, an Await returns
// [thread.ErrInterrupted] (status cleared) once it has the lock back; interrupted after being
// signalled, it returns normally with the interrupt status set. A waiter that was signalled is
// never also reported as timed out, and a signal never goes to a waiter that has already given
// up.
type Condition struct {
	_       noCopy
	lock    any // the owning lock (for HasWaiters and friends)
	s       condLock
	blocker any
	c       waitq.Cond
}

// condLock is an exclusive lock a Condition can wait on: a ReentrantLock or the write lock of a
// ReentrantReadWriteLock.
type condLock interface {
	waitq.Owned
	heldByCurrent() bool
	queue() *waitq.Queue
}

func (c *Condition) await(d time.Duration, interruptible bool) (bool, error) {
	if interruptible && interrupted() {
		return false, thread.ErrInterrupted
	}
	if !c.s.heldByCurrent() {
		panicIMSE()
	}
	return c.s.queue().Await(&c.c, c.s, waitq.Wait{Timeout: d, Interruptible: interruptible, Reason: rt.ParkWaiting, Blocker: c}, waitq.Untimed(rt.ParkWaiting, c.blocker))
}

// Await releases the lock and waits until signalled or interrupted (or spuriously), then
// re-acquires the lock before returning. A virtual thread unmounts while it waits. If the
// current thread is interrupted before the call or before being signalled, Await returns
// [thread.ErrInterrupted] with the status cleared (still with the lock held again). It ports
// Condition.await().
func (c *Condition) Await() error {
	_, err := c.await(-1, true)
	return err
}

// AwaitUninterruptibly is Await that ignores interrupts: it keeps waiting and returns with the
// interrupt status set if the thread was interrupted. It ports Condition.awaitUninterruptibly().
func (c *Condition) AwaitUninterruptibly() {
	if !c.s.heldByCurrent() {
		panicIMSE()
	}
	c.s.queue().Await(&c.c, c.s, waitq.Untimed(rt.ParkWaiting, c), waitq.Untimed(rt.ParkWaiting, c.blocker))
}

// AwaitTimeout is Await that also gives up when d has elapsed: it reports false if it timed out
// before being signalled (d <= 0 times out at once, still releasing and re-acquiring the lock).
// It ports Condition.await(long, TimeUnit).
func (c *Condition) AwaitTimeout(d time.Duration) (bool, error) {
	return c.await(max(d, 0), true)
}

// AwaitUntil is AwaitTimeout with a deadline: it reports false if the deadline passed before
// it was signalled. It ports Condition.awaitUntil(Date).
func (c *Condition) AwaitUntil(deadline time.Time) (bool, error) {
	return c.await(max(time.Until(deadline), 0), true)
}

// AwaitNanos is AwaitTimeout that returns an estimate of the time left until d would have
// elapsed: <= 0 means it timed out. It ports Condition.awaitNanos.
func (c *Condition) AwaitNanos(d time.Duration) (time.Duration, error) {
	start := time.Now()
	ok, err := c.await(max(d, 0), true)
	left := d - time.Since(start)
	if ok && left <= 0 {
		left = 1 // signalled: report a positive remainder, as Java does
	} else if !ok && err == nil && left > 0 {
		left = 0
	}
	return left, err
}

// Signal wakes the longest-waiting thread, if any; it returns from Await once it re-acquires
// the lock (after the caller releases it). It panics with [ErrIllegalMonitorState] if the current
// thread does not hold the lock. It ports Condition.signal().
func (c *Condition) Signal() {
	if !c.s.heldByCurrent() {
		panicIMSE()
	}
	c.s.queue().Signal(&c.c, false)
}

// SignalAll wakes every waiting thread; each returns from Await in turn as it re-acquires the
// lock. It panics with [ErrIllegalMonitorState] if the current thread does not hold the lock. It
// ports Condition.signalAll().
func (c *Condition) SignalAll() {
	if !c.s.heldByCurrent() {
		panicIMSE()
	}
	c.s.queue().SignalAll(&c.c, false)
}

// String returns "Condition@<addr>", as Java's ConditionObject does (thread dumps show it as a
// waiting thread's blocker).
func (c *Condition) String() string { return fmt.Sprintf("Condition@%p", c) }
