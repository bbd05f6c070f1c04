package tracetest_test

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/loomgo/loom/locks"
	"github.com/loomgo/loom/thread"
)

// Many virtual threads doing random waits (sleeps, a contended lock, Yield, Blocking, timed
// parks, joins, sleeps inside a monitor that pin under PinSynchronized) while the test interrupts
// them at random, traced: the trace parses (so every region begins and ends on its goroutine, in
// nesting order), every thread has a task that begins and ends, and each task's annotations pair
// up: one loom.park log per loom.unmounted or loom.pinned region, one loom.mount per
// loom.unmounted, one loom.pinned log per loom.pinned region, none left open.
func TestTraceStressRandomWaits(t *testing.T) {
	const threads, steps = 48, 12
	for seed := uint64(1); seed <= 4; seed++ {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			pinning := thread.PinNone
			if seed%2 == 0 {
				pinning = thread.PinSynchronized
			}
			s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 2, Pinning: pinning})
			defer s.Close()
			var lock locks.ReentrantLock
			var m locks.Monitor
			ths := make([]*thread.Thread, threads)
			p := record(t, func() {
				for i := range ths {
					r := rand.New(rand.NewPCG(seed, uint64(i)))
					earlier := ths[:i]
					ths[i] = thread.OfVirtual().Scheduler(s).Name(fmt.Sprint("w", i)).Start(func() {
						for range steps {
							switch r.IntN(7) {
							case 0:
								thread.Sleep(time.Duration(r.IntN(200)) * time.Microsecond)
							case 1:
								lock.Lock()
								thread.Sleep(time.Duration(r.IntN(100)) * time.Microsecond)
								lock.Unlock()
							case 2:
								thread.Yield()
							case 3:
								thread.Blocking(func() { time.Sleep(time.Duration(r.IntN(100)) * time.Microsecond) })
							case 4:
								thread.ParkNanos(time.Duration(r.IntN(200)) * time.Microsecond)
							case 5:
								if len(earlier) > 0 {
									earlier[r.IntN(len(earlier))].JoinTimeout(time.Millisecond)
								}
							case 6:
								m.Enter()
								thread.Sleep(time.Duration(r.IntN(100)) * time.Microsecond)
								m.Exit()
							}
						}
					})
				}
				r := rand.New(rand.NewPCG(seed, 0))
				for range threads {
					ths[r.IntN(threads)].Interrupt()
					time.Sleep(time.Duration(r.IntN(100)) * time.Microsecond)
				}
				for _, th := range ths {
					th.Join()
				}
			})
			var parks, pinned int
			for _, th := range ths {
				k := p.of(t, th)
				un, pin := k.regions["loom.unmounted"], k.regions["loom.pinned"]
				parks += un
				pinned += pin
				if !k.begun || !k.ended || k.regions["loom.run"] != 1 {
					t.Errorf("task %q: begun %v, ended %v, regions %v", k.name, k.begun, k.ended, k.regions)
				}
				if k.count("loom.park") != un+pin || k.count("loom.mount") != un || k.count("loom.pinned") != pin {
					t.Errorf("task %q: %d loom.park, %d loom.mount, %d loom.pinned logs; %d loom.unmounted and %d loom.pinned regions",
						k.name, k.count("loom.park"), k.count("loom.mount"), k.count("loom.pinned"), un, pin)
				}
				for typ, n := range k.open {
					if n != 0 {
						t.Errorf("task %q: %d %s regions left open", k.name, n, typ)
					}
				}
			}
			if parks == 0 || pinning == thread.PinSynchronized && pinned == 0 {
				t.Errorf("%d unmounted and %d pinned parks traced; want some of each kind the pinning mode has", parks, pinned)
			}
		})
	}
}
