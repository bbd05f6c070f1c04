package queue_test

import (
	"errors"
	"testing"

	"github.com/loomgo/loom/queue"
	"github.com/loomgo/loom/thread"
)

// issue 15, defect 14: the interrupt-on-entry rule is per queue, as in JDK 25 (each case below
// was run on JDK 25 first). Every call is made with the interrupt status already set.

// outcome is what a call did with the interrupt status set before it.
type outcome struct {
	err  error // nil or thread.ErrInterrupted
	kept bool  // the status is still set afterwards
}

// interrupted runs fn with the current thread's interrupt status set and reports its error and
// whether the status survived (clearing it).
func interrupted(fn func() error) outcome {
	thread.Current().Interrupt()
	err := fn()
	return outcome{err: err, kept: thread.Interrupted()}
}

var (
	succeeded = outcome{err: nil, kept: true}
	failed    = outcome{err: thread.ErrInterrupted, kept: false}
)

func checkOutcome(t *testing.T, what string, got, want outcome) {
	t.Helper()
	if !errors.Is(got.err, want.err) || (want.err == nil && got.err != nil) || got.kept != want.kept {
		t.Errorf("%s: err %v, status kept %v; want err %v, status kept %v", what, got.err, got.kept, want.err, want.kept)
	}
}

// LinkedBlockingDeque: take, takeFirst, takeLast, put, putFirst, putLast use lock() and succeed
// when they need not wait; the timed forms use lockInterruptibly; a call that must wait fails.
func TestLinkedBlockingDequeInterruptOnEntryIsJavas(t *testing.T) {
	join(t, start(true, func() {
		q := queue.NewLinkedBlockingDeque[int](2, queue.WithElements(1, 2))
		take := func(f func() (int, error), want int) func() error {
			return func() error {
				e, err := f()
				if err == nil && e != want {
					t.Errorf("took %d, want %d", e, want)
				}
				return err
			}
		}
		checkOutcome(t, "Take with an element", interrupted(take(q.Take, 1)), succeeded)
		checkOutcome(t, "TakeLast with an element", interrupted(take(q.TakeLast, 2)), succeeded)
		q.Offer(3)
		checkOutcome(t, "TakeFirst with an element", interrupted(take(q.TakeFirst, 3)), succeeded)
		checkOutcome(t, "Take on empty (must wait)", interrupted(take(q.Take, 0)), failed)
		checkOutcome(t, "Put with room", interrupted(func() error { return q.Put(4) }), succeeded)
		checkOutcome(t, "PutFirst with room", interrupted(func() error { return q.PutFirst(5) }), succeeded)
		checkOutcome(t, "PutLast when full (must wait)", interrupted(func() error { return q.PutLast(6) }), failed)
		if got := q.ToSlice(); len(got) != 2 || got[0] != 5 || got[1] != 4 {
			t.Errorf("deque %v, want [5 4]", got)
		}
		checkOutcome(t, "PollFirstTimeout(0) with an element", interrupted(func() error {
			_, _, err := q.PollFirstTimeout(0)
			return err
		}), failed)
		q.Clear()
		checkOutcome(t, "OfferLastTimeout with room", interrupted(func() error {
			_, err := q.OfferLastTimeout(1, longDelay)
			return err
		}), failed)
		if q.Len() != 0 {
			t.Errorf("the failed timed calls changed the deque: %v", q.ToSlice())
		}
	}))
}

// ArrayBlockingQueue and LinkedBlockingQueue keep lockInterruptibly: everything fails at once.
func TestArrayAndLinkedBlockingQueueInterruptOnEntryIsJavas(t *testing.T) {
	join(t, start(true, func() {
		for name, q := range map[string]queue.BlockingQueue[int]{
			"ArrayBlockingQueue":  queue.NewArrayBlockingQueue[int](2, false),
			"LinkedBlockingQueue": queue.NewLinkedBlockingQueue[int](2),
		} {
			q.Offer(1)
			checkOutcome(t, name+" Take with an element", interrupted(func() error { _, err := q.Take(); return err }), failed)
			checkOutcome(t, name+" Put with room", interrupted(func() error { return q.Put(2) }), failed)
			checkOutcome(t, name+" PollTimeout(0)", interrupted(func() error { _, _, err := q.PollTimeout(0); return err }), failed)
			if q.Len() != 1 {
				t.Errorf("%s changed: %d elements", name, q.Len())
			}
		}
	}))
}

// LinkedTransferQueue: take and transfer check on entry; poll(timeout) and tryTransfer(timeout)
// succeed when an element (a consumer) is there and fail when they find none, even with a zero
// timeout.
func TestLinkedTransferQueueInterruptOnEntryIsJavas(t *testing.T) {
	q := queue.NewLinkedTransferQueue[int](queue.WithElements(1, 2))
	join(t, start(true, func() {
		checkOutcome(t, "Take with an element", interrupted(func() error { _, err := q.Take(); return err }), failed)
		checkOutcome(t, "PollTimeout with an element", interrupted(func() error {
			e, ok, err := q.PollTimeout(longDelay)
			if err == nil && (!ok || e != 1) {
				t.Errorf("PollTimeout = %d, %v", e, ok)
			}
			return err
		}), succeeded)
		checkOutcome(t, "PollTimeout(0) with an element", interrupted(func() error { _, _, err := q.PollTimeout(0); return err }), succeeded)
		checkOutcome(t, "PollTimeout(0) on empty", interrupted(func() error { _, _, err := q.PollTimeout(0); return err }), failed)
		checkOutcome(t, "PollTimeout on empty", interrupted(func() error { _, _, err := q.PollTimeout(longDelay); return err }), failed)
		checkOutcome(t, "Put", interrupted(func() error { return q.Put(3) }), succeeded)
		checkOutcome(t, "OfferTimeout", interrupted(func() error { _, err := q.OfferTimeout(4, longDelay); return err }), succeeded)
		q.Clear()
		checkOutcome(t, "TryTransferTimeout(0) with no consumer", interrupted(func() error { _, err := q.TryTransferTimeout(5, 0); return err }), failed)
		checkOutcome(t, "TryTransferTimeout with no consumer", interrupted(func() error { _, err := q.TryTransferTimeout(5, longDelay); return err }), failed)
		if q.Len() != 0 {
			t.Errorf("failed transfers left %v", q.ToSlice())
		}
	}))
	got := make(chan int, 2)
	for _, op := range []struct {
		name string
		fn   func() error
		want outcome
	}{
		{"TryTransferTimeout with a consumer waiting", func() error { _, err := q.TryTransferTimeout(7, longDelay); return err }, succeeded},
		{"Transfer with a consumer waiting", func() error { return q.Transfer(8) }, failed},
	} {
		consumer := start(true, func() {
			if e, err := q.Take(); err == nil {
				got <- e
			}
		})
		for !q.HasWaitingConsumer() {
			thread.Sleep(shortDelay / 10)
		}
		join(t, start(true, func() { checkOutcome(t, op.name, interrupted(op.fn), op.want) }))
		if op.want.err != nil {
			q.Offer(0) // release the consumer
		}
		join(t, consumer)
	}
	if e := <-got; e != 7 {
		t.Errorf("the consumer received %d, want 7", e)
	}
}

// SynchronousQueue: take and put check on entry; poll(timeout) and offer(timeout) succeed with
// a partner already waiting and fail without one, even with a zero timeout.
func TestSynchronousQueueInterruptOnEntryIsJavas(t *testing.T) {
	for _, fair := range []bool{false, true} {
		q := queue.NewSynchronousQueue[int](fair)
		join(t, start(true, func() {
			checkOutcome(t, "OfferTimeout(0) alone", interrupted(func() error { _, err := q.OfferTimeout(1, 0); return err }), failed)
			checkOutcome(t, "OfferTimeout alone", interrupted(func() error { _, err := q.OfferTimeout(1, longDelay); return err }), failed)
			checkOutcome(t, "PollTimeout(0) alone", interrupted(func() error { _, _, err := q.PollTimeout(0); return err }), failed)
		}))
		// with a consumer waiting
		consumer := start(true, func() {
			if e, err := q.Take(); err != nil || e != 7 {
				t.Errorf("fair %v: consumer got %d, %v", fair, e, err)
			}
		})
		awaitState(t, consumer, thread.Waiting)
		join(t, start(true, func() {
			checkOutcome(t, "Put with a consumer waiting", interrupted(func() error { return q.Put(6) }), failed)
			checkOutcome(t, "OfferTimeout with a consumer waiting", interrupted(func() error { _, err := q.OfferTimeout(7, longDelay); return err }), succeeded)
		}))
		join(t, consumer)
		// with a producer waiting
		producer := start(true, func() {
			if err := q.Put(9); err != nil {
				t.Errorf("fair %v: producer: %v", fair, err)
			}
		})
		awaitState(t, producer, thread.Waiting)
		join(t, start(true, func() {
			checkOutcome(t, "Take with a producer waiting", interrupted(func() error { _, err := q.Take(); return err }), failed)
			checkOutcome(t, "PollTimeout with a producer waiting", interrupted(func() error {
				e, ok, err := q.PollTimeout(longDelay)
				if err == nil && (!ok || e != 9) {
					t.Errorf("PollTimeout = %d, %v", e, ok)
				}
				return err
			}), succeeded)
		}))
		join(t, producer)
	}
}
