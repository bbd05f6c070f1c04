package thread_test

import (
	"bytes"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/loomgo/loom/thread"
)

// runSleepers starts n virtual threads on s that each run body, and returns how long they took.
func runSleepers(t *testing.T, s *thread.Scheduler, n int, body func()) time.Duration {
	t.Helper()
	start := time.Now()
	var ths []*thread.Thread
	for range n {
		ths = append(ths, thread.OfVirtual().Scheduler(s).Start(body))
	}
	join(t, ths...)
	return time.Since(start)
}

// Runs in a testing/synctest bubble, so the timing shape is exact however loaded the machine
// (real-time bounds of 400 ms for ~100 ms failed at load 10 on 2 cores).
func TestNativePinsSoSleepersOnOneCarrierRunInTurn(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var events atomic.Int32
		var reason atomic.Value
		s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 1, OnPinned: func(e thread.PinnedEvent) {
			events.Add(1)
			reason.Store(e.Reason + "/" + e.BlockingOperation)
		}})
		defer s.Close()
		// 5 sleepers: overlapped they take 100ms, in turn 500ms
		unpinned := runSleepers(t, s, 5, func() { thread.Sleep(100 * time.Millisecond) })
		pinned := runSleepers(t, s, 5, func() { thread.Native(func() { thread.Sleep(100 * time.Millisecond) }) })
		if unpinned != 100*time.Millisecond {
			t.Errorf("5 x 100ms unpinned on one carrier took %v, want 100ms", unpinned)
		}
		if pinned != 500*time.Millisecond {
			t.Errorf("5 x 100ms pinned on one carrier took %v, want 500ms", pinned)
		}
		if events.Load() != 5 || reason.Load() != "NATIVE/LockSupport.park" {
			t.Errorf("pinned events %d (%v), want 5 NATIVE/LockSupport.park", events.Load(), reason.Load())
		}
		if st := s.Stats(); st.PinnedEvents != 5 {
			t.Errorf("Stats.PinnedEvents = %d", st.PinnedEvents)
		}
	})
}

func TestPinnedParkShowsStateAndCarrier(t *testing.T) {
	s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 1})
	defer s.Close()
	th := thread.OfVirtual().Scheduler(s).Start(func() { thread.Native(thread.Park) })
	waitState(t, th, thread.Waiting)
	if got := th.String(); !strings.HasSuffix(got, "/waiting@"+th.Carrier()) || th.Carrier() == "" {
		t.Errorf("pinned parked thread prints %q", got)
	}
	if st := s.Stats(); st.PinnedParked != 1 || st.Mounted != 1 {
		t.Errorf("stats %+v", st)
	}
	thread.Unpark(th)
	join(t, th)
}

func TestYieldWhilePinnedIsANoOp(t *testing.T) {
	s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 1})
	defer s.Close()
	var order []string
	var mu sync.Mutex
	rec := func(x string) { mu.Lock(); order = append(order, x); mu.Unlock() }
	th := thread.OfVirtual().Scheduler(s).Start(func() {
		b := thread.StartVirtualThread(func() { rec("B") })
		thread.Native(func() { thread.Yield(); rec("A") })
		b.Join()
	})
	join(t, th)
	if strings.Join(order, "") != "AB" {
		t.Fatalf("order %v, want A before B", order)
	}
}

func TestBlockingRunsUnmounted(t *testing.T) {
	s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 1})
	defer s.Close()
	// five virtual threads block in Go-native time.Sleep: wrapped in Blocking they overlap on
	// one carrier; unwrapped they hold it in turn.
	wrapped := runSleepers(t, s, 5, func() { thread.Blocking(func() { time.Sleep(100 * time.Millisecond) }) })
	native := runSleepers(t, s, 5, func() { time.Sleep(100 * time.Millisecond) })
	if wrapped > 400*time.Millisecond {
		t.Errorf("Blocking sleepers took %v, want ~100ms", wrapped)
	}
	if native < 490*time.Millisecond {
		t.Errorf("native sleepers took %v, want ~500ms (they hold the carrier)", native)
	}
}

func TestTracePinnedShortPrintsThreadAndReasonOnce(t *testing.T) {
	var out bytes.Buffer
	var mu sync.Mutex
	s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 1, TracePinned: "short",
		TraceOutput: writerFunc(func(p []byte) (int, error) { mu.Lock(); defer mu.Unlock(); return out.Write(p) })})
	defer s.Close()
	runSleepers(t, s, 2, func() { thread.Native(func() { thread.Sleep(30 * time.Millisecond) }) })
	mu.Lock()
	got := out.String()
	mu.Unlock()
	if strings.Count(got, "reason:NATIVE") != 1 || !strings.Contains(got, "VirtualThread[#") {
		t.Fatalf("trace output:\n%s", got)
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

func TestSchedulerStatsWhileThreadsWaitForCarrier(t *testing.T) {
	s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 1, MaxPoolSize: 4})
	defer s.Close()
	release := make(chan struct{})
	busy := thread.OfVirtual().Scheduler(s).Start(func() { <-release }) // holds the only carrier
	var queued []*thread.Thread
	for range 3 {
		queued = append(queued, thread.OfVirtual().Scheduler(s).Start(func() {}))
	}
	deadline := time.Now().Add(5 * time.Second)
	for s.Stats().Mounted != 1 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	st := s.Stats()
	if st.Parallelism != 1 || st.Mounted != 1 || st.Queued != 3 || st.Live != 4 || st.PoolSize != 1 {
		t.Errorf("stats %+v", st)
	}
	for _, q := range queued {
		if q.State() != thread.Runnable || q.Carrier() != "" {
			t.Errorf("queued thread %v", q)
		}
	}
	close(release)
	join(t, append(queued, busy)...)
	waitQuiescent(t, s)
}

func TestOptionsFromEnvironment(t *testing.T) {
	o := thread.OptionsFromJavaProperties("-Djdk.virtualThreadScheduler.parallelism=3 -Djdk.virtualThreadScheduler.maxPoolSize=8 -Djdk.tracePinnedThreads=short -Dloom.pinning=synchronized -Dloom.pinnedThreshold=5ms")
	if o.Parallelism != 3 || o.MaxPoolSize != 8 || o.TracePinned != "short" || o.Pinning != thread.PinSynchronized || o.PinnedThreshold != 5*time.Millisecond {
		t.Fatalf("%+v", o)
	}
	s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 4, MaxPoolSize: 2})
	defer s.Close()
	if st := s.Stats(); st.Parallelism != 2 {
		t.Fatalf("parallelism %d, want lowered to maxPoolSize 2", st.Parallelism)
	}
}

func TestIdleSchedulerHoldsNoGoroutine(t *testing.T) {
	s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 2})
	runSleepers(t, s, 10, func() { thread.Sleep(time.Millisecond) })
	// goleak in TestMain checks the whole package; here check the pool goes idle (a joined
	// thread's carrier is given back just after the thread is seen terminated)
	waitQuiescent(t, s)
	s.Close()
}

func waitQuiescent(t *testing.T, s *thread.Scheduler) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		st := s.Stats()
		if st.Mounted == 0 && st.Queued == 0 && st.Live == 0 && st.Parked == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("scheduler not idle: %+v", st)
		}
		time.Sleep(time.Millisecond)
	}
}

func TestWatchdogReportsNativeBlockingAndLendsACarrier(t *testing.T) {
	events := make(chan thread.PinnedEvent, 4)
	s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 1, WatchdogThreshold: 40 * time.Millisecond,
		WatchdogCompensate: true, OnPinned: func(e thread.PinnedEvent) { events <- e }})
	defer s.Close()
	release := make(chan struct{})
	stuck := thread.OfVirtual().Scheduler(s).Start(func() { <-release }) // Go-native wait on the only carrier
	var e thread.PinnedEvent
	select {
	case e = <-events:
	case <-time.After(10 * time.Second):
		t.Fatal("no NATIVE_BLOCKING event")
	}
	if e.Reason != "NATIVE_BLOCKING" || e.BlockingOperation != "chan receive" || e.Thread != stuck {
		t.Errorf("event %+v", e)
	}
	// the lent carrier lets another virtual thread run while the first one is stuck
	other := thread.OfVirtual().Scheduler(s).Start(func() {})
	if ok, _ := other.JoinTimeout(10 * time.Second); !ok {
		t.Fatalf("no carrier was lent: %+v", s.Stats())
	}
	close(release)
	join(t, stuck)
	waitQuiescent(t, s)
}
