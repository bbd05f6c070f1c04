package queue_test

import (
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/loomgo/loom/queue"
	"github.com/loomgo/loom/thread"
)

// Behaviours of the JSR-166 TCK's LinkedTransferQueueTest.

func TestTransferWaitsUntilAConsumerReceivesTheElement(t *testing.T) {
	for _, virtual := range []bool{true, false} {
		var q queue.LinkedTransferQueue[int]
		done := make(chan struct{})
		th := start(virtual, func() {
			if err := q.Transfer(5); err != nil {
				t.Errorf("Transfer = %v", err)
			}
			close(done)
		})
		awaitState(t, th, thread.Waiting)
		if q.Len() != 1 {
			t.Errorf("Len while transferring = %d", q.Len())
		}
		if e, ok := q.Peek(); !ok || e != 5 {
			t.Errorf("Peek = %d, %v", e, ok)
		}
		select {
		case <-done:
			t.Fatal("Transfer returned before the element was taken")
		default:
		}
		if e, err := q.Take(); err != nil || e != 5 {
			t.Errorf("Take = %d, %v", e, err)
		}
		join(t, th)
		if q.Len() != 0 {
			t.Error("queue not empty")
		}
	}
}

func TestTransferToAWaitingConsumerReturnsAtOnce(t *testing.T) {
	q := queue.NewLinkedTransferQueue[int]()
	taker := start(true, func() {
		if e, err := q.Take(); err != nil || e != 3 {
			t.Errorf("Take = %d, %v", e, err)
		}
	})
	awaitState(t, taker, thread.Waiting)
	if !q.HasWaitingConsumer() || q.WaitingConsumerCount() != 1 {
		t.Errorf("HasWaitingConsumer %v, count %d", q.HasWaitingConsumer(), q.WaitingConsumerCount())
	}
	if err := q.Transfer(3); err != nil {
		t.Fatal(err)
	}
	join(t, taker)
	if q.HasWaitingConsumer() || q.WaitingConsumerCount() != 0 {
		t.Error("consumer still waiting")
	}
}

func TestTryTransferWithoutAWaitingConsumerFailsAndQueuesNothing(t *testing.T) {
	q := queue.NewLinkedTransferQueue[int]()
	if q.TryTransfer(1) {
		t.Error("TryTransfer succeeded")
	}
	if q.Len() != 0 {
		t.Error("TryTransfer queued its element")
	}
	begin := time.Now()
	if ok, err := q.TryTransferTimeout(1, shortDelay); ok || err != nil {
		t.Errorf("TryTransferTimeout = %v, %v", ok, err)
	}
	if time.Since(begin) < shortDelay {
		t.Error("TryTransferTimeout returned early")
	}
	if q.Len() != 0 {
		t.Error("a timed-out transfer left its element")
	}
	if ok, err := q.TryTransferTimeout(1, -time.Second); ok || err != nil || q.Len() != 0 {
		t.Errorf("TryTransferTimeout(negative) = %v, %v", ok, err)
	}
}

func TestTryTransferHandsToAWaitingConsumer(t *testing.T) {
	q := queue.NewLinkedTransferQueue[int]()
	taker := start(false, func() {
		if e, ok, err := q.PollTimeout(longDelay); !ok || err != nil || e != 8 {
			t.Errorf("PollTimeout = %d, %v, %v", e, ok, err)
		}
	})
	awaitState(t, taker, thread.TimedWaiting)
	if !q.TryTransfer(8) {
		t.Error("TryTransfer to a waiting consumer failed")
	}
	join(t, taker)
}

func TestInterruptedTransferTakesItsElementBack(t *testing.T) {
	q := queue.NewLinkedTransferQueue[int]()
	th := start(true, func() {
		if err := q.Transfer(1); !errors.Is(err, thread.ErrInterrupted) {
			t.Errorf("Transfer = %v", err)
		}
		thread.Current().Interrupt()
		if _, err := q.TryTransferTimeout(2, longDelay); !errors.Is(err, thread.ErrInterrupted) {
			t.Errorf("TryTransferTimeout with interrupt set = %v", err)
		}
	})
	awaitState(t, th, thread.Waiting)
	th.Interrupt()
	join(t, th)
	if q.Len() != 0 {
		t.Errorf("left %v", q.ToSlice())
	}
}

func TestTransferQueuesBehindElementsAlreadyPut(t *testing.T) {
	q := queue.NewLinkedTransferQueue(queue.WithElements(1, 2))
	th := start(true, func() { q.Transfer(3) })
	awaitState(t, th, thread.Waiting)
	if diff := cmp.Diff([]int{1, 2, 3}, q.ToSlice()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	got := q.DrainTo(nil, 10)
	join(t, th)
	if diff := cmp.Diff([]int{1, 2, 3}, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestRemovingATransferredElementReleasesTheProducer(t *testing.T) {
	q := queue.NewLinkedTransferQueue[int]()
	a := start(true, func() { q.Transfer(1) })
	awaitState(t, a, thread.Waiting)
	b := start(true, func() { q.Transfer(2) })
	awaitState(t, b, thread.Waiting)
	if !q.RemoveElement(1) {
		t.Fatal("RemoveElement failed")
	}
	join(t, a)
	q.Clear()
	join(t, b)
	if q.Len() != 0 {
		t.Error("not empty")
	}
}

func TestLinkedTransferQueuePutNeverBlocks(t *testing.T) {
	var q queue.LinkedTransferQueue[int]
	for i := range 1000 {
		if err := q.Put(i); err != nil {
			t.Fatal(err)
		}
	}
	if ok, err := q.OfferTimeout(1000, 0); !ok || err != nil {
		t.Error("OfferTimeout failed")
	}
	if q.Len() != 1001 || q.RemainingCapacity() != queue.Unbounded {
		t.Errorf("Len %d, RemainingCapacity %d", q.Len(), q.RemainingCapacity())
	}
}
