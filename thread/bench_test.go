package thread_test

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/loomgo/loom/thread"
)

// Benchmarks come in pairs: loom and the Go baseline it should be compared with, run in the
// same process. `go run ./cmd/loom bench` prints the ratios.

func BenchmarkStartJoin(b *testing.B) {
	b.Run("virtual", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			thread.StartVirtualThread(func() {}).Join()
		}
	})
	b.Run("goroutine+WaitGroup", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var wg sync.WaitGroup
			wg.Add(1)
			go func() { wg.Done() }()
			wg.Wait()
		}
	})
	b.Run("platform", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			thread.OfPlatform().Start(func() {}).Join()
		}
	})
}

// BenchmarkSleepers runs n threads that each sleep for d, and reports the wall time and memory
// per thread (heap plus stacks in use while they all sleep).
func BenchmarkSleepers(b *testing.B) {
	const n = 100_000
	d := time.Second
	if testing.Short() {
		d = 100 * time.Millisecond
	}
	if raceEnabled {
		b.Skip("the race detector allows 8,128 goroutines")
	}
	measure := func(b *testing.B, start func(asleep *atomic.Int64) (waitAll func())) {
		for b.Loop() {
			var before, during runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			var asleep atomic.Int64
			waitAll := start(&asleep)
			for asleep.Load() < n {
				time.Sleep(time.Millisecond)
			}
			runtime.ReadMemStats(&during)
			waitAll()
			b.ReportMetric(float64(during.HeapInuse+during.StackInuse-before.HeapInuse-before.StackInuse)/n, "B/thread")
		}
	}
	b.Run("virtual", func(b *testing.B) {
		measure(b, func(asleep *atomic.Int64) func() {
			ths := make([]*thread.Thread, n)
			for i := range ths {
				ths[i] = thread.StartVirtualThread(func() {
					asleep.Add(1)
					thread.Sleep(d)
				})
			}
			return func() {
				for _, t := range ths {
					t.Join()
				}
			}
		})
	})
	b.Run("goroutine", func(b *testing.B) {
		measure(b, func(asleep *atomic.Int64) func() {
			var wg sync.WaitGroup
			for range n {
				wg.Add(1)
				go func() {
					defer wg.Done()
					asleep.Add(1)
					time.Sleep(d)
				}()
			}
			return wg.Wait
		})
	})
}

func BenchmarkPingPong(b *testing.B) {
	b.Run("park-unpark", func(b *testing.B) {
		var turn atomic.Int64 // even: ping's turn, odd: pong's
		var ping, pong *thread.Thread
		n := int64(b.N)
		ready := make(chan struct{})
		pong = thread.OfVirtual().Unstarted(func() {
			<-ready
			for i := int64(1); i < 2*n; i += 2 {
				for turn.Load() != i {
					thread.Park()
				}
				turn.Store(i + 1)
				thread.Unpark(ping)
			}
		})
		b.ResetTimer()
		ping = thread.StartVirtualThread(func() {
			close(ready)
			for i := int64(0); i < 2*n; i += 2 {
				for turn.Load() != i {
					thread.Park()
				}
				turn.Store(i + 1)
				thread.Unpark(pong)
			}
		})
		pong.Start()
		ping.Join()
		pong.Join()
	})
	b.Run("channel", func(b *testing.B) {
		a, c := make(chan struct{}), make(chan struct{})
		done := make(chan struct{})
		go func() {
			for range a {
				c <- struct{}{}
			}
			close(done)
		}()
		for b.Loop() {
			a <- struct{}{}
			<-c
		}
		close(a)
		<-done
	})
}

// BenchmarkBurst: b.N tasks that never block, as virtual threads (they run inline on the
// carriers) and as a goroutine each.
func BenchmarkBurst(b *testing.B) {
	b.Run("virtual", func(b *testing.B) {
		b.ReportAllocs()
		var wg sync.WaitGroup
		wg.Add(b.N)
		f := thread.OfVirtual().Factory()
		for range b.N {
			f.NewThread(wg.Done).Start()
		}
		wg.Wait()
	})
	b.Run("goroutine", func(b *testing.B) {
		b.ReportAllocs()
		var wg sync.WaitGroup
		wg.Add(b.N)
		for range b.N {
			go wg.Done()
		}
		wg.Wait()
	})
}

func BenchmarkCurrent(b *testing.B) {
	for b.Loop() {
		_ = thread.Current()
	}
}

// BenchmarkPingPongOneCarrier is BenchmarkPingPong's park-unpark on a scheduler of one carrier
// (the JDK's -Djdk.virtualThreadScheduler.parallelism=1): every hand-off goes through the run
// queue, none through an idle carrier.
func BenchmarkPingPongOneCarrier(b *testing.B) {
	b.ReportAllocs()
	s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 1})
	defer s.Close()
	var turn atomic.Int64
	var ping, pong *thread.Thread
	n := int64(b.N)
	vb := thread.OfVirtual().Scheduler(s)
	pong = vb.Unstarted(func() {
		for i := int64(1); i < 2*n; i += 2 {
			for turn.Load() != i {
				thread.Park()
			}
			turn.Store(i + 1)
			thread.Unpark(ping)
		}
	})
	b.ResetTimer()
	ping = vb.Start(func() {
		for i := int64(0); i < 2*n; i += 2 {
			for turn.Load() != i {
				thread.Park()
			}
			turn.Store(i + 1)
			thread.Unpark(pong)
		}
	})
	pong.Start()
	ping.Join()
	pong.Join()
}
