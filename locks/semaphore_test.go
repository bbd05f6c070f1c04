package locks_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/loomgo/loom/internal/testutil"
	"github.com/loomgo/loom/locks"
	"github.com/loomgo/loom/thread"
)

func TestSemaphoreConstructorAcceptsZeroAndNegativePermits(t *testing.T) {
	for _, p := range []int{-5, 0, 7} {
		for _, fair := range []bool{false, true} {
			s := locks.NewSemaphore(p, fair)
			if s.AvailablePermits() != p || s.IsFair() != fair {
				t.Errorf("NewSemaphore(%d, %v): permits %d fair %v", p, fair, s.AvailablePermits(), s.IsFair())
			}
		}
	}
	var zero locks.Semaphore
	if zero.AvailablePermits() != 0 || zero.IsFair() {
		t.Error("zero Semaphore is not a non-fair semaphore with 0 permits")
	}
}

func TestSemaphoreNegativeArgumentsPanicIAE(t *testing.T) {
	s := locks.NewSemaphore(3, false)
	for name, f := range map[string]func(){
		"AcquireN":                func() { s.AcquireN(-1) },
		"AcquireUninterruptiblyN": func() { s.AcquireUninterruptiblyN(-1) },
		"TryAcquireN":             func() { s.TryAcquireN(-1) },
		"TryAcquireNTimeout":      func() { s.TryAcquireNTimeout(-1, time.Second) },
		"ReleaseN":                func() { s.ReleaseN(-1) },
		"ReducePermits":           func() { s.ReducePermits(-1) },
	} {
		t.Run(name, func(t *testing.T) { testutil.MustPanic(t, thread.ErrIllegalArgument, f) })
	}
	if s.AvailablePermits() != 3 {
		t.Errorf("permits %d after bad calls, want 3", s.AvailablePermits())
	}
}

func TestSemaphoreTryAcquireInSameThread(t *testing.T) {
	s := locks.NewSemaphore(2, false)
	if got := []bool{s.TryAcquire(), s.TryAcquire(), s.TryAcquire()}; !cmp.Equal(got, []bool{true, true, false}) {
		t.Fatalf("three TryAcquire on two permits = %v, want [true true false]", got)
	}
	s.ReleaseN(2)
	if s.TryAcquireN(3) || !s.TryAcquireN(2) || s.AvailablePermits() != 0 {
		t.Fatal("TryAcquireN wrong")
	}
	if ok, err := s.TryAcquireTimeout(0); ok || err != nil {
		t.Errorf("TryAcquireTimeout(0) with no permits = %v, %v", ok, err)
	}
}

func TestSemaphoreReleaseAcquireDifferentThreads(t *testing.T) {
	for _, k := range kinds {
		t.Run(k.name, func(t *testing.T) {
			for _, fair := range []bool{false, true} {
				s := locks.NewSemaphore(0, fair)
				th := k.start(func() {
					if err := s.AcquireN(3); err != nil {
						t.Error(err)
					}
					if err := s.Acquire(); err != nil {
						t.Error(err)
					}
				})
				eventually(t, "queued", func() bool { return s.HasQueuedThreads() })
				s.Release()
				s.Release()
				time.Sleep(5 * time.Millisecond)
				if !th.IsAlive() {
					t.Fatal("AcquireN(3) returned with 2 permits")
				}
				s.ReleaseN(2)
				testutil.Join(t, th)
				if s.AvailablePermits() != 0 {
					t.Errorf("permits %d, want 0", s.AvailablePermits())
				}
			}
		})
	}
}

func TestSemaphoreTryAcquireTimeoutTimesOut(t *testing.T) {
	s := locks.NewSemaphore(1, true)
	th := startVirtual(func() {
		start := time.Now()
		if ok, err := s.TryAcquireNTimeout(2, 40*time.Millisecond); ok || err != nil {
			t.Errorf("TryAcquireNTimeout = %v, %v", ok, err)
		}
		if time.Since(start) < 40*time.Millisecond {
			t.Error("gave up early")
		}
	})
	testutil.Join(t, th)
	if s.AvailablePermits() != 1 || s.HasQueuedThreads() {
		t.Error("timed-out acquire changed the semaphore")
	}
}

func TestSemaphoreAcquireInterruptible(t *testing.T) {
	s := locks.NewSemaphore(0, false)
	th := startVirtual(func() {
		if err := s.Acquire(); !errors.Is(err, thread.ErrInterrupted) {
			t.Errorf("Acquire = %v, want ErrInterrupted", err)
		}
		if ok, err := s.TryAcquireTimeout(longWait); ok || !errors.Is(err, thread.ErrInterrupted) {
			t.Errorf("TryAcquireTimeout = %v, %v, want ErrInterrupted", ok, err)
		}
		if thread.Current().IsInterrupted() {
			t.Error("status not cleared")
		}
	})
	testutil.WaitState(t, th, thread.Waiting)
	th.Interrupt()
	testutil.WaitState(t, th, thread.TimedWaiting)
	th.Interrupt()
	testutil.Join(t, th)
	// interrupt checked on entry even when permits are available
	s.Release()
	th = startVirtual(func() {
		thread.Current().Interrupt()
		if err := s.Acquire(); !errors.Is(err, thread.ErrInterrupted) {
			t.Errorf("Acquire with status set = %v", err)
		}
	})
	testutil.Join(t, th)
	if s.AvailablePermits() != 1 {
		t.Error("interrupted acquire took a permit")
	}
}

func TestSemaphoreAcquireUninterruptiblyIgnoresInterrupt(t *testing.T) {
	s := locks.NewSemaphore(0, false)
	th := startVirtual(func() {
		s.AcquireUninterruptiblyN(2)
		if !thread.Current().IsInterrupted() {
			t.Error("status not set")
		}
	})
	testutil.WaitState(t, th, thread.Waiting)
	th.Interrupt()
	time.Sleep(10 * time.Millisecond)
	if !th.IsAlive() {
		t.Fatal("AcquireUninterruptibly returned on interrupt")
	}
	s.ReleaseN(2)
	testutil.Join(t, th)
}

func TestSemaphoreQueueInspection(t *testing.T) {
	s := locks.NewSemaphore(0, true)
	var ths []*thread.Thread
	for i := range 3 {
		th := startVirtual(func() { s.AcquireUninterruptibly() })
		eventually(t, "queued", func() bool { return s.QueueLength() == i+1 })
		ths = append(ths, th)
	}
	if diff := cmp.Diff(ids(ths), ids(s.QueuedThreads())); diff != "" {
		t.Errorf("QueuedThreads (-want +got):\n%s", diff)
	}
	s.ReleaseN(3)
	for _, th := range ths {
		testutil.Join(t, th)
	}
	if s.HasQueuedThreads() || s.QueueLength() != 0 {
		t.Error("queue not empty")
	}
}

// A waiter for 3 at the head holds up a later request for 1, on fair and non-fair semaphores.
func TestSemaphoreFairLocksFifo(t *testing.T) {
	for _, fair := range []bool{true, false} {
		s := locks.NewSemaphore(0, fair)
		big := startVirtual(func() { s.AcquireUninterruptiblyN(3) })
		eventually(t, "big queued", func() bool { return s.QueueLength() == 1 })
		small := startVirtual(func() { s.AcquireUninterruptibly() })
		eventually(t, "small queued", func() bool { return s.QueueLength() == 2 })
		s.Release()
		time.Sleep(10 * time.Millisecond)
		if !small.IsAlive() || s.AvailablePermits() != 1 {
			t.Fatalf("fair=%v: the request for 1 overtook the head", fair)
		}
		if ok, _ := s.TryAcquireTimeout(0); ok != !fair {
			t.Errorf("fair=%v: TryAcquireTimeout(0) with a queued head = %v", fair, ok)
		}
		if !fair {
			s.Release()
		}
		if !s.TryAcquire() {
			t.Errorf("fair=%v: TryAcquire did not barge", fair)
		}
		s.ReleaseN(3)
		testutil.Join(t, big)
		s.Release()
		testutil.Join(t, small)
	}
}

func TestSemaphoreDrainAndReducePermits(t *testing.T) {
	s := locks.NewSemaphore(0, false)
	if got := s.DrainPermits(); got != 0 {
		t.Errorf("DrainPermits = %d", got)
	}
	s.ReleaseN(5)
	if got := s.DrainPermits(); got != 5 || s.AvailablePermits() != 0 {
		t.Errorf("DrainPermits = %d, left %d", got, s.AvailablePermits())
	}
	s.ReducePermits(3)
	if s.AvailablePermits() != -3 {
		t.Errorf("permits %d, want -3", s.AvailablePermits())
	}
	if got := s.DrainPermits(); got != -3 || s.AvailablePermits() != 0 {
		t.Errorf("DrainPermits of negative = %d, left %d", got, s.AvailablePermits())
	}
}

func TestSemaphoreToString(t *testing.T) {
	s := locks.NewSemaphore(-2, false)
	if !strings.HasSuffix(s.String(), "[Permits = -2]") {
		t.Errorf("String() = %q", s.String())
	}
}
