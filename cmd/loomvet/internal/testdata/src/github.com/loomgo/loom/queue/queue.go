// Package queue is a stub of loom's queue package for loomvet's tests.
package queue

import (
	"errors"
	"time"

	"github.com/loomgo/loom/thread"
)

var ErrFull = errors.New("queue: full")

type BlockingQueue[T any] interface {
	Add(e T) error
	Offer(e T) bool
	Put(e T) error
	OfferTimeout(e T, d time.Duration) (bool, error)
	Take() (T, error)
	PollTimeout(d time.Duration) (T, bool, error)
}

type LinkedBlockingQueue[T any] struct{ items []T }

func NewLinkedBlockingQueue[T any](capacity int) *LinkedBlockingQueue[T] {
	return &LinkedBlockingQueue[T]{}
}

func (q *LinkedBlockingQueue[T]) Add(e T) error {
	if !q.Offer(e) {
		return ErrFull
	}
	return nil
}
func (q *LinkedBlockingQueue[T]) Offer(e T) bool { q.items = append(q.items, e); return true }
func (q *LinkedBlockingQueue[T]) Put(e T) error {
	if err := thread.Sleep(0); err != nil {
		return err
	}
	q.Offer(e)
	return nil
}
func (q *LinkedBlockingQueue[T]) OfferTimeout(e T, d time.Duration) (bool, error) {
	err := q.Put(e)
	return err == nil, err
}
func (q *LinkedBlockingQueue[T]) xfer(d time.Duration) (T, bool, error) {
	var zero T
	if thread.Current() == nil {
		return zero, false, thread.ErrInterrupted
	}
	return q.items[0], true, nil
}
func (q *LinkedBlockingQueue[T]) Take() (T, error) {
	e, _, err := q.xfer(-1)
	return e, err
}
func (q *LinkedBlockingQueue[T]) PollTimeout(d time.Duration) (T, bool, error) { return q.xfer(d) }

// DelayQueue's Put is Offer: it never blocks and never reports an interrupt.
type DelayQueue[T any] struct{ LinkedBlockingQueue[T] }

// Put is Offer: it never blocks and never reports an interrupt.
func (q *DelayQueue[T]) Put(e T) error { return q.LinkedBlockingQueue.Put(e) }
