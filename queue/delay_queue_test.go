package queue_test

import (
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/loomgo/loom/queue"
	"github.com/loomgo/loom/thread"
)

// Behaviours of the JSR-166 TCK's DelayQueueTest.

// timed is a Delayed element that expires at a fixed time.
type timed struct {
	name string
	at   time.Time
}

func (e timed) Delay() time.Duration { return time.Until(e.at) }

func after(name string, d time.Duration) timed { return timed{name, time.Now().Add(d)} }

func TestDelayQueueTakeWaitsUntilTheHeadExpires(t *testing.T) {
	var q queue.DelayQueue[timed]
	begin := time.Now()
	q.Put(after("a", 100*time.Millisecond))
	if _, ok := q.Poll(); ok {
		t.Error("Poll returned an unexpired element")
	}
	if e, ok := q.Peek(); !ok || e.name != "a" {
		t.Errorf("Peek = %v, %v: want the unexpired head", e, ok)
	}
	if _, err := q.Remove(); !errors.Is(err, queue.ErrEmpty) {
		t.Errorf("Remove of an unexpired head = %v", err)
	}
	e, err := q.Take()
	if err != nil || e.name != "a" {
		t.Fatalf("Take = %v, %v", e, err)
	}
	if el := time.Since(begin); el < 100*time.Millisecond {
		t.Errorf("Take returned after %v, before the delay expired", el)
	}
}

func TestDelayQueueHandsOutElementsInDelayOrder(t *testing.T) {
	q := queue.NewDelayQueue[timed]()
	for _, d := range []int{30, 10, 20} {
		q.Offer(after(string(rune('a'+d/10-1)), time.Duration(d)*time.Millisecond))
	}
	var got []string
	for range 3 {
		e, err := q.Take()
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, e.name)
	}
	if diff := cmp.Diff([]string{"a", "b", "c"}, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestDelayQueueTimedPollShorterThanTheDelayTimesOut(t *testing.T) {
	var q queue.DelayQueue[timed]
	q.Add(after("late", longDelay))
	begin := time.Now()
	if _, ok, err := q.PollTimeout(shortDelay); ok || err != nil {
		t.Errorf("PollTimeout = %v, %v", ok, err)
	}
	if el := time.Since(begin); el < shortDelay || el > longDelay/2 {
		t.Errorf("PollTimeout took %v", el)
	}
	if q.Len() != 1 {
		t.Error("element lost")
	}
}

func TestDelayQueueNewEarlierHeadWakesTheWaitingLeader(t *testing.T) {
	var q queue.DelayQueue[timed]
	q.Add(after("late", longDelay))
	got := make(chan string, 1)
	th := start(true, func() {
		e, err := q.Take()
		if err != nil {
			t.Error(err)
		}
		got <- e.name
	})
	awaitState(t, th, thread.TimedWaiting)
	begin := time.Now()
	q.Add(after("soon", 20*time.Millisecond))
	join(t, th)
	if name := <-got; name != "soon" {
		t.Errorf("Take = %q", name)
	}
	if el := time.Since(begin); el > longDelay/2 {
		t.Errorf("the leader was not woken: %v", el)
	}
}

func TestDelayQueueManyTakersShareOneHeadEachElementOnce(t *testing.T) {
	var q queue.DelayQueue[timed]
	const n = 8
	got := make(chan string, n)
	var ths []*thread.Thread
	for range n {
		ths = append(ths, start(true, func() {
			e, err := q.Take()
			if err != nil {
				t.Error(err)
			}
			got <- e.name
		}))
	}
	for i := range n {
		q.Put(after(string(rune('a'+i)), time.Duration(i*5)*time.Millisecond))
	}
	for _, th := range ths {
		join(t, th)
	}
	close(got)
	seen := map[string]int{}
	for name := range got {
		seen[name]++
	}
	if len(seen) != n {
		t.Errorf("received %v", seen)
	}
}

func TestDelayQueueTakeIsInterruptibleWhileWaitingForTheDelay(t *testing.T) {
	var q queue.DelayQueue[timed]
	q.Add(after("late", longDelay))
	th := start(true, func() {
		if _, err := q.Take(); !errors.Is(err, thread.ErrInterrupted) {
			t.Errorf("Take = %v", err)
		}
	})
	awaitState(t, th, thread.TimedWaiting)
	th.Interrupt()
	join(t, th)
	if q.Len() != 1 {
		t.Error("element lost")
	}
}

func TestDelayQueueDrainToMovesOnlyExpiredElements(t *testing.T) {
	var q queue.DelayQueue[timed]
	q.Add(after("past1", -time.Second))
	q.Add(after("future", longDelay))
	q.Add(after("past2", -time.Millisecond))
	var names []string
	for _, e := range q.DrainTo(nil, 10) {
		names = append(names, e.name)
	}
	if diff := cmp.Diff([]string{"past1", "past2"}, names); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if q.Len() != 1 {
		t.Errorf("Len = %d", q.Len())
	}
	q.Clear()
	if q.Len() != 0 {
		t.Error("Clear left elements")
	}
}
