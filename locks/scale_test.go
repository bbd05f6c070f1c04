//go:build !race

package locks_test

import (
	"testing"
	"time"

	"github.com/loomgo/loom/internal/testutil"
	"github.com/loomgo/loom/locks"
	"github.com/loomgo/loom/thread"
)

// 100,000 virtual threads parked on one latch, then all through one lock and one monitor.
func TestScaleHundredThousandVirtualThreadsOnLatchLockAndMonitor(t *testing.T) {
	const n = 100_000
	start := time.Now()
	gate := locks.NewCountDownLatch(1)
	var l locks.ReentrantLock
	var m locks.Monitor
	a, b := 0, 0
	ths := make([]*thread.Thread, n)
	for i := range ths {
		ths[i] = thread.StartVirtualThread(func() {
			if err := gate.Await(); err != nil {
				t.Error(err)
			}
			l.Lock()
			a++
			l.Unlock()
			m.Synchronized(func() { b++ })
		})
	}
	// a generous bound: on a loaded 2-core machine starting 100,000 threads can take a while
	for deadline := time.Now().Add(2 * time.Minute); gate.Count() != 1 || ths[n-1].State() != thread.Waiting; {
		if time.Now().After(deadline) {
			t.Fatalf("not all waiting after 2 minutes: last thread %v", ths[n-1].State())
		}
		time.Sleep(time.Millisecond)
	}
	gate.CountDown()
	for _, th := range ths {
		testutil.Join(t, th)
	}
	if a != n || b != n {
		t.Fatalf("a=%d b=%d, want %d", a, b, n)
	}
	t.Logf("%d threads through latch, lock and monitor in %v", n, time.Since(start))
}
