package thread_test

import (
	"errors"
	"fmt"
	"math"
	"sync/atomic"
	"testing"
	"time"

	"github.com/loomgo/loom/thread"
)

// Issue 15, defect 1: math.MaxInt64 is Java's "forever" (Long.MAX_VALUE nanoseconds). A deadline
// computed as now+timeout overflowed into the past, so ParkNanos(math.MaxInt64) returned at once
// and Sleep and JoinTimeout re-parked in a loop (a spin that showed TIMED_WAITING). Each timed
// wait here must stay parked, without being resumed, until it is woken.
func TestMaxInt64TimeoutsWaitWithoutSpinning(t *testing.T) {
	forever := time.Duration(math.MaxInt64)
	target := thread.StartVirtualThread(thread.Park)
	defer func() { thread.Unpark(target); join(t, target) }()
	waitState(t, target, thread.Waiting)

	for _, c := range []struct {
		name string
		wait func() // returns once woken by Unpark or Interrupt
	}{
		{"ParkNanos", func() { thread.ParkNanos(forever) }},
		{"ParkUntil", func() { thread.ParkUntil(time.Now().Add(forever)) }},
		{"Sleep", func() {
			if err := thread.Sleep(forever); !errors.Is(err, thread.ErrInterrupted) {
				t.Errorf("Sleep(MaxInt64) = %v, want ErrInterrupted", err)
			}
		}},
		{"JoinTimeout", func() {
			if ok, err := target.JoinTimeout(forever); ok || !errors.Is(err, thread.ErrInterrupted) {
				t.Errorf("JoinTimeout(MaxInt64) = %v, %v, want false, ErrInterrupted", ok, err)
			}
		}},
	} {
		for _, virtual := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s/virtual=%v", c.name, virtual), func(t *testing.T) {
				s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 1})
				var returned atomic.Bool
				body := func() { c.wait(); returned.Store(true) }
				var th *thread.Thread
				if virtual {
					th = thread.OfVirtual().Scheduler(s).Start(body)
				} else {
					th = thread.OfPlatform().Start(body)
				}
				waitState(t, th, thread.TimedWaiting)
				before := s.Stats().Submitted
				time.Sleep(100 * time.Millisecond)
				// A spinning virtual thread is resumed through its carriers about 10^5 times in
				// 100 ms; one that waits is resumed never.
				if n := s.Stats().Submitted - before; n != 0 {
					t.Errorf("%s(MaxInt64), virtual=%v: resumed %d times in 100ms while it should wait", c.name, virtual, n)
				}
				if returned.Load() || th.State() != thread.TimedWaiting {
					t.Errorf("%s(MaxInt64), virtual=%v: returned=%v state %v, want still TIMED_WAITING", c.name, virtual, returned.Load(), th.State())
				}
				th.Interrupt() // wakes every one of them (Park returns, the others report it)
				join(t, th)
				if !returned.Load() {
					t.Errorf("%s(MaxInt64), virtual=%v: did not return after the interrupt", c.name, virtual)
				}
				s.Close()
			})
		}
	}
}

// ThreadAPI.testGetState9 (Loom jtreg): a virtual thread in parkNanos(Long.MAX_VALUE) is
// TIMED_WAITING until unparked.
func TestThreadAPI_testGetState9(t *testing.T) {
	th := thread.StartVirtualThread(func() { thread.ParkNanos(math.MaxInt64) })
	waitState(t, th, thread.TimedWaiting)
	time.Sleep(20 * time.Millisecond)
	if st := th.State(); st != thread.TimedWaiting {
		t.Fatalf("parkNanos(MaxInt64): state %v after 20ms, want TIMED_WAITING", st)
	}
	thread.Unpark(th)
	join(t, th)
}

// The class of defect 1 in the scheduler's own durations: a watchdog threshold of 1ns used to
// make a ticker of 0 (a panic on the watchdog goroutine, which kills the process), and the
// largest thresholds must not overflow either.
func TestSchedulerDurationsAtTheExtremes(t *testing.T) {
	for _, d := range []time.Duration{1, math.MaxInt64} {
		s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 1, WatchdogThreshold: d, PinnedThreshold: d})
		th := thread.OfVirtual().Scheduler(s).Start(func() {
			thread.Native(func() { thread.Sleep(2 * time.Millisecond) })
		})
		join(t, th)
		s.Close()
	}
}
