package demo

import (
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/loomgo/loom/thread"
)

// runTasks submits n tasks to ex, closes it (waiting for every task, as Java's
// try-with-resources on an ExecutorService does) and returns how long that took and the most OS
// threads the process had meanwhile. It stops submitting at the first error and returns it with
// the number of tasks submitted.
func runTasks(c *Config, label string, ex executor, n int, task func()) (elapsed time.Duration, peak, submitted int, err error) {
	var done, sub atomic.Int64
	stop := c.watch(func() string {
		return fmt.Sprintf("%s: %s submitted, %s of %s done, %s OS threads", label, commas(sub.Load()), commas(done.Load()), commas(int64(n)), commas(int64(osThreads())))
	})
	defer stop()
	pk := samplePeakThreads()
	start := time.Now()
	for range n {
		if err = ex.Execute(func() { task(); done.Add(1) }); err != nil {
			break
		}
		submitted++
		sub.Add(1)
	}
	ex.Close()
	elapsed = time.Since(start)
	return elapsed, pk.stop(), submitted, err
}

func sleepTask(d time.Duration) func() { return func() { sleepFor(d) } }

// fixedVersusVirtual is the experiment of the JEP 444 era articles: n tasks that each sleep d,
// on a fixed pool of platform threads and on a virtual thread per task.
//
// short, if not zero, caps the sleep unless c.Long is set or the run fits in what is left of
// c.Budget.
func fixedVersusVirtual(c *Config, fullTasks, fullPool int, fullSleep, minSleep, short time.Duration) Outcome {
	tasks, pool := c.n(fullTasks, 10), c.n(fullPool, 1)
	sleep := c.dur(fullSleep, minSleep)
	left := c.remaining()
	// the fixed pool's rounds, three virtual runs, and slack for a loaded machine
	need := time.Duration((tasks+pool-1)/pool+3)*sleep + 10*time.Second
	if c.Java != nil {
		need += time.Duration((tasks+pool-1)/pool+3) * sleep // the JDK's run of the same
	}
	capped := false
	if short > 0 && sleep > short && !c.Long && need > left {
		sleep, capped = short, true
	}
	if !c.full() {
		// keep tasks/pool, so the fixed pool still needs tasks/pool rounds of sleep
		pool = max(1, tasks*fullPool/fullTasks)
	}
	c.logf("fixed pool of %d platform threads, %s", pool, nTasks(tasks, sleep))
	fixed, fixedThreads, _, err := runTasks(c, "fixed pool", newFixed(pool), tasks, sleepTask(sleep))
	if err != nil {
		return Outcome{Err: err}
	}
	c.logf("fixed pool: %s; now a virtual thread per task, best of 3", ms(fixed))
	s := thread.NewScheduler(thread.SchedulerOptions{})
	defer s.Close()
	// The virtual run lasts a little more than one sleep, and its wake-ups come in one burst, so
	// a shared machine's other processes can double it: take the best of three runs, as
	// benchmarks do. (The fixed pool's 50 rounds average such noise out.)
	var virt time.Duration
	var virtThreads int
	for range 3 {
		v, th, _, err := runTasks(c, "virtual threads", newVirtualPerTask(s), tasks, sleepTask(sleep))
		if err != nil {
			return Outcome{Err: err}
		}
		if virt == 0 || v < virt {
			virt, virtThreads = v, th
		}
	}
	r := fixed.Seconds() / virt.Seconds()
	o := Outcome{
		Loom: fmt.Sprintf("%s vs %s (best of 3; %s); %s vs %s OS threads", ms(fixed), ms(virt), ratio(fixed.Seconds(), virt.Seconds()),
			commas(int64(fixedThreads)), commas(int64(virtThreads))),
		Same:    r >= 10 && (pool < 20 || fixedThreads >= virtThreads+pool/2),
		Verdict: fmt.Sprintf("fixed/virtual = %s (rule ≥ 10×); the pool's %d threads are OS threads", ratio(fixed.Seconds(), virt.Seconds()), pool),
		Figures: map[string]float64{
			"tasks": float64(tasks), "pool": float64(pool), "sleep_ms": msf(sleep),
			"fixed_ms": msf(fixed), "virtual_ms": msf(virt), "ratio": r,
			"fixed_os_threads": float64(fixedThreads), "virtual_os_threads": float64(virtThreads),
		},
	}
	if tasks != fullTasks || pool != fullPool || sleep != fullSleep {
		o.Scaling = fmt.Sprintf("ran %s on a pool of %d (full: %s on %d; the %d rounds of sleep that make the fixed pool slow are kept)",
			nTasks(tasks, sleep), pool, nTasks(fullTasks, fullSleep), fullPool, (tasks+pool-1)/pool)
		if capped {
			room := "the time budget was used up"
			if left >= time.Second {
				room = fmt.Sprintf("they did not fit in the %d s left of the time budget", int(left.Seconds()))
			}
			o.Scaling += fmt.Sprintf("; the %s sleeps would take ~%d s and %s, so they were capped at %s (`loom demo -long` runs them anyway)",
				dur(c.dur(fullSleep, minSleep)), int(need.Seconds()), room, dur(short))
		}
	}
	return o
}

// cachedPool is the experiment that crashes Java: 10,000 tasks that sleep 1 s on a cached pool,
// which starts a platform thread for every task that finds no idle thread.
func cachedPool(c *Config) Outcome {
	tasks := c.n(10_000, 10)
	sleep := c.dur(time.Second, 100*time.Millisecond)
	limit := thread.PlatformThreadLimit()
	c.logf("cached pool, %s; platform thread limit %s (thread.PlatformThreadLimit)", nTasks(tasks, sleep), commas(int64(limit)))
	// The shape: a cached pool never queues a task; it hands each to an idle thread or starts a
	// thread for it. No task can end before one sleep has passed since the first submission, so
	// the tasks submitted in the first half of that sleep each have a thread of their own until
	// it has passed: the pool must reach at least that many platform threads (a fixed pool would
	// stay at its size). How many that is depends on how fast this machine starts threads. The
	// pool's largest size counts its platform threads (loom's limit counts platform threads; the
	// OS threads sampled also count the Go runtime's own).
	pool := newCached()
	ex := &earlyCounter{executor: pool, start: time.Now(), window: sleep / 2}
	elapsed, peak, submitted, err := runTasks(c, "cached pool", ex, tasks, sleepTask(sleep))
	peakPlatform, early := pool.LargestPoolSize(), int(ex.early.Load())
	o := Outcome{Figures: map[string]float64{
		"tasks": float64(tasks), "submitted": float64(submitted), "peak_os_threads": float64(peak),
		"limit": float64(limit), "elapsed_ms": msf(elapsed), "submitted_in_first_half_sleep": float64(early),
	}}
	rule := fmt.Sprintf("rule: at least the %s submitted in the first %s, a thread each", plural(early, "task"), dur(sleep/2))
	switch {
	case errors.Is(err, thread.ErrThreadLimit):
		// the refusal shows the process was at the limit; the pool's largest size also counts
		// the worker whose start was refused (as Java's largestPoolSize does)
		peakPlatform = limit
		o.Loom = fmt.Sprintf("%s platform threads at once, loom's limit (up to %s OS threads seen), then task %s failed with thread.ErrThreadLimit (Java's OutOfMemoryError \"unable to create native thread\"); the %s started tasks finished and the process went on",
			commas(int64(limit)), commas(int64(peak)), commas(int64(submitted+1)), commas(int64(submitted)))
		o.Same = peakPlatform >= early
		o.Verdict = fmt.Sprintf("a platform thread per sleeping task up to loom's limit of %s, then a clean ErrThreadLimit, no crash", commas(int64(limit)))
	case err != nil:
		o.Loom = "failed: " + err.Error()
		o.Err = err
		o.Verdict = "an error other than ErrThreadLimit"
	default:
		reached := "below loom's limit of " + commas(int64(limit))
		if peakPlatform >= limit {
			reached = "loom's limit of " + commas(int64(limit)) + ", none refused"
		}
		o.Loom = fmt.Sprintf("all %s tasks ran in %s, on up to %s platform threads at once (%s; up to %s OS threads seen)",
			commas(int64(tasks)), ms(elapsed), commas(int64(peakPlatform)), reached, commas(int64(peak)))
		o.Same = peakPlatform >= early
		o.Verdict = fmt.Sprintf("a platform thread per sleeping task: up to %s at once (%s), no crash; the limit was not exceeded",
			commas(int64(peakPlatform)), rule)
		if !o.Same {
			o.Verdict = fmt.Sprintf("tasks queued: only %s platform threads at once (%s)", commas(int64(peakPlatform)), rule)
		}
	}
	o.Figures["peak_platform_threads"] = float64(peakPlatform)
	if !c.full() {
		o.Scaling = fmt.Sprintf("ran %s (full: 10,000 × 1 s)", nTasks(tasks, sleep))
	}
	return o
}

// earlyCounter counts the tasks submitted to its executor within window of start (measured after
// Execute returns, so a task counted was surely submitted in time).
type earlyCounter struct {
	executor
	start  time.Time
	window time.Duration
	early  atomic.Int64
}

func (e *earlyCounter) Execute(task func()) error {
	err := e.executor.Execute(task)
	if err == nil && time.Since(e.start) < e.window {
		e.early.Add(1)
	}
	return err
}

// virtual100k starts 100,000 virtual threads that each sleep 1 s, and measures the time and
// the memory (heap and stacks in use) when they all sleep.
func virtual100k(c *Config) Outcome {
	tasks := c.n(100_000, 10)
	sleep := c.dur(time.Second, 100*time.Millisecond)
	s := thread.NewScheduler(thread.SchedulerOptions{})
	defer s.Close()
	// Best of two runs for the time: 100,000 wake-ups in one burst are CPU-bound, and a shared
	// machine's other processes can stretch them. The memory is the first run's, where every
	// goroutine is new: the second reuses the continuations the first one's threads ended on (a
	// scheduler keeps them a while), whose memory its baseline holds already, and waiting for
	// them to end first would measure Go's starting stack size instead (a collection at a quiet
	// moment averages a few deep stacks, and new goroutines then start with 4 KB, not 2 KB).
	var elapsed time.Duration
	var mem int64
	var peak int
	for i := range 2 {
		before := settledInUse()
		if i == 0 {
			before = quietInUse()
		}
		pm := samplePeak(50*time.Millisecond, inUse)
		el, pk, _, err := runTasks(c, "virtual threads", newVirtualPerTask(s), tasks, sleepTask(sleep))
		m := int64(pm.stop()) - before
		if err != nil {
			return Outcome{Err: err}
		}
		c.logf("run %d: %s, %s peak", i+1, ms(el), mb(m))
		if i == 0 {
			mem = m
		}
		if elapsed == 0 || el < elapsed {
			elapsed, peak = el, pk
		}
	}
	limit := sleep * 5
	o := Outcome{
		Loom:    fmt.Sprintf("%s (best of 2), %s peak (heap+stacks in use, first run), %d OS threads", ms(elapsed), mb(mem), peak),
		Same:    elapsed < limit,
		Verdict: fmt.Sprintf("%s (5× the sleep; Java: 1.4× on 14 cores, 3.4× on 6)", under(elapsed, limit)),
		Figures: map[string]float64{"tasks": float64(tasks), "sleep_ms": msf(sleep), "elapsed_ms": msf(elapsed),
			"peak_bytes": float64(mem), "os_threads": float64(peak)},
	}
	if !c.full() {
		o.Scaling = fmt.Sprintf("ran %s (full: 100,000 × 1 s)", nTasks(tasks, sleep))
	}
	return o
}

// platform100k starts 100,000 platform threads that each sleep 1 s. Java starts them all (the
// JVM reached 23,000 live threads); loom refuses a platform thread past PlatformThreadLimit with
// ErrThreadLimit, so this program waits for a thread to end whenever it is refused.
func platform100k(c *Config) Outcome {
	tasks := c.n(100_000, 10)
	sleep := c.dur(time.Second, 100*time.Millisecond)
	limit := thread.PlatformThreadLimit()
	c.logf("%s platform threads; at the limit of %s live ones, wait for one to end", nTasks(tasks, sleep), commas(int64(limit)))
	var done, refused atomic.Int64
	stop := c.watch(func() string {
		return fmt.Sprintf("platform threads: %s of %s done, %s OS threads", commas(done.Load()), commas(int64(tasks)), commas(int64(osThreads())))
	})
	pk := samplePeakThreads()
	platform := samplePeak(2*time.Millisecond, func() int64 { return int64(thread.PlatformThreads()) })
	start := time.Now()
	b := thread.OfPlatform().Daemon(true)
	task := func() { sleepFor(sleep); done.Add(1) }
	for range tasks {
		if _, err := startGated(b, task, &refused); err != nil {
			stop()
			pk.stop()
			platform.stop()
			return Outcome{Err: err}
		}
	}
	waitFor(time.Hour, func() bool { return done.Load() == int64(tasks) })
	elapsed := time.Since(start)
	stop()
	peak, peakPlatform := pk.stop(), platform.stop()
	want := sleep * 3
	rounds := (tasks + limit - 1) / limit
	o := Outcome{
		Loom: fmt.Sprintf("%s; up to %s platform threads alive at once (loom's limit %s) on up to %s OS threads; %s starts refused with ErrThreadLimit and retried",
			ms(elapsed), commas(int64(peakPlatform)), commas(int64(limit)), commas(int64(peak)), commas(refused.Load())),
		Same: elapsed > want,
		Verdict: fmt.Sprintf("all done, no crash; %s (3× the sleep; with at most %s alive at a time, %s take at least %s of sleep: the OS threads are the bottleneck)",
			over(elapsed, want), commas(int64(limit)), plural(tasks, "thread"), plural(rounds, "round")),
		Figures: map[string]float64{"tasks": float64(tasks), "elapsed_ms": msf(elapsed), "peak_os_threads": float64(peak),
			"peak_platform_threads": float64(peakPlatform), "limit": float64(limit), "refused": float64(refused.Load())},
	}
	if tasks <= limit {
		// fewer tasks than the limit: they all sleep at once, as virtual threads would
		o.Same = done.Load() == int64(tasks)
		o.Verdict = fmt.Sprintf("all done, no crash (the %s threads fit under the limit at once)", commas(int64(tasks)))
	}
	if !c.full() {
		o.Scaling = fmt.Sprintf("ran %s (full: 100,000 × 1 s)", nTasks(tasks, sleep))
	}
	return o
}

// startGated starts a platform thread running task, waiting (and counting the refusals) while
// the process is at its platform thread limit.
func startGated(b *thread.PlatformBuilder, task func(), refused *atomic.Int64) (*thread.Thread, error) {
	for {
		t := b.Unstarted(task)
		err := t.TryStart()
		if err == nil {
			return t, nil
		}
		if !errors.Is(err, thread.ErrThreadLimit) {
			return nil, err
		}
		refused.Add(1)
		time.Sleep(time.Millisecond)
	}
}

// FixedPoolTime runs tasks sleeps of d on a fixed pool of pool platform threads and returns how
// long they took (for loom bench's chart).
func FixedPoolTime(tasks, pool int, d time.Duration) (time.Duration, error) {
	el, _, _, err := runTasks(&Config{}, "", newFixed(pool), tasks, sleepTask(d))
	return el, err
}

// VirtualTime runs tasks sleeps of d on a virtual thread each and returns how long they took.
func VirtualTime(tasks int, d time.Duration) (time.Duration, error) {
	s := thread.NewScheduler(thread.SchedulerOptions{})
	defer s.Close()
	el, _, _, err := runTasks(&Config{}, "", newVirtualPerTask(s), tasks, sleepTask(d))
	return el, err
}
