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

// Ports of the JSR-166 TCK's LockSupportTest and the jtreg test
// java/util/concurrent/locks/LockSupport/ParkLoops, each on a virtual and a platform thread.

// parkMethod is LockSupportTest's ParkMethod: a way to park, with the state it shows.
type parkMethod struct {
	name  string
	park  func(d time.Duration) // d: the timeout of the timed forms
	state thread.State
}

var parkMethods = []parkMethod{
	{"park", func(time.Duration) { thread.Park() }, thread.Waiting},
	{"parkNanos", thread.ParkNanos, thread.TimedWaiting},
	{"parkUntil", func(d time.Duration) {
		if d == math.MinInt64 {
			thread.ParkUntil(time.Unix(0, math.MinInt64)) // Long.MIN_VALUE millis: long past
			return
		}
		thread.ParkUntil(time.Now().Add(d))
	}, thread.TimedWaiting},
}

const longDelay = time.Minute // LONG_DELAY_MS: never reached when the test passes

// forEachParkMethod runs body for every park method on a virtual and a platform thread.
func forEachParkMethod(t *testing.T, timedOnly bool, body func(t *testing.T, m parkMethod, start func(func()) *thread.Thread)) {
	for _, m := range parkMethods {
		if timedOnly && m.state != thread.TimedWaiting {
			continue
		}
		for _, virtual := range []bool{true, false} {
			start := thread.OfPlatform().Start
			if virtual {
				start = thread.OfVirtual().Start
			}
			t.Run(fmt.Sprintf("%s/virtual=%v", m.name, virtual), func(t *testing.T) { body(t, m, start) })
		}
	}
}

// testParkBeforeUnpark: park is released by a subsequent unpark.
func TestLockSupportTest_testParkBeforeUnpark(t *testing.T) {
	forEachParkMethod(t, false, func(t *testing.T, m parkMethod, start func(func()) *thread.Thread) {
		th := start(func() { m.park(longDelay) })
		waitState(t, th, m.state)
		thread.Unpark(th)
		join(t, th)
	})
}

// testParkAfterUnpark: park is released by a preceding unpark.
func TestLockSupportTest_testParkAfterUnpark(t *testing.T) {
	forEachParkMethod(t, false, func(t *testing.T, m parkMethod, start func(func()) *thread.Thread) {
		var pleasePark atomic.Bool
		unparked := make(chan struct{})
		th := start(func() {
			<-unparked
			for !pleasePark.Load() {
				thread.Yield()
			}
			m.park(longDelay)
		})
		thread.Unpark(th)
		close(unparked)
		pleasePark.Store(true)
		join(t, th)
	})
}

// testParkBeforeInterrupt: park is released by a subsequent interrupt, which it leaves set.
func TestLockSupportTest_testParkBeforeInterrupt(t *testing.T) {
	forEachParkMethod(t, false, func(t *testing.T, m parkMethod, start func(func()) *thread.Thread) {
		th := start(func() {
			for range 20 { // MAX_SPURIOUS_WAKEUPS
				m.park(longDelay)
				if thread.Interrupted() {
					return
				}
			}
			t.Error("too many consecutive spurious wakeups")
		})
		waitState(t, th, m.state)
		th.Interrupt()
		join(t, th)
	})
}

// testParkAfterInterrupt: park returns at once for a thread already interrupted.
func TestLockSupportTest_testParkAfterInterrupt(t *testing.T) {
	forEachParkMethod(t, false, func(t *testing.T, m parkMethod, start func(func()) *thread.Thread) {
		th := start(func() {
			for !thread.Current().IsInterrupted() {
				thread.Yield()
			}
			m.park(longDelay)
			if !thread.Interrupted() {
				t.Error("park cleared the interrupt status")
			}
		})
		th.Interrupt()
		join(t, th)
	})
}

// testParkTimesOut: a timed park returns once its time has elapsed.
func TestLockSupportTest_testParkTimesOut(t *testing.T) {
	forEachParkMethod(t, true, func(t *testing.T, m parkMethod, start func(func()) *thread.Thread) {
		const timeout = 12 * time.Millisecond // timeoutMillis()
		th := start(func() {
			for range 20 {
				begin := time.Now()
				m.park(timeout)
				if time.Since(begin) >= timeout {
					return
				}
			}
			t.Error("too many consecutive spurious wakeups")
		})
		join(t, th)
	})
}

// testPark0 and testParkNeg: a timed park of 0 or Long.MIN_VALUE returns at once.
func TestLockSupportTest_testPark0AndParkNeg(t *testing.T) {
	forEachParkMethod(t, true, func(t *testing.T, m parkMethod, start func(func()) *thread.Thread) {
		for _, d := range []time.Duration{0, math.MinInt64} {
			join(t, start(func() { m.park(d) }))
		}
	})
}

// Issue 15, defect 15: LockSupport.parkNanos(0) (and any d <= 0) returns at once and leaves the
// permit, so the next park returns; parkUntil with a deadline already past consumes it. (JDK 25,
// virtual and platform threads alike.)
func TestParkNanosNonPositiveLeavesThePermit(t *testing.T) {
	for _, virtual := range []bool{true, false} {
		start := thread.OfPlatform().Start
		if virtual {
			start = thread.OfVirtual().Start
		}
		th := start(func() {
			me := thread.Current()
			const wait = 5 * time.Second
			for _, d := range []time.Duration{0, -5, math.MinInt64} {
				thread.Unpark(me)
				thread.ParkNanos(d)
				begin := time.Now()
				thread.ParkNanos(wait) // the permit is still there: returns at once
				if el := time.Since(begin); el > wait/2 {
					t.Errorf("virtual=%v: ParkNanos(%d) consumed the permit (the next park waited %v)", virtual, d, el)
				}
			}
			thread.Unpark(me)
			thread.ParkUntil(time.Now().Add(-time.Second))
			begin := time.Now()
			thread.ParkNanos(30 * time.Millisecond)
			if el := time.Since(begin); el < 25*time.Millisecond {
				t.Errorf("virtual=%v: ParkUntil(past) left the permit (the next park took %v)", virtual, el)
			}
		})
		join(t, th)
	}
}

// ParkLoops (jtreg, JDK-8074773): parkers park until an unparker takes them out of a shared
// table and unparks them; a lost unpark leaves a parker parked for good. Parkers are virtual
// (on one and on two carriers) or platform threads; unparkers are platform threads, as in the
// JDK's cached pool.
func TestParkLoops(t *testing.T) {
	const threads = 4
	iters := 5000
	if raceEnabled || testing.Short() {
		iters = 500
	}
	for _, kind := range []string{"virtual/1", "virtual/2", "platform"} {
		t.Run(kind, func(t *testing.T) {
			var s *thread.Scheduler
			start := thread.OfPlatform().Start
			switch kind {
			case "virtual/1", "virtual/2":
				s = thread.NewScheduler(thread.SchedulerOptions{Parallelism: int(kind[len(kind)-1] - '0')})
				defer s.Close()
				start = thread.OfVirtual().Scheduler(s).Start
			}
			var table [threads]atomic.Pointer[thread.Thread]
			var parkersLeft atomic.Int32
			parkersLeft.Store(threads)
			var all []*thread.Thread
			for i := range threads {
				r := rand.New(rand.NewPCG(uint64(i), 1))
				all = append(all, start(func() {
					me := thread.Current()
					for range iters {
						var j int
						for {
							j = r.IntN(threads)
							if table[j].CompareAndSwap(nil, me) {
								break
							}
						}
						for table[j].Load() == me { // spurious wake-ups
							thread.Park()
						}
					}
					parkersLeft.Add(-1)
				}))
				r2 := rand.New(rand.NewPCG(uint64(i), 2))
				all = append(all, thread.OfPlatform().Start(func() {
					for n := 0; parkersLeft.Load() > 0; n++ {
						j := r2.IntN(threads)
						if p := table[j].Load(); p != nil && table[j].CompareAndSwap(p, nil) {
							thread.Unpark(p)
						}
						if n%64 == 0 {
							thread.Yield() // a shared 2-core machine: let the parkers run
						}
					}
				}))
			}
			join(t, all...)
		})
	}
}
