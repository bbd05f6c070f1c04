package queue_test

import (
	"cmp"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/loomgo/loom/queue"
	"github.com/loomgo/loom/thread"
)

// Behaviours of the JSR-166 TCK's PriorityBlockingQueueTest.

func TestPriorityBlockingQueueNilComparatorPanicsWithErrNilArgument(t *testing.T) {
	mustPanicWith(t, thread.ErrNilArgument, func() { queue.NewPriorityBlockingQueue[int](nil) })
}

func TestPriorityBlockingQueueOrdersByTheComparator(t *testing.T) {
	reverse := func(a, b int) int { return cmp.Compare(b, a) }
	q := queue.NewPriorityBlockingQueue(reverse, queue.WithElements(3, 9, 1, 7))
	if q.Comparator() == nil {
		t.Error("Comparator = nil")
	}
	q.Put(5)
	got := q.DrainTo(nil, 100)
	if diff := gocmp.Diff([]int{9, 7, 5, 3, 1}, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestPriorityBlockingQueuePutNeverBlocks(t *testing.T) {
	q := queue.NewPriorityBlockingQueue(cmp.Compare[int])
	th := start(true, func() {
		thread.Current().Interrupt() // Java's put never throws InterruptedException
		for i := range 1000 {
			if err := q.Put(1000 - i); err != nil {
				t.Errorf("Put = %v", err)
			}
		}
		thread.Interrupted()
	})
	join(t, th)
	if q.Len() != 1000 || q.RemainingCapacity() != queue.Unbounded {
		t.Errorf("Len %d, RemainingCapacity %d", q.Len(), q.RemainingCapacity())
	}
	if e, _ := q.Peek(); e != 1 {
		t.Errorf("Peek = %d", e)
	}
}

func TestPriorityBlockingQueueStringFormatsLikeJava(t *testing.T) {
	q := queue.NewPriorityBlockingQueue(cmp.Compare[string], queue.WithElements("a"))
	if q.String() != "[a]" {
		t.Errorf("String = %q", q.String())
	}
}
