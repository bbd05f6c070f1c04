package thread_test

import (
	"bytes"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/loomgo/loom/locks"
	"github.com/loomgo/loom/thread"
)

// syncBuffer is a bytes.Buffer safe for concurrent writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// misbehave returns a callback body that panics or calls runtime.Goexit.
func misbehave(how string) func() {
	return func() {
		if how == "panic" {
			panic("boom from a callback")
		}
		runtime.Goexit()
	}
}

// Issue 15, defect 7: under PinSynchronized a virtual thread that waits for a fair
// ReentrantLock inside a monitor is pinned; when it unparks, OnPinned runs. A panic there used to
// escape from inside Lock's wait loop and leave the thread's node queued (queue length 1 with
// the lock free), so the next fair Lock hung. The callback may neither panic nor Goexit its way
// into loom: the thread takes the lock and goes on, and the lock stays usable.
func TestOnPinnedPanicOrGoexitUnderPinSynchronizedLeavesTheLockUsable(t *testing.T) {
	for _, how := range []string{"panic", "Goexit"} {
		t.Run(how, func(t *testing.T) {
			out := &syncBuffer{}
			defer thread.SetUserPanicOutput(out)()
			var events atomic.Int32
			trace := &syncBuffer{}
			s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 2, Pinning: thread.PinSynchronized,
				PinnedThreshold: time.Millisecond, TracePinned: "short",
				TraceOutput: writerFunc(func(p []byte) (int, error) { trace.Write(p); misbehave(how)(); return len(p), nil }),
				OnPinned:    func(thread.PinnedEvent) { events.Add(1); misbehave(how)() }})
			defer s.Close()
			l := locks.NewReentrantLock(true)
			var m locks.Monitor
			l.Lock()
			var gotLock atomic.Bool
			v := thread.OfVirtual().Scheduler(s).Start(func() {
				m.Synchronized(func() {
					l.Lock() // waits pinned: the monitor is held
					gotLock.Store(true)
					l.Unlock()
				})
			})
			waitState(t, v, thread.Waiting)
			time.Sleep(5 * time.Millisecond) // past the threshold
			l.Unlock()
			join(t, v)
			if !gotLock.Load() || events.Load() == 0 {
				t.Fatalf("the pinned thread got the lock: %v, events %d", gotLock.Load(), events.Load())
			}
			if n := l.QueueLength(); n != 0 {
				t.Fatalf("queue length %d with the lock free", n)
			}
			done := make(chan struct{})
			go func() { l.Lock(); close(done); l.Unlock() }()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("the next fair Lock hangs")
			}
			if how == "panic" && !strings.Contains(out.String(), "loom: SchedulerOptions.OnPinned panicked (ignored): boom from a callback") {
				t.Errorf("the callback's panic was not reported: %q", out.String())
			}
			if !strings.Contains(trace.String(), "reason:MONITOR") {
				t.Errorf("trace output %q", trace.String())
			}
		})
	}
}

// The watchdog calls OnPinned from its own goroutine: a panic there used to kill the process,
// and a Goexit would end the watchdog for good. Both must leave it reporting.
func TestWatchdogSurvivesAPanickingOrGoexitingOnPinned(t *testing.T) {
	for _, how := range []string{"panic", "Goexit"} {
		t.Run(how, func(t *testing.T) {
			defer thread.SetUserPanicOutput(&syncBuffer{})()
			events := make(chan thread.PinnedEvent, 8)
			s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 1, WatchdogThreshold: 20 * time.Millisecond,
				OnPinned: func(e thread.PinnedEvent) { events <- e; misbehave(how)() }})
			defer s.Close()
			for i := range 2 { // the second report proves the watchdog outlived the first
				release := make(chan struct{})
				stuck := thread.OfVirtual().Scheduler(s).Start(func() { <-release })
				select {
				case e := <-events:
					if e.Thread != stuck || e.Reason != "NATIVE_BLOCKING" {
						t.Errorf("report %d: %+v", i, e)
					}
				case <-time.After(10 * time.Second):
					t.Fatalf("report %d: none", i)
				}
				close(release)
				join(t, stuck)
			}
		})
	}
}

// An uncaught-exception handler that panics is ignored, as the JVM ignores exceptions thrown by
// the handler; one that calls runtime.Goexit ends only the thread it handles. Either way the
// thread terminates, its joiners return and its scheduler can close: for a virtual thread that
// ran inline on a carrier, one that had parked first, and a platform thread.
func TestUncaughtExceptionHandlerThatPanicsOrGoexits(t *testing.T) {
	for _, how := range []string{"panic", "Goexit"} {
		for _, kind := range []string{"virtual-inline", "virtual-parked", "platform"} {
			t.Run(how+"/"+kind, func(t *testing.T) {
				s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 1})
				var handled atomic.Int32
				handler := func(*thread.Thread, any) { handled.Add(1); misbehave(how)() }
				task := func() {
					if kind == "virtual-parked" {
						thread.Sleep(time.Millisecond)
					}
					panic(errors.New("uncaught"))
				}
				var th *thread.Thread
				if kind == "platform" {
					th = thread.OfPlatform().UncaughtExceptionHandler(handler).Start(task)
				} else {
					th = thread.OfVirtual().Scheduler(s).UncaughtExceptionHandler(handler).Start(task)
				}
				join(t, th)
				if th.State() != thread.Terminated || handled.Load() != 1 {
					t.Errorf("state %v, handled %d", th.State(), handled.Load())
				}
				// the carrier was passed on: the scheduler still runs threads, and closes
				after := thread.OfVirtual().Scheduler(s).Start(func() {})
				join(t, after)
				s.Close()
				if live := s.Stats().Live; live != 0 {
					t.Errorf("Live = %d after Close", live)
				}
			})
		}
	}
}

// Goexit in CyclicBarrier's action: Java's barrier action that throws breaks the barrier and its
// exception goes to the thread that ran it; runtime.Goexit is treated the same way (the barrier
// is broken, the lock released, the waiting parties get ErrBrokenBarrier).
func TestCyclicBarrierActionThatPanicsOrGoexits(t *testing.T) {
	for _, how := range []string{"panic", "Goexit"} {
		t.Run(how, func(t *testing.T) {
			b := locks.NewCyclicBarrier(2, misbehave(how))
			var waiterErr error
			waiter := thread.StartVirtualThread(func() { _, waiterErr = b.Await() })
			for b.NumberWaiting() != 1 {
				thread.Yield()
			}
			var recovered any
			var returned bool
			last := thread.StartVirtualThread(func() {
				defer func() { recovered = recover() }()
				b.Await() // runs the action
				returned = true
			})
			join(t, waiter, last)
			if !errors.Is(waiterErr, locks.ErrBrokenBarrier) {
				t.Errorf("waiting party: %v, want ErrBrokenBarrier", waiterErr)
			}
			if returned || (how == "panic") != (fmt.Sprint(recovered) == "boom from a callback") {
				t.Errorf("the last party returned %v, recovered %v", returned, recovered)
			}
			if !b.IsBroken() {
				t.Error("barrier not broken")
			}
			b.Reset() // the lock was released: Reset and a new round work
			if b.IsBroken() {
				t.Error("barrier still broken after Reset")
			}
		})
	}
}
