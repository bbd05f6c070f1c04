package queue

import (
	"iter"
	"time"
)

// SynchronousQueue is java.util.concurrent.SynchronousQueue: a blocking queue with no capacity,
// in which each insert waits for a matching remove by another thread and the other way round. It
// is a rendezvous channel: Put hands its element straight to a Take.
//
// It holds no elements, so Len is always 0, Peek finds nothing, All yields nothing and
// RemainingCapacity is 0; Offer and Poll succeed only when a thread of the other side is already
// waiting. A fair queue matches waiting threads in FIFO order; the default (the zero value, or
// fair false) matches the most recent waiter first (LIFO), as Java's unfair mode does.
//
// Waiting threads park through [thread.Park] (a virtual thread unmounts), on dual-queue nodes as
// in Java; an interrupt or a timeout that races a hand-off never loses or duplicates the element.
//
// The zero value is an unfair SynchronousQueue, like new SynchronousQueue(). A SynchronousQueue
// must not be copied after first use.
type SynchronousQueue[T any] struct {
	_    noCopy
	q    dualQueue[T]
	fair bool
}

var _ BlockingQueue[int] = (*SynchronousQueue[int])(nil)

// NewSynchronousQueue returns a [SynchronousQueue]; fair selects FIFO hand-off. It ports
// new [SynchronousQueue](fair).
func NewSynchronousQueue[T any](fair bool) *SynchronousQueue[T] {
	return &SynchronousQueue[T]{fair: fair}
}

// IsFair reports whether waiting threads are matched in FIFO order.
func (s *SynchronousQueue[T]) IsFair() bool { return s.fair }

// Put hands e to a consumer, blocking until one takes it. A virtual thread unmounts while it
// waits. If the thread is interrupted on entry or while waiting, Put returns
// [thread.ErrInterrupted] (clearing the status) and no consumer receives e. It ports
// SynchronousQueue.put.
func (s *SynchronousQueue[T]) Put(e T) error {
	_, _, err := s.q.xfer(e, true, xferSync, 0, !s.fair, s)
	return err
}

// OfferTimeout hands e to a consumer, blocking up to d for one; it reports false if none took
// it in time (d <= 0: only a consumer already waiting). A virtual thread unmounts while it waits.
// A consumer already waiting receives e even when the thread is interrupted (the status stays
// set, as in JDK 25); otherwise an interrupt, on entry or while waiting, returns
// [thread.ErrInterrupted] (clearing the status) and no consumer receives e. It ports
// SynchronousQueue.offer(e, timeout, unit).
func (s *SynchronousQueue[T]) OfferTimeout(e T, d time.Duration) (bool, error) {
	_, ok, err := s.q.xfer(e, true, xferTimed, d, !s.fair, s)
	return ok, err
}

// Offer hands e to a consumer already waiting and reports whether there was one. It never
// blocks. It ports SynchronousQueue.offer(e).
func (s *SynchronousQueue[T]) Offer(e T) bool {
	_, ok, _ := s.q.xfer(e, true, xferNow, 0, !s.fair, s)
	return ok
}

// Add is Offer that returns [ErrFull] (Java's IllegalStateException "Queue full") when no
// consumer is waiting. It ports add.
func (s *SynchronousQueue[T]) Add(e T) error { return addResult(s.Offer(e)) }

// Take receives an element from a producer, blocking until one hands one over. A virtual thread
// unmounts while it waits. If the thread is interrupted on entry or while waiting, Take returns
// [thread.ErrInterrupted] (clearing the status) and receives nothing. It ports
// SynchronousQueue.take.
func (s *SynchronousQueue[T]) Take() (T, error) {
	e, _, err := s.q.xfer(*new(T), false, xferSync, 0, !s.fair, s)
	return e, err
}

// PollTimeout receives an element, blocking up to d for a producer; ok is false if none came in
// time (d <= 0: only a producer already waiting). A virtual thread unmounts while it waits. A
// producer already waiting hands its element over even when the thread is interrupted (the
// status stays set, as in JDK 25); otherwise an interrupt, on entry or while waiting, returns
// [thread.ErrInterrupted] (clearing the status) and receives nothing. It ports
// SynchronousQueue.poll(timeout, unit).
func (s *SynchronousQueue[T]) PollTimeout(d time.Duration) (T, bool, error) {
	return s.q.xfer(*new(T), false, xferTimed, d, !s.fair, s)
}

// Poll receives an element from a producer already waiting, if there is one. It never blocks.
// It ports SynchronousQueue.poll().
func (s *SynchronousQueue[T]) Poll() (T, bool) {
	e, ok, _ := s.q.xfer(*new(T), false, xferNow, 0, !s.fair, s)
	return e, ok
}

// Remove is Poll that returns [ErrEmpty] when no producer is waiting. It ports remove().
func (s *SynchronousQueue[T]) Remove() (T, error) { return element(s.Poll()) }

// Peek always reports false: a [SynchronousQueue] holds nothing. It ports peek.
func (s *SynchronousQueue[T]) Peek() (e T, ok bool) { return e, false }

// Element always returns [ErrEmpty]. It ports element.
func (s *SynchronousQueue[T]) Element() (e T, err error) { return e, ErrEmpty }

// Len is always 0. It ports size.
func (s *SynchronousQueue[T]) Len() int { return 0 }

// RemainingCapacity is always 0. It ports remainingCapacity.
func (s *SynchronousQueue[T]) RemainingCapacity() int { return 0 }

// DrainTo receives at most max elements (max <= 0: none) from producers already waiting, appends
// them to dst and returns the extended slice. It ports SynchronousQueue.drainTo(c, max).
func (s *SynchronousQueue[T]) DrainTo(dst []T, max int) []T {
	for range max {
		e, ok := s.Poll()
		if !ok {
			break
		}
		dst = append(dst, e)
	}
	return dst
}

// Contains always reports false. It ports contains.
func (s *SynchronousQueue[T]) Contains(T) bool { return false }

// RemoveElement always reports false. It ports remove(o).
func (s *SynchronousQueue[T]) RemoveElement(T) bool { return false }

// RemoveIf removes nothing and returns 0. It ports Collection.removeIf.
func (s *SynchronousQueue[T]) RemoveIf(func(T) bool) int { return 0 }

// Clear does nothing. It ports clear.
func (s *SynchronousQueue[T]) Clear() {}

// ToSlice returns an empty slice. It ports toArray.
func (s *SynchronousQueue[T]) ToSlice() []T { return []T{} }

// All yields nothing. It ports iterator.
func (s *SynchronousQueue[T]) All() iter.Seq[T] { return func(func(T) bool) {} }

// String returns "[]", as Java's toString.
func (s *SynchronousQueue[T]) String() string { return "[]" }
