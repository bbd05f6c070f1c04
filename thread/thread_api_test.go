package thread_test

import (
	"strings"
	"sync/atomic"
	"testing"

	"github.com/loomgo/loom/thread"
)

// Ports of the Thread::getState tests of the Loom jtreg test
// test/jdk/java/lang/Thread/virtual/ThreadAPI.java that need no monitor (the monitor ones,
// testGetState5-7, 10 and 11, are in package locks).

// testGetState1: a new, unstarted thread is NEW.
func TestThreadAPI_testGetState1(t *testing.T) {
	if st := thread.OfVirtual().Unstarted(func() {}).State(); st != thread.New {
		t.Fatalf("unstarted: %v, want NEW", st)
	}
}

// testGetState2: a thread that has ended is TERMINATED.
func TestThreadAPI_testGetState2(t *testing.T) {
	th := thread.StartVirtualThread(func() {})
	join(t, th)
	if st := th.State(); st != thread.Terminated {
		t.Fatalf("ended: %v, want TERMINATED", st)
	}
}

// testGetState3: a thread running on a carrier is RUNNABLE.
func TestThreadAPI_testGetState3(t *testing.T) {
	var started, done atomic.Bool
	th := thread.StartVirtualThread(func() {
		started.Store(true)
		for !done.Load() {
		}
	})
	defer func() { done.Store(true); join(t, th) }()
	for !started.Load() {
		thread.Yield()
	}
	if st := th.State(); st != thread.Runnable {
		t.Fatalf("running: %v, want RUNNABLE", st)
	}
}

// testGetState4 (issue 15, defect 2): a virtual thread that has been unparked but waits for a
// carrier is RUNNABLE (Java's UNPARKED state), not WAITING; its String says "/runnable" with no
// carrier.
func TestThreadAPI_testGetState4(t *testing.T) {
	s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 1})
	defer s.Close()
	var completed atomic.Bool
	th1 := thread.OfVirtual().Scheduler(s).Start(func() {
		th2 := thread.OfVirtual().Unstarted(thread.Park) // the parent's scheduler
		if st := th2.State(); st != thread.New {
			t.Errorf("unstarted: %v, want NEW", st)
		}
		th2.Start() // queued behind th1, which holds the only carrier
		if st := th2.State(); st != thread.Runnable {
			t.Errorf("started, not yet run: %v, want RUNNABLE", st)
		}
		thread.Yield() // th2 runs and parks
		if st := th2.State(); st != thread.Waiting {
			t.Errorf("parked: %v, want WAITING", st)
		}
		thread.Unpark(th2) // queued again: the only carrier is th1's
		if st := th2.State(); st != thread.Runnable {
			t.Errorf("unparked, waiting for the carrier: %v, want RUNNABLE", st)
		}
		if got := th2.String(); !strings.HasSuffix(got, "]/runnable") {
			t.Errorf("unparked, waiting for the carrier: String() = %q, want .../runnable", got)
		}
		completed.Store(true)
	})
	join(t, th1)
	if !completed.Load() {
		t.Fatal("thread 1 did not complete")
	}
}

// testGetState8: a parked virtual thread is WAITING. (testGetState9, parkNanos(Long.MAX_VALUE),
// is in timeout_saturation_test.go.)
func TestThreadAPI_testGetState8(t *testing.T) {
	th := thread.StartVirtualThread(thread.Park)
	waitState(t, th, thread.Waiting)
	thread.Unpark(th)
	join(t, th)
}
