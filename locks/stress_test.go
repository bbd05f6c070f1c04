package locks_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"sync/atomic"
	"testing"
	"time"

	"github.com/loomgo/loom/internal/testutil"
	"github.com/loomgo/loom/locks"
	"github.com/loomgo/loom/thread"
)

// stressThreads starts n workers (alternating virtual and platform) running body(rng, i), plus
// an interrupter that interrupts random workers until they are all done, and joins them all.
func stressThreads(t *testing.T, seed uint64, n int, body func(rng *rand.Rand, i int)) {
	t.Helper()
	workers := make([]*thread.Thread, n)
	var done atomic.Int32
	for i := range n {
		rng := rand.New(rand.NewPCG(seed, uint64(i)))
		workers[i] = kinds[i%2].start(func() {
			defer done.Add(1)
			body(rng, i)
		})
	}
	irng := rand.New(rand.NewPCG(seed, 999))
	interrupter := startVirtual(func() {
		for done.Load() < int32(n) {
			workers[irng.IntN(n)].Interrupt()
			thread.Sleep(time.Duration(irng.IntN(300)) * time.Microsecond)
		}
	})
	for _, w := range workers {
		testutil.Join(t, w)
	}
	testutil.Join(t, interrupter)
}

// Mutual exclusion and hold counts under every acquire form, with timeouts and interrupts
// racing, checked at every step.
func TestStressReentrantLockInvariants(t *testing.T) {
	for seed := range uint64(8) {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			l := locks.NewReentrantLock(seed%2 == 1)
			var inside atomic.Int32
			var owner atomic.Int64
			check := func(depth int) {
				me := thread.Current().ThreadID()
				if depth == 1 {
					if inside.Add(1) != 1 {
						t.Error("mutual exclusion violated")
					}
					owner.Store(me)
				}
				if owner.Load() != me || l.HoldCount() != depth || !l.IsHeldByCurrentThread() || l.Owner() != thread.Current() {
					t.Errorf("hold state wrong at depth %d: HoldCount %d", depth, l.HoldCount())
				}
			}
			leave := func(depth int) {
				if depth == 1 {
					owner.Store(0)
					inside.Add(-1)
				}
				l.Unlock()
			}
			stressThreads(t, seed, 10, func(rng *rand.Rand, _ int) {
				for range 300 {
					depth := 1 + rng.IntN(3)
					got := 0
					for d := 1; d <= depth; d++ {
						var ok bool
						switch rng.IntN(4) {
						case 0:
							l.Lock()
							ok = true
						case 1:
							ok = l.TryLock()
						case 2:
							var err error
							ok, err = l.TryLockTimeout(time.Duration(rng.IntN(200)) * time.Microsecond)
							if ok && err != nil {
								t.Error("acquired and interrupted")
							}
						case 3:
							ok = l.LockInterruptibly() == nil
						}
						if !ok {
							break
						}
						got = d
						check(d)
					}
					if got > 0 && rng.IntN(4) == 0 {
						thread.Yield()
					}
					for d := got; d >= 1; d-- {
						leave(d)
					}
					if l.HoldCount() != 0 {
						t.Error("holds left")
					}
				}
				thread.Interrupted()
			})
			if l.IsLocked() || l.HasQueuedThreads() {
				t.Errorf("lock left locked=%v queued=%v", l.IsLocked(), l.HasQueuedThreads())
			}
		})
	}
}

// No lost signal: consumers wait (untimed, or timed in a loop) for tokens that producers add
// one at a time with Signal, while interrupts hit everyone. A lost signal leaves a consumer
// waiting forever, which join reports.
func TestStressConditionNoLostSignal(t *testing.T) {
	for seed := range uint64(8) {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			var l locks.ReentrantLock
			c := l.NewCondition()
			tokens, consumed := 0, 0
			const consumers, each = 5, 100
			stressThreads(t, seed, 2*consumers, func(rng *rand.Rand, i int) {
				if i%2 == 0 { // producer
					for range each {
						l.Lock()
						tokens++
						c.Signal()
						l.Unlock()
						if rng.IntN(3) == 0 {
							thread.Yield()
						}
					}
					return
				}
				for range each {
					l.Lock()
					for tokens == 0 {
						var err error
						switch rng.IntN(3) {
						case 0:
							err = c.Await()
						case 1:
							_, err = c.AwaitTimeout(time.Duration(rng.IntN(500)) * time.Microsecond)
						case 2:
							c.AwaitUninterruptibly()
						}
						if err != nil && !errors.Is(err, thread.ErrInterrupted) {
							t.Error(err)
						}
						if l.HoldCount() != 1 {
							t.Errorf("HoldCount after await = %d", l.HoldCount())
						}
					}
					tokens--
					consumed++
					l.Unlock()
				}
				thread.Interrupted()
			})
			if tokens != 0 || consumed != consumers*each {
				t.Errorf("tokens %d consumed %d", tokens, consumed)
			}
		})
	}
}

// The same with a Monitor and Notify.
func TestStressMonitorNoLostNotify(t *testing.T) {
	for seed := range uint64(4) {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			var m locks.Monitor
			tokens := 0
			const consumers, each = 4, 100
			stressThreads(t, seed, 2*consumers, func(rng *rand.Rand, i int) {
				if i%2 == 0 {
					for range each {
						m.Synchronized(func() { tokens++; m.Notify() })
					}
					return
				}
				for range each {
					m.Synchronized(func() {
						for tokens == 0 {
							if rng.IntN(2) == 0 {
								m.Wait()
							} else {
								m.WaitTimeout(time.Duration(1+rng.IntN(500)) * time.Microsecond)
							}
							if m.HoldCount() != 1 {
								t.Errorf("HoldCount after wait = %d", m.HoldCount())
							}
						}
						tokens--
					})
				}
				thread.Interrupted()
			})
			if tokens != 0 {
				t.Errorf("tokens %d", tokens)
			}
		})
	}
}

// Permits are conserved: never more in use than exist, all back at the end, with every acquire
// form, timeouts and interrupts racing.
func TestStressSemaphorePermitsConserved(t *testing.T) {
	for seed := range uint64(8) {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			const permits = 5
			s := locks.NewSemaphore(permits, seed%2 == 1)
			var inUse atomic.Int32
			stressThreads(t, seed, 10, func(rng *rand.Rand, _ int) {
				for range 300 {
					n := 1 + rng.IntN(3)
					var ok bool
					switch rng.IntN(4) {
					case 0:
						ok = s.AcquireN(n) == nil
					case 1:
						s.AcquireUninterruptiblyN(n)
						ok = true
					case 2:
						ok = s.TryAcquireN(n)
					case 3:
						ok, _ = s.TryAcquireNTimeout(n, time.Duration(rng.IntN(300))*time.Microsecond)
					}
					if !ok {
						continue
					}
					if u := inUse.Add(int32(n)); u > permits {
						t.Errorf("%d permits in use, only %d exist", u, permits)
					}
					if rng.IntN(4) == 0 {
						thread.Yield()
					}
					inUse.Add(-int32(n))
					s.ReleaseN(n)
				}
				thread.Interrupted()
			})
			if s.AvailablePermits() != permits || s.HasQueuedThreads() {
				t.Errorf("permits %d queued %v", s.AvailablePermits(), s.HasQueuedThreads())
			}
		})
	}
}

// Readers and writers exclude each other, with timeouts and interrupts racing.
func TestStressReadWriteLockInvariants(t *testing.T) {
	for seed := range uint64(4) {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			rw := locks.NewReentrantReadWriteLock(seed%2 == 1)
			var readers, writers atomic.Int32
			stressThreads(t, seed, 10, func(rng *rand.Rand, _ int) {
				for range 300 {
					write := rng.IntN(3) == 0
					var ok bool
					if write {
						switch rng.IntN(3) {
						case 0:
							rw.WriteLock().Lock()
							ok = true
						case 1:
							ok = rw.WriteLock().LockInterruptibly() == nil
						case 2:
							ok, _ = rw.WriteLock().TryLockTimeout(time.Duration(rng.IntN(300)) * time.Microsecond)
						}
						if !ok {
							continue
						}
						if writers.Add(1) != 1 || readers.Load() != 0 {
							t.Error("writer not alone")
						}
						writers.Add(-1)
						rw.WriteLock().Unlock()
						continue
					}
					switch rng.IntN(3) {
					case 0:
						rw.ReadLock().Lock()
						ok = true
					case 1:
						ok = rw.ReadLock().LockInterruptibly() == nil
					case 2:
						ok, _ = rw.ReadLock().TryLockTimeout(time.Duration(rng.IntN(300)) * time.Microsecond)
					}
					if !ok {
						continue
					}
					readers.Add(1)
					if writers.Load() != 0 {
						t.Error("reader beside a writer")
					}
					if rw.ReadHoldCount() != 1 {
						t.Errorf("ReadHoldCount %d", rw.ReadHoldCount())
					}
					readers.Add(-1)
					rw.ReadLock().Unlock()
				}
				thread.Interrupted()
			})
			if rw.ReadLockCount() != 0 || rw.IsWriteLocked() || rw.HasQueuedThreads() {
				t.Error("state left behind")
			}
		})
	}
}
