package thread

import (
	"math/rand/v2"
	"sync/atomic"
	"testing"
	"time"
)

// The timer queue against a model: random adds and removes keep the heap ordered, every thread's
// index pointing at its own entry, and the goroutine ends once the queue is empty.
func TestTimerQueueHeapMatchesModel(t *testing.T) {
	for seed := range uint64(50) {
		r := rand.New(rand.NewPCG(seed, 1))
		var q timerQueue
		model := map[*Thread]int64{}
		far := nanotime() + int64(time.Hour)
		for range 500 {
			if len(model) > 0 && r.IntN(3) == 0 {
				for th := range model { // remove an arbitrary one
					q.remove(th)
					delete(model, th)
					break
				}
			} else {
				th := &Thread{}
				when := far + r.Int64N(int64(time.Hour))
				q.add(th, when, 1) // park word 1 never matches: a firing would do nothing
				model[th] = when
			}
			q.mu.Lock()
			if len(q.heap) != len(model) {
				t.Fatalf("seed %d: heap has %d entries, model %d", seed, len(q.heap), len(model))
			}
			for i, e := range q.heap {
				if e.t.tqIndex != i+1 || model[e.t] != e.when {
					t.Fatalf("seed %d: entry %d: index %d, when %d (model %d)", seed, i, e.t.tqIndex, e.when, model[e.t])
				}
				if i > 0 && q.heap[(i-1)/2].when > e.when {
					t.Fatalf("seed %d: heap order broken at %d", seed, i)
				}
			}
			q.mu.Unlock()
		}
		for th := range model {
			q.remove(th)
		}
		deadline := time.Now().Add(10 * time.Second)
		for {
			q.mu.Lock()
			running := q.running
			q.mu.Unlock()
			if !running {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("seed %d: the timer goroutine did not end with the queue empty", seed)
			}
			time.Sleep(time.Millisecond)
		}
	}
}

// A timed park resumed by its deadline leaves the queue empty; one resumed early removes its entry.
func TestTimedParksLeaveNoTimerEntries(t *testing.T) {
	s := NewScheduler(SchedulerOptions{Parallelism: 1})
	defer s.Close()
	var second atomic.Bool
	th := OfVirtual().Scheduler(s).Start(func() {
		ParkNanos(5 * time.Millisecond) // times out
		second.Store(true)
		ParkNanos(time.Hour) // unparked below
	})
	deadline := time.Now().Add(10 * time.Second)
	for !second.Load() || s.timers.len() != 1 || th.park.Load()&phaseMask != phaseParked {
		if time.Now().After(deadline) {
			t.Fatalf("the second park never queued its deadline: %d entries", s.timers.len())
		}
		time.Sleep(time.Millisecond)
	}
	Unpark(th)
	th.Join()
	if n := s.timers.len(); n != 0 {
		t.Fatalf("%d timer entries left", n)
	}
}
