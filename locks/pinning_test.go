package locks_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/loomgo/loom/internal/testutil"
	"github.com/loomgo/loom/locks"
	"github.com/loomgo/loom/thread"
)

// runOn starts n virtual threads running body(i) on s and waits for them, returning the time
// taken.
func runOn(t *testing.T, s *thread.Scheduler, n int, body func(i int)) time.Duration {
	t.Helper()
	start := time.Now()
	var ths []*thread.Thread
	for i := range n {
		ths = append(ths, thread.OfVirtual().Scheduler(s).Start(func() { body(i) }))
	}
	for _, th := range ths {
		testutil.Join(t, th)
	}
	return time.Since(start)
}

// sleeps runs n virtual threads on s, each of which sleeps d inside hold (its own lock or
// monitor), and returns the most sleeps that were in progress at once and the time taken. A
// carrier kept by a sleeper runs nothing else, so pinned sleeps never overlap (1) and
// unmounting ones do (2 or more, n when nothing stalls the carrier for d). The overlap is a
// matter of order, not of time, so a loaded machine does not change the verdict.
func sleeps(t *testing.T, s *thread.Scheduler, n int, d time.Duration, hold func(func())) (overlap int, el time.Duration) {
	t.Helper()
	type edge struct {
		at    time.Time
		delta int
	}
	edges := make([]edge, 2*n)
	el = runOn(t, s, n, func(i int) {
		hold(func() {
			edges[2*i] = edge{time.Now(), 1}
			thread.Sleep(d)
			edges[2*i+1] = edge{time.Now(), -1}
		})
	})
	slices.SortStableFunc(edges, func(a, b edge) int {
		if c := a.at.Compare(b.at); c != 0 {
			return c
		}
		return a.delta - b.delta // an end before a start at the same instant: no overlap
	})
	in := 0
	for _, e := range edges {
		in += e.delta
		overlap = max(overlap, in)
	}
	return overlap, el
}

// The classic experiment: one carrier, four virtual threads that each sleep 200 ms inside their
// own monitor. Java 21 (PinSynchronized): ~800 ms, the sleeps are serial because each sleeper
// keeps the only carrier. Java 24+ (PinNone): ~200 ms, they overlap. With a ReentrantLock:
// ~200 ms in both.
func TestPinningFourSleepersInSynchronizedOnOneCarrier(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		pinning thread.PinningMode
		monitor bool
		serial  bool
	}{
		{"synchronized/PinSynchronized", thread.PinSynchronized, true, true},
		{"synchronized/PinNone", thread.PinNone, true, false},
		{"ReentrantLock/PinSynchronized", thread.PinSynchronized, false, false},
		{"ReentrantLock/PinNone", thread.PinNone, false, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 1, Pinning: c.pinning})
			defer s.Close()
			overlap, el := sleeps(t, s, 4, 200*time.Millisecond, func(sleep func()) {
				if c.monitor {
					var m locks.Monitor
					m.Synchronized(sleep)
				} else {
					var l locks.ReentrantLock
					l.Lock()
					sleep()
					l.Unlock()
				}
			})
			t.Logf("4 x 200ms: %v, at most %d sleeping at once", el, overlap)
			switch {
			case c.serial && (overlap != 1 || el < 750*time.Millisecond):
				t.Errorf("pinned sleeps: %d at once in %v, want 1 at a time (~800ms)", overlap, el)
			case !c.serial && overlap < 2:
				t.Errorf("sleeps did not overlap (took %v): the carrier was kept", el)
			}
		})
	}
}

// Java 25: 100 virtual threads each sleeping 50 ms in synchronized, on one carrier: 59 ms (the
// sleeps overlap).
func TestPinningHundredSynchronizedSleepersOnOneCarrierPinNone(t *testing.T) {
	t.Parallel()
	s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 1})
	defer s.Close()
	overlap, el := sleeps(t, s, 100, 50*time.Millisecond, func(sleep func()) {
		var m locks.Monitor
		m.Synchronized(sleep)
	})
	t.Logf("100 x 50ms: %v, at most %d sleeping at once", el, overlap)
	if overlap < 2 {
		t.Errorf("sleeps did not overlap (took %v): the carrier was kept", el)
	}
}

func TestPinningParkInsideMonitorReportsPinnedEventMONITOR(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var events []thread.PinnedEvent
	s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 1, Pinning: thread.PinSynchronized,
		OnPinned: func(e thread.PinnedEvent) { mu.Lock(); events = append(events, e); mu.Unlock() }})
	defer s.Close()
	var sleeper *thread.Thread
	runOn(t, s, 1, func(int) {
		sleeper = thread.Current()
		var m locks.Monitor
		m.Synchronized(func() { thread.Sleep(40 * time.Millisecond) })
		thread.Sleep(40 * time.Millisecond) // outside: not pinned
		var l locks.ReentrantLock
		l.Lock()
		thread.Sleep(40 * time.Millisecond) // ReentrantLock does not pin
		l.Unlock()
	})
	mu.Lock()
	defer mu.Unlock()
	if len(events) != 1 {
		t.Fatalf("%d pinned events, want 1: %+v", len(events), events)
	}
	e := events[0]
	if e.Reason != "MONITOR" || e.Thread != sleeper || e.Duration < 40*time.Millisecond || e.BlockingOperation != "LockSupport.park" {
		t.Errorf("event %+v", e)
	}
}

func TestPinningNoEventsUnderPinNone(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	n := 0
	s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 1,
		OnPinned: func(thread.PinnedEvent) { mu.Lock(); n++; mu.Unlock() }})
	defer s.Close()
	runOn(t, s, 2, func(int) {
		var m locks.Monitor
		m.Synchronized(func() { thread.Sleep(30 * time.Millisecond) })
	})
	mu.Lock()
	defer mu.Unlock()
	if n != 0 {
		t.Errorf("%d pinned events under PinNone", n)
	}
}

// jtreg MonitorEnterExit.testReleaseWhenBlocked: with one carrier, a virtual thread blocked
// entering a monitor releases the carrier (Java 24+), so another virtual thread can run.
func TestPinningBlockedEnterReleasesCarrierUnderPinNone(t *testing.T) {
	t.Parallel()
	s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 1})
	defer s.Close()
	var m locks.Monitor
	m.Enter()
	blocked := thread.OfVirtual().Scheduler(s).Start(func() { m.Synchronized(func() {}) })
	testutil.WaitState(t, blocked, thread.Blocked)
	ran := thread.OfVirtual().Scheduler(s).Start(func() {})
	testutil.Join(t, ran)
	m.Exit()
	testutil.Join(t, blocked)
}

// Under PinSynchronized the blocked virtual thread keeps the only carrier (no compensation):
// the other virtual thread cannot run until the monitor is released.
func TestPinningBlockedEnterPinsCarrierUnderPinSynchronized(t *testing.T) {
	t.Parallel()
	s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 1, Pinning: thread.PinSynchronized})
	defer s.Close()
	var m locks.Monitor
	m.Enter()
	blocked := thread.OfVirtual().Scheduler(s).Start(func() { m.Synchronized(func() {}) })
	testutil.WaitState(t, blocked, thread.Blocked)
	ran := thread.OfVirtual().Scheduler(s).Start(func() {})
	if ok, _ := ran.JoinTimeout(100 * time.Millisecond); ok {
		t.Error("a second virtual thread ran while the only carrier was pinned")
	}
	m.Exit()
	testutil.Join(t, blocked)
	testutil.Join(t, ran)
}

// jtreg MonitorEnterExit.testManyBlockedThreads: many virtual threads blocked on one monitor
// do not hang a small scheduler (Java 24+).
func TestPinningManyBlockedThreadsUnderPinNone(t *testing.T) {
	t.Parallel()
	s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 2})
	defer s.Close()
	var m locks.Monitor
	n := 0
	el := runOn(t, s, 200, func(int) {
		m.Synchronized(func() {
			n++
			thread.Sleep(time.Millisecond)
		})
	})
	if n != 200 {
		t.Fatal(n)
	}
	t.Logf("200 blocked threads: %v", el)
}

// jtreg MonitorWaitNotify.testReleaseWhenWaiting: a waiting virtual thread lets another run on
// the only carrier: it unmounts under PinNone, and under PinSynchronized the scheduler
// compensates with an extra carrier.
func TestPinningWaitReleasesOrCompensatesCarrier(t *testing.T) {
	t.Parallel()
	for _, mode := range []thread.PinningMode{thread.PinNone, thread.PinSynchronized} {
		t.Run(mode.String(), func(t *testing.T) {
			s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 1, Pinning: mode})
			defer s.Close()
			var m locks.Monitor
			done := false
			waiter := thread.OfVirtual().Scheduler(s).Start(func() {
				m.Synchronized(func() {
					for !done {
						m.Wait()
					}
				})
			})
			testutil.WaitState(t, waiter, thread.Waiting)
			notifier := thread.OfVirtual().Scheduler(s).Start(func() {
				m.Synchronized(func() { done = true; m.Notify() })
			})
			testutil.Join(t, notifier)
			testutil.Join(t, waiter)
		})
	}
}

// Pinned events name the blocking operation: a contended Enter ("Contended monitor enter") and
// Wait ("Object.wait") under PinSynchronized report reason MONITOR; under PinNone only a
// Native frame pins (reason NATIVE).
func TestPinningEventsNameTheBlockingOperation(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name      string
		mode      thread.PinningMode
		native    bool
		wait      bool
		reason    string
		operation string
	}{
		{"enter/PinSynchronized", thread.PinSynchronized, false, false, "MONITOR", "Contended monitor enter"},
		{"enter/Native/PinNone", thread.PinNone, true, false, "NATIVE", "Contended monitor enter"},
		{"wait/PinSynchronized", thread.PinSynchronized, false, true, "MONITOR", "Object.wait"},
		{"wait/Native/PinNone", thread.PinNone, true, true, "NATIVE", "Object.wait"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var mu sync.Mutex
			var events []thread.PinnedEvent
			s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 1, Pinning: c.mode,
				OnPinned: func(e thread.PinnedEvent) { mu.Lock(); events = append(events, e); mu.Unlock() }})
			defer s.Close()
			var m locks.Monitor
			body := func() {
				if c.wait {
					m.Synchronized(func() { m.WaitTimeout(40 * time.Millisecond) })
					return
				}
				m.Enter()
				m.Exit()
			}
			if !c.wait {
				m.Enter() // held by the test goroutine for 40ms
			}
			th := thread.OfVirtual().Scheduler(s).Start(func() {
				if c.native {
					thread.Native(body)
				} else {
					body()
				}
			})
			if !c.wait {
				testutil.WaitState(t, th, thread.Blocked)
				time.Sleep(40 * time.Millisecond)
				m.Exit()
			}
			testutil.Join(t, th)
			mu.Lock()
			defer mu.Unlock()
			found := false
			for _, e := range events {
				if e.Reason == c.reason && e.BlockingOperation == c.operation && e.Thread == th {
					found = true
				}
			}
			if !found {
				t.Errorf("no %s/%s event among %d: %+v", c.reason, c.operation, len(events), events)
			}
		})
	}
}

// JAVA-SEMANTICS 1.8 item 152: a virtual thread waiting for a ReentrantLock inside a monitor is
// pinned under PinSynchronized (Java 21): it keeps the only carrier, and the park is reported.
// Under PinNone it unmounts.
func TestPinningLockWaitInsideMonitor(t *testing.T) {
	t.Parallel()
	for _, mode := range []thread.PinningMode{thread.PinSynchronized, thread.PinNone} {
		t.Run(mode.String(), func(t *testing.T) {
			var mu sync.Mutex
			var events []thread.PinnedEvent
			s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 1, Pinning: mode,
				OnPinned: func(e thread.PinnedEvent) { mu.Lock(); events = append(events, e); mu.Unlock() }})
			defer s.Close()
			var l locks.ReentrantLock
			var m locks.Monitor
			l.Lock()
			waiter := thread.OfVirtual().Scheduler(s).Start(func() {
				m.Synchronized(func() { getThrough(t, &l) })
			})
			eventually(t, "waiter queued", func() bool { return l.HasQueuedThread(waiter) })
			other := thread.OfVirtual().Scheduler(s).Start(func() {})
			ran, _ := other.JoinTimeout(60 * time.Millisecond)
			if pinned := mode == thread.PinSynchronized; ran == pinned {
				t.Errorf("another virtual thread ran=%v while the waiter was pinned=%v", ran, pinned)
			}
			l.Unlock()
			testutil.Join(t, waiter)
			testutil.Join(t, other)
			mu.Lock()
			defer mu.Unlock()
			if got := len(events) > 0; got != (mode == thread.PinSynchronized) {
				t.Errorf("pinned events %+v", events)
			} else if got && (events[0].Reason != "MONITOR" || events[0].BlockingOperation != "LockSupport.park") {
				t.Errorf("event %+v", events[0])
			}
		})
	}
}

// Under PinSynchronized the count of monitors a virtual thread holds decides whether its parks
// pin, and Enter and Exit keep it on every path: the fast one, a first Enter that records the
// thread, a reentrant Enter, TryEnter, Wait's release and re-entry. Random nestings over three
// monitors (sometimes fresh ones): a park pins, with one pinned event, exactly while the thread
// holds a monitor; under PinNone nothing pins.
func TestPinningMonitorCountFollowsRandomNesting(t *testing.T) {
	t.Parallel()
	for _, mode := range []thread.PinningMode{thread.PinSynchronized, thread.PinNone} {
		for seed := range uint64(4) {
			t.Run(fmt.Sprint(mode, "/seed", seed), func(t *testing.T) {
				var events atomic.Int32
				s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 1, Pinning: mode,
					PinnedThreshold: time.Millisecond, OnPinned: func(thread.PinnedEvent) { events.Add(1) }})
				defer s.Close()
				runOn(t, s, 1, func(int) {
					rng := rand.New(rand.NewPCG(seed, 0))
					var ms [3]locks.Monitor
					var holds [3]int
					park := func(step int) {
						want := int32(0)
						if mode == thread.PinSynchronized && holds != [3]int{} {
							want = 1
						}
						before := events.Load()
						thread.Sleep(2 * time.Millisecond) // OnPinned has returned when it does
						if got := events.Load() - before; got != want {
							t.Errorf("step %d, holds %v: %d pinned events, want %d", step, holds, got, want)
						}
					}
					for step := range 60 {
						i := rng.IntN(3)
						switch op := rng.IntN(8); {
						case op < 3:
							ms[i].Enter()
							holds[i]++
						case op == 3:
							if !ms[i].TryEnter() {
								t.Errorf("step %d: TryEnter of a monitor nobody else uses failed", step)
								return
							}
							holds[i]++
						case op < 6:
							if holds[i] > 0 {
								ms[i].Exit()
								holds[i]--
							}
						case op == 6:
							if holds[i] > 0 {
								if err := ms[i].WaitTimeout(time.Millisecond); err != nil {
									t.Errorf("step %d: %v", step, err)
								}
							}
						default:
							if holds[i] == 0 {
								ms[i] = locks.Monitor{}
							}
						}
						if got := ms[i].HoldCount(); got != holds[i] {
							t.Errorf("step %d: HoldCount %d, want %d", step, got, holds[i])
							return
						}
						if rng.IntN(3) == 0 {
							park(step)
						}
					}
					for i := range ms {
						for ; holds[i] > 0; holds[i]-- {
							ms[i].Exit()
						}
					}
					park(-1)
				})
			})
		}
	}
}
