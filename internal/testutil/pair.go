package testutil

import (
	"slices"
	"testing"
	"time"
)

// Pair benchmarks subject against base in one benchmark: it runs them in alternating rounds
// of a few milliseconds each (the order swapped every round), so that both see the same load on
// a shared machine, and reports each one's median ns/op over the rounds (base-ns/op,
// subject-ns/op) and the median of the rounds' ratios subject/base (ratio). Each function runs
// its operation n times. b.N counts rounds.
//
// It also reports the ratio of the CPU time the process spent in each round (cpu-ratio): on a
// machine shared with busy neighbours the wall time of a round includes the time its threads
// waited for a core, while CPU time does not, so for an operation on one goroutine cpu-ratio is
// the steadier figure. (For operations spread over several goroutines the two differ in what
// they measure: CPU time also counts spinning.)
func Pair(b *testing.B, base, subject func(n int)) {
	b.Helper()
	n := 1
	for {
		start := time.Now()
		base(n)
		subject(n)
		if time.Since(start) >= 4*time.Millisecond || n >= 1<<30 {
			break
		}
		n *= 2
	}
	b.ResetTimer()
	var bs, ss, rs, cs []float64
	for i := range b.N {
		var tb, ts, cb, cts time.Duration
		if i%2 == 0 {
			tb, cb = timed(base, n)
			ts, cts = timed(subject, n)
		} else {
			ts, cts = timed(subject, n)
			tb, cb = timed(base, n)
		}
		bs = append(bs, float64(tb)/float64(n))
		ss = append(ss, float64(ts)/float64(n))
		rs = append(rs, float64(ts)/float64(tb))
		if cb > 0 && cts > 0 {
			cs = append(cs, float64(cts)/float64(cb))
		}
	}
	b.ReportMetric(median(bs), "base-ns/op")
	b.ReportMetric(median(ss), "subject-ns/op")
	b.ReportMetric(median(rs), "ratio")
	if len(cs) > 0 {
		b.ReportMetric(median(cs), "cpu-ratio")
	}
}

// timed returns the wall time and the process's CPU time that f(n) took.
func timed(f func(int), n int) (wall, cpu time.Duration) {
	c0 := processCPU()
	start := time.Now()
	f(n)
	wall = time.Since(start)
	return wall, processCPU() - c0
}

func median(xs []float64) float64 {
	slices.Sort(xs)
	return xs[len(xs)/2]
}
