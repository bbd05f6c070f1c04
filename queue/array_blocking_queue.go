package queue

import (
	"fmt"
	"iter"
	"sync/atomic"
	"time"

	"github.com/loomgo/loom/thread"
)

// ArrayBlockingQueue is java.util.concurrent.ArrayBlockingQueue: a bounded FIFO blocking queue
// backed by a ring buffer of fixed capacity. Producers block while it is full and consumers
// while it is empty.
//
// One lock guards the queue, with two conditions, notEmpty and notFull, as in Java; a thread
// waits on them through [thread.Park], so a virtual thread unmounts while it waits. A fair
// queue uses a fair lock: blocked producers and consumers are served in arrival order
// (fairness lowers throughput, as in Java). The lock is the queue's own (see qlock in lock.go):
// a reentrant lock on loom's wait queue, like [locks.ReentrantLock], that looks the current
// thread up once per operation.
//
// An ArrayBlockingQueue must not be copied after first use. Make one with
// [NewArrayBlockingQueue].
type ArrayBlockingQueue[T any] struct {
	_ noCopy

	// Everything a put or a take touches, under the lock, together: the lines that move with
	// the lock from producer to consumer. (Producer-only and consumer-only fields on lines of
	// their own, as the issue that prompted this layout suggested, would only add lines to move:
	// with one lock, both sides write the lock word and count on every operation anyway.)
	lock     qlock
	items    []T
	take     int // index of the head
	put      int // index of the next free slot
	count    int
	takers   waiters // threads waiting on notEmpty
	putters  waiters // threads waiting on notFull
	notEmpty qcond
	notFull  qcond
	eq       func(a, b T) bool

	// Spinning (see spin): apart, so that the operations above never write this line while
	// nobody spins.
	_        [64]byte
	spinners atomic.Int32 // threads in spin
	size     atomic.Int32 // count, kept up to date while spinners > 0
	_        [56]byte
}

var _ BlockingQueue[int] = (*ArrayBlockingQueue[int])(nil)

// NewArrayBlockingQueue returns an empty queue holding at most capacity elements; fair selects a
// fair lock (FIFO access for blocked threads). capacity <= 0, or more initial elements
// ([WithElements]) than capacity, panics with an error wrapping [thread.ErrIllegalArgument], as
// Java throws IllegalArgumentException. It ports new [ArrayBlockingQueue](capacity, fair[, c]).
func NewArrayBlockingQueue[T any](capacity int, fair bool, opts ...Option[T]) *ArrayBlockingQueue[T] {
	if capacity <= 0 {
		panic(illegalArgument("capacity %d <= 0", capacity))
	}
	o := buildOptions(opts)
	if len(o.elems) > capacity {
		panic(illegalArgument("%d initial elements exceed capacity %d", len(o.elems), capacity))
	}
	q := &ArrayBlockingQueue[T]{items: make([]T, capacity), eq: o.eq}
	q.lock.fair = fair
	q.notEmpty.l = &q.lock
	q.notFull.l = &q.lock
	q.count = copy(q.items, o.elems)
	q.put = q.count % capacity
	return q
}

// enqueue inserts e at the tail; the lock is held and there is room.
func (q *ArrayBlockingQueue[T]) enqueue(e T) {
	q.items[q.put] = e
	if q.put++; q.put == len(q.items) {
		q.put = 0
	}
	q.count++
	q.counted()
	q.takers.signal(&q.notEmpty)
}

// dequeue removes the head; the lock is held and the queue is not empty.
func (q *ArrayBlockingQueue[T]) dequeue() T {
	var zero T
	e := q.items[q.take]
	q.items[q.take] = zero // let the garbage collector have it
	if q.take++; q.take == len(q.items) {
		q.take = 0
	}
	q.count--
	q.counted()
	q.putters.signal(&q.notFull)
	return e
}

// spin is spinUntil for this queue, whose lock the caller holds, and found it empty or full:
// it publishes count in size for as long as it spins, and ready reads size.
//
// Keeping size up to date on every put and take cost an atomic store each (a locked
// instruction on amd64, as dear as the lock itself) for the benefit of a spinner that is rarely
// there. So size is kept only while spinners > 0: the spinner counts itself and stores the
// current count while it still holds the lock, so every operation that follows (each takes the
// lock after that) sees spinners > 0 and stores its new count. A stale size can only make a
// spinner stop early or late: it re-checks count under the lock either way.
func (q *ArrayBlockingQueue[T]) spin(ready func() bool) error {
	q.spinners.Add(1)
	defer q.spinners.Add(-1)
	q.size.Store(int32(q.count))
	return spinUntil(&q.lock, ready, true)
}

// counted publishes a new count to spinners, if there are any; the lock is held.
func (q *ArrayBlockingQueue[T]) counted() {
	if q.spinners.Load() != 0 {
		q.size.Store(int32(q.count))
	}
}

// Add inserts e at the tail if there is room now, otherwise returns [ErrFull] and leaves the queue
// unchanged. It never blocks. It ports ArrayBlockingQueue.add.
func (q *ArrayBlockingQueue[T]) Add(e T) error {
	if !q.Offer(e) {
		return ErrFull
	}
	return nil
}

// Offer inserts e at the tail if there is room now and reports whether it did. It never blocks
// (beyond the brief lock). It ports ArrayBlockingQueue.offer(e).
func (q *ArrayBlockingQueue[T]) Offer(e T) bool {
	if t := thread.Current(); !q.lock.tryFast(t) { // lockAs, inlined
		q.lock.lockSlow(t, false)
	}
	defer q.lock.Unlock()
	if q.count == len(q.items) {
		return false
	}
	q.enqueue(e)
	return true
}

// Put inserts e at the tail, blocking until there is room. A virtual thread unmounts while it
// waits. If the thread is interrupted on entry or while waiting, Put returns
// [thread.ErrInterrupted] (clearing the status) and leaves the queue unchanged. It ports
// ArrayBlockingQueue.put.
func (q *ArrayBlockingQueue[T]) Put(e T) error {
	_, err := q.offer(e, nil)
	return err
}

// OfferTimeout inserts e at the tail, blocking up to d for room; it reports false, leaving the
// queue unchanged, if none came in time (d <= 0: does not wait). A virtual thread unmounts while
// it waits. An interrupt on entry or while waiting returns [thread.ErrInterrupted] (clearing the
// status). It ports ArrayBlockingQueue.offer(e, timeout, unit).
func (q *ArrayBlockingQueue[T]) OfferTimeout(e T, d time.Duration) (bool, error) {
	return q.offer(e, &budget{d: d})
}

func (q *ArrayBlockingQueue[T]) offer(e T, b *budget) (bool, error) {
	if t := thread.Current(); t.IsInterrupted() || !q.lock.tryFast(t) { // lockInterruptiblyAs, inlined
		if err := q.lock.lockSlow(t, true); err != nil {
			return false, err
		}
	}
	if q.count == len(q.items) && (b == nil || b.d > 0) {
		if err := q.spin(func() bool { return int(q.size.Load()) < len(q.items) }); err != nil {
			return false, err
		}
	}
	defer q.lock.Unlock()
	for q.count == len(q.items) {
		if more, err := await(&q.notFull, b, q.hasRoom, &q.putters); !more {
			return false, err
		}
	}
	q.enqueue(e)
	return true, nil
}

func (q *ArrayBlockingQueue[T]) hasRoom() bool  { return q.count < len(q.items) }
func (q *ArrayBlockingQueue[T]) nonEmpty() bool { return q.count > 0 }

// Take removes and returns the head, blocking until there is one. A virtual thread unmounts while
// it waits. If the thread is interrupted on entry or while waiting, Take returns
// [thread.ErrInterrupted] (clearing the status) and leaves the queue unchanged. It ports
// ArrayBlockingQueue.take.
func (q *ArrayBlockingQueue[T]) Take() (T, error) {
	e, _, err := q.poll(nil)
	return e, err
}

// PollTimeout removes and returns the head, blocking up to d for one; ok is false if none came in
// time (d <= 0: does not wait). A virtual thread unmounts while it waits. An interrupt on entry
// or while waiting returns [thread.ErrInterrupted] (clearing the status) and leaves the queue
// unchanged. It ports ArrayBlockingQueue.poll(timeout, unit).
func (q *ArrayBlockingQueue[T]) PollTimeout(d time.Duration) (e T, ok bool, err error) {
	return q.poll(&budget{d: d})
}

func (q *ArrayBlockingQueue[T]) poll(b *budget) (e T, ok bool, err error) {
	if t := thread.Current(); t.IsInterrupted() || !q.lock.tryFast(t) { // lockInterruptiblyAs, inlined
		if err := q.lock.lockSlow(t, true); err != nil {
			return e, false, err
		}
	}
	if q.count == 0 && (b == nil || b.d > 0) {
		if err := q.spin(func() bool { return q.size.Load() > 0 }); err != nil {
			return e, false, err
		}
	}
	defer q.lock.Unlock()
	for q.count == 0 {
		if more, err := await(&q.notEmpty, b, q.nonEmpty, &q.takers); !more {
			return e, false, err
		}
	}
	return q.dequeue(), true, nil
}

// Poll removes and returns the head if there is one. It never blocks. It ports
// ArrayBlockingQueue.poll().
func (q *ArrayBlockingQueue[T]) Poll() (e T, ok bool) {
	if t := thread.Current(); !q.lock.tryFast(t) { // lockAs, inlined
		q.lock.lockSlow(t, false)
	}
	defer q.lock.Unlock()
	if q.count == 0 {
		return e, false
	}
	return q.dequeue(), true
}

// Remove removes and returns the head, or returns [ErrEmpty]. It ports Queue.remove().
func (q *ArrayBlockingQueue[T]) Remove() (T, error) {
	if e, ok := q.Poll(); ok {
		return e, nil
	}
	var zero T
	return zero, ErrEmpty
}

// Peek returns the head without removing it. It ports ArrayBlockingQueue.peek.
func (q *ArrayBlockingQueue[T]) Peek() (e T, ok bool) {
	q.lock.Lock()
	defer q.lock.Unlock()
	if q.count == 0 {
		return e, false
	}
	return q.items[q.take], true
}

// Element returns the head without removing it, or returns [ErrEmpty]. It ports Queue.element.
func (q *ArrayBlockingQueue[T]) Element() (T, error) { return element(q.Peek()) }

// Len returns the number of elements. It ports ArrayBlockingQueue.size.
func (q *ArrayBlockingQueue[T]) Len() int {
	q.lock.Lock()
	defer q.lock.Unlock()
	return q.count
}

// Cap returns the capacity given to [NewArrayBlockingQueue].
func (q *ArrayBlockingQueue[T]) Cap() int { return len(q.items) }

// RemainingCapacity returns Cap() - Len(). It ports remainingCapacity.
func (q *ArrayBlockingQueue[T]) RemainingCapacity() int {
	q.lock.Lock()
	defer q.lock.Unlock()
	return len(q.items) - q.count
}

// DrainTo removes at most max elements (max <= 0: none), appends them to dst in FIFO order and
// returns the extended slice. Blocked producers are woken for the room made. It ports
// ArrayBlockingQueue.drainTo(c, max).
func (q *ArrayBlockingQueue[T]) DrainTo(dst []T, max int) []T {
	if max <= 0 {
		return dst
	}
	q.lock.Lock()
	defer q.lock.Unlock()
	for n := 0; n < max && q.count > 0; n++ {
		dst = append(dst, q.dequeue())
	}
	return dst
}

// Clear removes every element and wakes blocked producers. It ports ArrayBlockingQueue.clear.
func (q *ArrayBlockingQueue[T]) Clear() {
	q.lock.Lock()
	defer q.lock.Unlock()
	for q.count > 0 {
		q.dequeue()
	}
}

// Contains reports whether the queue holds an element equal to e (see [WithEqual]). It ports
// ArrayBlockingQueue.contains.
func (q *ArrayBlockingQueue[T]) Contains(e T) bool {
	q.lock.Lock()
	defer q.lock.Unlock()
	return q.index(e) >= 0
}

// index returns the position from the head of the first element equal to e, or -1.
func (q *ArrayBlockingQueue[T]) index(e T) int {
	for i := range q.count {
		if q.eq(q.at(i), e) {
			return i
		}
	}
	return -1
}

func (q *ArrayBlockingQueue[T]) at(i int) T {
	j := q.take + i
	if j >= len(q.items) {
		j -= len(q.items)
	}
	return q.items[j]
}

// RemoveElement removes the first element equal to e (see [WithEqual]) and reports whether there
// was one; a blocked producer is woken for the room made. It ports ArrayBlockingQueue.remove(o).
func (q *ArrayBlockingQueue[T]) RemoveElement(e T) bool {
	q.lock.Lock()
	defer q.lock.Unlock()
	i := q.index(e)
	if i < 0 {
		return false
	}
	// shift the elements after i one slot towards the head
	n := len(q.items)
	for k := i; k < q.count-1; k++ {
		q.items[(q.take+k)%n] = q.items[(q.take+k+1)%n]
	}
	var zero T
	q.put = (q.take + q.count - 1) % n
	q.items[q.put] = zero
	q.count--
	q.counted()
	q.putters.signal(&q.notFull)
	return true
}

// RemoveIf removes every element for which pred reports true, keeping the others in order, and
// returns how many it removed; blocked producers are woken for the room made. pred runs with the
// queue locked and must not use the queue. It ports Collection.removeIf (and, with the
// matching predicate, removeAll and retainAll).
func (q *ArrayBlockingQueue[T]) RemoveIf(pred func(T) bool) int {
	q.lock.Lock()
	defer q.lock.Unlock()
	n, kept := len(q.items), 0
	for i := range q.count {
		if e := q.at(i); !pred(e) {
			q.items[(q.take+kept)%n] = e
			kept++
		}
	}
	removed := q.count - kept
	var zero T
	for i := kept; i < q.count; i++ {
		q.items[(q.take+i)%n] = zero
	}
	q.count = kept
	q.counted()
	q.put = (q.take + kept) % n
	if removed > 0 && q.putters.Load() > 0 {
		q.notFull.SignalAll()
	}
	return removed
}

// ToSlice returns the elements in FIFO order. It ports toArray.
func (q *ArrayBlockingQueue[T]) ToSlice() []T {
	q.lock.Lock()
	defer q.lock.Unlock()
	s := make([]T, q.count)
	for i := range s {
		s[i] = q.at(i)
	}
	return s
}

// All iterates over the elements in FIFO order. It is weakly consistent: it yields the elements
// present when the iteration began (a snapshot, so the loop body may use the queue freely) and
// never fails because of concurrent change. It ports ArrayBlockingQueue.iterator.
func (q *ArrayBlockingQueue[T]) All() iter.Seq[T] { return sliceSeq(q.ToSlice) }

// String formats the elements as Java's toString does: "[e1, e2]".
func (q *ArrayBlockingQueue[T]) String() string { return format(q.ToSlice()) }

func sliceSeq[T any](snap func() []T) iter.Seq[T] {
	return func(yield func(T) bool) {
		for _, e := range snap() {
			if !yield(e) {
				return
			}
		}
	}
}

func format[T any](s []T) string {
	b := []byte{'['}
	for i, e := range s {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = fmt.Append(b, e)
	}
	return string(append(b, ']'))
}

func element[T any](e T, ok bool) (T, error) {
	if !ok {
		return e, ErrEmpty
	}
	return e, nil
}
