package locks_test

import (
	"fmt"
	"math"
	"sync/atomic"
	"testing"
	"time"

	"github.com/loomgo/loom/internal/testutil"
	"github.com/loomgo/loom/locks"
	"github.com/loomgo/loom/thread"
)

// Ports of the Thread::getState tests of the Loom jtreg test
// test/jdk/java/lang/Thread/virtual/ThreadAPI.java that involve a monitor (the others are in
// package thread). "pinned" runs the body inside thread.Native, as the JDK test does with
// VThreadPinner.runPinned; each runs under both pinning modes.

func forPinnedAndModes(t *testing.T, body func(t *testing.T, start func(func()) *thread.Thread, pin func(func()))) {
	for _, mode := range []thread.PinningMode{thread.PinNone, thread.PinSynchronized} {
		for _, pinned := range []bool{false, true} {
			t.Run(fmt.Sprintf("%v/pinned=%v", mode, pinned), func(t *testing.T) {
				s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 2, Pinning: mode})
				defer s.Close()
				pin := func(f func()) { f() }
				if pinned {
					pin = thread.Native
				}
				body(t, thread.OfVirtual().Scheduler(s).Start, pin)
			})
		}
	}
}

// testGetState5: a thread blocked entering a monitor is BLOCKED.
func TestThreadAPI_testGetState5(t *testing.T) {
	forPinnedAndModes(t, func(t *testing.T, start func(func()) *thread.Thread, pin func(func())) {
		var m locks.Monitor
		var ready atomic.Bool
		m.Enter()
		th := start(func() { pin(func() { ready.Store(true); m.Synchronized(func() {}) }) })
		eventually(t, "ready", ready.Load)
		testutil.WaitState(t, th, thread.Blocked)
		m.Exit()
		testutil.Join(t, th)
	})
}

// testGetState6 and testGetState7 (issue 15, defect 16): a thread in Object.wait() or
// wait(Long.MAX_VALUE) is WAITING or TIMED_WAITING; once notified, while the notifier still
// holds the monitor, it is BLOCKED.
func TestThreadAPI_testGetState6And7(t *testing.T) {
	for _, c := range []struct {
		name    string
		timeout time.Duration
		state   thread.State
	}{{"testGetState6", 0, thread.Waiting}, {"testGetState7", math.MaxInt64, thread.TimedWaiting}} {
		t.Run(c.name, func(t *testing.T) {
			forPinnedAndModes(t, func(t *testing.T, start func(func()) *thread.Thread, pin func(func())) {
				var m locks.Monitor
				var ready atomic.Bool
				th := start(func() {
					m.Synchronized(func() {
						pin(func() { ready.Store(true); m.WaitTimeout(c.timeout) })
					})
				})
				eventually(t, "ready", ready.Load)
				testutil.WaitState(t, th, c.state)
				m.Synchronized(func() {
					m.NotifyAll()
					testutil.WaitState(t, th, thread.Blocked)
				})
				th.Interrupt()
				testutil.Join(t, th)
			})
		})
	}
}

// testGetState10 and testGetState11: a thread that parks, or parks with a timeout of
// Long.MAX_VALUE, while holding a monitor is WAITING or TIMED_WAITING.
func TestThreadAPI_testGetState10And11(t *testing.T) {
	for _, c := range []struct {
		name  string
		park  func()
		state thread.State
	}{
		{"testGetState10", thread.Park, thread.Waiting},
		{"testGetState11", func() { thread.ParkNanos(math.MaxInt64) }, thread.TimedWaiting},
	} {
		t.Run(c.name, func(t *testing.T) {
			forPinnedAndModes(t, func(t *testing.T, start func(func()) *thread.Thread, pin func(func())) {
				var m locks.Monitor
				var done atomic.Bool
				th := start(func() {
					pin(func() {
						m.Synchronized(func() {
							for !done.Load() {
								c.park()
							}
						})
					})
				})
				testutil.WaitState(t, th, c.state)
				done.Store(true)
				thread.Unpark(th)
				testutil.Join(t, th)
			})
		})
	}
}

// Issue 15, defect 16: a thread notified while the notifier still holds the monitor is BLOCKED
// at once (JDK 25: BLOCKED right after notify, virtual and platform), not WAITING until it gets
// to run. The notifier here is a virtual thread that keeps the waiter's only carrier busy while
// it holds the monitor, so a waiter that had to run to change its state could not.
func TestMonitorNotifiedWaiterIsBlockedAtOnce(t *testing.T) {
	for _, notifyAll := range []bool{false, true} {
		for _, waiterKind := range []string{"virtual", "platform"} {
			for _, timeout := range []time.Duration{0, time.Hour} {
				name := fmt.Sprintf("notifyAll=%v/%s/timeout=%v", notifyAll, waiterKind, timeout)
				t.Run(name, func(t *testing.T) {
					s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 1})
					defer s.Close()
					var m locks.Monitor
					body := func() { m.Synchronized(func() { m.WaitTimeout(timeout) }) }
					var waiter *thread.Thread
					if waiterKind == "virtual" {
						waiter = thread.OfVirtual().Scheduler(s).Start(body)
					} else {
						waiter = thread.OfPlatform().Start(body)
					}
					want := thread.Waiting
					if timeout > 0 {
						want = thread.TimedWaiting
					}
					testutil.WaitState(t, waiter, want)
					var got [2]thread.State
					var blocker any
					notifier := thread.OfVirtual().Scheduler(s).Start(func() {
						m.Synchronized(func() {
							if notifyAll {
								m.NotifyAll()
							} else {
								m.Notify()
							}
							got[0] = waiter.State()
							for start := time.Now(); time.Since(start) < 20*time.Millisecond; {
								// hold the carrier and the monitor
							}
							got[1] = waiter.State()
							blocker = waiter.Blocker()
						})
					})
					testutil.Join(t, notifier, waiter)
					if got != [2]thread.State{thread.Blocked, thread.Blocked} {
						t.Errorf("notified waiter while the notifier holds the monitor: %v, want [BLOCKED BLOCKED]", got)
					}
					if blocker != &m {
						t.Errorf("notified waiter's Blocker = %v, want the monitor", blocker)
					}
				})
			}
		}
	}
}

// A notified waiter stays BLOCKED until it has re-entered, even if its timeout elapses or it is
// interrupted while the notifier still holds the monitor (it still has to re-enter); the wait
// then returns normally, and an interrupt that came after the notification stays set.
func TestMonitorNotifiedWaiterStaysBlockedThroughTimeoutAndInterrupt(t *testing.T) {
	for _, k := range kinds {
		for _, what := range []string{"timeout", "interrupt"} {
			t.Run(k.name+"/"+what, func(t *testing.T) {
				var m locks.Monitor
				var waitErr error
				var interruptedAfter bool
				notified := false // guarded by m
				th := k.start(func() {
					m.Synchronized(func() {
						// on a loaded machine the timeout may pass before the Notify: wait again
						for !notified && waitErr == nil {
							waitErr = m.WaitTimeout(30 * time.Millisecond)
						}
						interruptedAfter = thread.Interrupted()
					})
				})
				testutil.WaitState(t, th, thread.TimedWaiting)
				m.Synchronized(func() {
					m.Notify()
					notified = true
					if what == "interrupt" {
						th.Interrupt()
					}
					time.Sleep(60 * time.Millisecond) // past the waiter's timeout
					if st := th.State(); st != thread.Blocked {
						t.Errorf("notified waiter after its %s: %v, want BLOCKED", what, st)
					}
					if th.Blocker() != &m {
						t.Errorf("Blocker %v, want the monitor", th.Blocker())
					}
				})
				testutil.Join(t, th)
				if waitErr != nil || interruptedAfter != (what == "interrupt") {
					t.Errorf("Wait = %v, interrupted after: %v", waitErr, interruptedAfter)
				}
			})
		}
	}
}
