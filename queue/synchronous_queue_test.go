package queue_test

import (
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/loomgo/loom/queue"
	"github.com/loomgo/loom/thread"
)

// Behaviours of the JSR-166 TCK's SynchronousQueueTest, for fair and unfair queues.

func forEachFairness(t *testing.T, fn func(t *testing.T, q *queue.SynchronousQueue[int])) {
	t.Run("Fair", func(t *testing.T) { fn(t, queue.NewSynchronousQueue[int](true)) })
	t.Run("NonFair", func(t *testing.T) { fn(t, queue.NewSynchronousQueue[int](false)) })
}

func TestSynchronousQueueIsAlwaysBothEmptyAndFull(t *testing.T) {
	forEachFairness(t, func(t *testing.T, q *queue.SynchronousQueue[int]) {
		if q.Len() != 0 || q.RemainingCapacity() != 0 {
			t.Errorf("Len %d, RemainingCapacity %d", q.Len(), q.RemainingCapacity())
		}
		if _, ok := q.Peek(); ok {
			t.Error("Peek found an element")
		}
		if _, err := q.Element(); !errors.Is(err, queue.ErrEmpty) {
			t.Errorf("Element = %v", err)
		}
		if _, err := q.Remove(); !errors.Is(err, queue.ErrEmpty) {
			t.Errorf("Remove = %v", err)
		}
		if q.Contains(0) || q.RemoveElement(0) {
			t.Error("Contains/RemoveElement found an element")
		}
		for range q.All() {
			t.Error("All yielded an element")
		}
		if s := q.ToSlice(); s == nil || len(s) != 0 {
			t.Errorf("ToSlice = %#v", s)
		}
		if q.String() != "[]" {
			t.Errorf("String = %q", q.String())
		}
		q.Clear()
	})
}

func TestSynchronousQueueOfferAndAddFailWithoutAWaitingTaker(t *testing.T) {
	forEachFairness(t, func(t *testing.T, q *queue.SynchronousQueue[int]) {
		if q.Offer(1) {
			t.Error("Offer succeeded")
		}
		if err := q.Add(1); !errors.Is(err, queue.ErrFull) {
			t.Errorf("Add = %v, want ErrFull", err)
		}
		if _, ok := q.Poll(); ok {
			t.Error("Poll succeeded without a putter")
		}
		begin := time.Now()
		if ok, err := q.OfferTimeout(1, shortDelay); ok || err != nil {
			t.Errorf("OfferTimeout = %v, %v", ok, err)
		}
		if time.Since(begin) < shortDelay {
			t.Error("OfferTimeout returned early")
		}
		if _, ok, err := q.PollTimeout(shortDelay); ok || err != nil {
			t.Errorf("PollTimeout = %v, %v", ok, err)
		}
	})
}

func TestSynchronousQueuePutBlocksUntilTaken(t *testing.T) {
	forEachFairness(t, func(t *testing.T, q *queue.SynchronousQueue[int]) {
		for _, virtual := range []bool{true, false} {
			th := start(virtual, func() {
				for i := range 3 {
					if err := q.Put(i); err != nil {
						t.Errorf("Put = %v", err)
					}
				}
			})
			var got []int
			for range 3 {
				awaitState(t, th, thread.Waiting)
				e, err := q.Take()
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, e)
			}
			join(t, th)
			if diff := cmp.Diff(seq(3), got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		}
	})
}

func TestSynchronousQueueOfferSucceedsWithAWaitingTakerAndPollWithAWaitingPutter(t *testing.T) {
	forEachFairness(t, func(t *testing.T, q *queue.SynchronousQueue[int]) {
		taker := start(true, func() {
			if e, err := q.Take(); err != nil || e != 1 {
				t.Errorf("Take = %d, %v", e, err)
			}
		})
		awaitState(t, taker, thread.Waiting)
		if !q.Offer(1) {
			t.Error("Offer to a waiting taker failed")
		}
		join(t, taker)
		putter := start(true, func() {
			if err := q.Put(2); err != nil {
				t.Errorf("Put = %v", err)
			}
		})
		awaitState(t, putter, thread.Waiting)
		if e, ok := q.Poll(); !ok || e != 2 {
			t.Errorf("Poll = %d, %v", e, ok)
		}
		join(t, putter)
	})
}

func TestSynchronousQueueBlockedPutAndTakeAreInterruptible(t *testing.T) {
	forEachFairness(t, func(t *testing.T, q *queue.SynchronousQueue[int]) {
		putter := start(true, func() {
			thread.Current().Interrupt()
			if err := q.Put(1); !errors.Is(err, thread.ErrInterrupted) {
				t.Errorf("Put with interrupt set = %v", err)
			}
			if err := q.Put(1); !errors.Is(err, thread.ErrInterrupted) {
				t.Errorf("blocked Put = %v", err)
			}
			if thread.Current().IsInterrupted() {
				t.Error("status not cleared")
			}
		})
		awaitState(t, putter, thread.Waiting)
		putter.Interrupt()
		join(t, putter)
		if _, ok := q.Poll(); ok {
			t.Error("an interrupted Put left its element behind")
		}
		taker := start(false, func() {
			if _, err := q.Take(); !errors.Is(err, thread.ErrInterrupted) {
				t.Errorf("blocked Take = %v", err)
			}
		})
		awaitState(t, taker, thread.Waiting)
		taker.Interrupt()
		join(t, taker)
		if q.Offer(1) {
			t.Error("an interrupted Take still received an element")
		}
	})
}

func TestSynchronousQueueTimedOfferIsInterruptible(t *testing.T) {
	forEachFairness(t, func(t *testing.T, q *queue.SynchronousQueue[int]) {
		th := start(true, func() {
			if _, err := q.OfferTimeout(1, 2*longDelay); !errors.Is(err, thread.ErrInterrupted) {
				t.Errorf("OfferTimeout = %v", err)
			}
		})
		awaitState(t, th, thread.TimedWaiting)
		th.Interrupt()
		join(t, th)
	})
}

func TestSynchronousQueueDrainToTakesFromWaitingPutters(t *testing.T) {
	forEachFairness(t, func(t *testing.T, q *queue.SynchronousQueue[int]) {
		if got := q.DrainTo(nil, 10); len(got) != 0 {
			t.Errorf("DrainTo without putters = %v", got)
		}
		var ths []*thread.Thread
		for i := range 2 {
			th := start(true, func() { q.Put(i) })
			awaitState(t, th, thread.Waiting)
			ths = append(ths, th)
		}
		if got := q.DrainTo(nil, 0); len(got) != 0 {
			t.Errorf("DrainTo(0) = %v", got)
		}
		got := q.DrainTo(nil, 10)
		for _, th := range ths {
			join(t, th)
		}
		if diff := cmp.Diff([]int{0, 1}, sorted(got)); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	})
}

func TestSynchronousQueueFairHandsOffFIFOAndUnfairLIFO(t *testing.T) {
	for _, fair := range []bool{true, false} {
		q := queue.NewSynchronousQueue[int](fair)
		if q.IsFair() != fair {
			t.Errorf("IsFair = %v", q.IsFair())
		}
		var ths []*thread.Thread
		for i := range 3 {
			th := start(true, func() { q.Put(i) })
			awaitState(t, th, thread.Waiting)
			ths = append(ths, th)
		}
		var got []int
		for range 3 {
			e, _ := q.Poll()
			got = append(got, e)
		}
		for _, th := range ths {
			join(t, th)
		}
		want := []int{0, 1, 2}
		if !fair {
			want = []int{2, 1, 0}
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("fair=%v (-want +got):\n%s", fair, diff)
		}
	}
}

func TestSynchronousQueueZeroValueIsANonFairQueue(t *testing.T) {
	var q queue.SynchronousQueue[string]
	if q.IsFair() {
		t.Error("zero value is fair")
	}
	th := start(true, func() { q.Put("x") })
	if e, err := q.Take(); err != nil || e != "x" {
		t.Errorf("Take = %q, %v", e, err)
	}
	join(t, th)
}

// A taker that times out or is interrupted just as a putter hands it an element either gets the
// element (and the putter succeeds) or does not (and the putter fails): the element is never lost
// or delivered twice.
func TestSynchronousQueueHandOffRacingTimeoutOrInterruptLosesNothing(t *testing.T) {
	forEachFairness(t, func(t *testing.T, q *queue.SynchronousQueue[int]) {
		const rounds = 300
		for i := range rounds {
			var got, sent int
			var gotOK, sentOK bool
			taker := start(i%2 == 0, func() {
				var err error
				got, gotOK, err = q.PollTimeout(time.Duration(i%50) * time.Microsecond * 20)
				if err != nil {
					gotOK = false
				}
			})
			if i%3 == 0 {
				go taker.Interrupt()
			}
			sentOK, _ = q.OfferTimeout(i, time.Duration(i%7)*time.Microsecond*100)
			sent = i
			join(t, taker)
			if sentOK != gotOK || (gotOK && got != sent) {
				t.Fatalf("round %d: sent %v (%d), received %v (%d)", i, sentOK, sent, gotOK, got)
			}
		}
	})
}
