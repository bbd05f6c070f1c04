package forkjoin_test

import (
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/loomgo/loom/forkjoin"
)

// The benchmarks: fib(30) as a RecursiveTask with a sequential threshold, and a
// parallel sum of 100M ints, each against the sequential code and against a hand-written
// goroutine + WaitGroup divide-and-conquer with the same threshold. Compare the sub-benchmarks
// of one run (speed-up = sequential / forkjoin; ratio to Go = forkjoin / waitgroup).

const (
	fibN         = 30
	fibThreshold = 20 // fib(n) for n <= 20 runs sequentially: ~1,800 tasks for fib(30)
	sumLen       = 100_000_000
	sumThreshold = 1 << 16 // 65,536 ints per leaf: ~1,500 leaves
)

var benchSink int64

func seqFib(n int) int {
	if n <= 1 {
		return n
	}
	return seqFib(n-1) + seqFib(n-2)
}

func fjFib(n int) *forkjoin.Task[int] {
	return forkjoin.NewRecursiveTask(func() (int, error) {
		if n <= fibThreshold {
			return seqFib(n), nil
		}
		f1 := fjFib(n - 1).Fork()
		r2, err := fjFib(n - 2).Invoke()
		if err != nil {
			return 0, err
		}
		r1, err := f1.Join()
		return r1 + r2, err
	})
}

func wgFib(n int) int {
	if n <= fibThreshold {
		return seqFib(n)
	}
	var wg sync.WaitGroup
	var r1 int
	wg.Add(1)
	go func() {
		defer wg.Done()
		r1 = wgFib(n - 1)
	}()
	r2 := wgFib(n - 2)
	wg.Wait()
	return r1 + r2
}

func BenchmarkFib30(b *testing.B) {
	b.Run("sequential", func(b *testing.B) {
		for b.Loop() {
			benchSink = int64(seqFib(fibN))
		}
	})
	b.Run("forkjoin", func(b *testing.B) {
		p := forkjoin.NewPool(runtime.GOMAXPROCS(0))
		defer p.Close()
		for b.Loop() {
			v, err := forkjoin.Invoke(p, fjFib(fibN))
			if err != nil || v != 832040 {
				b.Fatal(v, err)
			}
			benchSink = int64(v)
		}
	})
	b.Run("waitgroup", func(b *testing.B) {
		for b.Loop() {
			benchSink = int64(wgFib(fibN))
		}
	})
}

var (
	sumOnce sync.Once
	sumData []int32
)

func sumInput() []int32 {
	sumOnce.Do(func() {
		sumData = make([]int32, sumLen)
		for i := range sumData {
			sumData[i] = int32(i % 1000)
		}
	})
	return sumData
}

// seqSum is the one copy of the sequential loop that every variant runs: inlined, each caller
// had its own copy, and the copies ran at speeds up to 2x apart with the code's alignment
// (sequential and wait-group runs 115 ms and 65 ms against forkjoin's 38 ms in one build,
// 65 ms and 38 ms in another), which made the speed-up read 3 to 4 on 2 cores.
//
//go:noinline
func seqSum(a []int32) int64 {
	var s int64
	for _, v := range a {
		s += int64(v)
	}
	return s
}

func fjSum(a []int32) *forkjoin.Task[int64] {
	return forkjoin.NewRecursiveTask(func() (int64, error) {
		if len(a) <= sumThreshold {
			return seqSum(a), nil
		}
		mid := len(a) / 2
		left := fjSum(a[:mid]).Fork()
		r, err := fjSum(a[mid:]).Invoke()
		if err != nil {
			return 0, err
		}
		l, err := left.Join()
		return l + r, err
	})
}

func wgSum(a []int32) int64 {
	if len(a) <= sumThreshold {
		return seqSum(a)
	}
	mid := len(a) / 2
	var wg sync.WaitGroup
	var l int64
	wg.Add(1)
	go func() {
		defer wg.Done()
		l = wgSum(a[:mid])
	}()
	r := wgSum(a[mid:])
	wg.Wait()
	return l + r
}

func BenchmarkSum100M(b *testing.B) {
	data := sumInput()
	want := seqSum(data)
	b.Run("sequential", func(b *testing.B) {
		for b.Loop() {
			benchSink = seqSum(data)
		}
	})
	b.Run("forkjoin", func(b *testing.B) {
		p := forkjoin.NewPool(runtime.GOMAXPROCS(0))
		defer p.Close()
		for b.Loop() {
			v, err := forkjoin.Invoke(p, fjSum(data))
			if err != nil || v != want {
				b.Fatal(v, err)
			}
			benchSink = v
		}
	})
	b.Run("waitgroup", func(b *testing.B) {
		for b.Loop() {
			benchSink = wgSum(data)
		}
	})
}

// BenchmarkForkJoinFine is fib(20) with no threshold (one task per call, ~22,000 tasks): the
// per-task cost of fork, join and steal.
func BenchmarkForkJoinFine(b *testing.B) {
	p := forkjoin.NewPool(runtime.GOMAXPROCS(0))
	defer p.Close()
	for b.Loop() {
		if v, err := forkjoin.Invoke(p, fib(20)); err != nil || v != 6765 {
			b.Fatal(v, err)
		}
	}
}

// paired runs the variants of one computation in turn, b.N rounds (rotating which goes first,
// so that load on a shared machine falls on all of them alike), and reports the median time of
// each and the ratios the issue sets targets for: speedup = sequential / forkjoin (≥ 1.8 on 2
// cores) and fj/wg = forkjoin / waitgroup (≤ 1.2).
func paired(b *testing.B, sequential, fj, wg func()) {
	fs := []func(){sequential, fj, wg}
	times := make([][]time.Duration, len(fs))
	for i := 0; b.Loop(); i++ {
		for k := range fs {
			j := (i + k) % len(fs)
			start := time.Now()
			fs[j]()
			times[j] = append(times[j], time.Since(start))
		}
	}
	med := make([]float64, len(fs))
	for j, ts := range times {
		slices.Sort(ts)
		med[j] = float64(ts[len(ts)/2])
	}
	b.ReportMetric(med[0]/1e6, "seq-ms")
	b.ReportMetric(med[1]/1e6, "fj-ms")
	b.ReportMetric(med[2]/1e6, "wg-ms")
	b.ReportMetric(med[0]/med[1], "speedup")
	b.ReportMetric(med[1]/med[2], "fj/wg")
}

func BenchmarkFib30Paired(b *testing.B) {
	p := forkjoin.NewPool(runtime.GOMAXPROCS(0))
	defer p.Close()
	paired(b,
		func() { benchSink = int64(seqFib(fibN)) },
		func() { v, _ := forkjoin.Invoke(p, fjFib(fibN)); benchSink = int64(v) },
		func() { benchSink = int64(wgFib(fibN)) })
}

func BenchmarkSum100MPaired(b *testing.B) {
	data := sumInput()
	p := forkjoin.NewPool(runtime.GOMAXPROCS(0))
	defer p.Close()
	paired(b,
		func() { benchSink = seqSum(data) },
		func() { benchSink, _ = forkjoin.Invoke(p, fjSum(data)) },
		func() { benchSink = wgSum(data) })
}
