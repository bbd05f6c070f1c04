package locks_test

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/loomgo/loom/internal/testutil"
	"github.com/loomgo/loom/locks"
	"github.com/loomgo/loom/thread"
)

// Ports of Loom jtreg stress tests (test/jdk/java/lang/Thread/virtual/stress) that exercise the
// park and monitor-state code changed for issue 15.

// NotifiedThenTimedOutWait: two consecutive timed waits where only the first is notified. race1
// meets at a barrier inside the synchronized block, race2 before it. A hang, a wait that returns
// without the monitor, or a notified state left over for the second wait fails.
func TestNotifiedThenTimedOutWait(t *testing.T) {
	runs := 10
	if raceEnabled || testing.Short() {
		runs = 3
	}
	const iterations = 100
	const timeout = time.Millisecond
	for _, race := range []int{1, 2} {
		for run := range runs {
			notifierStart := thread.OfPlatform().Start
			if rand.IntN(2) == 0 {
				notifierStart = thread.OfVirtual().Start
			}
			t.Run(fmt.Sprintf("race%d/run%d", race, run), func(t *testing.T) {
				var m locks.Monitor
				start := locks.NewCyclicBarrier(2, nil)
				end := locks.NewCyclicBarrier(2, nil)
				wait := func() {
					if err := m.WaitTimeout(timeout); err != nil || !m.IsHeldByCurrentThread() {
						t.Errorf("WaitTimeout = %v, held %v", err, m.IsHeldByCurrentThread())
					}
					if st := thread.Current().State(); st != thread.Runnable {
						t.Errorf("back from a wait: %v", st)
					}
				}
				vthread := thread.StartVirtualThread(func() {
					for range iterations {
						if race == 2 {
							start.Await()
						}
						m.Synchronized(func() {
							if race == 1 {
								start.Await()
							}
							wait()
							wait()
						})
						if race == 1 {
							end.Await()
						}
					}
				})
				notifier := notifierStart(func() {
					for range iterations {
						start.Await()
						m.Synchronized(m.Notify)
						if race == 1 {
							end.Await()
						}
					}
				})
				testutil.Join(t, vthread, notifier)
			})
		}
	}
}

// ParkAfterTimedPark: a timed park that an unpark races with its timeout, then an untimed wait
// (pinned or not) on a latch; the latch's count-down must wake it, whichever won the race.
func TestParkAfterTimedPark(t *testing.T) {
	iterations := 10
	if raceEnabled || testing.Short() {
		iterations = 3
	}
	for _, pinned := range []bool{false, true} {
		t.Run(fmt.Sprint("pinned=", pinned), func(t *testing.T) {
			for range iterations {
				for millis := 1; millis <= 10; millis++ {
					d := time.Duration(millis) * time.Millisecond
					finish := locks.NewCountDownLatch(1)
					t1 := thread.StartVirtualThread(func() {
						thread.ParkNanos(d)
						await := func() { finish.Await() }
						for finish.Count() > 0 {
							if pinned {
								thread.Native(await)
							} else {
								await()
							}
						}
					})
					t2 := thread.StartVirtualThread(func() {
						thread.Sleep(d - time.Duration(rand.IntN(millis))*time.Millisecond)
						thread.Unpark(t1)
					})
					testutil.WaitState(t, t1, thread.Waiting)
					finish.CountDown()
					testutil.Join(t, t1, t2)
				}
			}
		})
	}
}
