package locks_test

//lint:file-ignore SA2001 the benchmarks measure the cost of an empty lock+unlock itself.

import (
	"sync"
	"testing"

	"github.com/loomgo/loom/internal/testutil"
	"github.com/loomgo/loom/locks"
	"github.com/loomgo/loom/thread"
)

// Uncontended: one goroutine locking and unlocking. Target: ReentrantLock within 2x sync.Mutex.

func BenchmarkUncontendedSyncMutex(b *testing.B) {
	var m sync.Mutex
	for b.Loop() {
		m.Lock()
		m.Unlock()
	}
}

func BenchmarkUncontendedReentrantLock(b *testing.B) {
	var l locks.ReentrantLock
	for b.Loop() {
		l.Lock()
		l.Unlock()
	}
}

func BenchmarkUncontendedReentrantLockFair(b *testing.B) {
	l := locks.NewReentrantLock(true)
	for b.Loop() {
		l.Lock()
		l.Unlock()
	}
}

func BenchmarkUncontendedMonitor(b *testing.B) {
	var m locks.Monitor
	for b.Loop() {
		m.Enter()
		m.Exit()
	}
}

func BenchmarkUncontendedSyncRWMutexRLock(b *testing.B) {
	var m sync.RWMutex
	for b.Loop() {
		m.RLock()
		m.RUnlock()
	}
}

func BenchmarkUncontendedReadLock(b *testing.B) {
	var rw locks.ReentrantReadWriteLock
	r := rw.ReadLock()
	for b.Loop() {
		r.Lock()
		r.Unlock()
	}
}

func BenchmarkUncontendedWriteLock(b *testing.B) {
	var rw locks.ReentrantReadWriteLock
	w := rw.WriteLock()
	for b.Loop() {
		w.Lock()
		w.Unlock()
	}
}

func BenchmarkUncontendedSemaphore(b *testing.B) {
	s := locks.NewSemaphore(1, false)
	for b.Loop() {
		s.AcquireUninterruptibly()
		s.Release()
	}
}

// Contended: goroutines (RunParallel, plain goroutines to loom: platform threads) hammering one
// lock with a small critical section.

func BenchmarkContendedSyncMutex(b *testing.B) {
	var m sync.Mutex
	n := 0
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			m.Lock()
			n++
			m.Unlock()
		}
	})
}

func BenchmarkContendedReentrantLock(b *testing.B) {
	var l locks.ReentrantLock
	n := 0
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			l.Lock()
			n++
			l.Unlock()
		}
	})
}

func BenchmarkContendedReentrantLockFair(b *testing.B) {
	l := locks.NewReentrantLock(true)
	n := 0
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			l.Lock()
			n++
			l.Unlock()
		}
	})
}

func BenchmarkContendedSyncRWMutexRLock(b *testing.B) {
	var m sync.RWMutex
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			m.RLock()
			m.RUnlock()
		}
	})
}

func BenchmarkContendedReadLock(b *testing.B) {
	var rw locks.ReentrantReadWriteLock
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			rw.ReadLock().Lock()
			rw.ReadLock().Unlock()
		}
	})
}

// Contended among virtual threads: 8 virtual threads each doing b.N/8 lock/unlock pairs.
func BenchmarkContendedReentrantLockVirtual(b *testing.B) {
	var l locks.ReentrantLock
	n := 0
	const k = 8
	var ths []*thread.Thread
	for range k {
		ths = append(ths, thread.StartVirtualThread(func() {
			for range b.N / k {
				l.Lock()
				n++
				l.Unlock()
			}
		}))
	}
	for _, th := range ths {
		th.Join()
	}
}

// The same uncontended loops on a virtual thread (Monitor then also keeps the core's count of
// monitors held, for the pinning simulation).
func BenchmarkUncontendedReentrantLockOnVirtualThread(b *testing.B) {
	var l locks.ReentrantLock
	thread.StartVirtualThread(func() {
		for b.Loop() {
			l.Lock()
			l.Unlock()
		}
	}).Join()
}

func BenchmarkUncontendedMonitorOnVirtualThread(b *testing.B) {
	var m locks.Monitor
	thread.StartVirtualThread(func() {
		for b.Loop() {
			m.Enter()
			m.Exit()
		}
	}).Join()
}

// Issue 14's rows, each against sync.Mutex in alternating rounds (testutil.Pair reports the
// median ratio): uncontended ReentrantLock and Monitor on a goroutine loom did not start and
// on a virtual thread (targets <= 1.3), and two goroutines incrementing a counter under the
// lock (target <= 1.6).
func BenchmarkVsSyncMutex(b *testing.B) {
	mutex := func(n int) {
		var m sync.Mutex
		for range n {
			m.Lock()
			m.Unlock()
		}
	}
	reentrant := func(n int) {
		var l locks.ReentrantLock
		for range n {
			l.Lock()
			l.Unlock()
		}
	}
	monitor := func(n int) {
		var m locks.Monitor
		for range n {
			m.Enter()
			m.Exit()
		}
	}
	b.Run("ReentrantLock", func(b *testing.B) { testutil.Pair(b, mutex, reentrant) })
	b.Run("Monitor", func(b *testing.B) { testutil.Pair(b, mutex, monitor) })
	b.Run("ReentrantLockOnVirtualThread", func(b *testing.B) {
		thread.StartVirtualThread(func() { testutil.Pair(b, mutex, reentrant) }).Join()
	})
	b.Run("MonitorOnVirtualThread", func(b *testing.B) {
		thread.StartVirtualThread(func() { testutil.Pair(b, mutex, monitor) }).Join()
	})
	b.Run("Contended2/ReentrantLock", func(b *testing.B) {
		testutil.Pair(b, contended2(func() sync.Locker { return new(sync.Mutex) }),
			contended2(func() sync.Locker { return new(locks.ReentrantLock) }))
	})
}

// contended2 returns a loop of n increments of a counter under a lock made by mk, split over
// two goroutines.
func contended2(mk func() sync.Locker) func(int) {
	return func(n int) {
		l := mk()
		count := 0
		var wg sync.WaitGroup
		for i := range 2 {
			wg.Go(func() {
				defer thread.Detach()
				for range n/2 + i*(n%2) {
					l.Lock()
					count++
					l.Unlock()
				}
			})
		}
		wg.Wait()
	}
}
