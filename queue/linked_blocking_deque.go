package queue

import (
	"iter"
	"slices"
	"sync/atomic"
	"time"

	"github.com/loomgo/loom/locks"
)

// LinkedBlockingDeque is java.util.concurrent.LinkedBlockingDeque: an optionally bounded blocking
// double-ended queue. Each operation of [BlockingQueue] works at the tail for insertion and the
// head for removal; the First and Last variants choose the end. Producers block while it is full
// and consumers while it is empty.
//
// One [locks.ReentrantLock] guards the deque, with conditions notEmpty and notFull, as in Java;
// waiting goes through [thread.Park], so a virtual thread unmounts while it waits. The elements
// live in a growable ring buffer rather than linked nodes (the name is kept for Java readers).
//
// The zero value is an empty unbounded deque, like new LinkedBlockingDeque(). A
// LinkedBlockingDeque must not be copied after first use.
type LinkedBlockingDeque[T any] struct {
	_        noCopy
	lock     locks.ReentrantLock
	notEmpty *locks.Condition // nil until first use
	notFull  *locks.Condition
	items    ring[T]
	capacity int // 0: unbounded
	eq       func(a, b T) bool
	size     atomic.Int32 // items.len(), readable without the lock (for spinning)
	takers   waiters      // threads waiting on notEmpty
	putters  waiters      // threads waiting on notFull
}

var _ BlockingDeque[int] = (*LinkedBlockingDeque[int])(nil)

// NewLinkedBlockingDeque returns an empty deque holding at most capacity elements; capacity <= 0
// means unbounded (Java's Integer.MAX_VALUE). More initial elements ([WithElements]) than a
// positive capacity panic with an error wrapping [thread.ErrIllegalArgument]. It ports
// new [LinkedBlockingDeque](capacity[, c]).
func NewLinkedBlockingDeque[T any](capacity int, opts ...Option[T]) *LinkedBlockingDeque[T] {
	o := buildOptions(opts)
	if capacity > 0 && len(o.elems) > capacity {
		panic(illegalArgument("%d initial elements exceed capacity %d", len(o.elems), capacity))
	}
	q := &LinkedBlockingDeque[T]{capacity: max(capacity, 0), eq: o.eq}
	for _, e := range o.elems {
		q.items.pushBack(e)
	}
	q.size.Store(int32(len(o.elems)))
	return q
}

// lock takes the lock (interruptibly if asked) and makes the conditions on first use.
func (q *LinkedBlockingDeque[T]) lockUp(interruptibly bool) error {
	if interruptibly {
		if err := q.lock.LockInterruptibly(); err != nil {
			return err
		}
	} else {
		q.lock.Lock()
	}
	if q.notEmpty == nil {
		q.notEmpty = q.lock.NewCondition()
		q.notFull = q.lock.NewCondition()
	}
	return nil
}

func (q *LinkedBlockingDeque[T]) limit() int {
	if q.capacity <= 0 {
		return Unbounded
	}
	return q.capacity
}

func (q *LinkedBlockingDeque[T]) hasRoom() bool  { return q.items.len() < q.limit() }
func (q *LinkedBlockingDeque[T]) nonEmpty() bool { return q.items.len() > 0 }

// link inserts e at the front or back; the lock is held. It reports false if the deque is full.
func (q *LinkedBlockingDeque[T]) link(e T, front bool) bool {
	if !q.hasRoom() {
		return false
	}
	if front {
		q.items.pushFront(e)
	} else {
		q.items.pushBack(e)
	}
	q.size.Add(1)
	q.takers.signal(q.notEmpty)
	return true
}

// unlink removes from the front or back; the lock is held and the deque is not empty.
func (q *LinkedBlockingDeque[T]) unlink(front bool) T {
	var e T
	if front {
		e = q.items.popFront()
	} else {
		e = q.items.popBack()
	}
	q.size.Add(-1)
	q.putters.signal(q.notFull)
	return e
}

func (q *LinkedBlockingDeque[T]) offerEnd(e T, front bool) bool {
	q.lockUp(false)
	defer q.lock.Unlock()
	return q.link(e, front)
}

// offerWait inserts e, waiting for room up to b's time (b nil: without limit). As in JDK 25, the
// timed forms take the lock interruptibly (an interrupt on entry fails them even when there is
// room) and the untimed ones (put, putFirst, putLast) do not: they insert at once if there is
// room, leaving the interrupt status set, and fail only if they have to wait.
func (q *LinkedBlockingDeque[T]) offerWait(e T, front bool, b *budget) (bool, error) {
	timed := b != nil
	if err := q.lockUp(timed); err != nil {
		return false, err
	}
	if !q.hasRoom() && (!timed || b.d > 0) {
		if err := spinUntil(&q.lock, func() bool { return int(q.size.Load()) < q.limit() }, timed); err != nil {
			return false, err
		}
	}
	defer q.lock.Unlock()
	for !q.link(e, front) {
		if more, err := await(q.notFull, b, q.hasRoom, &q.putters); !more {
			return false, err
		}
	}
	return true, nil
}

func (q *LinkedBlockingDeque[T]) pollEnd(front bool) (e T, ok bool) {
	q.lockUp(false)
	defer q.lock.Unlock()
	if q.items.len() == 0 {
		return e, false
	}
	return q.unlink(front), true
}

// pollWait removes an element from one end, waiting up to b's time (b nil: without limit). As
// offerWait, the timed forms take the lock interruptibly and the untimed ones (take, takeFirst,
// takeLast) do not: they return an element that is there, leaving the interrupt status set.
func (q *LinkedBlockingDeque[T]) pollWait(front bool, b *budget) (e T, ok bool, err error) {
	timed := b != nil
	if err := q.lockUp(timed); err != nil {
		return e, false, err
	}
	if q.items.len() == 0 && (!timed || b.d > 0) {
		if err := spinUntil(&q.lock, func() bool { return q.size.Load() > 0 }, timed); err != nil {
			return e, false, err
		}
	}
	defer q.lock.Unlock()
	for q.items.len() == 0 {
		if more, err := await(q.notEmpty, b, q.nonEmpty, &q.takers); !more {
			return e, false, err
		}
	}
	return q.unlink(front), true, nil
}

func (q *LinkedBlockingDeque[T]) peekEnd(front bool) (e T, ok bool) {
	q.lockUp(false)
	defer q.lock.Unlock()
	if q.items.len() == 0 {
		return e, false
	}
	if front {
		return q.items.front(), true
	}
	return q.items.back(), true
}

func addResult(ok bool) error {
	if !ok {
		return ErrFull
	}
	return nil
}

// AddFirst inserts e at the head if there is room now, otherwise returns [ErrFull] (Java's
// IllegalStateException "Deque full") and leaves the deque unchanged. It ports addFirst.
func (q *LinkedBlockingDeque[T]) AddFirst(e T) error { return addResult(q.OfferFirst(e)) }

// AddLast inserts e at the tail if there is room now, otherwise returns [ErrFull]. It ports addLast.
func (q *LinkedBlockingDeque[T]) AddLast(e T) error { return addResult(q.OfferLast(e)) }

// Add is AddLast. It ports add.
func (q *LinkedBlockingDeque[T]) Add(e T) error { return q.AddLast(e) }

// Push is AddFirst. It ports push.
func (q *LinkedBlockingDeque[T]) Push(e T) error { return q.AddFirst(e) }

// OfferFirst inserts e at the head if there is room now and reports whether it did. It ports
// offerFirst(e).
func (q *LinkedBlockingDeque[T]) OfferFirst(e T) bool { return q.offerEnd(e, true) }

// OfferLast inserts e at the tail if there is room now and reports whether it did. It ports
// offerLast(e).
func (q *LinkedBlockingDeque[T]) OfferLast(e T) bool { return q.offerEnd(e, false) }

// Offer is OfferLast. It ports offer(e).
func (q *LinkedBlockingDeque[T]) Offer(e T) bool { return q.OfferLast(e) }

// OfferFirstTimeout inserts e at the head, blocking up to d for room; it reports false, leaving
// the deque unchanged, if none came in time (d <= 0: does not wait). A virtual thread unmounts
// while it waits. An interrupt on entry or while waiting returns [thread.ErrInterrupted]
// (clearing the status). It ports offerFirst(e, timeout, unit).
func (q *LinkedBlockingDeque[T]) OfferFirstTimeout(e T, d time.Duration) (bool, error) {
	return q.offerWait(e, true, &budget{d: d})
}

// OfferLastTimeout is OfferFirstTimeout at the tail. It ports offerLast(e, timeout, unit).
func (q *LinkedBlockingDeque[T]) OfferLastTimeout(e T, d time.Duration) (bool, error) {
	return q.offerWait(e, false, &budget{d: d})
}

// OfferTimeout is OfferLastTimeout. It ports offer(e, timeout, unit).
func (q *LinkedBlockingDeque[T]) OfferTimeout(e T, d time.Duration) (bool, error) {
	return q.OfferLastTimeout(e, d)
}

// PutFirst inserts e at the head, blocking until there is room. A virtual thread unmounts while it
// waits. If it has to wait and the thread is interrupted (before or while it waits), PutFirst
// returns [thread.ErrInterrupted] (clearing the status) and leaves the deque unchanged; if there
// is room it inserts e even when the thread is interrupted, leaving the status set, as JDK 25's
// putFirst (which takes the lock with lock(), not lockInterruptibly). It ports putFirst.
func (q *LinkedBlockingDeque[T]) PutFirst(e T) error {
	_, err := q.offerWait(e, true, nil)
	return err
}

// PutLast is PutFirst at the tail. It ports putLast.
func (q *LinkedBlockingDeque[T]) PutLast(e T) error {
	_, err := q.offerWait(e, false, nil)
	return err
}

// Put is PutLast. It ports put.
func (q *LinkedBlockingDeque[T]) Put(e T) error { return q.PutLast(e) }

// TakeFirst removes and returns the head, blocking until there is one. A virtual thread unmounts
// while it waits. If it has to wait and the thread is interrupted (before or while it waits),
// TakeFirst returns [thread.ErrInterrupted] (clearing the status) and leaves the deque unchanged;
// if there is an element it returns it even when the thread is interrupted, leaving the status
// set, as JDK 25's takeFirst (which takes the lock with lock()). It ports takeFirst.
func (q *LinkedBlockingDeque[T]) TakeFirst() (T, error) {
	e, _, err := q.pollWait(true, nil)
	return e, err
}

// TakeLast is TakeFirst at the tail. It ports takeLast.
func (q *LinkedBlockingDeque[T]) TakeLast() (T, error) {
	e, _, err := q.pollWait(false, nil)
	return e, err
}

// Take is TakeFirst. It ports take.
func (q *LinkedBlockingDeque[T]) Take() (T, error) { return q.TakeFirst() }

// PollFirst removes and returns the head if there is one. It ports pollFirst().
func (q *LinkedBlockingDeque[T]) PollFirst() (T, bool) { return q.pollEnd(true) }

// PollLast removes and returns the tail if there is one. It ports pollLast().
func (q *LinkedBlockingDeque[T]) PollLast() (T, bool) { return q.pollEnd(false) }

// Poll is PollFirst. It ports poll().
func (q *LinkedBlockingDeque[T]) Poll() (T, bool) { return q.PollFirst() }

// PollFirstTimeout removes and returns the head, blocking up to d for one; ok is false if none
// came in time (d <= 0: does not wait). A virtual thread unmounts while it waits. An interrupt on
// entry or while waiting returns [thread.ErrInterrupted] (clearing the status) and leaves the
// deque unchanged. It ports pollFirst(timeout, unit).
func (q *LinkedBlockingDeque[T]) PollFirstTimeout(d time.Duration) (T, bool, error) {
	return q.pollWait(true, &budget{d: d})
}

// PollLastTimeout is PollFirstTimeout at the tail. It ports pollLast(timeout, unit).
func (q *LinkedBlockingDeque[T]) PollLastTimeout(d time.Duration) (T, bool, error) {
	return q.pollWait(false, &budget{d: d})
}

// PollTimeout is PollFirstTimeout. It ports poll(timeout, unit).
func (q *LinkedBlockingDeque[T]) PollTimeout(d time.Duration) (T, bool, error) {
	return q.PollFirstTimeout(d)
}

// RemoveFirst removes and returns the head, or returns [ErrEmpty]. It ports removeFirst.
func (q *LinkedBlockingDeque[T]) RemoveFirst() (T, error) { return element(q.PollFirst()) }

// RemoveLast removes and returns the tail, or returns [ErrEmpty]. It ports removeLast.
func (q *LinkedBlockingDeque[T]) RemoveLast() (T, error) { return element(q.PollLast()) }

// Remove is RemoveFirst. It ports remove().
func (q *LinkedBlockingDeque[T]) Remove() (T, error) { return q.RemoveFirst() }

// Pop is RemoveFirst. It ports pop.
func (q *LinkedBlockingDeque[T]) Pop() (T, error) { return q.RemoveFirst() }

// PeekFirst returns the head without removing it. It ports peekFirst.
func (q *LinkedBlockingDeque[T]) PeekFirst() (T, bool) { return q.peekEnd(true) }

// PeekLast returns the tail without removing it. It ports peekLast.
func (q *LinkedBlockingDeque[T]) PeekLast() (T, bool) { return q.peekEnd(false) }

// Peek is PeekFirst. It ports peek.
func (q *LinkedBlockingDeque[T]) Peek() (T, bool) { return q.PeekFirst() }

// Element returns the head without removing it, or returns [ErrEmpty]. It ports element/getFirst.
func (q *LinkedBlockingDeque[T]) Element() (T, error) { return element(q.PeekFirst()) }

// Len returns the number of elements. It ports size.
func (q *LinkedBlockingDeque[T]) Len() int {
	q.lockUp(false)
	defer q.lock.Unlock()
	return q.items.len()
}

// Cap returns the capacity ([Unbounded] if none was given).
func (q *LinkedBlockingDeque[T]) Cap() int { return q.limit() }

// RemainingCapacity returns Cap() - Len(). It ports remainingCapacity.
func (q *LinkedBlockingDeque[T]) RemainingCapacity() int {
	q.lockUp(false)
	defer q.lock.Unlock()
	return q.limit() - q.items.len()
}

// DrainTo removes at most max elements from the head (max <= 0: none), appends them to dst in
// order and returns the extended slice. Blocked producers are woken for the room made. It ports
// drainTo(c, max).
func (q *LinkedBlockingDeque[T]) DrainTo(dst []T, max int) []T {
	if max <= 0 {
		return dst
	}
	q.lockUp(false)
	defer q.lock.Unlock()
	for n := 0; n < max && q.items.len() > 0; n++ {
		dst = append(dst, q.unlink(true))
	}
	return dst
}

// Clear removes every element and wakes blocked producers. It ports clear.
func (q *LinkedBlockingDeque[T]) Clear() {
	q.lockUp(false)
	defer q.lock.Unlock()
	q.items.clear()
	q.size.Store(0)
	q.notFull.SignalAll()
}

func (q *LinkedBlockingDeque[T]) equal(a, b T) bool {
	if q.eq == nil {
		return defaultEqual(a, b)
	}
	return q.eq(a, b)
}

// Contains reports whether the deque holds an element equal to e (see [WithEqual]). It ports
// contains.
func (q *LinkedBlockingDeque[T]) Contains(e T) bool {
	q.lockUp(false)
	defer q.lock.Unlock()
	for i := range q.items.len() {
		if q.equal(q.items.at(i), e) {
			return true
		}
	}
	return false
}

// RemoveFirstOccurrence removes the first element equal to e and reports whether there was one.
// It ports removeFirstOccurrence.
func (q *LinkedBlockingDeque[T]) RemoveFirstOccurrence(e T) bool {
	q.lockUp(false)
	defer q.lock.Unlock()
	for i := range q.items.len() {
		if q.equal(q.items.at(i), e) {
			q.items.removeAt(i)
			q.size.Add(-1)
			q.notFull.Signal()
			return true
		}
	}
	return false
}

// RemoveLastOccurrence removes the last element equal to e and reports whether there was one. It
// ports removeLastOccurrence.
func (q *LinkedBlockingDeque[T]) RemoveLastOccurrence(e T) bool {
	q.lockUp(false)
	defer q.lock.Unlock()
	for i := q.items.len() - 1; i >= 0; i-- {
		if q.equal(q.items.at(i), e) {
			q.items.removeAt(i)
			q.size.Add(-1)
			q.notFull.Signal()
			return true
		}
	}
	return false
}

// RemoveElement is RemoveFirstOccurrence. It ports remove(o).
func (q *LinkedBlockingDeque[T]) RemoveElement(e T) bool { return q.RemoveFirstOccurrence(e) }

// RemoveIf removes every element for which pred reports true, keeping the others in order, and
// returns how many it removed; blocked producers are woken for the room made. pred runs with the
// deque locked and must not use the deque. It ports Collection.removeIf.
func (q *LinkedBlockingDeque[T]) RemoveIf(pred func(T) bool) int {
	q.lockUp(false)
	defer q.lock.Unlock()
	s := q.items.slice()
	kept := slices.DeleteFunc(slices.Clone(s), pred)
	if len(kept) == len(s) {
		return 0
	}
	q.items.clear()
	for _, e := range kept {
		q.items.pushBack(e)
	}
	q.size.Store(int32(len(kept)))
	if q.putters.Load() > 0 {
		q.notFull.SignalAll()
	}
	return len(s) - len(kept)
}

// ToSlice returns the elements from head to tail. It ports toArray.
func (q *LinkedBlockingDeque[T]) ToSlice() []T {
	q.lockUp(false)
	defer q.lock.Unlock()
	return q.items.slice()
}

// All iterates from head to tail. It is weakly consistent: it yields the elements present when
// the iteration began (a snapshot) and never fails because of concurrent change. It ports
// iterator.
func (q *LinkedBlockingDeque[T]) All() iter.Seq[T] { return sliceSeq(q.ToSlice) }

// Backward iterates from tail to head, weakly consistent like All. It ports descendingIterator.
func (q *LinkedBlockingDeque[T]) Backward() iter.Seq[T] {
	return sliceSeq(func() []T {
		s := q.ToSlice()
		slices.Reverse(s)
		return s
	})
}

// String formats the elements as Java's toString does: "[e1, e2]".
func (q *LinkedBlockingDeque[T]) String() string { return format(q.ToSlice()) }
