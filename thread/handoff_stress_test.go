package thread_test

import (
	"math/rand/v2"
	"sync/atomic"
	"testing"
	"time"

	"github.com/loomgo/loom/thread"
)

// The hand-off cell (internal/carrier's handoff.go): a virtual thread that unparks another queues
// it on its own carrier when nothing else is queued, and an idle carrier, if any, is given it by a
// spinner (Pool.Wake). These tests race every way a resumption can leave the cell: the waker
// parking or ending, a carrier going idle and stealing it, the spinner, a compensating carrier,
// Yield.

// TestStressHandOffRingLosesNoTurn: a turn goes round a ring of virtual threads by Unpark; each
// thread, after passing the turn on, does something random before it parks again (nothing, a
// spin, a Yield, a Sleep, ends its step with a timed park), on one to three carriers. A lost
// hand-off leaves the ring stuck, which the deadline catches.
func TestStressHandOffRingLosesNoTurn(t *testing.T) {
	rounds := 2000
	if testing.Short() {
		rounds = 50
	}
	for _, par := range []int{1, 2, 3} {
		for _, size := range []int{2, 3, 5} {
			s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: par})
			var turn atomic.Int64
			ring := make([]*thread.Thread, size)
			done := make(chan struct{})
			for k := range ring {
				r := rand.New(rand.NewPCG(uint64(par), uint64(size*10+k)))
				ring[k] = thread.OfVirtual().Scheduler(s).Unstarted(func() {
					for i := int64(k); i < int64(rounds*size); i += int64(size) {
						for turn.Load() != i {
							if r.IntN(4) == 0 {
								thread.ParkNanos(time.Duration(r.IntN(20)) * time.Microsecond)
							} else {
								thread.Park()
							}
						}
						turn.Store(i + 1)
						thread.Unpark(ring[(k+1)%size])
						switch r.IntN(5) {
						case 1:
							for range r.IntN(500) {
								_ = r.Int()
							}
						case 2:
							thread.Yield()
						case 3:
							thread.Sleep(time.Duration(r.IntN(10)) * time.Microsecond)
						}
					}
					if k == size-1 {
						close(done)
					}
				})
			}
			for _, th := range ring {
				th.Start()
			}
			select {
			case <-done:
			case <-time.After(60 * time.Second):
				t.Fatalf("par %d, ring of %d: stuck at turn %d of %d", par, size, turn.Load(), rounds*size)
			}
			for _, th := range ring {
				th.Join()
			}
			s.Close()
			if st := s.Stats(); st.Queued != 0 || st.Live != 0 || st.Mounted != 0 {
				t.Fatalf("par %d, ring of %d: not quiescent: %+v", par, size, st)
			}
		}
	}
}

// parkedUntil starts a virtual thread of s that parks until proceed is set, then sets ran, and
// returns it once it is parked.
func parkedUntil(s *thread.Scheduler, proceed, ran *atomic.Bool) *thread.Thread {
	th := thread.OfVirtual().Scheduler(s).Start(func() {
		for !proceed.Load() {
			thread.Park()
		}
		ran.Store(true)
	})
	for th.State() != thread.Waiting {
		time.Sleep(time.Microsecond)
	}
	return th
}

// spinUntilRan spins, on the caller's carrier, until ran is set; it reports false after a
// deadline long enough for any load.
func spinUntilRan(ran *atomic.Bool) bool {
	deadline := time.Now().Add(20 * time.Second)
	for !ran.Load() {
		if time.Now().After(deadline) {
			return false
		}
	}
	return true
}

// TestHandOffWokenThreadRunsWhileItsWakerKeepsRunning: a waker that unparks a thread and then
// spins, without parking, until the woken thread has run must not wait forever when another
// carrier is idle (or becomes idle): the woken thread may not stay in its waker's cell. As in
// Java, where the other carrier runs it.
func TestHandOffWokenThreadRunsWhileItsWakerKeepsRunning(t *testing.T) {
	s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 2})
	defer s.Close()
	for i := range 500 {
		var ran, proceed atomic.Bool
		woken := parkedUntil(s, &proceed, &ran)
		waker := thread.OfVirtual().Scheduler(s).Start(func() {
			proceed.Store(true)
			thread.Unpark(woken)
			if !spinUntilRan(&ran) { // the woken thread needs the other carrier
				t.Errorf("iteration %d: the woken thread never ran while its waker spun", i)
			}
		})
		waker.Join()
		woken.Join()
		if t.Failed() {
			return
		}
	}
}

// TestHandOffWokenThreadIsStolenByACarrierThatGoesIdle: both carriers busy, a thread woken by one
// of them waits in that carrier's cell while its waker keeps running; when the other carrier's
// thread ends, that carrier takes the woken thread instead of going idle.
func TestHandOffWokenThreadIsStolenByACarrierThatGoesIdle(t *testing.T) {
	s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 2})
	defer s.Close()
	for i := range 200 {
		var ran, proceed, release atomic.Bool
		woken := parkedUntil(s, &proceed, &ran)
		var started atomic.Int32
		other := thread.OfVirtual().Scheduler(s).Start(func() { // holds the second carrier a while
			started.Add(1)
			for !release.Load() {
			}
		})
		waker := thread.OfVirtual().Scheduler(s).Start(func() {
			started.Add(1)
			for started.Load() < 2 {
			}
			proceed.Store(true)
			thread.Unpark(woken)
			release.Store(true)
			if !spinUntilRan(&ran) {
				t.Errorf("iteration %d: the woken thread never ran", i)
			}
		})
		waker.Join()
		other.Join()
		woken.Join()
		if t.Failed() {
			return
		}
	}
}

// TestHandOffToAThreadOfAnotherScheduler: a thread that ends wakes its joiner, and a joiner of
// another scheduler must be queued on its own scheduler, not handed the ending thread's carrier.
// (The hand-off once put such a joiner in the other pool's cell: it ran on the wrong carrier, and
// a ping-pong on a one-carrier scheduler, joined from the default one, hung.)
func TestHandOffToAThreadOfAnotherScheduler(t *testing.T) {
	a := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 1})
	defer a.Close()
	b := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 1})
	defer b.Close()
	var mine string
	joiner := thread.OfVirtual().Scheduler(a).Start(func() {
		mine = thread.Current().Carrier()
		for i := range 500 {
			th := thread.OfVirtual().Scheduler(b).Start(func() {
				if i%2 == 0 {
					thread.Yield()
				}
			})
			if err := th.Join(); err != nil {
				t.Errorf("join: %v", err)
				return
			}
			if c := thread.Current().Carrier(); c != mine {
				t.Errorf("iteration %d: the joiner runs on %q after the join, want its own scheduler's %q", i, c, mine)
				return
			}
		}
	})
	if ok, _ := joiner.JoinTimeout(60 * time.Second); !ok {
		t.Fatal("the joiner never finished")
	}
}
