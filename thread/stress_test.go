package thread_test

import (
	"errors"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/loomgo/loom/thread"
)

// jitter spins or sleeps for a random short while, to shake interleavings.
func jitter(r *rand.Rand) {
	switch r.IntN(4) {
	case 0:
	case 1:
		for range r.IntN(200) {
			_ = r.Int()
		}
	case 2:
		thread.Yield()
	case 3:
		time.Sleep(time.Duration(r.IntN(50)) * time.Microsecond)
	}
}

// TestStressUnparkRacingInterruptRacingTimeoutLosesNothing: a waiter loops parking (untimed or
// with a short timeout) until a flag is set; a signaller sets the flag and unparks it while an
// interrupter interrupts it at a random moment. A lost wake-up would leave the waiter parked
// forever in an untimed Park, which the deadline catches. Many seeds, virtual and platform
// waiters, on one and two carriers.
func TestStressUnparkRacingInterruptRacingTimeoutLosesNothing(t *testing.T) {
	iterations := 3000
	if testing.Short() {
		iterations = 300
	}
	for _, par := range []int{1, 2} {
		s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: par})
		var wg sync.WaitGroup
		const batch = 50
		for base := 0; base < iterations; base += batch {
			for i := base; i < base+batch; i++ {
				r := rand.New(rand.NewPCG(uint64(i), uint64(par)))
				var flag atomic.Bool
				mode := r.IntN(3)
				task := func() {
					for !flag.Load() {
						switch mode {
						case 0:
							thread.Park()
						case 1:
							thread.ParkNanos(time.Duration(r.IntN(100)) * time.Microsecond)
						case 2:
							if r.IntN(2) == 0 {
								thread.Park()
							} else {
								thread.ParkNanos(time.Duration(r.IntN(50)) * time.Microsecond)
							}
						}
						thread.Interrupted() // clear, so Park blocks again
					}
				}
				var w *thread.Thread
				if r.IntN(8) == 0 {
					w = thread.OfPlatform().Daemon(true).Start(task)
				} else {
					w = thread.OfVirtual().Scheduler(s).Start(task)
				}
				r2 := rand.New(rand.NewPCG(uint64(i), 7))
				r3 := rand.New(rand.NewPCG(uint64(i), 8))
				wg.Add(2)
				thread.OfVirtual().Scheduler(s).Start(func() {
					defer wg.Done()
					jitter(r3)
					flag.Store(true)
					thread.Unpark(w)
				})
				thread.OfVirtual().Scheduler(s).Start(func() {
					defer wg.Done()
					jitter(r2)
					w.Interrupt()
				})
				wg.Add(1)
				go func() {
					defer wg.Done()
					if ok, _ := w.JoinTimeout(20 * time.Second); !ok {
						t.Errorf("seed %d (mode %d): waiter never woke: %v", i, mode, w)
					}
				}()
			}
			wg.Wait()
			if t.Failed() {
				break
			}
		}
		s.Close()
		if st := s.Stats(); st.Mounted != 0 || st.Queued != 0 || st.Parked != 0 || st.Live != 0 {
			t.Fatalf("scheduler not quiescent after the run: %+v", st)
		}
	}
}

// TestStressInterruptIsNeverLostBySleep: an interrupt that races a Sleep either makes the Sleep
// return ErrInterrupted (and is consumed) or is still pending afterwards.
func TestStressInterruptIsNeverLostBySleep(t *testing.T) {
	const n = 2000
	var wg sync.WaitGroup
	for i := range n {
		r := rand.New(rand.NewPCG(uint64(i), 42))
		d := time.Duration(r.IntN(200)) * time.Microsecond
		var err error
		var still bool
		interrupted := make(chan struct{})
		w := thread.StartVirtualThread(func() {
			err = thread.Sleep(d)
			<-interrupted // Go-native wait is fine here: the test, not loom, is waiting
			still = thread.Interrupted()
		})
		wg.Add(1)
		go func() {
			defer wg.Done()
			jitter(r)
			w.Interrupt()
			close(interrupted)
			w.Join()
			if errors.Is(err, thread.ErrInterrupted) == still {
				t.Errorf("seed %d: Sleep err=%v, status afterwards=%v: the interrupt was lost or doubled", i, err, still)
			}
		}()
		if i%100 == 99 {
			wg.Wait()
		}
	}
	wg.Wait()
}

// TestStressTimedJoinRacingTermination: JoinTimeout reports true exactly when the target has
// terminated.
func TestStressTimedJoinRacingTermination(t *testing.T) {
	var wg sync.WaitGroup
	for i := range 1000 {
		r := rand.New(rand.NewPCG(uint64(i), 3))
		rt := rand.New(rand.NewPCG(uint64(i), 4))
		target := thread.StartVirtualThread(func() { jitter(rt) })
		wg.Add(1)
		thread.StartVirtualThread(func() {
			defer wg.Done()
			ok, err := target.JoinTimeout(time.Duration(r.IntN(100)) * time.Microsecond)
			if err != nil || ok != (target.State() == thread.Terminated) && ok {
				t.Errorf("seed %d: JoinTimeout = %v, %v but state %v", i, ok, err, target.State())
			}
			target.Join()
		})
	}
	wg.Wait()
}
