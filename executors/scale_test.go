//go:build !race

package executors_test

import (
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/loomgo/loom/executors"
	"github.com/loomgo/loom/thread"
)

// The classic: 1,000,000 tasks returning id*2 on virtual threads, summed through their futures
// (Java: 999,999,000,000 in 569 ms).
func TestMillionTasksSumThroughFutures(t *testing.T) {
	const n = 1_000_000
	start := time.Now()
	e := executors.NewVirtualThreadPerTaskExecutor()
	fs := make([]executors.Future[int64], n)
	for i := range n {
		id := int64(i)
		f, err := executors.Submit(e, func() (int64, error) { return id * 2, nil })
		if err != nil {
			t.Fatal(err)
		}
		fs[i] = f
	}
	var sum int64
	for _, f := range fs {
		v, err := f.Get()
		if err != nil {
			t.Fatal(err)
		}
		sum += v
	}
	e.Close()
	t.Logf("1,000,000 futures summed in %v", time.Since(start))
	if sum != 999_999_000_000 {
		t.Fatalf("sum = %d", sum)
	}
}

// The classic: 10,000 tasks x 100 ms on a fixed pool of 200 platform threads (~5 s: 50 waves)
// against one virtual thread per task (~0.1-0.2 s). Java: 5,048 ms vs 154 ms.
func TestScaleTenThousandSleepsFixedPoolVersusVirtual(t *testing.T) {
	if testing.Short() {
		t.Skip("5 s")
	}
	run := func(es executors.ExecutorService) time.Duration {
		start := time.Now()
		for range 10_000 {
			if err := es.Execute(func() { thread.Sleep(100 * time.Millisecond) }); err != nil {
				t.Fatal(err)
			}
		}
		es.Close()
		return time.Since(start)
	}
	fixed := run(executors.NewFixedThreadPool(200))
	virtual := run(executors.NewVirtualThreadPerTaskExecutor())
	t.Logf("10,000 x 100 ms: fixed pool of 200 %v, virtual %v (ratio %.0f)", fixed, virtual, float64(fixed)/float64(virtual))
	// The pool needs 50 waves of 100 ms whatever the machine does; the virtual threads sleep
	// all at once. On a loaded machine both take longer, so the shape is checked as a ratio.
	if fixed < 4900*time.Millisecond {
		t.Errorf("fixed pool took %v: fewer than 50 waves of 100 ms", fixed)
	}
	if 2*virtual > fixed {
		t.Errorf("virtual took %v, fixed pool %v: want the virtual threads several times faster", virtual, fixed)
	}
}

// The classic: 10,000 sleeping tasks on a cached pool. Each needs its own platform thread; past
// the process's limit Execute fails with ErrThreadLimit (Java: "unable to create native thread")
// instead of crashing the runtime, and the tasks already accepted run to their end.
func TestScaleCachedPoolTenThousandSleepersRunOrFailCleanly(t *testing.T) {
	if testing.Short() {
		t.Skip("thousands of OS threads")
	}
	p := executors.NewCachedThreadPool()
	var ran atomic.Int32
	accepted, failed := 0, 0
	for range 10_000 {
		err := p.Execute(func() { thread.Sleep(time.Second); ran.Add(1) })
		switch {
		case err == nil:
			accepted++
		case errors.Is(err, thread.ErrThreadLimit) && errors.Is(err, executors.ErrRejected):
			failed++
		default:
			t.Fatalf("Execute = %v", err)
		}
	}
	peak := p.LargestPoolSize()
	p.Close()
	t.Logf("cached pool: %d accepted (peak %d OS threads, limit %d), %d failed at the limit",
		accepted, peak, thread.PlatformThreadLimit(), failed)
	if int(ran.Load()) != accepted || accepted+failed != 10_000 {
		t.Fatalf("ran %d of %d accepted", ran.Load(), accepted)
	}
}
