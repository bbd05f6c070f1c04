package demo

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/loomgo/loom/locks"
	"github.com/loomgo/loom/thread"
)

// oneCarrierSleepers runs three virtual threads that each sleep 100 ms on a scheduler with one
// carrier: they overlap, because a sleeping virtual thread gives its carrier back.
func oneCarrierSleepers(c *Config) Outcome {
	const n, d = 3, 100 * time.Millisecond
	s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 1})
	defer s.Close()
	var carriers [n]string
	start := time.Now()
	var ths []*thread.Thread
	for i := range n {
		ths = append(ths, thread.OfVirtual().Scheduler(s).Start(func() {
			sleepFor(d)
			carriers[i] = thread.Current().Carrier()
		}))
	}
	for _, t := range ths {
		joinAll(t)
	}
	el := time.Since(start)
	onOne := true
	for _, cr := range carriers {
		onOne = onOne && strings.HasSuffix(cr, "-worker-1")
	}
	where := "all on worker-1"
	if !onOne {
		where = "on " + strings.Join(carriers[:], ", ")
	}
	// pinned, the sleeps would take n × d one after the other; the rule is under (n-0.5) × d
	serial, limit := n*d, n*d-d/2
	return Outcome{
		Loom:    fmt.Sprintf("%s total, %s", ms(el), where),
		Same:    el < limit && onOne,
		Verdict: fmt.Sprintf("%s (not %s: the sleeps one after the other), %s", under(el, limit), ms(serial), where),
		Figures: map[string]float64{"elapsed_ms": msf(el)},
	}
}

var (
	mountedRE  = regexp.MustCompile(`^VirtualThread\[#\d+\]/runnable@ForkJoinPool-\d+-worker-\d+$`)
	workerOfRE = regexp.MustCompile(`worker-\d+$`)
)

// carrierHopping prints a virtual thread before and after a sleep: the JDK's format, and the
// carrier may change.
func carrierHopping(c *Config) Outcome {
	s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 2})
	defer s.Close()
	const n = 16
	var mu locks.ReentrantLock // its waiters unmount; a sync.Mutex would hold the carrier
	var before, after []string
	var ths []*thread.Thread
	for range n {
		ths = append(ths, thread.OfVirtual().Scheduler(s).Start(func() {
			b := thread.Current().String()
			sleepFor(10 * time.Millisecond)
			a := thread.Current().String()
			mu.Lock()
			before, after = append(before, b), append(after, a)
			mu.Unlock()
		}))
	}
	for _, t := range ths {
		joinAll(t)
	}
	ok, hops, example := true, 0, 0
	for i := range before {
		ok = ok && mountedRE.MatchString(before[i]) && mountedRE.MatchString(after[i])
		if workerOfRE.FindString(before[i]) != workerOfRE.FindString(after[i]) {
			hops++
			example = i
		}
	}
	return Outcome{
		Loom: fmt.Sprintf("%s, after sleep %s; %d of %d threads resumed on another worker",
			before[example], after[example], hops, n),
		Same:    ok,
		Verdict: "before and after match VirtualThread[#N]/runnable@ForkJoinPool-M-worker-K",
		Figures: map[string]float64{"threads": n, "hops": float64(hops)},
	}
}

// sayHelloWorld is the Go tour's first goroutine program, `go say("world"); say("hello")`,
// with virtual threads.
func sayHelloWorld(c *Config) Outcome {
	s := thread.NewScheduler(thread.SchedulerOptions{})
	defer s.Close()
	var mu sync.Mutex
	var out []string
	say := func(w string) {
		for range 5 {
			sleepFor(100 * time.Millisecond)
			mu.Lock()
			out = append(out, w)
			mu.Unlock()
		}
	}
	start := time.Now()
	world := thread.OfVirtual().Scheduler(s).Start(func() { say("world") })
	say("hello")   // on the main goroutine, a platform thread
	joinAll(world) // the Go original may exit before the last "world"; join it
	el := time.Since(start)
	h, w := 0, 0
	for _, x := range out {
		if x == "hello" {
			h++
		} else {
			w++
		}
	}
	return Outcome{
		Loom:    fmt.Sprintf("%d × hello and %d × world interleaved (%s) in %s", h, w, strings.Join(out[:4], " ")+" ...", ms(el)),
		Same:    h == 5 && w == 5 && el < 900*time.Millisecond,
		Verdict: fmt.Sprintf("%d + %d lines, %s (the two sleep concurrently, not one after the other)", h, w, under(el, 900*time.Millisecond)),
		Figures: map[string]float64{"elapsed_ms": msf(el)},
	}
}
