package demo

import (
	"fmt"
	"sync/atomic"
	"time"

	"github.com/loomgo/loom/thread"
)

// sleepersMemory starts n threads from start that each sleep until interrupted, measures the
// heap and stacks in use (and the RSS) once they all sleep, then interrupts and joins them. It
// begins once the schedulers ss (and the default one) hold no goroutine (quietInUse).
func sleepersMemory(n int, start func(task func()) (*thread.Thread, error), ss ...*thread.Scheduler) (inuse, rss int64, err error) {
	before, rss0 := quietInUse(ss...), rssBytes()
	var asleep atomic.Int64
	threads := make([]*thread.Thread, 0, n)
	defer func() {
		for _, t := range threads {
			t.Interrupt()
		}
		for _, t := range threads {
			joinAll(t)
		}
	}()
	for range n {
		t, err := start(func() {
			asleep.Add(1)
			sleepFor(time.Hour) // until interrupted
		})
		if err != nil {
			return 0, 0, err
		}
		threads = append(threads, t)
	}
	allAsleep := func() bool {
		if asleep.Load() < int64(n) {
			return false
		}
		for _, t := range threads {
			if t.State() != thread.TimedWaiting {
				return false
			}
		}
		return true
	}
	if !waitFor(30*time.Second, allAsleep) {
		return 0, 0, fmt.Errorf("the %d threads did not all fall asleep", n)
	}
	return settledInUse() - before, rssBytes() - rss0, nil
}

// memory10k compares what 10,000 sleeping threads cost, virtual and platform.
func memory10k(c *Config) Outcome {
	n := c.n(10_000, 1000) // fewer threads would measure the noise of the heap, not threads
	s := thread.NewScheduler(thread.SchedulerOptions{})
	defer s.Close()
	vb := thread.OfVirtual().Scheduler(s)
	c.logf("%s sleeping virtual threads", commas(int64(n)))
	vMem, vRSS, err := sleepersMemory(n, func(task func()) (*thread.Thread, error) { return vb.Start(task), nil }, s)
	if err != nil {
		return Outcome{Err: err}
	}
	// as many platform threads as the limit allows, up to n
	pn := min(n, thread.PlatformThreadLimit()-thread.PlatformThreads()-64)
	c.logf("%s sleeping platform threads", commas(int64(pn)))
	pb := thread.OfPlatform().Daemon(true)
	pMem, pRSS, err := sleepersMemory(pn, func(task func()) (*thread.Thread, error) {
		t := pb.Unstarted(task)
		return t, t.TryStart()
	}, s) // the virtual threads' continuations, kept a while, end before this begins
	if err != nil {
		return Outcome{Err: err}
	}
	vPer, pPer := float64(vMem)/float64(n), float64(pMem)/float64(pn)
	pFor := int64(pPer * float64(n)) // platform memory for n threads
	o := Outcome{
		Loom: fmt.Sprintf("%s vs %s (%s vs %s a thread, heap+stacks in use)%s",
			mb(vMem), mb(pFor), kb(vPer), kb(pPer), rssNote(vRSS, int64(float64(pRSS)/float64(pn)*float64(n)))),
		Same:    pPer >= 3*vPer,
		Verdict: fmt.Sprintf("platform/virtual = %s a thread (rule ≥ 3×; Java's 19.2 GB is reserved 1 MB stacks, loom counts memory in use)", ratio(pPer, vPer)),
		Figures: map[string]float64{"threads": float64(n), "platform_threads_measured": float64(pn),
			"virtual_bytes": float64(vMem), "platform_bytes": float64(pFor),
			"virtual_bytes_per_thread": vPer, "platform_bytes_per_thread": pPer,
			"virtual_rss_bytes": float64(vRSS), "platform_rss_bytes": float64(pRSS)},
	}
	if pn < n {
		o.Scaling = fmt.Sprintf("platform threads measured with %s (what the platform thread limit of %s leaves) and scaled to %s",
			commas(int64(pn)), commas(int64(thread.PlatformThreadLimit())), commas(int64(n)))
	}
	if !c.full() {
		o.Scaling = join(o.Scaling, fmt.Sprintf("ran %s threads (full: 10,000)", commas(int64(n))))
	}
	return o
}

func join(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

// create10k measures starting (and joining) 10,000 threads that do nothing.
func create10k(c *Config) Outcome {
	n := c.n(10_000, 1000) // a few hundred platform threads start too fast to tell apart
	s := thread.NewScheduler(thread.SchedulerOptions{})
	defer s.Close()
	vb := thread.OfVirtual().Scheduler(s)
	run := func(start func(task func()) (*thread.Thread, error)) (time.Duration, error) {
		threads := make([]*thread.Thread, 0, n)
		t0 := time.Now()
		for range n {
			t, err := start(func() {})
			if err != nil {
				return 0, err
			}
			threads = append(threads, t)
		}
		for _, t := range threads {
			joinAll(t)
		}
		return time.Since(t0), nil
	}
	virt, err := run(func(task func()) (*thread.Thread, error) { return vb.Start(task), nil })
	if err != nil {
		return Outcome{Err: err}
	}
	pb := thread.OfPlatform().Daemon(true)
	var refused atomic.Int64
	plat, err := run(func(task func()) (*thread.Thread, error) {
		return startGated(pb, task, &refused)
	})
	if err != nil {
		return Outcome{Err: err}
	}
	r := plat.Seconds() / virt.Seconds()
	o := Outcome{
		Loom:    fmt.Sprintf("%s vs %s (%s)", ms(virt), ms(plat), ratio(plat.Seconds(), virt.Seconds())),
		Same:    r >= 2,
		Verdict: fmt.Sprintf("platform/virtual = %s (rule ≥ 2×; Java 4.1×)", ratio(plat.Seconds(), virt.Seconds())),
		Figures: map[string]float64{"threads": float64(n), "virtual_ms": msf(virt), "platform_ms": msf(plat), "ratio": r},
	}
	if n != 10_000 {
		o.Scaling = fmt.Sprintf("ran %s threads (full: 10,000)", commas(int64(n)))
	}
	return o
}

// rssNote reports the growth of the resident set, which also counts what the kernel and the
// runtime hold outside the Go heap (OS thread stacks, signal stacks), when it is measurable.
func rssNote(v, p int64) string {
	if v <= 0 || p <= 0 {
		return ""
	}
	return fmt.Sprintf("; RSS +%s vs +%s", mb(v), mb(p))
}
