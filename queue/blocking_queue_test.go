package queue_test

import (
	"errors"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/loomgo/loom/queue"
	"github.com/loomgo/loom/thread"
)

// Behaviours of the JSR-166 TCK's BlockingQueueTest and of the tests every *BlockingQueueTest
// repeats, run against each queue.

func TestOfferThenPollReturnsElementsInQueueOrder(t *testing.T) {
	forEachKind(t, func(t *testing.T, k kind) {
		q := k.make(5)
		for _, e := range []int{3, 1, 4, 0, 2} {
			if err := q.Add(e); err != nil {
				t.Fatalf("Add(%d) = %v", e, err)
			}
		}
		want := []int{3, 1, 4, 0, 2}
		if !k.fifo {
			want = []int{0, 1, 2, 3, 4}
		}
		var got []int
		for range 5 {
			e, ok := q.Poll()
			if !ok {
				t.Fatal("Poll found nothing")
			}
			got = append(got, e)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("order (-want +got):\n%s", diff)
		}
		if _, ok := q.Poll(); ok {
			t.Error("Poll on empty queue succeeded")
		}
	})
}

func TestAddOnFullQueueReturnsErrFull(t *testing.T) {
	forEachKind(t, func(t *testing.T, k kind) {
		if k.bounded == nil {
			t.Skip("unbounded")
		}
		q := k.populated(t, 3)
		if err := q.Add(99); !errors.Is(err, queue.ErrFull) {
			t.Errorf("Add on full = %v, want ErrFull", err)
		}
		if q.Offer(99) {
			t.Error("Offer on full succeeded")
		}
		if ok, err := q.OfferTimeout(99, 0); ok || err != nil {
			t.Errorf("OfferTimeout(0) on full = %v, %v", ok, err)
		}
		if ok, err := q.OfferTimeout(99, -time.Second); ok || err != nil {
			t.Errorf("OfferTimeout(negative) on full = %v, %v", ok, err)
		}
		if q.RemainingCapacity() != 0 {
			t.Errorf("RemainingCapacity = %d", q.RemainingCapacity())
		}
		if diff := cmp.Diff(seq(3), q.ToSlice()); diff != "" {
			t.Errorf("full queue changed (-want +got):\n%s", diff)
		}
	})
}

func TestUnboundedQueueRemainingCapacityIsMaxInt32(t *testing.T) {
	forEachKind(t, func(t *testing.T, k kind) {
		if k.unbounded == nil {
			t.Skip("bounded only")
		}
		q := k.unbounded()
		q.Offer(1)
		want := queue.Unbounded
		if k.bounded != nil {
			want-- // a capacity of Integer.MAX_VALUE, one used
		}
		if got := q.RemainingCapacity(); got != want {
			t.Errorf("RemainingCapacity = %d, want %d", got, want)
		}
	})
}

func TestRemainingCapacityIsCapacityMinusSize(t *testing.T) {
	forEachKind(t, func(t *testing.T, k kind) {
		if k.bounded == nil {
			t.Skip("unbounded")
		}
		q := k.populated(t, 4)
		for i := range 4 {
			if got := q.RemainingCapacity(); got != i {
				t.Errorf("RemainingCapacity = %d, want %d", got, i)
			}
			if got := q.Len(); got != 4-i {
				t.Errorf("Len = %d, want %d", got, 4-i)
			}
			q.Remove()
		}
	})
}

func TestEmptyQueueRemoveAndElementReturnErrEmptyPollAndPeekReportFalse(t *testing.T) {
	forEachKind(t, func(t *testing.T, k kind) {
		q := k.make(2)
		if _, err := q.Remove(); !errors.Is(err, queue.ErrEmpty) {
			t.Errorf("Remove = %v, want ErrEmpty", err)
		}
		if _, err := q.Element(); !errors.Is(err, queue.ErrEmpty) {
			t.Errorf("Element = %v, want ErrEmpty", err)
		}
		if _, ok := q.Poll(); ok {
			t.Error("Poll succeeded")
		}
		if _, ok := q.Peek(); ok {
			t.Error("Peek succeeded")
		}
		q.Add(7)
		if e, ok := q.Peek(); !ok || e != 7 {
			t.Errorf("Peek = %d, %v", e, ok)
		}
		if e, err := q.Element(); err != nil || e != 7 {
			t.Errorf("Element = %d, %v", e, err)
		}
		if q.Len() != 1 {
			t.Error("Peek/Element removed the head")
		}
		if e, err := q.Remove(); err != nil || e != 7 {
			t.Errorf("Remove = %d, %v", e, err)
		}
	})
}

func TestTimedPollZeroAndNegativeTimeoutDoNotWait(t *testing.T) {
	forEachKind(t, func(t *testing.T, k kind) {
		q := k.make(2)
		start := time.Now()
		for _, d := range []time.Duration{0, -time.Hour} {
			if _, ok, err := q.PollTimeout(d); ok || err != nil {
				t.Errorf("PollTimeout(%v) on empty = %v, %v", d, ok, err)
			}
		}
		if el := time.Since(start); el > longDelay/10 {
			t.Errorf("zero timeouts took %v", el)
		}
		q.Add(1)
		if e, ok, err := q.PollTimeout(0); !ok || err != nil || e != 1 {
			t.Errorf("PollTimeout(0) = %d, %v, %v", e, ok, err)
		}
	})
}

func TestTimedPollWithOfferTimesOutThenReceivesALaterOffer(t *testing.T) {
	forEachKind(t, func(t *testing.T, k kind) {
		for _, virtual := range []bool{true, false} {
			q := k.make(2)
			var timedOut atomic.Bool
			th := start(virtual, func() {
				begin := time.Now()
				if _, ok, err := q.PollTimeout(shortDelay); ok || err != nil {
					t.Errorf("first PollTimeout = %v, %v", ok, err)
				}
				if el := time.Since(begin); el < shortDelay {
					t.Errorf("timed out after %v < %v", el, shortDelay)
				}
				timedOut.Store(true)
				if e, ok, err := q.PollTimeout(longDelay); !ok || err != nil || e != 42 {
					t.Errorf("second PollTimeout = %d, %v, %v", e, ok, err)
				}
				// then an interrupt while waiting
				if _, _, err := q.PollTimeout(longDelay); !errors.Is(err, thread.ErrInterrupted) {
					t.Errorf("interrupted PollTimeout = %v", err)
				}
				if thread.Current().IsInterrupted() {
					t.Error("interrupt status not cleared")
				}
			})
			for !timedOut.Load() {
				time.Sleep(time.Millisecond)
			}
			time.Sleep(shortDelay / 5)
			if !q.Offer(42) {
				t.Fatal("Offer failed")
			}
			awaitBlockedAfter(t, th, q)
			th.Interrupt()
			join(t, th)
		}
	})
}

// awaitBlockedAfter waits until th, having consumed q's elements, blocks again.
func awaitBlockedAfter(t *testing.T, th *thread.Thread, q anyQueue) {
	t.Helper()
	for q.Len() > 0 {
		time.Sleep(time.Millisecond)
	}
	awaitBlocked(t, th)
}

func TestTakeFromEmptyBlocksInterruptibly(t *testing.T) {
	forEachKind(t, func(t *testing.T, k kind) {
		for _, virtual := range []bool{true, false} {
			q := k.make(2)
			th := start(virtual, func() {
				_, err := q.Take()
				if !errors.Is(err, thread.ErrInterrupted) {
					t.Errorf("Take = %v, want ErrInterrupted", err)
				}
				if thread.Current().IsInterrupted() {
					t.Error("interrupt status not cleared")
				}
			})
			awaitState(t, th, thread.Waiting)
			th.Interrupt()
			join(t, th)
			if q.Len() != 0 {
				t.Error("queue changed")
			}
		}
	})
}

func TestTakeFromEmptyAfterInterruptFailsAtOnce(t *testing.T) {
	forEachKind(t, func(t *testing.T, k kind) {
		q := k.make(2)
		th := start(true, func() {
			thread.Current().Interrupt()
			if _, err := q.Take(); !errors.Is(err, thread.ErrInterrupted) {
				t.Errorf("Take = %v", err)
			}
			if thread.Current().IsInterrupted() {
				t.Error("status not cleared")
			}
		})
		join(t, th)
	})
}

// TCK testBlockingTake's interrupt-on-entry rule, per queue as in JDK 25: Take with the status
// set fails even if the queue holds an element (lockInterruptibly), except where Java's take
// uses lock() (LinkedBlockingDeque): it returns the element and the status stays set.
func TestBlockingTakeWithInterruptSetFailsEvenIfNonEmpty(t *testing.T) {
	forEachKind(t, func(t *testing.T, k kind) {
		q := k.populated(t, 3)
		th := start(true, func() {
			for i := range 3 {
				if e, err := q.Take(); err != nil || (k.fifo && e != i) {
					t.Errorf("Take = %d, %v", e, err)
				}
			}
			q.Offer(5)
			thread.Current().Interrupt()
			e, err := q.Take()
			if k.lenientTakePut {
				if e != 5 || err != nil || !thread.Interrupted() {
					t.Errorf("Take with interrupt set = %d, %v; want 5 with the status kept", e, err)
				}
				return
			}
			if !errors.Is(err, thread.ErrInterrupted) {
				t.Errorf("Take with interrupt set = %v", err)
			}
			if _, _, err := q.PollTimeout(longDelay); err != nil {
				t.Errorf("PollTimeout after the cleared interrupt = %v", err)
			}
		})
		join(t, th)
	})
}

func TestTimedPollFromEmptyBlocksInterruptibly(t *testing.T) {
	forEachKind(t, func(t *testing.T, k kind) {
		for _, virtual := range []bool{true, false} {
			q := k.make(2)
			th := start(virtual, func() {
				_, ok, err := q.PollTimeout(2 * longDelay)
				if ok || !errors.Is(err, thread.ErrInterrupted) {
					t.Errorf("PollTimeout = %v, %v, want ErrInterrupted", ok, err)
				}
			})
			awaitState(t, th, thread.TimedWaiting)
			th.Interrupt()
			join(t, th)
		}
	})
}

func TestTimedPollFromEmptyAfterInterruptFailsAtOnce(t *testing.T) {
	forEachKind(t, func(t *testing.T, k kind) {
		q := k.make(2)
		th := start(true, func() {
			thread.Current().Interrupt()
			begin := time.Now()
			if _, _, err := q.PollTimeout(2 * longDelay); !errors.Is(err, thread.ErrInterrupted) {
				t.Errorf("PollTimeout = %v", err)
			}
			if time.Since(begin) > longDelay/2 {
				t.Error("waited despite the interrupt")
			}
		})
		join(t, th)
	})
}

func TestBlockingPutIsInterruptible(t *testing.T) {
	forEachKind(t, func(t *testing.T, k kind) {
		if !k.blockPut {
			t.Skip("Put never blocks")
		}
		for _, virtual := range []bool{true, false} {
			const size = 4
			q := k.make(size)
			th := start(virtual, func() {
				for i := range size {
					if err := q.Put(i); err != nil {
						t.Errorf("Put(%d) = %v", i, err)
					}
				}
				if q.Len() != size {
					t.Errorf("Len = %d", q.Len())
				}
				thread.Current().Interrupt()
				if err := q.Put(99); !errors.Is(err, thread.ErrInterrupted) {
					t.Errorf("Put with interrupt set = %v", err)
				}
				if err := q.Put(99); !errors.Is(err, thread.ErrInterrupted) {
					t.Errorf("Put interrupted while waiting = %v", err)
				}
				if thread.Current().IsInterrupted() {
					t.Error("status not cleared")
				}
			})
			awaitState(t, th, thread.Waiting)
			th.Interrupt()
			join(t, th)
			if diff := cmp.Diff(seq(size), q.ToSlice()); diff != "" {
				t.Errorf("queue changed (-want +got):\n%s", diff)
			}
		}
	})
}

func TestPutWithInterruptSetFailsEvenIfThereIsRoom(t *testing.T) {
	forEachKind(t, func(t *testing.T, k kind) {
		if !k.blockPut {
			t.Skip("Put never blocks")
		}
		q := k.make(4)
		th := start(true, func() {
			thread.Current().Interrupt()
			if k.lenientTakePut {
				if err := q.Put(1); err != nil || !thread.Interrupted() {
					t.Errorf("Put with room and interrupt set = %v; want success with the status kept", err)
				}
				q.Clear()
			} else if err := q.Put(1); !errors.Is(err, thread.ErrInterrupted) {
				t.Errorf("Put = %v", err)
			}
			thread.Current().Interrupt()
			if _, err := q.OfferTimeout(1, longDelay); !errors.Is(err, thread.ErrInterrupted) {
				t.Errorf("OfferTimeout = %v", err)
			}
		})
		join(t, th)
		if q.Len() != 0 {
			t.Errorf("Len = %d after failed puts", q.Len())
		}
	})
}

func TestPutWithTakeBlockedProducerProceeds(t *testing.T) {
	forEachKind(t, func(t *testing.T, k kind) {
		if !k.blockPut {
			t.Skip("Put never blocks")
		}
		const capacity = 2
		q := k.make(capacity)
		var put atomic.Int32
		th := start(true, func() {
			for i := range capacity + 1 {
				if err := q.Put(i); err != nil {
					t.Errorf("Put = %v", err)
				}
				put.Add(1)
			}
		})
		awaitState(t, th, thread.Waiting)
		if got := put.Load(); got != capacity {
			t.Fatalf("%d puts before blocking, want %d", got, capacity)
		}
		if e, err := q.Take(); err != nil || e != 0 {
			t.Errorf("Take = %d, %v", e, err)
		}
		join(t, th)
		if diff := cmp.Diff([]int{1, 2}, q.ToSlice()); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	})
}

func TestTimedOfferTimesOutThenIsInterruptible(t *testing.T) {
	forEachKind(t, func(t *testing.T, k kind) {
		if !k.blockPut {
			t.Skip("Put never blocks")
		}
		q := k.populated(t, 2)
		var first atomic.Bool
		th := start(true, func() {
			begin := time.Now()
			if ok, err := q.OfferTimeout(9, shortDelay); ok || err != nil {
				t.Errorf("OfferTimeout = %v, %v", ok, err)
			}
			if el := time.Since(begin); el < shortDelay {
				t.Errorf("gave up after %v", el)
			}
			first.Store(true)
			if _, err := q.OfferTimeout(9, 2*longDelay); !errors.Is(err, thread.ErrInterrupted) {
				t.Errorf("interrupted OfferTimeout = %v", err)
			}
		})
		for !first.Load() {
			time.Sleep(time.Millisecond)
		}
		awaitState(t, th, thread.TimedWaiting)
		th.Interrupt()
		join(t, th)
		if diff := cmp.Diff(seq(2), q.ToSlice()); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	})
}

func TestOfferTimeoutSucceedsWhenRoomAppears(t *testing.T) {
	forEachKind(t, func(t *testing.T, k kind) {
		if !k.blockPut {
			t.Skip("Put never blocks")
		}
		q := k.populated(t, 1)
		th := start(true, func() {
			if ok, err := q.OfferTimeout(7, longDelay); !ok || err != nil {
				t.Errorf("OfferTimeout = %v, %v", ok, err)
			}
		})
		awaitState(t, th, thread.TimedWaiting)
		q.Poll()
		join(t, th)
		if e, _ := q.Peek(); e != 7 {
			t.Errorf("head = %d", e)
		}
	})
}

func TestDrainToNonPositiveMaxElementsDoesNothing(t *testing.T) {
	forEachKind(t, func(t *testing.T, k kind) {
		q := k.populated(t, 3)
		for _, n := range []int{0, -1, -100} {
			if got := q.DrainTo(nil, n); len(got) != 0 {
				t.Errorf("DrainTo(%d) moved %v", n, got)
			}
		}
		if q.Len() != 3 {
			t.Errorf("Len = %d", q.Len())
		}
	})
}

func TestDrainToMovesAvailableElementsInOrder(t *testing.T) {
	forEachKind(t, func(t *testing.T, k kind) {
		q := k.populated(t, 5)
		got := q.DrainTo([]int{-1}, 100)
		if diff := cmp.Diff([]int{-1, 0, 1, 2, 3, 4}, got); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
		if q.Len() != 0 {
			t.Errorf("Len = %d", q.Len())
		}
		for i := range 5 {
			q.Offer(i)
		}
		for n := 1; n <= 3; n++ {
			got := q.DrainTo(nil, 2)
			want := [][]int{{0, 1}, {2, 3}, {4}}[n-1]
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("DrainTo(2) #%d (-want +got):\n%s", n, diff)
			}
		}
	})
}

func TestDrainToWakesABlockedPut(t *testing.T) {
	forEachKind(t, func(t *testing.T, k kind) {
		if !k.blockPut {
			t.Skip("Put never blocks")
		}
		q := k.populated(t, 3)
		th := start(true, func() {
			if err := q.Put(3); err != nil {
				t.Errorf("Put = %v", err)
			}
		})
		awaitState(t, th, thread.Waiting)
		got := q.DrainTo(nil, 100)
		join(t, th)
		got = q.DrainTo(got, 100)
		if diff := cmp.Diff(seq(4), got); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	})
}

func TestClearEmptiesTheQueueAndWakesABlockedPut(t *testing.T) {
	forEachKind(t, func(t *testing.T, k kind) {
		q := k.populated(t, 3)
		var th *thread.Thread
		if k.blockPut {
			th = start(true, func() { q.Put(10) })
			awaitState(t, th, thread.Waiting)
		}
		q.Clear()
		if th != nil {
			join(t, th)
			if diff := cmp.Diff([]int{10}, q.ToSlice()); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			q.Clear()
		}
		if q.Len() != 0 || len(q.ToSlice()) != 0 {
			t.Errorf("after Clear: %v", q.ToSlice())
		}
		if _, ok := q.Peek(); ok {
			t.Error("Peek after Clear")
		}
		q.Add(1)
		if e, _ := q.Poll(); e != 1 {
			t.Errorf("queue unusable after Clear: %d", e)
		}
	})
}

func TestContainsAndRemoveElement(t *testing.T) {
	forEachKind(t, func(t *testing.T, k kind) {
		q := k.populated(t, 5)
		for i := range 5 {
			if !q.Contains(i) {
				t.Errorf("Contains(%d) = false", i)
			}
		}
		if q.Contains(99) || q.RemoveElement(99) {
			t.Error("found an absent element")
		}
		if !q.RemoveElement(2) || q.Contains(2) || q.RemoveElement(2) {
			t.Error("RemoveElement(2) wrong")
		}
		if !q.RemoveElement(0) || !q.RemoveElement(4) {
			t.Error("RemoveElement of head/tail failed")
		}
		if diff := cmp.Diff([]int{1, 3}, sorted(q.ToSlice())); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
		// the removed slots are reused correctly
		q.Offer(5)
		q.Offer(6)
		var got []int
		for e, ok := q.Poll(); ok; e, ok = q.Poll() {
			got = append(got, e)
		}
		if diff := cmp.Diff([]int{1, 3, 5, 6}, got); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	})
}

func TestRemoveElementWakesABlockedPut(t *testing.T) {
	forEachKind(t, func(t *testing.T, k kind) {
		if !k.blockPut {
			t.Skip("Put never blocks")
		}
		q := k.populated(t, 3)
		th := start(true, func() { q.Put(3) })
		awaitState(t, th, thread.Waiting)
		q.RemoveElement(1)
		join(t, th)
		if diff := cmp.Diff([]int{0, 2, 3}, q.ToSlice()); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	})
}

func sorted(s []int) []int {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}

func TestAllIteratesInQueueOrderAndCanStopEarly(t *testing.T) {
	forEachKind(t, func(t *testing.T, k kind) {
		q := k.populated(t, 5)
		var got []int
		for e := range q.All() {
			got = append(got, e)
		}
		if !k.fifo {
			got = sorted(got)
		}
		if diff := cmp.Diff(seq(5), got); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
		n := 0
		for range q.All() {
			if n++; n == 2 {
				break
			}
		}
		if q.Len() != 5 {
			t.Error("iteration changed the queue")
		}
	})
}

func TestWeaklyConsistentIterationToleratesConcurrentChange(t *testing.T) {
	forEachKind(t, func(t *testing.T, k kind) {
		q := k.make(10)
		for i := range 10 {
			q.Offer(i)
		}
		seen := 0
		for e := range q.All() {
			// modify the queue under the iterator's feet
			q.Poll()
			q.Offer(100 + e)
			q.RemoveElement(e + 1)
			seen++
		}
		if seen == 0 || seen > 10 {
			t.Errorf("iterated over %d elements", seen)
		}
	})
}

func TestPutThenTakeHappensBefore(t *testing.T) {
	forEachKind(t, func(t *testing.T, k kind) {
		q := k.make(1)
		data := make([]int, 1000)
		th := start(true, func() {
			for i := range data {
				data[i] = i // plain writes, published by the Put below
			}
			q.Put(1)
		})
		if _, err := q.Take(); err != nil {
			t.Fatal(err)
		}
		for i, v := range data {
			if v != i {
				t.Fatalf("data[%d] = %d", i, v)
			}
		}
		join(t, th)
	})
}

func TestWaitingVirtualThreadUnmountsSoAnotherCanRunOnTheOnlyCarrier(t *testing.T) {
	for _, c := range conservationCases() {
		t.Run(c.name, func(t *testing.T) {
			s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 1})
			defer s.Close()
			q := c.mk()
			taker := thread.OfVirtual().Scheduler(s).Start(func() {
				if e, err := q.Take(); err != nil || e != 5 {
					t.Errorf("Take = %d, %v", e, err)
				}
			})
			awaitState(t, taker, thread.Waiting)
			putter := thread.OfVirtual().Scheduler(s).Start(func() { q.Put(5) })
			join(t, putter)
			join(t, taker)
		})
	}
}

func TestRemoveIfRemovesMatchingElementsAndWakesABlockedPut(t *testing.T) {
	forEachKind(t, func(t *testing.T, k kind) {
		q := k.populated(t, 6)
		var th *thread.Thread
		if k.blockPut {
			th = start(true, func() { q.Put(6) })
			awaitState(t, th, thread.Waiting)
		}
		if n := q.RemoveIf(func(e int) bool { return e%2 == 1 }); n != 3 {
			t.Errorf("RemoveIf removed %d, want 3", n)
		}
		if th != nil {
			join(t, th)
		} else {
			q.Put(6)
		}
		if n := q.RemoveIf(func(int) bool { return false }); n != 0 {
			t.Errorf("RemoveIf(false) removed %d", n)
		}
		var got []int
		for e, ok := q.Poll(); ok; e, ok = q.Poll() {
			got = append(got, e)
		}
		if diff := cmp.Diff([]int{0, 2, 4, 6}, got); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	})
}
