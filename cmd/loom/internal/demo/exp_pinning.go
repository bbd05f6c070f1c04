package demo

import (
	"fmt"
	"time"

	"github.com/loomgo/loom/locks"
	"github.com/loomgo/loom/thread"
)

// onOneCarrier runs n virtual threads, each running task(i), on a fresh one-carrier scheduler
// with the given pinning mode, and returns the wall time and the scheduler's final stats.
func onOneCarrier(mode thread.PinningMode, n int, task func(i int)) (time.Duration, thread.SchedulerStats) {
	s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 1, MaxPoolSize: 1, Pinning: mode})
	defer s.Close()
	b := thread.OfVirtual().Scheduler(s)
	start := time.Now()
	ths := make([]*thread.Thread, n)
	for i := range n {
		ths[i] = b.Start(func() { task(i) })
	}
	for _, t := range ths {
		joinAll(t)
	}
	return time.Since(start), s.Stats()
}

// pinning is the experiment that showed Java 21's pinning: four virtual threads each sleep
// 200 ms inside a synchronized block of their own, on one carrier. Under Java 21-23 rules the
// sleeping thread keeps the carrier (the four run one after the other); under Java 24+ rules, or
// with a ReentrantLock, they overlap.
func pinning(c *Config) Outcome {
	const n = 4
	const d = 200 * time.Millisecond
	monitor := func(int) {
		var m locks.Monitor // a monitor of its own: no contention, only pinning
		m.Synchronized(func() { sleepFor(d) })
	}
	lock := func(int) {
		var l locks.ReentrantLock
		l.Lock()
		defer l.Unlock()
		sleepFor(d)
	}
	c.logf("Java 21 rules (PinSynchronized)")
	sync21, st21 := onOneCarrier(thread.PinSynchronized, n, monitor)
	lock21, _ := onOneCarrier(thread.PinSynchronized, n, lock)
	c.logf("Java 24+ rules (PinNone)")
	sync25, _ := onOneCarrier(thread.PinNone, n, monitor)
	lock25, _ := onOneCarrier(thread.PinNone, n, lock)
	same := sync21 >= 3*lock21 && sync25 < 2*lock25 && lock21 < 2*d && lock25 < 2*d
	return Outcome{
		Loom: fmt.Sprintf("PinSynchronized (Java 21): %s vs %s; PinNone (Java 25): %s vs %s; %d pinned events",
			ms(sync21), ms(lock21), ms(sync25), ms(lock25), st21.PinnedEvents),
		Same: same,
		Verdict: fmt.Sprintf("Java 21 rules: monitor/lock = %s (rule ≥ 3×); Java 25 rules: %s (rule < 2×)",
			ratio(sync21.Seconds(), lock21.Seconds()), ratio(sync25.Seconds(), lock25.Seconds())),
		Figures: map[string]float64{"sync21_ms": msf(sync21), "lock21_ms": msf(lock21), "sync25_ms": msf(sync25),
			"lock25_ms": msf(lock25), "pinned_events": float64(st21.PinnedEvents)},
	}
}

// hundredMonitors runs 100 virtual threads that each sleep 50 ms inside a synchronized block of
// their own, on one carrier, with Java 24+ rules: they overlap, and one carrier is enough.
func hundredMonitors(c *Config) Outcome {
	n := c.n(100, 10)
	const d = 50 * time.Millisecond
	el, st := onOneCarrier(thread.PinNone, n, func(int) {
		var m locks.Monitor
		m.Synchronized(func() { sleepFor(d) })
	})
	// pinned, the sleeps would run one after the other: n × 50 ms. The rule is under half of
	// that, and under 500 ms (a tenth of it at full scale).
	serial := time.Duration(n) * d
	limit := min(serial/2, 500*time.Millisecond)
	o := Outcome{
		Loom:    fmt.Sprintf("%s, %s used", ms(el), plural(st.PeakPoolSize, "carrier")),
		Same:    el < limit && st.PeakPoolSize == 1,
		Verdict: fmt.Sprintf("%s (not %s: the %d sleeps one after the other), %s", under(el, limit), ms(serial), n, plural(st.PeakPoolSize, "carrier")),
		Figures: map[string]float64{"threads": float64(n), "elapsed_ms": msf(el), "peak_pool_size": float64(st.PeakPoolSize)},
	}
	if n != 100 {
		o.Scaling = fmt.Sprintf("ran %d threads (full: 100)", n)
	}
	return o
}
