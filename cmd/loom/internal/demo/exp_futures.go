package demo

import (
	"fmt"
	"time"

	"github.com/loomgo/loom/thread"
)

// futures1M submits 1,000,000 tasks that return id*2 and sums their results.
func futures1M(c *Config) Outcome {
	n := c.n(1_000_000, 10)
	s := thread.NewScheduler(thread.SchedulerOptions{})
	defer s.Close()
	res := make([]int64, n)
	start := time.Now()
	b := thread.OfVirtual().Scheduler(s)
	ths := make([]*thread.Thread, n)
	for i := range n {
		ths[i] = b.Start(func() { res[i] = int64(i) * 2 })
	}
	var sum int64
	for i, t := range ths {
		t.Join()
		sum += res[i]
	}
	el := time.Since(start)
	want := int64(n) * int64(n-1)
	limit := 10 * time.Second
	o := Outcome{
		Loom:    fmt.Sprintf("sum %s in %s", commas(sum), ms(el)),
		Same:    sum == want && el < limit,
		Verdict: fmt.Sprintf("sum = n(n-1) = %s, %s < %s", commas(want), ms(el), ms(limit)),
		Figures: map[string]float64{"tasks": float64(n), "sum": float64(sum), "elapsed_ms": msf(el)},
	}
	if !c.full() {
		o.Scaling = fmt.Sprintf("ran %s tasks (full: 1,000,000)", commas(int64(n)))
	}
	return o
}
