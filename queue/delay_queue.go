package queue

import (
	"iter"
	"math"
	"slices"
	"time"

	"github.com/loomgo/loom/internal/waitq"
	"github.com/loomgo/loom/locks"
	"github.com/loomgo/loom/thread"
)

// DelayQueue is java.util.concurrent.DelayQueue: an unbounded blocking queue of [Delayed]
// elements, in which an element can be taken only when its delay has expired. The head is the
// element whose delay expired furthest in the past (or will expire soonest). Inserting never
// blocks; consumers block until the head's delay expires.
//
// One [locks.ReentrantLock] guards a heap ordered by Delay, with an available condition. As in
// Java, consumers follow the leader/follower pattern: one waiting consumer (the leader) waits
// timed for the head's delay, the others wait untimed until the leader takes it or a new head
// arrives, so only one timer is pending. Waiting goes through [thread.Park], so a virtual thread
// unmounts while it waits.
//
// The zero value is an empty queue, like new DelayQueue(). A DelayQueue must not be copied after
// first use.
type DelayQueue[T Delayed] struct {
	_         noCopy
	lock      locks.ReentrantLock
	available *locks.Condition // nil until first use
	heap      binaryHeap[T]
	leader    *thread.Thread // the consumer waiting timed for the head, if any
	waiters   waiters        // followers waiting on available (the leader is not counted)
	eq        func(a, b T) bool
}

var _ BlockingQueue[Delayed] = (*DelayQueue[Delayed])(nil)

// NewDelayQueue returns an empty delay queue. It ports new [DelayQueue]([c]).
func NewDelayQueue[T Delayed](opts ...Option[T]) *DelayQueue[T] {
	o := buildOptions(opts)
	q := &DelayQueue[T]{eq: o.eq}
	q.lockUp(false)
	for _, e := range o.elems {
		q.heap.push(e)
	}
	q.lock.Unlock()
	return q
}

func lessDelay[T Delayed](a, b T) bool { return a.Delay() < b.Delay() }

func (q *DelayQueue[T]) lockUp(interruptibly bool) error {
	if interruptibly {
		if err := q.lock.LockInterruptibly(); err != nil {
			return err
		}
	} else {
		q.lock.Lock()
	}
	if q.available == nil {
		q.available = q.lock.NewCondition()
		q.heap.less = lessDelay[T]
	}
	return nil
}

// Offer inserts e; it always succeeds, as the queue is unbounded. If e becomes the head, the
// leader's timed wait is cut short so a consumer re-reads the head's delay. It ports offer.
func (q *DelayQueue[T]) Offer(e T) bool {
	q.lockUp(false)
	defer q.lock.Unlock()
	if q.heap.push(e) == 0 {
		q.leader = nil
		q.available.Signal()
	}
	return true
}

// Add is Offer; it never returns an error. It ports add.
func (q *DelayQueue[T]) Add(e T) error {
	q.Offer(e)
	return nil
}

// Put is Offer: it never blocks and never reports an interrupt. It ports put.
func (q *DelayQueue[T]) Put(e T) error {
	q.Offer(e)
	return nil
}

// OfferTimeout is Offer: it never blocks, ignores d and never reports an interrupt. It ports
// offer(e, timeout, unit).
func (q *DelayQueue[T]) OfferTimeout(e T, d time.Duration) (bool, error) { return q.Offer(e), nil }

// Take removes and returns the head once its delay has expired, blocking until then. A virtual
// thread unmounts while it waits. If the thread is interrupted on entry or while waiting, Take
// returns [thread.ErrInterrupted] (clearing the status) and leaves the queue unchanged. It ports
// DelayQueue.take.
func (q *DelayQueue[T]) Take() (T, error) {
	e, _, err := q.poll(nil)
	return e, err
}

// PollTimeout removes and returns the head, blocking up to d for an element with an expired
// delay; ok is false if none expired in time (d <= 0: does not wait). A virtual thread unmounts
// while it waits. An interrupt on entry or while waiting returns [thread.ErrInterrupted]
// (clearing the status) and leaves the queue unchanged. It ports DelayQueue.poll(timeout, unit).
func (q *DelayQueue[T]) PollTimeout(d time.Duration) (T, bool, error) {
	return q.poll(&budget{d: d})
}

func (q *DelayQueue[T]) poll(b *budget) (e T, ok bool, err error) {
	if err := q.lockUp(true); err != nil {
		return e, false, err
	}
	defer func() {
		if q.leader == nil && len(q.heap.items) > 0 {
			q.available.Signal() // hand the leadership on
		}
		q.lock.Unlock()
	}()
	var me *thread.Thread
	for {
		if len(q.heap.items) == 0 {
			if more, err := await(q.available, b, never, &q.waiters); !more {
				return e, false, err
			}
			continue
		}
		delay := q.heap.items[0].Delay()
		if delay <= 0 {
			return q.heap.pop(), true, nil
		}
		if b != nil && b.left() <= 0 {
			return e, false, nil
		}
		if q.leader != nil || (b != nil && b.left() < delay) {
			// a leader already waits for the head, or our time ends first: follow
			if more, err := await(q.available, b, never, &q.waiters); !more {
				return e, false, err
			}
			continue
		}
		if me == nil {
			me = waitq.Current()
		}
		q.leader = me
		_, err := q.available.AwaitTimeout(delay)
		if q.leader == me {
			q.leader = nil
		}
		if err != nil {
			return e, false, err
		}
	}
}

// never is the predicate of a wait that need not pass a signal on: the deferred hand-off in
// poll does it.
func never() bool { return false }

// Poll removes and returns the head if its delay has expired. It ports DelayQueue.poll().
func (q *DelayQueue[T]) Poll() (e T, ok bool) {
	q.lockUp(false)
	defer q.lock.Unlock()
	if len(q.heap.items) == 0 || q.heap.items[0].Delay() > 0 {
		return e, false
	}
	return q.heap.pop(), true
}

// Remove removes and returns the head if its delay has expired, or returns [ErrEmpty]. It ports
// remove().
func (q *DelayQueue[T]) Remove() (T, error) { return element(q.Poll()) }

// Peek returns the head without removing it, even if its delay has not expired. It ports
// DelayQueue.peek.
func (q *DelayQueue[T]) Peek() (e T, ok bool) {
	q.lockUp(false)
	defer q.lock.Unlock()
	if len(q.heap.items) == 0 {
		return e, false
	}
	return q.heap.items[0], true
}

// Element returns the head without removing it, or returns [ErrEmpty]. It ports element.
func (q *DelayQueue[T]) Element() (T, error) { return element(q.Peek()) }

// Len returns the number of elements, expired or not. It ports size.
func (q *DelayQueue[T]) Len() int {
	q.lockUp(false)
	defer q.lock.Unlock()
	return len(q.heap.items)
}

// RemainingCapacity returns [Unbounded]: the queue is never full. It ports remainingCapacity.
func (q *DelayQueue[T]) RemainingCapacity() int { return math.MaxInt32 }

// DrainTo removes at most max elements whose delay has expired (max <= 0: none), head first,
// appends them to dst and returns the extended slice. It ports DelayQueue.drainTo(c, max).
func (q *DelayQueue[T]) DrainTo(dst []T, max int) []T {
	if max <= 0 {
		return dst
	}
	q.lockUp(false)
	defer q.lock.Unlock()
	for n := 0; n < max && len(q.heap.items) > 0 && q.heap.items[0].Delay() <= 0; n++ {
		dst = append(dst, q.heap.pop())
	}
	return dst
}

// Clear removes every element, expired or not. It ports clear.
func (q *DelayQueue[T]) Clear() {
	q.lockUp(false)
	defer q.lock.Unlock()
	q.heap.items = nil
}

func (q *DelayQueue[T]) equal(a, b T) bool {
	if q.eq == nil {
		return defaultEqual(a, b)
	}
	return q.eq(a, b)
}

// Contains reports whether the queue holds an element equal to e (see [WithEqual]). It ports
// contains.
func (q *DelayQueue[T]) Contains(e T) bool {
	q.lockUp(false)
	defer q.lock.Unlock()
	return slices.ContainsFunc(q.heap.items, func(x T) bool { return q.equal(x, e) })
}

// RemoveElement removes one element equal to e (see [WithEqual]), expired or not, and reports
// whether there was one. It ports remove(o).
func (q *DelayQueue[T]) RemoveElement(e T) bool {
	q.lockUp(false)
	defer q.lock.Unlock()
	i := slices.IndexFunc(q.heap.items, func(x T) bool { return q.equal(x, e) })
	if i < 0 {
		return false
	}
	q.heap.removeAt(i)
	return true
}

// RemoveIf removes every element, expired or not, for which pred reports true and returns how
// many it removed. pred runs with the queue locked and must not use the queue. It ports
// Collection.removeIf.
func (q *DelayQueue[T]) RemoveIf(pred func(T) bool) int {
	q.lockUp(false)
	defer q.lock.Unlock()
	n := q.heap.removeIf(pred)
	if n > 0 {
		q.available.Signal() // the head may have changed: let the leader re-read its delay
	}
	return n
}

// ToSlice returns every element, expired or not, in the heap's order (not sorted). It ports
// toArray.
func (q *DelayQueue[T]) ToSlice() []T {
	q.lockUp(false)
	defer q.lock.Unlock()
	return slices.Clone(q.heap.items)
}

// All iterates over every element, expired or not, in no particular order. It is weakly
// consistent: it yields the elements present when the iteration began (a snapshot) and never
// fails because of concurrent change. It ports iterator.
func (q *DelayQueue[T]) All() iter.Seq[T] { return sliceSeq(q.ToSlice) }
