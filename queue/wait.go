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
// waiting counts the threads waiting on c (see [waiters]).
func await(c condition, b *budget, pass func() bool, waiting *waiters) (bool, error) {
	waiting.n.Add(1)
	defer waiting.leave()
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

// condition is what await and waiters use of a condition: a [locks.Condition], or an
// ArrayBlockingQueue's [qcond].
type condition interface {
	Await() error
	AwaitTimeout(d time.Duration) (bool, error)
	Signal()
}

var (
	_ condition = (*locks.Condition)(nil)
	_ condition = (*qcond)(nil)
	_ relocker  = (*locks.ReentrantLock)(nil)
	_ relocker  = (*qlock)(nil)
)

// relocker is what spinUntil uses of a lock: a [locks.ReentrantLock], or an
// ArrayBlockingQueue's [qlock].
type relocker interface {
	Lock()
	LockInterruptibly() error
	Unlock()
}

// waiters counts the threads waiting on one condition (in [await]), so that the signalling
// side can skip a Signal nobody would receive: Signal checks that the caller holds the lock and
// takes the wait queue's own mutex even when the condition is empty. Producers that do not hold
// c's lock read the count atomically (Load) after publishing their change, and the waiter
// increments it before re-checking its predicate under the lock, so one of the two always sees
// the other.
//
// A queue whose every signal on the condition is sent with the condition's lock held may use
// signal instead of Load and Signal: it also skips the signals that would find every waiter
// already signalled. Without it, a producer that fills a queue while its one consumer, signalled
// at the first element, waits for a carrier (always, on a one-carrier scheduler) signalled again
// at every element, for nothing: a third of the time of a put/take pair on one carrier.
type waiters struct {
	n atomic.Int32 // threads in await
	// signalled counts the signals sent by signal and not yet matched by a waiter's return
	// (guarded by the condition's lock). Why signal never skips a waiter that needs one: let F
	// be the waiters that have left the condition's queue (signalled, timed out, interrupted)
	// and not yet returned from await. signalled <= F always: signal adds one to each only when
	// it dequeues a waiter (or, with the queue empty, when n = F > signalled); a return takes one
	// from F and from signalled (if > 0); other exits from the queue only add to F. So while a
	// waiter is still in the condition's queue, n > F >= signalled, and signal sends.
	//
	// Not taken: signalling only when the queue goes from empty to non-empty, each woken taker
	// passing the signal on while elements remain (Java's LinkedBlockingQueue): as cheap for one
	// consumer, but blocked consumers then wake one after another, each once the previous one
	// has run, where this wakes as many as there are elements at once.
	signalled int32
}

// Load returns the number of threads in await.
func (w *waiters) Load() int32 { return w.n.Load() }

// signal signals c if a waiter may still need it; c's lock is held.
func (w *waiters) signal(c condition) {
	if w.n.Load() > w.signalled {
		w.signalled++
		c.Signal()
	}
}

// leave counts a waiter out as it returns from await, with c's lock held.
func (w *waiters) leave() {
	w.n.Add(-1)
	if w.signalled > 0 {
		w.signalled--
	}
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
//
// With GOMAXPROCS=1 it does nothing: no partner can run while the caller spins (measured: a
// tenth of the cost of moving an element through an ArrayBlockingQueue between two virtual
// threads on one carrier). An interrupt is then found by the wait that follows.
func spinUntil(l relocker, ready func() bool, interruptibly bool) error {
	if runtime.GOMAXPROCS(0) == 1 {
		return nil
	}
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
