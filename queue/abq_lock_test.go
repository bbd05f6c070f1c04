package queue_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"sync/atomic"
	"testing"
	"time"

	"github.com/loomgo/loom/queue"
	"github.com/loomgo/loom/thread"
)

// ArrayBlockingQueue's own lock (lock.go) and its signalling (waiters in wait.go): a signal is
// skipped only when every waiter has had one, the lock is reentrant for user code run under it,
// and a thread waiting for the lock or a condition reports what it waits on.

// Untimed takers must each get their share while threads with short timed polls (that put
// back what they got) and timed offers leave their waits early, some interrupted: every early
// exit takes a waiter out of the count of those still needing a signal, and a taker whose
// signal was skipped wrongly would wait forever with elements in the queue.
func TestArrayBlockingQueueSkipsNoNeededSignal(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 2))
	for round := range 24 {
		carriers := 1 + round%2
		fair := round%4 >= 2
		capacity := 1 + r.IntN(3)
		t.Run(fmt.Sprintf("carriers=%d/fair=%v/cap=%d/%d", carriers, fair, capacity, round), func(t *testing.T) {
			signalStress(t, carriers, fair, capacity, r.Uint64())
		})
	}
}

func signalStress(t *testing.T, carriers int, fair bool, capacity int, seed uint64) {
	s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: carriers})
	defer s.Close()
	vb := thread.OfVirtual().Scheduler(s)
	q := queue.NewArrayBlockingQueue[int](capacity, fair)
	const producers, consumers, perProducer = 3, 3, 300
	const total = producers * perProducer
	var taken atomic.Int64
	var ths []*thread.Thread
	for p := range producers {
		ths = append(ths, vb.Start(func() {
			for i := range perProducer {
				if err := q.Put(p*perProducer + i); err != nil {
					return // interrupted by a failing test's clean-up
				}
			}
		}))
	}
	for range consumers {
		ths = append(ths, vb.Start(func() {
			for range total / consumers {
				if _, err := q.Take(); err != nil {
					return // interrupted by a failing test's clean-up
				}
				taken.Add(1)
			}
		}))
	}
	var stop, abort atomic.Bool
	var distractors []*thread.Thread
	for d := range 3 {
		r := rand.New(rand.NewPCG(seed, uint64(d)))
		distractors = append(distractors, vb.Start(func() {
			for !stop.Load() {
				d := time.Duration(r.IntN(200)) * time.Microsecond
				e, ok, err := q.PollTimeout(d)
				if err != nil || !ok {
					continue
				}
				for !abort.Load() { // give it back, however long that takes
					if ok, err := q.OfferTimeout(e, d); ok && err == nil {
						break
					}
				}
			}
		}))
	}
	chaos := vb.Start(func() {
		r := rand.New(rand.NewPCG(seed, 99))
		for !stop.Load() {
			distractors[r.IntN(len(distractors))].Interrupt()
			time.Sleep(time.Duration(r.IntN(300)) * time.Microsecond)
		}
	})
	time.Sleep(20 * time.Millisecond)
	stop.Store(true)
	chaos.Join()
	all := append(distractors, ths...)
	for _, th := range all {
		if ok, _ := th.JoinTimeout(longDelay); !ok {
			t.Errorf("a thread is stuck (%d of %d taken, %d left in the queue)", taken.Load(), total, q.Len())
			abort.Store(true)
			for _, th := range all {
				th.Interrupt() // untimed waits end with ErrInterrupted, so Close can return
			}
			break
		}
	}
	for _, th := range all {
		th.Join()
	}
	if !abort.Load() && (taken.Load() != total || q.Len() != 0) {
		t.Errorf("taken %d of %d, %d left", taken.Load(), total, q.Len())
	}
}

// A burst of puts into a queue with many takers waiting (untimed and timed ones, a few of them
// interrupted meanwhile): every taker that can have an element gets one, though the burst
// comes before any woken taker has run (on one carrier, always). Every queue kind, since the
// single-lock ones skip signals (waiters.signal) and the others must not lose any either.
func TestBurstWakesEveryWaitingTaker(t *testing.T) {
	const takers = 8
	for _, carriers := range []int{1, 2} {
		for _, k := range kinds() {
			s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: carriers})
			vb := thread.OfVirtual().Scheduler(s)
			q := k.make(takers)
			var got atomic.Int64
			ths := make([]*thread.Thread, takers)
			for i := range ths {
				ths[i] = vb.Start(func() {
					var ok bool
					if i%2 == 0 {
						_, err := q.Take()
						ok = err == nil
					} else {
						_, ok, _ = q.PollTimeout(longDelay) // an interrupted poll takes nothing: ok is false
					}
					if ok {
						got.Add(1)
					}
				})
			}
			for _, th := range ths {
				awaitState(t, th, thread.Waiting, thread.TimedWaiting)
			}
			ths[1].Interrupt() // leaves its wait early: one element fewer is taken
			ths[2].Interrupt()
			join(t, ths[1])
			join(t, ths[2])
			producer := vb.Start(func() {
				for i := range takers {
					q.Offer(i) // all at once: the producer never blocks
				}
			})
			join(t, producer)
			for i, th := range ths {
				if ok, _ := th.JoinTimeout(longDelay); !ok {
					t.Errorf("carriers=%d %s: taker %d never woke with %d elements in the queue", carriers, k.name, i, q.Len())
					th.Interrupt()
					th.Join()
				}
			}
			if got.Load() != takers-2 || q.Len() != 2 {
				t.Errorf("carriers=%d %s: %d taken, %d left; want %d and 2", carriers, k.name, got.Load(), q.Len(), takers-2)
			}
			s.Close()
		}
	}
}

// The equality function runs with the queue locked (Contains, RemoveElement) and may use the
// queue itself: the lock is reentrant, as Java's ArrayBlockingQueue's ReentrantLock is.
func TestArrayBlockingQueueEqualityFunctionMayUseTheQueue(t *testing.T) {
	for _, fair := range []bool{false, true} {
		var q *queue.ArrayBlockingQueue[int]
		var lens []int
		q = queue.NewArrayBlockingQueue(4, fair, queue.WithElements(1, 2, 3), queue.WithEqual(func(a, b int) bool {
			lens = append(lens, q.Len())
			return a == b
		}))
		done := make(chan bool)
		go func() {
			defer thread.Detach()
			ok := q.Contains(2) && q.RemoveElement(3)
			done <- ok && q.Offer(9)
		}()
		select {
		case ok := <-done:
			if !ok {
				t.Errorf("fair=%v: Contains/RemoveElement/Offer failed", fair)
			}
		case <-time.After(longDelay):
			t.Fatalf("fair=%v: the queue deadlocked on its own lock", fair)
		}
		if got := q.ToSlice(); len(got) != 3 || got[2] != 9 || len(lens) == 0 {
			t.Errorf("fair=%v: queue %v, lengths seen %v", fair, got, lens)
		}
	}
}

// A thread blocked in Take waits on the queue's notEmpty condition: WAITING, with a blocker
// that prints as Java's does, and interruptible.
func TestArrayBlockingQueueWaiterIsWaitingOnACondition(t *testing.T) {
	q := queue.NewArrayBlockingQueue[int](1, false)
	var err atomic.Value
	th := thread.OfVirtual().Start(func() {
		_, e := q.Take()
		err.Store(fmt.Sprint(e))
		_ = errors.Is(e, thread.ErrInterrupted)
	})
	awaitState(t, th, thread.Waiting)
	if b := fmt.Sprint(th.Blocker()); len(b) < 10 || b[:10] != "Condition@" {
		t.Errorf("blocker %q, want Condition@...", b)
	}
	th.Interrupt()
	join(t, th)
	if got := err.Load(); got != fmt.Sprint(thread.ErrInterrupted) {
		t.Errorf("Take returned %v, want %v", got, thread.ErrInterrupted)
	}
}
