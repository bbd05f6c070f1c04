package thread_test

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/loomgo/loom/internal/testutil"
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
// per thread (heap plus stacks in use after a collection while they all sleep).
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
			runtime.GC() // what the sleepers hold, not what garbage the start left (see loom bench's peak RSS case)
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
	b.Run("park-unpark", func(b *testing.B) { parkPingPong(thread.OfVirtual())(b.N) })
	b.Run("channel", func(b *testing.B) { chanPingPong(b.N) })
}

// parkPingPong returns a loop of n round trips of a turn between two virtual threads of vb,
// handed over with Park and Unpark.
func parkPingPong(vb *thread.VirtualBuilder) func(n int) {
	return func(n int) {
		var turn atomic.Int64 // even: ping's turn, odd: pong's
		var ping, pong *thread.Thread
		player := func(first int64, other **thread.Thread) func() {
			return func() {
				for i := first; i < 2*int64(n); i += 2 {
					for turn.Load() != i {
						thread.Park()
					}
					turn.Store(i + 1)
					thread.Unpark(*other)
				}
			}
		}
		ping = vb.Unstarted(player(0, &pong))
		pong = vb.Unstarted(player(1, &ping))
		ping.Start()
		pong.Start()
		ping.Join()
		pong.Join()
	}
}

// chanPingPong is n round trips between two goroutines on unbuffered channels.
func chanPingPong(n int) {
	a, c := make(chan struct{}), make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range a {
			c <- struct{}{}
		}
	}()
	for range n {
		a <- struct{}{}
		<-c
	}
	close(a)
	<-done
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
	parkPingPong(thread.OfVirtual().Scheduler(s))(b.N)
}

// Issue 14's thread rows, each against its goroutine twin in alternating rounds (testutil.Pair
// reports the median ratio): start+join of a virtual thread against go + WaitGroup (target
// <= 1.6), from a goroutine and from a virtual thread; Park/Unpark ping-pong between two virtual
// threads against two goroutines on unbuffered channels (target <= 1.5), on the default
// scheduler and on one carrier (whose target is JDK 25's figure on the same machine).
func BenchmarkVsGoroutines(b *testing.B) {
	startJoin := func(n int) {
		for range n {
			thread.StartVirtualThread(func() {}).Join()
		}
	}
	b.Run("StartJoin", func(b *testing.B) { testutil.Pair(b, goStartJoin, startJoin) })
	b.Run("StartJoinOnVirtualThread", func(b *testing.B) {
		thread.StartVirtualThread(func() { testutil.Pair(b, goStartJoin, startJoin) }).Join()
	})
	b.Run("PingPong", func(b *testing.B) { testutil.Pair(b, chanPingPong, parkPingPong(thread.OfVirtual())) })
	b.Run("PingPongOneCarrier", func(b *testing.B) {
		s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 1})
		defer s.Close()
		testutil.Pair(b, chanPingPong, parkPingPong(thread.OfVirtual().Scheduler(s)))
	})
}

// goStartJoin is n starts and joins of a goroutine (go + WaitGroup): the baseline of start+join.
func goStartJoin(n int) {
	for range n {
		var wg sync.WaitGroup
		wg.Add(1)
		go func() { wg.Done() }()
		wg.Wait()
	}
}
