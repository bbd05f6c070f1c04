package locks_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/loomgo/loom/internal/testutil"
	"github.com/loomgo/loom/locks"
	"github.com/loomgo/loom/thread"
)

// Randomized stress of the BLOCKED-after-notify state (issue 15, defect 16) racing timeouts and
// interrupts: waiters loop in Wait (untimed, or timed with short or huge timeouts) while a
// notifier notifies at random moments and an interrupter interrupts at random. Checked at every
// step: once Notify or NotifyAll has returned, no waiter is WAITING or TIMED_WAITING while the
// notifier still holds the monitor (a notified waiter is BLOCKED, the others are re-entering);
// a waiter returning from Wait holds the monitor and sees itself RUNNABLE (the notifier's state
// change never lands on a running thread); and no notification is lost (untimed waiters would
// hang). Virtual waiters on one and two carriers in both pinning modes, and platform waiters.
func TestStressNotifiedStateRacingTimeoutsAndInterrupts(t *testing.T) {
	rounds := 400
	if raceEnabled || testing.Short() {
		rounds = 100
	}
	for _, cfg := range []struct {
		par  int
		mode thread.PinningMode
		plat bool
	}{{1, thread.PinNone, false}, {2, thread.PinNone, false}, {2, thread.PinSynchronized, false}, {1, thread.PinNone, true}} {
		for seed := range uint64(3) {
			t.Run(fmt.Sprintf("par=%d/%v/platform=%v/seed=%d", cfg.par, cfg.mode, cfg.plat, seed), func(t *testing.T) {
				s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: cfg.par, Pinning: cfg.mode})
				defer s.Close()
				start := thread.OfVirtual().Scheduler(s).Start
				if cfg.plat {
					start = thread.OfPlatform().Start
				}
				var m locks.Monitor
				const nWaiters = 3
				var left atomic.Int32
				left.Store(nWaiters)
				waiters := make([]*thread.Thread, nWaiters)
				for i := range waiters {
					r := rand.New(rand.NewPCG(seed, uint64(i)))
					waiters[i] = start(func() {
						defer left.Add(-1)
						for range rounds {
							m.Synchronized(func() {
								var d time.Duration // untimed
								switch r.IntN(3) {
								case 1:
									d = time.Duration(1+r.IntN(200)) * time.Microsecond
								case 2:
									d = time.Hour
								}
								m.WaitTimeout(d)
								if st := thread.Current().State(); st != thread.Runnable || m.HoldCount() != 1 {
									t.Errorf("back from Wait: state %v, holds %d; want RUNNABLE, 1", st, m.HoldCount())
								}
							})
							thread.Interrupted() // an interrupt that came after the wait
						}
					})
				}
				r := rand.New(rand.NewPCG(seed, 100))
				notifier := thread.OfVirtual().Scheduler(s).Start(func() {
					for left.Load() > 0 {
						m.Synchronized(func() {
							if r.IntN(2) == 0 {
								m.Notify()
							} else {
								m.NotifyAll()
							}
							// The wait set first: a waiter can leave it meanwhile (timed out,
							// interrupted), but not join it while the monitor is held here.
							inWaitSet := m.WaitingThreads()
							for _, w := range waiters {
								if st := w.State(); st == thread.Waiting || st == thread.TimedWaiting {
									// it may be waiting only if it is still in the wait set
									// (Notify woke another one)
									if !slices.Contains(inWaitSet, w) {
										t.Errorf("%v is %v after a notification, outside the wait set", w, st)
									}
								}
							}
							if r.IntN(4) == 0 {
								thread.Yield()
							}
						})
						if r.IntN(3) == 0 {
							thread.Sleep(time.Duration(r.IntN(100)) * time.Microsecond)
						}
					}
				})
				ir := rand.New(rand.NewPCG(seed, 101))
				interrupter := thread.OfPlatform().Start(func() {
					for left.Load() > 0 {
						waiters[ir.IntN(nWaiters)].Interrupt()
						time.Sleep(time.Duration(ir.IntN(500)) * time.Microsecond)
					}
				})
				testutil.Join(t, append(waiters, notifier, interrupter)...)
			})
		}
	}
}
