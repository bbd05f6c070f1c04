package queue

import (
	"iter"
	"sync"
	"sync/atomic"
	"time"

	"github.com/loomgo/loom/locks"
)

// LinkedBlockingQueue is java.util.concurrent.LinkedBlockingQueue: an optionally bounded FIFO
// blocking queue of linked nodes. Producers block while it is full and consumers while it is
// empty.
//
// It uses Java's two-lock design: producers hold putLock (with its condition notFull) and
// consumers takeLock (with notEmpty), so a put and a take do not contend; the element count is
// atomic, and a producer that makes the queue non-empty briefly takes takeLock to signal a
// waiting consumer (and the other way round). Waiting goes through [thread.Park], so a virtual
// thread unmounts while it waits.
//
// The zero value is an empty unbounded queue, like new LinkedBlockingQueue(). A
// LinkedBlockingQueue must not be copied after first use.
type LinkedBlockingQueue[T any] struct {
	_        noCopy
	once     sync.Once
	capacity int // 0 until init: unbounded
	eq       func(a, b T) bool
	count    atomic.Int64

	_        [64]byte // keep the consumers' side off the producers' cache line
	takeLock locks.ReentrantLock
	notEmpty *locks.Condition
	head     *lbqNode[T] // dummy node: head.next is the first element; guarded by takeLock
	takers   waiters     // threads waiting on notEmpty

	_       [64]byte
	putLock locks.ReentrantLock
	notFull *locks.Condition
	last    *lbqNode[T] // guarded by putLock
	putters waiters     // threads waiting on notFull
}

type lbqNode[T any] struct {
	item T
	next *lbqNode[T] // a dequeued head points to itself
}

var _ BlockingQueue[int] = (*LinkedBlockingQueue[int])(nil)

// NewLinkedBlockingQueue returns an empty queue holding at most capacity elements; capacity <= 0
// means unbounded (Java's Integer.MAX_VALUE). It ports new [LinkedBlockingQueue](capacity[, c]);
// unlike Java, a capacity <= 0 is not an error but the no-argument constructor. More initial
// elements ([WithElements]) than a positive capacity panic with an error wrapping
// [thread.ErrIllegalArgument].
func NewLinkedBlockingQueue[T any](capacity int, opts ...Option[T]) *LinkedBlockingQueue[T] {
	o := buildOptions(opts)
	if capacity > 0 && len(o.elems) > capacity {
		panic(illegalArgument("%d initial elements exceed capacity %d", len(o.elems), capacity))
	}
	q := &LinkedBlockingQueue[T]{capacity: max(capacity, 0), eq: o.eq}
	q.init()
	for _, e := range o.elems {
		q.last.next = &lbqNode[T]{item: e}
		q.last = q.last.next
	}
	q.count.Store(int64(len(o.elems)))
	return q
}

func (q *LinkedBlockingQueue[T]) init() {
	q.once.Do(func() {
		if q.capacity <= 0 {
			q.capacity = Unbounded
		}
		if q.eq == nil {
			q.eq = defaultEqual[T]
		}
		q.head = &lbqNode[T]{}
		q.last = q.head
		q.notEmpty = q.takeLock.NewCondition()
		q.notFull = q.putLock.NewCondition()
	})
}

// enqueue links e at the tail; putLock is held.
func (q *LinkedBlockingQueue[T]) enqueue(e T) {
	n := &lbqNode[T]{item: e}
	q.last.next = n
	q.last = n
}

// dequeue unlinks the head; takeLock is held and the queue is not empty.
func (q *LinkedBlockingQueue[T]) dequeue() T {
	h := q.head
	first := h.next
	h.next = h // the old dummy leaves the list
	q.head = first
	e := first.item
	var zero T
	first.item = zero
	return e
}

// signalNotEmpty wakes a waiting consumer; called by producers that do not hold takeLock,
// after making the queue non-empty.
func (q *LinkedBlockingQueue[T]) signalNotEmpty() {
	if q.takers.Load() == 0 {
		return
	}
	q.takeLock.Lock()
	q.notEmpty.Signal()
	q.takeLock.Unlock()
}

// signalNotFull wakes a waiting producer; called by consumers that do not hold putLock,
// after making room.
func (q *LinkedBlockingQueue[T]) signalNotFull() {
	if q.putters.Load() == 0 {
		return
	}
	q.putLock.Lock()
	q.notFull.Signal()
	q.putLock.Unlock()
}

// Add inserts e at the tail if there is room now, otherwise returns [ErrFull] and leaves the queue
// unchanged. It never blocks. It ports add.
func (q *LinkedBlockingQueue[T]) Add(e T) error {
	if !q.Offer(e) {
		return ErrFull
	}
	return nil
}

// Offer inserts e at the tail if there is room now and reports whether it did. It never blocks
// (beyond brief locking). It ports LinkedBlockingQueue.offer(e).
func (q *LinkedBlockingQueue[T]) Offer(e T) bool {
	q.init()
	if q.count.Load() >= int64(q.capacity) {
		return false
	}
	q.putLock.Lock()
	if q.count.Load() >= int64(q.capacity) {
		q.putLock.Unlock()
		return false
	}
	q.enqueue(e)
	c := q.count.Add(1)
	if c < int64(q.capacity) && q.putters.Load() > 0 {
		q.notFull.Signal()
	}
	q.putLock.Unlock()
	if c == 1 {
		q.signalNotEmpty()
	}
	return true
}

// Put inserts e at the tail, blocking until there is room. A virtual thread unmounts while it
// waits. If the thread is interrupted on entry or while waiting, Put returns
// [thread.ErrInterrupted] (clearing the status) and leaves the queue unchanged. It ports
// LinkedBlockingQueue.put.
func (q *LinkedBlockingQueue[T]) Put(e T) error {
	_, err := q.offer(e, nil)
	return err
}

// OfferTimeout inserts e at the tail, blocking up to d for room; it reports false, leaving the
// queue unchanged, if none came in time (d <= 0: does not wait). A virtual thread unmounts while
// it waits. An interrupt on entry or while waiting returns [thread.ErrInterrupted] (clearing the
// status). It ports LinkedBlockingQueue.offer(e, timeout, unit).
func (q *LinkedBlockingQueue[T]) OfferTimeout(e T, d time.Duration) (bool, error) {
	return q.offer(e, &budget{d: d})
}

func (q *LinkedBlockingQueue[T]) hasRoom() bool  { return q.count.Load() < int64(q.capacity) }
func (q *LinkedBlockingQueue[T]) nonEmpty() bool { return q.count.Load() > 0 }

func (q *LinkedBlockingQueue[T]) offer(e T, b *budget) (bool, error) {
	q.init()
	if err := q.putLock.LockInterruptibly(); err != nil {
		return false, err
	}
	if !q.hasRoom() && (b == nil || b.d > 0) {
		if err := spinUntil(&q.putLock, q.hasRoom, true); err != nil {
			return false, err
		}
	}
	for q.count.Load() >= int64(q.capacity) {
		if more, err := await(q.notFull, b, q.hasRoom, &q.putters); !more {
			q.putLock.Unlock()
			return false, err
		}
	}
	q.enqueue(e)
	c := q.count.Add(1)
	if c < int64(q.capacity) && q.putters.Load() > 0 {
		q.notFull.Signal() // cascade: let another producer in
	}
	q.putLock.Unlock()
	if c == 1 {
		q.signalNotEmpty()
	}
	return true, nil
}

// Take removes and returns the head, blocking until there is one. A virtual thread unmounts while
// it waits. If the thread is interrupted on entry or while waiting, Take returns
// [thread.ErrInterrupted] (clearing the status) and leaves the queue unchanged. It ports
// LinkedBlockingQueue.take.
func (q *LinkedBlockingQueue[T]) Take() (T, error) {
	e, _, err := q.poll(nil)
	return e, err
}

// PollTimeout removes and returns the head, blocking up to d for one; ok is false if none came in
// time (d <= 0: does not wait). A virtual thread unmounts while it waits. An interrupt on entry
// or while waiting returns [thread.ErrInterrupted] (clearing the status) and leaves the queue
// unchanged. It ports LinkedBlockingQueue.poll(timeout, unit).
func (q *LinkedBlockingQueue[T]) PollTimeout(d time.Duration) (e T, ok bool, err error) {
	return q.poll(&budget{d: d})
}

func (q *LinkedBlockingQueue[T]) poll(b *budget) (e T, ok bool, err error) {
	q.init()
	if err := q.takeLock.LockInterruptibly(); err != nil {
		return e, false, err
	}
	if !q.nonEmpty() && (b == nil || b.d > 0) {
		if err := spinUntil(&q.takeLock, q.nonEmpty, true); err != nil {
			return e, false, err
		}
	}
	for q.count.Load() == 0 {
		if more, err := await(q.notEmpty, b, q.nonEmpty, &q.takers); !more {
			q.takeLock.Unlock()
			return e, false, err
		}
	}
	e = q.dequeue()
	c := q.count.Add(-1)
	if c > 0 && q.takers.Load() > 0 {
		q.notEmpty.Signal() // cascade: let another consumer in
	}
	q.takeLock.Unlock()
	if c == int64(q.capacity)-1 {
		q.signalNotFull()
	}
	return e, true, nil
}

// Poll removes and returns the head if there is one. It never blocks (beyond brief locking). It
// ports LinkedBlockingQueue.poll().
func (q *LinkedBlockingQueue[T]) Poll() (e T, ok bool) {
	q.init()
	if q.count.Load() == 0 {
		return e, false
	}
	q.takeLock.Lock()
	if q.count.Load() == 0 {
		q.takeLock.Unlock()
		return e, false
	}
	e = q.dequeue()
	c := q.count.Add(-1)
	if c > 0 && q.takers.Load() > 0 {
		q.notEmpty.Signal()
	}
	q.takeLock.Unlock()
	if c == int64(q.capacity)-1 {
		q.signalNotFull()
	}
	return e, true
}

// Remove removes and returns the head, or returns [ErrEmpty]. It ports Queue.remove().
func (q *LinkedBlockingQueue[T]) Remove() (T, error) { return element(q.Poll()) }

// Peek returns the head without removing it. It ports LinkedBlockingQueue.peek.
func (q *LinkedBlockingQueue[T]) Peek() (e T, ok bool) {
	q.init()
	if q.count.Load() == 0 {
		return e, false
	}
	q.takeLock.Lock()
	defer q.takeLock.Unlock()
	if q.count.Load() == 0 {
		return e, false
	}
	return q.head.next.item, true
}

// Element returns the head without removing it, or returns [ErrEmpty]. It ports Queue.element.
func (q *LinkedBlockingQueue[T]) Element() (T, error) { return element(q.Peek()) }

// Len returns the number of elements. It ports LinkedBlockingQueue.size.
func (q *LinkedBlockingQueue[T]) Len() int { return int(q.count.Load()) }

// Cap returns the capacity ([Unbounded] if none was given).
func (q *LinkedBlockingQueue[T]) Cap() int {
	q.init()
	return q.capacity
}

// RemainingCapacity returns Cap() - Len(). It ports remainingCapacity.
func (q *LinkedBlockingQueue[T]) RemainingCapacity() int {
	q.init()
	return q.capacity - int(q.count.Load())
}

// fullyLock holds both locks, for operations that touch the whole list.
func (q *LinkedBlockingQueue[T]) fullyLock() {
	q.init()
	q.putLock.Lock()
	q.takeLock.Lock()
}

func (q *LinkedBlockingQueue[T]) fullyUnlock() {
	q.takeLock.Unlock()
	q.putLock.Unlock()
}

// DrainTo removes at most max elements (max <= 0: none), appends them to dst in FIFO order and
// returns the extended slice. Blocked producers are woken for the room made. It ports
// LinkedBlockingQueue.drainTo(c, max).
func (q *LinkedBlockingQueue[T]) DrainTo(dst []T, max int) []T {
	if max <= 0 {
		return dst
	}
	q.init()
	q.takeLock.Lock()
	n := min(int64(max), q.count.Load())
	for range n {
		dst = append(dst, q.dequeue())
	}
	wasFull := q.count.Add(-n)+n == int64(q.capacity)
	q.takeLock.Unlock()
	if n > 0 && wasFull {
		q.signalNotFull()
	}
	return dst
}

// Clear removes every element and wakes blocked producers. It ports LinkedBlockingQueue.clear.
func (q *LinkedBlockingQueue[T]) Clear() {
	q.fullyLock()
	defer q.fullyUnlock()
	for q.head.next != nil {
		q.dequeue()
	}
	q.last = q.head
	if q.count.Swap(0) == int64(q.capacity) {
		q.notFull.Signal()
	}
}

// Contains reports whether the queue holds an element equal to e (see [WithEqual]). It ports
// LinkedBlockingQueue.contains.
func (q *LinkedBlockingQueue[T]) Contains(e T) bool {
	q.fullyLock()
	defer q.fullyUnlock()
	for p := q.head.next; p != nil; p = p.next {
		if q.eq(p.item, e) {
			return true
		}
	}
	return false
}

// RemoveElement removes the first element equal to e (see [WithEqual]) and reports whether there
// was one; a blocked producer is woken for the room made. It ports LinkedBlockingQueue.remove(o).
func (q *LinkedBlockingQueue[T]) RemoveElement(e T) bool {
	q.fullyLock()
	defer q.fullyUnlock()
	for trail, p := q.head, q.head.next; p != nil; trail, p = p, p.next {
		if q.eq(p.item, e) {
			var zero T
			p.item = zero
			trail.next = p.next
			if q.last == p {
				q.last = trail
			}
			if q.count.Add(-1) == int64(q.capacity)-1 {
				q.notFull.Signal()
			}
			return true
		}
	}
	return false
}

// RemoveIf removes every element for which pred reports true, keeping the others in order, and
// returns how many it removed; blocked producers are woken for the room made. pred runs with the
// queue locked and must not use the queue. It ports Collection.removeIf (and, with the
// matching predicate, removeAll and retainAll).
func (q *LinkedBlockingQueue[T]) RemoveIf(pred func(T) bool) int {
	q.fullyLock()
	defer q.fullyUnlock()
	removed := 0
	for trail, p := q.head, q.head.next; p != nil; p = p.next {
		if !pred(p.item) {
			trail = p
			continue
		}
		var zero T
		p.item = zero
		trail.next = p.next
		if q.last == p {
			q.last = trail
		}
		removed++
	}
	if removed > 0 {
		q.count.Add(int64(-removed))
		if q.putters.Load() > 0 {
			q.notFull.SignalAll()
		}
	}
	return removed
}

// ToSlice returns the elements in FIFO order. It ports toArray.
func (q *LinkedBlockingQueue[T]) ToSlice() []T {
	q.fullyLock()
	defer q.fullyUnlock()
	s := make([]T, 0, q.count.Load())
	for p := q.head.next; p != nil; p = p.next {
		s = append(s, p.item)
	}
	return s
}

// All iterates over the elements in FIFO order. It is weakly consistent: it yields the elements
// present when the iteration began (a snapshot, so the loop body may use the queue freely) and
// never fails because of concurrent change. It ports LinkedBlockingQueue.iterator.
func (q *LinkedBlockingQueue[T]) All() iter.Seq[T] { return sliceSeq(q.ToSlice) }

// String formats the elements as Java's toString does: "[e1, e2]".
func (q *LinkedBlockingQueue[T]) String() string { return format(q.ToSlice()) }
