package bench

//lint:file-ignore SA2001 the read-lock rows measure the cost of an empty lock+unlock itself, as the Java rows do.

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/loomgo/loom/forkjoin"
	"github.com/loomgo/loom/locks"
)

// jucCases compare the fork/join pool and the newer java.util.concurrent synchronizers with
// the Go code that does the same.
func jucCases() []Case {
	const fibN, threshold = 30, 20
	var seqFib func(n int) int
	seqFib = func(n int) int {
		if n <= 1 {
			return n
		}
		return seqFib(n-1) + seqFib(n-2)
	}
	var wgFib func(n int) int
	wgFib = func(n int) int {
		if n <= threshold {
			return seqFib(n)
		}
		var wg sync.WaitGroup
		var r1 int
		wg.Add(1)
		go func() { defer wg.Done(); r1 = wgFib(n - 1) }()
		r2 := wgFib(n - 2)
		wg.Wait()
		return r1 + r2
	}
	var fjFib func(n int) *forkjoin.Task[int]
	fjFib = func(n int) *forkjoin.Task[int] {
		return forkjoin.NewRecursiveTask(func() (int, error) {
			if n <= threshold {
				return seqFib(n), nil
			}
			f1 := fjFib(n - 1).Fork()
			r2, _ := fjFib(n - 2).Invoke()
			r1, err := f1.Join()
			return r1 + r2, err
		})
	}
	const fibGroup = "fib(30), sequential below 21"
	return []Case{
		{Group: fibGroup, Name: "sequential", F: func(b *testing.B) {
			for b.Loop() {
				seqFib(fibN)
			}
		}},
		{Group: fibGroup, Name: "goroutines + WaitGroup", F: func(b *testing.B) {
			for b.Loop() {
				wgFib(fibN)
			}
		}},
		{Group: fibGroup, Name: "forkjoin.Pool, RecursiveTask", F: func(b *testing.B) {
			p := forkjoin.NewPool(runtime.GOMAXPROCS(0))
			defer p.Close()
			for b.Loop() {
				forkjoin.Invoke(p, fjFib(fibN))
			}
		}},

		{Group: "read-side cost of a read lock", Name: "two atomic loads", F: func(b *testing.B) {
			var w atomic.Int64
			for b.Loop() {
				_ = w.Load() + w.Load()
			}
		}},
		{Group: "read-side cost of a read lock", Name: "locks.StampedLock TryOptimisticRead+Validate", F: func(b *testing.B) {
			var l locks.StampedLock
			for b.Loop() {
				l.Validate(l.TryOptimisticRead())
			}
		}},
		{Group: "read-side cost of a read lock", Name: "sync.RWMutex RLock+RUnlock", F: func(b *testing.B) {
			var mu sync.RWMutex
			for b.Loop() {
				mu.RLock()
				mu.RUnlock()
			}
		}},

		{Group: "hand-off between two threads", Name: "unbuffered channels, round trip", F: func(b *testing.B) {
			ping, pong := make(chan int), make(chan int)
			go func() {
				for v := range ping {
					pong <- v
				}
			}()
			for i := 0; b.Loop(); i++ {
				ping <- i
				<-pong
			}
			close(ping)
		}},
		{Group: "hand-off between two threads", Name: "locks.Exchanger, goroutines", F: func(b *testing.B) {
			var e locks.Exchanger[int]
			done := make(chan struct{})
			go func() {
				defer close(done)
				for {
					v, err := e.Exchange(0)
					if err != nil {
						b.Error(err)
						return
					}
					if v < 0 {
						return
					}
				}
			}()
			for i := 0; b.Loop(); i++ {
				if _, err := e.Exchange(i); err != nil {
					b.Fatal(err)
				}
			}
			if _, err := e.Exchange(-1); err != nil {
				b.Fatal(err)
			}
			<-done
		}},
	}
}
