package locks_test

import (
	"sync"
	"sync/atomic"
	"testing"

	"github.com/loomgo/loom/locks"
	"github.com/loomgo/loom/thread"
)

// Benchmarks for StampedLock and Exchanger against the Go baselines the issue names. Compare
// each pair within one run (benchstat, medians of -count runs).

var sinkInt64 int64

// BenchmarkAtomicLoadPair is the baseline of an optimistic read: two atomic loads.
func BenchmarkAtomicLoadPair(b *testing.B) {
	var w atomic.Int64
	w.Store(256)
	var s int64
	for b.Loop() {
		x := w.Load()
		y := w.Load()
		s += x ^ y
	}
	sinkInt64 = s
}

// BenchmarkStampedLockOptimisticRead is an uncontended TryOptimisticRead + Validate.
func BenchmarkStampedLockOptimisticRead(b *testing.B) {
	var l locks.StampedLock
	var s int64
	for b.Loop() {
		st := l.TryOptimisticRead()
		if l.Validate(st) {
			s += st
		}
	}
	sinkInt64 = s
}

// BenchmarkStampedLockWriteUnlock is an uncontended WriteLock + UnlockWrite.
func BenchmarkStampedLockWriteUnlock(b *testing.B) {
	var l locks.StampedLock
	for b.Loop() {
		l.UnlockWrite(l.WriteLock())
	}
}

// BenchmarkStampedLockReadUnlock is an uncontended ReadLock + UnlockRead.
func BenchmarkStampedLockReadUnlock(b *testing.B) {
	var l locks.StampedLock
	for b.Loop() {
		l.UnlockRead(l.ReadLock())
	}
}

// BenchmarkChanRoundTrip is the baseline of an exchange: one goroutine sends a value over an
// unbuffered channel and the other answers on another.
func BenchmarkChanRoundTrip(b *testing.B) {
	ping, pong := make(chan int), make(chan int)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for v := range ping {
			pong <- v + 1
		}
	}()
	for i := 0; b.Loop(); i++ {
		ping <- i
		<-pong
	}
	close(ping)
	wg.Wait()
}

// BenchmarkExchangerHandoff is one exchange between two goroutines (platform threads to loom).
func BenchmarkExchangerHandoff(b *testing.B) {
	var e locks.Exchanger[int]
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			if v, _ := e.Exchange(0); v < 0 {
				return
			}
		}
	}()
	for i := 0; b.Loop(); i++ {
		_, _ = e.Exchange(i)
	}
	_, _ = e.Exchange(-1)
	wg.Wait()
}

// BenchmarkExchangerHandoffVirtual is one exchange between two virtual threads.
func BenchmarkExchangerHandoffVirtual(b *testing.B) {
	var e locks.Exchanger[int]
	n := b.N
	other := thread.OfVirtual().Start(func() {
		for range n {
			_, _ = e.Exchange(0)
		}
	})
	b.ResetTimer()
	main := thread.OfVirtual().Start(func() {
		for i := range n {
			_, _ = e.Exchange(i)
		}
	})
	_ = main.Join()
	_ = other.Join()
}
