//go:build !race

package thread_test

import (
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/loomgo/loom/thread"
)

// TestScaleMillionVirtualThreadsParkedAtOnce parks 1,000,000 virtual threads at the same time,
// then wakes them all. (Not under -race: the race detector allows 8,128 goroutines.)
func TestScaleMillionVirtualThreadsParkedAtOnce(t *testing.T) {
	const n = 1_000_000
	s := thread.NewScheduler(thread.SchedulerOptions{})
	defer s.Close()
	var woke atomic.Int64
	ths := make([]*thread.Thread, n)
	var before runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	for i := range ths {
		ths[i] = thread.OfVirtual().Scheduler(s).Start(func() {
			thread.Park()
			woke.Add(1)
		})
	}
	deadline := time.Now().Add(2 * time.Minute)
	for s.Stats().Parked != n {
		if time.Now().After(deadline) {
			t.Fatalf("only %d of %d parked: %+v", s.Stats().Parked, n, s.Stats())
		}
		time.Sleep(10 * time.Millisecond)
	}
	parkedIn := time.Since(start)
	var during runtime.MemStats
	runtime.ReadMemStats(&during)
	for _, th := range ths {
		if th.State() != thread.Waiting {
			t.Fatalf("%v not waiting", th)
		}
	}
	for _, th := range ths {
		thread.Unpark(th)
	}
	for _, th := range ths {
		th.Join()
	}
	if woke.Load() != n {
		t.Fatalf("woke %d of %d", woke.Load(), n)
	}
	perThread := (during.HeapInuse + during.StackInuse - before.HeapInuse - before.StackInuse) / n
	t.Logf("1M parked in %v, ~%d bytes per parked virtual thread, all woken in %v", parkedIn, perThread, time.Since(start))
}

// TestScaleMillionNonBlockingTasksUseFewGoroutines: a burst of a million tasks that never block
// runs inline on the carriers: the number of goroutines stays near the number of carriers.
func TestScaleMillionNonBlockingTasksUseFewGoroutines(t *testing.T) {
	const n = 1_000_000
	s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 2})
	defer s.Close()
	var sum atomic.Int64
	var peak atomic.Int64
	base := goroutines()
	last := thread.OfVirtual().Scheduler(s).Unstarted(func() {})
	for i := range n {
		th := thread.OfVirtual().Scheduler(s).Unstarted(func() {
			sum.Add(int64(i))
			if i%1000 == 0 {
				if g := goroutines() - base; g > peak.Load() {
					peak.Store(g)
				}
			}
		})
		th.Start()
	}
	last.Start()
	last.Join()
	for s.Stats().Live != 0 {
		time.Sleep(time.Millisecond)
	}
	if want := int64(n) * (n - 1) / 2; sum.Load() != want {
		t.Fatalf("sum %d, want %d", sum.Load(), want)
	}
	if peak.Load() > 16 {
		t.Fatalf("a burst of non-blocking tasks used up to %d extra goroutines, want about the carriers (2)", peak.Load())
	}
}

// goroutines returns runtime.NumGoroutine, read three times, the smallest. Right after a million
// goroutines have ended (the test above), the runtime's count can read high for a moment while
// their dead g structures move between its free lists (it is computed from those lists without
// a lock); a real excess of goroutines persists across the reads.
func goroutines() int64 {
	n := runtime.NumGoroutine()
	for range 2 {
		runtime.Gosched()
		n = min(n, runtime.NumGoroutine())
	}
	return int64(n)
}
