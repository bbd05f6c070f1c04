package queue

import (
	"runtime"
	"sync/atomic"
	"time"

	"github.com/loomgo/loom/locks"
)

// budget is the time left to a timed operation. The deadline is fixed the first time the
// operation has to wait, so calls that succeed at once never read the clock.
type budget struct {
	d   time.Duration
	end time.Time
}

// left returns the time still to wait (<= 0: give up).
func (b *budget) left() time.Duration {
	if b.d <= 0 {
		return 0
	}
	if b.end.IsZero() {
		b.end = time.Now().Add(b.d)
		return b.d
	}
	return time.Until(b.end)
}

// await waits on c, which the caller's lock guards, for at most b's time left (b nil: no
// limit). It reports whether the caller should re-check its predicate (false: the time is up)
// and returns thread.ErrInterrupted if the thread was interrupted. A waiter that leaves without
// using a signal it may have received passes it on (pass), so an interrupt or a timeout racing a
// signal cannot strand another waiter while the predicate holds: the condition's own rules
// already promise this, and the extra Signal costs at most one spurious wake-up.
//
// waiting counts the threads waiting on c, so that the signalling side can skip a Signal nobody
// would receive (Signal takes the wait queue's own mutex even when the condition is empty).
// Producers that do not hold c's lock read it atomically after publishing their change, and the
// waiter increments it before re-checking its predicate under the lock, so one of the two always
// sees the other.
func await(c *locks.Condition, b *budget, pass func() bool, waiting *atomic.Int32) (bool, error) {
	waiting.Add(1)
	defer waiting.Add(-1)
	if pass() {
		return true, nil // the predicate came true before we were counted: re-check it
	}
	if b == nil {
		if err := c.Await(); err != nil {
			if pass() {
				c.Signal()
			}
			return false, err
		}
		return true, nil
	}
	left := b.left()
	if left <= 0 {
		return false, nil
	}
	if _, err := c.AwaitTimeout(left); err != nil {
		if pass() {
			c.Signal()
		}
		return false, err
	}
	return true, nil
}

// spinsBeforeWait is how many times a thread that found the queue empty (or full) looks again,
// with the lock released, before it waits on the condition.
const spinsBeforeWait = 32

// spinUntil releases l, spins until ready reports true or the spin budget is spent, then takes
// l back: interruptibly, for the calls that take the lock with lockInterruptibly in Java (an
// interrupt meanwhile fails the call, as an interrupt while waiting would), else not (Java's
// lock(): an interrupt is left for the wait that follows, if there is one). Parking and resuming
// a virtual thread costs a few microseconds, more than the partner on another carrier usually
// needs to make the queue ready; Java's synchronizers spin briefly for the same reason.
func spinUntil(l *locks.ReentrantLock, ready func() bool, interruptibly bool) error {
	l.Unlock()
	for i := 0; i < spinsBeforeWait && !ready(); i++ {
		if i%16 == 15 {
			runtime.Gosched()
		}
	}
	if !interruptibly {
		l.Lock()
		return nil
	}
	return l.LockInterruptibly()
}
