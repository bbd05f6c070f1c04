package queue_test

import (
	"errors"
	"slices"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/loomgo/loom/queue"
	"github.com/loomgo/loom/thread"
)

// Behaviours of the JSR-166 TCK's ArrayBlockingQueueTest and LinkedBlockingQueueTest that are
// specific to them (the shared ones are in blocking_queue_test.go).

func TestArrayBlockingQueueNonPositiveCapacityPanicsWithErrIllegalArgument(t *testing.T) {
	for _, n := range []int{0, -1} {
		mustPanicWith(t, thread.ErrIllegalArgument, func() { queue.NewArrayBlockingQueue[int](n, false) })
		mustPanicWith(t, thread.ErrIllegalArgument, func() { queue.NewArrayBlockingQueue[int](n, true) })
	}
}

func TestConstructorWithTooManyInitialElementsPanicsWithErrIllegalArgument(t *testing.T) {
	mustPanicWith(t, thread.ErrIllegalArgument, func() {
		queue.NewArrayBlockingQueue(2, false, queue.WithElements(1, 2, 3))
	})
	mustPanicWith(t, thread.ErrIllegalArgument, func() {
		queue.NewLinkedBlockingQueue(2, queue.WithElements(1, 2, 3))
	})
	mustPanicWith(t, thread.ErrIllegalArgument, func() {
		queue.NewLinkedBlockingDeque(2, queue.WithElements(1, 2, 3))
	})
}

func TestConstructorWithInitialElementsKeepsTheirOrder(t *testing.T) {
	for name, q := range map[string]anyQueue{
		"ABQ": queue.NewArrayBlockingQueue(3, false, queue.WithElements(1, 2, 3)),
		"LBQ": queue.NewLinkedBlockingQueue(0, queue.WithElements(1, 2, 3)),
		"LBD": queue.NewLinkedBlockingDeque(3, queue.WithElements(1, 2, 3)),
		"LTQ": queue.NewLinkedTransferQueue(queue.WithElements(1, 2, 3)),
	} {
		if diff := cmp.Diff([]int{1, 2, 3}, q.ToSlice()); diff != "" {
			t.Errorf("%s (-want +got):\n%s", name, diff)
		}
		q.Poll()
		q.Offer(4)
		if diff := cmp.Diff([]int{2, 3, 4}, q.ToSlice()); diff != "" {
			t.Errorf("%s after wrap (-want +got):\n%s", name, diff)
		}
	}
}

func TestArrayBlockingQueueCapAndFairness(t *testing.T) {
	q := queue.NewArrayBlockingQueue[int](7, true)
	if q.Cap() != 7 || q.RemainingCapacity() != 7 {
		t.Errorf("Cap %d, RemainingCapacity %d", q.Cap(), q.RemainingCapacity())
	}
}

// With a fair lock, takers blocked on an empty queue are served in the order they arrived.
func TestFairArrayBlockingQueueServesBlockedTakersInArrivalOrder(t *testing.T) {
	q := queue.NewArrayBlockingQueue[int](10, true)
	var mu sync.Mutex
	got := make([]int, 3)
	var ths []*thread.Thread
	for i := range 3 {
		th := start(true, func() {
			e, err := q.Take()
			if err != nil {
				t.Error(err)
			}
			mu.Lock()
			got[i] = e
			mu.Unlock()
		})
		awaitState(t, th, thread.Waiting)
		ths = append(ths, th)
	}
	for i := range 3 {
		q.Put(i)
	}
	for _, th := range ths {
		join(t, th)
	}
	if diff := cmp.Diff([]int{0, 1, 2}, got); diff != "" {
		t.Errorf("taker i received (-want +got):\n%s", diff)
	}
}

func TestRingWrapsAroundManyTimes(t *testing.T) {
	q := queue.NewArrayBlockingQueue[int](3, false)
	for i := range 100 {
		q.Offer(i)
		q.Offer(i + 1000)
		if i%3 == 0 {
			q.RemoveElement(i + 1000)
		}
		for q.Len() > 1 {
			q.Poll()
		}
	}
	if q.Len() != 1 {
		t.Errorf("Len = %d", q.Len())
	}
}

func TestLinkedBlockingQueueZeroValueIsUnbounded(t *testing.T) {
	var q queue.LinkedBlockingQueue[string]
	if q.Len() != 0 || q.Cap() != queue.Unbounded {
		t.Errorf("Len %d Cap %d", q.Len(), q.Cap())
	}
	for i := range 100 {
		if !q.Offer(string(rune('a' + i%26))) {
			t.Fatal("Offer failed")
		}
	}
	if e, _ := q.Take(); e != "a" {
		t.Errorf("Take = %q", e)
	}
}

func TestLinkedBlockingQueueBoundedBlocksAtCapacity(t *testing.T) {
	q := queue.NewLinkedBlockingQueue[int](2)
	if q.Cap() != 2 {
		t.Errorf("Cap = %d", q.Cap())
	}
	q.Put(1)
	q.Put(2)
	if err := q.Add(3); !errors.Is(err, queue.ErrFull) {
		t.Errorf("Add = %v", err)
	}
}

func TestWithEqualIsUsedByContainsAndRemoveElement(t *testing.T) {
	q := queue.NewLinkedBlockingQueue(0, queue.WithEqual(slices.Equal[[]int]), queue.WithElements([]int{1}, []int{2, 3}))
	if !q.Contains([]int{2, 3}) || q.Contains([]int{2}) {
		t.Error("Contains ignores the equality")
	}
	if !q.RemoveElement([]int{1}) || q.Len() != 1 {
		t.Error("RemoveElement ignores the equality")
	}
	mustPanicWith(t, thread.ErrNilArgument, func() { queue.WithEqual[int](nil) })
}

func TestStringFormatsLikeJavaToString(t *testing.T) {
	q := queue.NewArrayBlockingQueue(3, false, queue.WithElements("x", "y"))
	if got := q.String(); got != "[x, y]" {
		t.Errorf("String = %q", got)
	}
	if got := new(queue.LinkedBlockingQueue[int]).String(); got != "[]" {
		t.Errorf("empty String = %q", got)
	}
}
