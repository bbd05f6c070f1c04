//go:build !race

package queue_test

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/loomgo/loom/queue"
	"github.com/loomgo/loom/thread"
)

// Ten thousand virtual threads blocked in Take on one queue hold no carrier: a producer on the
// same two-carrier scheduler still runs and feeds them all. (Not under -race: the race detector
// allows at most 8,128 live goroutines.)
func TestTenThousandVirtualTakersParkWithoutHoldingCarriers(t *testing.T) {
	const n = 10_000
	s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 2})
	defer s.Close()
	q := queue.NewArrayBlockingQueue[int](16, false)
	var sum atomic.Int64
	ths := make([]*thread.Thread, n)
	for i := range ths {
		ths[i] = thread.OfVirtual().Scheduler(s).Start(func() {
			e, err := q.Take()
			if err != nil {
				t.Error(err)
			}
			sum.Add(int64(e))
		})
	}
	for s.Stats().Parked < n {
		time.Sleep(10 * time.Millisecond)
	}
	producer := thread.OfVirtual().Scheduler(s).Start(func() {
		for i := 1; i <= n; i++ {
			q.Put(i)
		}
	})
	join(t, producer)
	for _, th := range ths {
		join(t, th)
	}
	if want := int64(n * (n + 1) / 2); sum.Load() != want {
		t.Errorf("sum = %d, want %d", sum.Load(), want)
	}
}
