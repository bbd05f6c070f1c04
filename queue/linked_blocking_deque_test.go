package queue_test

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/loomgo/loom/queue"
	"github.com/loomgo/loom/thread"
)

// Behaviours of the JSR-166 TCK's LinkedBlockingDequeTest.

func TestLinkedBlockingDequeOperationsAtBothEnds(t *testing.T) {
	var q queue.LinkedBlockingDeque[int]
	q.AddLast(2)
	q.AddFirst(1)
	q.OfferLast(3)
	q.OfferFirst(0)
	q.Push(-1)
	if diff := cmp.Diff([]int{-1, 0, 1, 2, 3}, q.ToSlice()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if e, _ := q.PeekFirst(); e != -1 {
		t.Errorf("PeekFirst = %d", e)
	}
	if e, _ := q.PeekLast(); e != 3 {
		t.Errorf("PeekLast = %d", e)
	}
	if diff := cmp.Diff([]int{3, 2, 1, 0, -1}, slices.Collect(q.Backward())); diff != "" {
		t.Errorf("Backward (-want +got):\n%s", diff)
	}
	if e, _ := q.Pop(); e != -1 {
		t.Errorf("Pop = %d", e)
	}
	if e, _ := q.PollLast(); e != 3 {
		t.Errorf("PollLast = %d", e)
	}
	if e, _ := q.RemoveLast(); e != 2 {
		t.Errorf("RemoveLast = %d", e)
	}
	if e, _ := q.RemoveFirst(); e != 0 {
		t.Errorf("RemoveFirst = %d", e)
	}
	if e, _ := q.PollFirst(); e != 1 {
		t.Errorf("PollFirst = %d", e)
	}
	for _, f := range []func() (int, error){q.RemoveFirst, q.RemoveLast, q.Pop} {
		if _, err := f(); !errors.Is(err, queue.ErrEmpty) {
			t.Errorf("on empty deque: %v", err)
		}
	}
	if _, ok := q.PeekLast(); ok {
		t.Error("PeekLast on empty")
	}
}

func TestLinkedBlockingDequeFullRejectsAtBothEnds(t *testing.T) {
	q := queue.NewLinkedBlockingDeque(2, queue.WithElements(1, 2))
	if err := q.AddFirst(0); !errors.Is(err, queue.ErrFull) {
		t.Errorf("AddFirst = %v", err)
	}
	if err := q.Push(0); !errors.Is(err, queue.ErrFull) {
		t.Errorf("Push = %v", err)
	}
	if q.OfferFirst(0) || q.OfferLast(0) {
		t.Error("Offer on full deque succeeded")
	}
	if ok, err := q.OfferFirstTimeout(0, shortDelay); ok || err != nil {
		t.Errorf("OfferFirstTimeout = %v %v", ok, err)
	}
}

func TestLinkedBlockingDequePutFirstBlocksUntilRoomAndTakeLastIsInterruptible(t *testing.T) {
	q := queue.NewLinkedBlockingDeque(2, queue.WithElements(1, 2))
	th := start(true, func() {
		if err := q.PutFirst(0); err != nil {
			t.Errorf("PutFirst = %v", err)
		}
	})
	awaitState(t, th, thread.Waiting)
	if e, err := q.TakeLast(); err != nil || e != 2 {
		t.Errorf("TakeLast = %d, %v", e, err)
	}
	join(t, th)
	if diff := cmp.Diff([]int{0, 1}, q.ToSlice()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	q.Clear()
	taker := start(false, func() {
		if _, err := q.TakeLast(); !errors.Is(err, thread.ErrInterrupted) {
			t.Errorf("TakeLast = %v", err)
		}
		if _, _, err := q.PollLastTimeout(shortDelay); err != nil {
			t.Errorf("PollLastTimeout = %v", err)
		}
	})
	awaitState(t, taker, thread.Waiting)
	taker.Interrupt()
	join(t, taker)
}

func TestLinkedBlockingDequeTimedPollAtEitherEndReceivesALaterPut(t *testing.T) {
	q := queue.NewLinkedBlockingDeque[int](0)
	for i, poll := range []func(time.Duration) (int, bool, error){q.PollLastTimeout, q.PollFirstTimeout} {
		th := start(true, func() {
			if e, ok, err := poll(longDelay); !ok || err != nil || e != i {
				t.Errorf("timed poll %d = %d %v %v", i, e, ok, err)
			}
		})
		awaitState(t, th, thread.TimedWaiting)
		if i == 0 {
			q.OfferLastTimeout(i, 0)
		} else {
			q.PutFirst(i)
		}
		join(t, th)
	}
}

func TestLinkedBlockingDequeRemoveFirstAndLastOccurrence(t *testing.T) {
	q := queue.NewLinkedBlockingDeque(0, queue.WithElements(1, 2, 1, 3, 1))
	if !q.RemoveLastOccurrence(1) || !q.RemoveFirstOccurrence(1) {
		t.Fatal("remove failed")
	}
	if q.RemoveFirstOccurrence(9) || q.RemoveLastOccurrence(9) {
		t.Error("removed an absent element")
	}
	if diff := cmp.Diff([]int{2, 1, 3}, q.ToSlice()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
