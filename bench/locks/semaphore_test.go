package locks

import (
	"context"
	"testing"

	"github.com/loomgo/loom/locks"
	"github.com/loomgo/loom/thread"
	"golang.org/x/sync/semaphore"
)

func BenchmarkUncontendedXSyncSemaphore(b *testing.B) {
	s := semaphore.NewWeighted(1)
	ctx := context.Background()
	for b.Loop() {
		s.Acquire(ctx, 1)
		s.Release(1)
	}
}

func BenchmarkUncontendedLoomSemaphore(b *testing.B) {
	s := locks.NewSemaphore(1, false)
	for b.Loop() {
		s.Acquire()
		s.Release()
	}
}

func BenchmarkTryAcquireXSyncSemaphore(b *testing.B) {
	s := semaphore.NewWeighted(1)
	for b.Loop() {
		s.TryAcquire(1)
		s.Release(1)
	}
}

func BenchmarkTryAcquireLoomSemaphore(b *testing.B) {
	s := locks.NewSemaphore(1, false)
	for b.Loop() {
		s.TryAcquire()
		s.Release()
	}
}

// Contended: RunParallel goroutines sharing 2 permits (x/sync's Weighted is FIFO, like a fair
// loom Semaphore).

func BenchmarkContendedXSyncSemaphore(b *testing.B) {
	s := semaphore.NewWeighted(2)
	ctx := context.Background()
	b.SetParallelism(4)
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			s.Acquire(ctx, 1)
			s.Release(1)
		}
	})
}

func BenchmarkContendedLoomSemaphore(b *testing.B) {
	s := locks.NewSemaphore(2, false)
	b.SetParallelism(4)
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			s.AcquireUninterruptibly()
			s.Release()
		}
	})
}

func BenchmarkContendedLoomSemaphoreFair(b *testing.B) {
	s := locks.NewSemaphore(2, true)
	b.SetParallelism(4)
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			s.AcquireUninterruptibly()
			s.Release()
		}
	})
}

// Virtual threads contending on loom's semaphore (x/sync would block the carrier instead).
func BenchmarkContendedLoomSemaphoreVirtual(b *testing.B) {
	s := locks.NewSemaphore(2, false)
	const k = 8
	var ths []*thread.Thread
	for range k {
		ths = append(ths, thread.StartVirtualThread(func() {
			for range b.N / k {
				s.AcquireUninterruptibly()
				s.Release()
			}
		}))
	}
	for _, th := range ths {
		th.Join()
	}
}
