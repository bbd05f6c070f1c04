package queue

import (
	"iter"
	"math"
	"time"
)

// LinkedTransferQueue is java.util.concurrent.LinkedTransferQueue: an unbounded FIFO
// [TransferQueue]. Put, Offer and Add never block; Transfer additionally waits until a consumer
// has received the element, and TryTransfer hands it over only to a consumer already waiting.
//
// One list holds either elements (with the producers of Transfer waiting on theirs) or waiting
// consumers, as in Java's dual queue; waiters park through [thread.Park] (a virtual thread
// unmounts), and an interrupt or timeout racing a hand-off never loses or duplicates an element.
//
// Interrupts follow JDK 25's LinkedTransferQueue: Take and Transfer check the interrupt status
// on entry and fail at once (even with an element there, for Take); PollTimeout and
// TryTransferTimeout do not: they succeed if an element (a consumer) is already there, leaving
// the status set, and fail with [thread.ErrInterrupted] only when they would have to wait (even
// with a zero timeout). Put, Offer and OfferTimeout never look at it.
//
// The zero value is an empty queue, like new LinkedTransferQueue(). A LinkedTransferQueue must
// not be copied after first use.
type LinkedTransferQueue[T any] struct {
	_  noCopy
	q  dualQueue[T]
	eq func(a, b T) bool
}

var _ TransferQueue[int] = (*LinkedTransferQueue[int])(nil)

// NewLinkedTransferQueue returns an empty queue. It ports new [LinkedTransferQueue]([c]).
func NewLinkedTransferQueue[T any](opts ...Option[T]) *LinkedTransferQueue[T] {
	o := buildOptions(opts)
	q := &LinkedTransferQueue[T]{eq: o.eq}
	for _, e := range o.elems {
		q.Offer(e)
	}
	return q
}

// Offer inserts e at the tail (or hands it to a waiting consumer); it always succeeds and never
// blocks. It ports LinkedTransferQueue.offer.
func (q *LinkedTransferQueue[T]) Offer(e T) bool {
	q.q.xfer(e, true, xferAsync, 0, false, q)
	return true
}

// Add is Offer; it never returns an error. It ports add.
func (q *LinkedTransferQueue[T]) Add(e T) error {
	q.Offer(e)
	return nil
}

// Put is Offer: it never blocks and never reports an interrupt. It ports put.
func (q *LinkedTransferQueue[T]) Put(e T) error {
	q.Offer(e)
	return nil
}

// OfferTimeout is Offer: it never blocks and ignores d. It ports offer(e, timeout, unit).
func (q *LinkedTransferQueue[T]) OfferTimeout(e T, d time.Duration) (bool, error) {
	return q.Offer(e), nil
}

// Transfer hands e to a consumer: at once if one is waiting, otherwise it queues e and blocks
// until a consumer receives it. A virtual thread unmounts while it waits. If the thread is
// interrupted on entry or while waiting, Transfer returns [thread.ErrInterrupted] (clearing the
// status) and takes e back out of the queue. It ports transfer.
func (q *LinkedTransferQueue[T]) Transfer(e T) error {
	_, _, err := q.q.xfer(e, true, xferSync, 0, false, q)
	return err
}

// TryTransfer hands e to a consumer already waiting and reports whether there was one; otherwise
// e is not queued. It never blocks. It ports tryTransfer(e).
func (q *LinkedTransferQueue[T]) TryTransfer(e T) bool {
	_, ok, _ := q.q.xfer(e, true, xferNow, 0, false, q)
	return ok
}

// TryTransferTimeout is Transfer that gives up after d (d <= 0: only a consumer already waiting),
// taking e back out of the queue and reporting false. A virtual thread unmounts while it waits.
// A consumer already waiting receives e even when the thread is interrupted (the status stays
// set); otherwise an interrupt, on entry or while waiting, returns [thread.ErrInterrupted]
// (clearing the status). It ports tryTransfer(e, timeout, unit).
func (q *LinkedTransferQueue[T]) TryTransferTimeout(e T, d time.Duration) (bool, error) {
	_, ok, err := q.q.xfer(e, true, xferTimed, d, false, q)
	return ok, err
}

// Take removes and returns the head, blocking until there is one. A virtual thread unmounts while
// it waits. If the thread is interrupted on entry or while waiting, Take returns
// [thread.ErrInterrupted] (clearing the status) and receives nothing. It ports take.
func (q *LinkedTransferQueue[T]) Take() (T, error) {
	e, _, err := q.q.xfer(*new(T), false, xferSync, 0, false, q)
	return e, err
}

// PollTimeout removes and returns the head, blocking up to d for one; ok is false if none came in
// time (d <= 0: does not wait). A virtual thread unmounts while it waits. An element already
// there is returned even when the thread is interrupted (the status stays set); otherwise an
// interrupt, on entry or while waiting, returns [thread.ErrInterrupted] (clearing the status)
// and receives nothing. It ports poll(timeout, unit).
func (q *LinkedTransferQueue[T]) PollTimeout(d time.Duration) (T, bool, error) {
	return q.q.xfer(*new(T), false, xferTimed, d, false, q)
}

// Poll removes and returns the head if there is one. It ports poll().
func (q *LinkedTransferQueue[T]) Poll() (T, bool) {
	e, ok, _ := q.q.xfer(*new(T), false, xferNow, 0, false, q)
	return e, ok
}

// Remove removes and returns the head, or returns [ErrEmpty]. It ports remove().
func (q *LinkedTransferQueue[T]) Remove() (T, error) { return element(q.Poll()) }

// Peek returns the head without removing it. It ports peek.
func (q *LinkedTransferQueue[T]) Peek() (e T, ok bool) {
	q.q.mu.Lock()
	defer q.q.mu.Unlock()
	if h := q.q.head; h != nil && h.data {
		return h.item, true
	}
	return e, false
}

// Element returns the head without removing it, or returns [ErrEmpty]. It ports element.
func (q *LinkedTransferQueue[T]) Element() (T, error) { return element(q.Peek()) }

// Len returns the number of elements (including those whose Transfer still waits). It ports size.
func (q *LinkedTransferQueue[T]) Len() int {
	q.q.mu.Lock()
	defer q.q.mu.Unlock()
	if q.q.head == nil || !q.q.head.data {
		return 0
	}
	return q.q.n
}

// RemainingCapacity returns [Unbounded]. It ports remainingCapacity.
func (q *LinkedTransferQueue[T]) RemainingCapacity() int { return math.MaxInt32 }

// HasWaitingConsumer reports whether a consumer waits in Take or PollTimeout. It ports
// hasWaitingConsumer.
func (q *LinkedTransferQueue[T]) HasWaitingConsumer() bool { return q.q.waitingConsumers() > 0 }

// WaitingConsumerCount returns the number of consumers waiting. It ports getWaitingConsumerCount.
func (q *LinkedTransferQueue[T]) WaitingConsumerCount() int { return q.q.waitingConsumers() }

// DrainTo removes at most max elements (max <= 0: none), appends them to dst in FIFO order and
// returns the extended slice; producers waiting in Transfer for them return. It ports
// drainTo(c, max).
func (q *LinkedTransferQueue[T]) DrainTo(dst []T, max int) []T {
	for range max {
		e, ok := q.Poll()
		if !ok {
			break
		}
		dst = append(dst, e)
	}
	return dst
}

// Clear removes every element; producers waiting in Transfer return as if consumed. It ports
// clear.
func (q *LinkedTransferQueue[T]) Clear() {
	q.q.removeData(func(T) bool { return true }, true, nil)
}

func (q *LinkedTransferQueue[T]) equal(a, b T) bool {
	if q.eq == nil {
		return defaultEqual(a, b)
	}
	return q.eq(a, b)
}

// Contains reports whether the queue holds an element equal to e (see [WithEqual]). It ports
// contains.
func (q *LinkedTransferQueue[T]) Contains(e T) bool {
	for _, x := range q.q.dataItems() {
		if q.equal(x, e) {
			return true
		}
	}
	return false
}

// RemoveElement removes the first element equal to e (see [WithEqual]) and reports whether there
// was one; a producer waiting in Transfer for it returns as if it were consumed. It ports
// remove(o).
func (q *LinkedTransferQueue[T]) RemoveElement(e T) bool {
	return len(q.q.removeData(func(x T) bool { return q.equal(x, e) }, false, nil)) > 0
}

// RemoveIf removes every element for which pred reports true, keeping the others in order, and
// returns how many it removed; producers waiting in Transfer for them return as if consumed. pred
// runs with the queue locked and must not use the queue. It ports Collection.removeIf.
func (q *LinkedTransferQueue[T]) RemoveIf(pred func(T) bool) int {
	return len(q.q.removeData(pred, true, nil))
}

// ToSlice returns the elements in FIFO order. It ports toArray.
func (q *LinkedTransferQueue[T]) ToSlice() []T {
	if s := q.q.dataItems(); s != nil {
		return s
	}
	return []T{}
}

// All iterates over the elements in FIFO order. It is weakly consistent: it yields the elements
// present when the iteration began (a snapshot) and never fails because of concurrent change. It
// ports iterator.
func (q *LinkedTransferQueue[T]) All() iter.Seq[T] { return sliceSeq(q.ToSlice) }

// String formats the elements as Java's toString does: "[e1, e2]".
func (q *LinkedTransferQueue[T]) String() string { return format(q.ToSlice()) }
