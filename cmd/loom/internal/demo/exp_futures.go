package demo

import (
	"fmt"
	"time"

	"github.com/loomgo/loom/executors"
	"github.com/loomgo/loom/thread"
)

// futures1M submits 1,000,000 tasks that return id*2 and sums their results.
func futures1M(c *Config) Outcome {
	n := c.n(1_000_000, 10)
	s := thread.NewScheduler(thread.SchedulerOptions{})
	defer s.Close()
	start := time.Now()
	ex := newVirtualPerTask(s)
	futures := make([]executors.Future[int64], n)
	for i := range n {
		f, err := executors.Submit(ex, func() (int64, error) { return int64(i) * 2, nil })
		if err != nil {
			return Outcome{Err: err}
		}
		futures[i] = f
	}
	var sum int64
	for _, f := range futures {
		v, err := f.Get()
		if err != nil {
			return Outcome{Err: err}
		}
		sum += v
	}
	ex.Close()
	el := time.Since(start)
	want := int64(n) * int64(n-1)
	// 10 s for 1,000,000 tasks: 10 µs a task, and at least 1 s for a small run, whose time is
	// mostly the scheduler's start and the garbage collector
	limit := max(time.Duration(n)*10*time.Microsecond, time.Second)
	o := Outcome{
		Loom:    fmt.Sprintf("sum %s in %s", commas(sum), ms(el)),
		Same:    sum == want && el < limit,
		Verdict: fmt.Sprintf("sum = n(n-1) = %s, %s (10 µs a task, at least 1 s)", commas(want), under(el, limit)),
		Figures: map[string]float64{"tasks": float64(n), "sum": float64(sum), "elapsed_ms": msf(el)},
	}
	if !c.full() {
		o.Scaling = fmt.Sprintf("ran %s tasks (full: 1,000,000)", commas(int64(n)))
	}
	return o
}
