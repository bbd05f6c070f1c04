package thread

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// A scheduler keeps the continuations its threads ended on for the next ones, and ends them once
// no carrier has been busy for a while: an idle scheduler soon holds no goroutine (goleak checks
// every package's tests too, but only at the end).
func TestIdleSchedulerEndsItsContinuations(t *testing.T) {
	s := NewScheduler(SchedulerOptions{Parallelism: 2})
	defer s.Close()
	var wg sync.WaitGroup
	for range 200 {
		wg.Add(1)
		OfVirtual().Scheduler(s).Start(func() {
			defer wg.Done()
			if err := Sleep(time.Millisecond); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if n := s.coros.live.Load(); n == 0 {
		t.Fatal("no continuation kept right after the threads ended")
	}
	for deadline := time.Now().Add(5 * time.Second); s.coros.live.Load() != 0; {
		if time.Now().After(deadline) {
			t.Fatalf("%d continuations still live after the scheduler went idle", s.coros.live.Load())
		}
		time.Sleep(time.Millisecond)
	}
}

// Threads that never park run inline on the continuation that dispatches them, one after the
// other: a burst of them makes a few continuations, not one per thread (reuse across parks:
// TestEndedThreadsLeaveTheirContinuationsForReuse).
func TestBurstRunsOnFewContinuations(t *testing.T) {
	s := NewScheduler(SchedulerOptions{Parallelism: 2})
	defer s.Close()
	for range 3 {
		var wg sync.WaitGroup
		wg.Add(10000)
		f := OfVirtual().Scheduler(s).Factory()
		for range 10000 {
			f.NewThread(wg.Done).Start()
		}
		wg.Wait()
	}
	// each carrier's driver needs one to start, and one more each time it hands a carrier over
	// (a start or end on the other carrier); far fewer than the threads
	if n := s.coros.made.Load(); n > 100 {
		t.Fatalf("%d continuations made for 30,000 threads that never park", n)
	}
}

// A thread that parks holds its continuation; once it ends, the continuation serves the next
// threads: a thousand threads started, parked and joined one after another make a handful.
func TestEndedThreadsLeaveTheirContinuationsForReuse(t *testing.T) {
	s := NewScheduler(SchedulerOptions{Parallelism: 2})
	defer s.Close()
	OfVirtual().Scheduler(s).Start(func() {
		for range 1000 {
			th := OfVirtual().Scheduler(s).Start(func() {
				if err := Sleep(time.Microsecond); err != nil {
					t.Error(err)
				}
			})
			th.Join()
		}
	}).Join()
	// the starter's, and the ones its carriers were driving when the started thread parked
	t.Logf("%d continuations made", s.coros.made.Load())
	if n := s.coros.made.Load(); n > 50 {
		t.Fatalf("%d continuations made for 1,000 threads that parked one after another", n)
	}
}

// burstOfSleepers starts n threads on s that each sleep d, and waits for them all.
func burstOfSleepers(t *testing.T, s *Scheduler, n int, d time.Duration) {
	t.Helper()
	ts := make([]*Thread, n)
	for i := range ts {
		ts[i] = OfVirtual().Scheduler(s).Start(func() {
			if err := Sleep(d); err != nil {
				t.Error(err)
			}
		})
	}
	for _, th := range ts {
		th.Join()
	}
}

// burstOfParked starts n threads on s that all park at once, then unparks and joins them.
func burstOfParked(t *testing.T, s *Scheduler, n int64) {
	t.Helper()
	var parked atomic.Int64
	var release atomic.Bool
	ts := make([]*Thread, n)
	for i := range ts {
		ts[i] = OfVirtual().Scheduler(s).Start(func() {
			parked.Add(1)
			for !release.Load() {
				Park()
			}
		})
	}
	late := int64(-1)
	for deadline := time.Now().Add(20 * time.Second); parked.Load() < n || s.Stats().Parked < n; {
		if time.Now().After(deadline) {
			late = s.Stats().Parked
			break
		}
		time.Sleep(time.Millisecond)
	}
	release.Store(true)
	for _, th := range ts {
		Unpark(th)
	}
	for _, th := range ts {
		th.Join()
	}
	if late >= 0 {
		t.Fatalf("only %d of %d threads parked after 20 s", late, n)
	}
}

// The continuations a burst of parked threads ended on serve a burst that follows at once: the
// second makes few new ones (with a pool that kept 64, it made one per thread again).
func TestBurstAfterBurstReusesContinuations(t *testing.T) {
	s := NewScheduler(SchedulerOptions{Parallelism: 2})
	defer s.Close()
	const n = 5000
	burstOfParked(t, s, n)
	first := s.coros.made.Load()
	if first < n {
		t.Fatalf("%d continuations made for %d threads parked at once", first, n)
	}
	burstOfParked(t, s, n)
	if again := s.coros.made.Load() - first; again > n/10 {
		t.Fatalf("the second burst made %d continuations, the first %d", again, first)
	}
}

// A pool larger than what the scheduler's threads take shrinks to that: after a burst, a
// trickle of threads keeps few continuations alive.
func TestTrickleAfterBurstShrinksTheContinuations(t *testing.T) {
	s := NewScheduler(SchedulerOptions{Parallelism: 2})
	defer s.Close()
	const n = 5000
	burstOfParked(t, s, n)
	if live := s.coros.live.Load(); live < n/2 {
		t.Fatalf("%d continuations live right after %d threads parked at once ended", live, n)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		burstOfSleepers(t, s, 2, time.Millisecond) // the trickle: what it needs stays taken
		live := s.coros.live.Load()
		if live <= 100 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d continuations still live after 10 s of a trickle of threads", live)
		}
	}
}

// A continuation given back to a closed scheduler's pool ends at once instead of waiting for a
// sweep: a driver gives its continuation back after its carrier went idle, which Close may have
// seen already.
func TestContinuationGivenAfterCloseEnds(t *testing.T) {
	s := NewScheduler(SchedulerOptions{Parallelism: 1})
	OfVirtual().Scheduler(s).Start(func() {}).Join()
	s.Close()
	co := newCoro(s)
	s.coros.give(nil, co)
	s.coros.mu.Lock()
	n := len(s.coros.free)
	s.coros.mu.Unlock()
	if n != 0 {
		t.Fatalf("a closed scheduler keeps %d continuations", n)
	}
	if _, ok := co.next(); ok {
		t.Fatal("the continuation given after Close was not ended")
	}
}
