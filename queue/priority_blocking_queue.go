package queue

import (
	"fmt"
	"iter"
	"math"
	"slices"
	"time"

	"github.com/loomgo/loom/locks"
	"github.com/loomgo/loom/thread"
)

// PriorityBlockingQueue is java.util.concurrent.PriorityBlockingQueue: an unbounded blocking
// queue that hands out its elements in the order of a comparison function (least first), on a
// binary heap. Inserting never blocks; consumers block while it is empty.
//
// One [locks.ReentrantLock] guards the heap, with a notEmpty condition; waiting goes through
// [thread.Park], so a virtual thread unmounts while it waits. Elements that compare equal come
// out in no particular order, and All and ToSlice give the heap's order, not the priority order,
// as in Java.
//
// A PriorityBlockingQueue must not be copied after first use. Make one with
// [NewPriorityBlockingQueue].
type PriorityBlockingQueue[T any] struct {
	_        noCopy
	lock     locks.ReentrantLock
	notEmpty *locks.Condition
	heap     binaryHeap[T]
	cmp      func(a, b T) int
	eq       func(a, b T) bool
	takers   waiters // threads waiting on notEmpty
}

var _ BlockingQueue[int] = (*PriorityBlockingQueue[int])(nil)

// NewPriorityBlockingQueue returns an empty queue ordered by cmp (negative when a comes before
// b, as [cmp.Compare]; Java's Comparator). A nil cmp panics with an error wrapping
// [thread.ErrNilArgument] (Java's NullPointerException). It ports
// new [PriorityBlockingQueue](initialCapacity, comparator).
func NewPriorityBlockingQueue[T any](cmp func(a, b T) int, opts ...Option[T]) *PriorityBlockingQueue[T] {
	if cmp == nil {
		panic(fmt.Errorf("queue: nil comparator: %w", thread.ErrNilArgument))
	}
	o := buildOptions(opts)
	q := &PriorityBlockingQueue[T]{cmp: cmp, eq: o.eq}
	q.heap.less = func(a, b T) bool { return cmp(a, b) < 0 }
	q.notEmpty = q.lock.NewCondition()
	for _, e := range o.elems {
		q.heap.push(e)
	}
	return q
}

func (q *PriorityBlockingQueue[T]) nonEmpty() bool { return len(q.heap.items) > 0 }

// Offer inserts e; it always succeeds, as the queue is unbounded, and wakes a waiting consumer.
// It ports PriorityBlockingQueue.offer.
func (q *PriorityBlockingQueue[T]) Offer(e T) bool {
	q.lock.Lock()
	q.heap.push(e)
	q.takers.signal(q.notEmpty)
	q.lock.Unlock()
	return true
}

// Add is Offer; it never returns an error. It ports add.
func (q *PriorityBlockingQueue[T]) Add(e T) error {
	q.Offer(e)
	return nil
}

// Put is Offer: it never blocks and, as Java's put, never reports an interrupt. It ports put.
func (q *PriorityBlockingQueue[T]) Put(e T) error {
	q.Offer(e)
	return nil
}

// OfferTimeout is Offer: it never blocks, ignores d and never reports an interrupt. It ports
// offer(e, timeout, unit).
func (q *PriorityBlockingQueue[T]) OfferTimeout(e T, d time.Duration) (bool, error) {
	return q.Offer(e), nil
}

// Take removes and returns the least element, blocking until there is one. A virtual thread
// unmounts while it waits. If the thread is interrupted on entry or while waiting, Take returns
// [thread.ErrInterrupted] (clearing the status) and leaves the queue unchanged. It ports take.
func (q *PriorityBlockingQueue[T]) Take() (T, error) {
	e, _, err := q.poll(nil)
	return e, err
}

// PollTimeout removes and returns the least element, blocking up to d for one; ok is false if
// none came in time (d <= 0: does not wait). A virtual thread unmounts while it waits. An
// interrupt on entry or while waiting returns [thread.ErrInterrupted] (clearing the status) and
// leaves the queue unchanged. It ports poll(timeout, unit).
func (q *PriorityBlockingQueue[T]) PollTimeout(d time.Duration) (T, bool, error) {
	return q.poll(&budget{d: d})
}

func (q *PriorityBlockingQueue[T]) poll(b *budget) (e T, ok bool, err error) {
	if err := q.lock.LockInterruptibly(); err != nil {
		return e, false, err
	}
	defer q.lock.Unlock()
	for len(q.heap.items) == 0 {
		if more, err := await(q.notEmpty, b, q.nonEmpty, &q.takers); !more {
			return e, false, err
		}
	}
	return q.heap.pop(), true, nil
}

// Poll removes and returns the least element if there is one. It ports poll().
func (q *PriorityBlockingQueue[T]) Poll() (e T, ok bool) {
	q.lock.Lock()
	defer q.lock.Unlock()
	if len(q.heap.items) == 0 {
		return e, false
	}
	return q.heap.pop(), true
}

// Remove removes and returns the least element, or returns [ErrEmpty]. It ports remove().
func (q *PriorityBlockingQueue[T]) Remove() (T, error) { return element(q.Poll()) }

// Peek returns the least element without removing it. It ports peek.
func (q *PriorityBlockingQueue[T]) Peek() (e T, ok bool) {
	q.lock.Lock()
	defer q.lock.Unlock()
	if len(q.heap.items) == 0 {
		return e, false
	}
	return q.heap.items[0], true
}

// Element returns the least element without removing it, or returns [ErrEmpty]. It ports element.
func (q *PriorityBlockingQueue[T]) Element() (T, error) { return element(q.Peek()) }

// Len returns the number of elements. It ports size.
func (q *PriorityBlockingQueue[T]) Len() int {
	q.lock.Lock()
	defer q.lock.Unlock()
	return len(q.heap.items)
}

// RemainingCapacity returns [Unbounded]: the queue is never full. It ports remainingCapacity.
func (q *PriorityBlockingQueue[T]) RemainingCapacity() int { return math.MaxInt32 }

// Comparator returns the comparison function the queue orders by. It ports comparator.
func (q *PriorityBlockingQueue[T]) Comparator() func(a, b T) int { return q.cmp }

// DrainTo removes at most max elements (max <= 0: none), least first, appends them to dst and
// returns the extended slice. It ports drainTo(c, max).
func (q *PriorityBlockingQueue[T]) DrainTo(dst []T, max int) []T {
	if max <= 0 {
		return dst
	}
	q.lock.Lock()
	defer q.lock.Unlock()
	for n := 0; n < max && len(q.heap.items) > 0; n++ {
		dst = append(dst, q.heap.pop())
	}
	return dst
}

// Clear removes every element. It ports clear.
func (q *PriorityBlockingQueue[T]) Clear() {
	q.lock.Lock()
	defer q.lock.Unlock()
	q.heap.items = nil
}

// Contains reports whether the queue holds an element equal to e (see [WithEqual]). It ports
// contains.
func (q *PriorityBlockingQueue[T]) Contains(e T) bool {
	q.lock.Lock()
	defer q.lock.Unlock()
	return slices.ContainsFunc(q.heap.items, func(x T) bool { return q.eq(x, e) })
}

// RemoveElement removes one element equal to e (see [WithEqual]) and reports whether there was
// one. It ports remove(o).
func (q *PriorityBlockingQueue[T]) RemoveElement(e T) bool {
	q.lock.Lock()
	defer q.lock.Unlock()
	i := slices.IndexFunc(q.heap.items, func(x T) bool { return q.eq(x, e) })
	if i < 0 {
		return false
	}
	q.heap.removeAt(i)
	return true
}

// RemoveIf removes every element for which pred reports true and returns how many it removed.
// pred runs with the queue locked and must not use the queue. It ports Collection.removeIf.
func (q *PriorityBlockingQueue[T]) RemoveIf(pred func(T) bool) int {
	q.lock.Lock()
	defer q.lock.Unlock()
	return q.heap.removeIf(pred)
}

// ToSlice returns the elements in the heap's order (not sorted), as Java's toArray.
func (q *PriorityBlockingQueue[T]) ToSlice() []T {
	q.lock.Lock()
	defer q.lock.Unlock()
	return slices.Clone(q.heap.items)
}

// All iterates over the elements in no particular order. It is weakly consistent: it yields the
// elements present when the iteration began (a snapshot) and never fails because of concurrent
// change. It ports iterator.
func (q *PriorityBlockingQueue[T]) All() iter.Seq[T] { return sliceSeq(q.ToSlice) }

// String formats the elements as Java's toString does: "[e1, e2]", in the heap's order.
func (q *PriorityBlockingQueue[T]) String() string { return format(q.ToSlice()) }
