package locks_test

//lint:file-ignore SA2001 the test counts the allocations of an empty lock+unlock itself.

import (
	"testing"

	"github.com/loomgo/loom/locks"
)

// The uncontended paths are a CAS on a state word: no queue node, no allocation.
func TestUncontendedPathsDoNotAllocate(t *testing.T) {
	var l locks.ReentrantLock
	fair := locks.NewReentrantLock(true)
	var m locks.Monitor
	var rw locks.ReentrantReadWriteLock
	s := locks.NewSemaphore(1, true)
	latch := locks.NewCountDownLatch(1 << 30)
	cases := map[string]func(){
		"ReentrantLock":      func() { l.Lock(); l.Lock(); l.Unlock(); l.Unlock() },
		"ReentrantLock.Try":  func() { l.TryLock(); l.Unlock() },
		"fair ReentrantLock": func() { fair.Lock(); fair.Unlock() },
		"LockInterruptibly":  func() { l.LockInterruptibly(); l.Unlock() },
		"Monitor":            func() { m.Enter(); m.Exit() },
		"ReadLock":           func() { rw.ReadLock().Lock(); rw.ReadLock().Unlock() },
		"WriteLock":          func() { rw.WriteLock().Lock(); rw.WriteLock().Unlock() },
		"Semaphore":          func() { s.Acquire(); s.Release() },
		"CountDown":          func() { latch.CountDown() },
	}
	for name, f := range cases {
		f() // warm the current-thread cache
		if n := testing.AllocsPerRun(100, f); n != 0 {
			t.Errorf("%s: %v allocations per run, want 0", name, n)
		}
	}
}
