package thread_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sync/atomic"
	"testing"
	"time"

	"github.com/loomgo/loom/thread"
)

// Randomized stress of timed parks with huge timeouts (issue 15, defect 1) racing Unpark and
// Interrupt, beside short timed parks that keep the timer queue busy: a park of math.MaxInt64
// (or near it) returns only when woken, never by itself, and every wake is seen. Virtual waiters
// on one and two carriers, and platform waiters.
func TestStressHugeTimeoutsRacingUnparkAndInterrupt(t *testing.T) {
	iterations := 2000
	if raceEnabled || testing.Short() {
		iterations = 300
	}
	huge := []time.Duration{math.MaxInt64, math.MaxInt64 - 1, 1 << 62, math.MaxInt64 - time.Duration(time.Hour)}
	for _, kind := range []string{"virtual/1", "virtual/2", "platform"} {
		for seed := range uint64(3) {
			t.Run(fmt.Sprintf("%s/seed=%d", kind, seed), func(t *testing.T) {
				s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 1 + int(kind[len(kind)-1]-'1')%2})
				defer s.Close()
				start := thread.OfVirtual().Scheduler(s).Start
				if kind == "platform" {
					start = thread.OfPlatform().Start
				}
				// issued: the waker is about to wake iteration i (i+1 stored); delivered: its wake
				// has been delivered; seen: the waiter is done with iteration i
				var issued, delivered, seen atomic.Int64
				var chosen atomic.Int64 // iteration<<2 | how the waiter waits in it (0 is none yet)
				var stop atomic.Bool
				// short timed parks alongside, so the huge entries share the timer queue with
				// entries that fire
				noise := thread.OfVirtual().Scheduler(s).Start(func() {
					for !stop.Load() {
						thread.ParkNanos(time.Duration(1+rand.IntN(50)) * time.Microsecond)
					}
				})
				r := rand.New(rand.NewPCG(seed, 1))
				waiter := start(func() {
					for i := range int64(iterations) {
						d := huge[r.IntN(len(huge))]
						how := int64(r.IntN(3))
						chosen.Store((i+1)<<2 | how)
						// A park may return spuriously once per iteration: Interrupt also makes
						// the permit available (as in Java, for virtual and platform threads
						// alike), after the park it woke may have returned. A huge timeout that
						// expired would return again and again.
						for early := 0; ; early++ {
							switch how {
							case 0:
								thread.ParkNanos(d)
							case 1:
								thread.ParkUntil(time.Now().Add(d))
							case 2:
								if err := thread.Sleep(d); err == nil {
									t.Errorf("iteration %d: Sleep(%v) ended without the interrupt", i, d)
									return
								}
							}
							if issued.Load() > i {
								break
							}
							if early > 0 {
								t.Errorf("iteration %d: a park of %v returned %d times with no wake issued", i, d, early+1)
								return
							}
						}
						// the wake may have come before the waker got to it (a permit left by an
						// earlier interrupt): let it land in this iteration, not the next
						for delivered.Load() <= i {
							thread.Yield()
						}
						thread.Interrupted()
						seen.Store(i + 1)
					}
				})
				wr := rand.New(rand.NewPCG(seed, 2))
				for i := range int64(iterations) {
					for chosen.Load()>>2 <= i && waiter.IsAlive() {
						thread.Yield()
					}
					jitter(wr)
					issued.Store(i + 1)
					// exactly one wake per iteration, so none is left over for the next one
					if chosen.Load()&3 == 2 || wr.IntN(2) == 0 {
						waiter.Interrupt()
					} else {
						thread.Unpark(waiter)
					}
					delivered.Store(i + 1)
					for seen.Load() <= i && waiter.IsAlive() {
						thread.Yield()
					}
				}
				join(t, waiter)
				stop.Store(true)
				thread.Unpark(noise)
				join(t, noise)
			})
		}
	}
}
