// Package locks benchmarks loom's locks against their Go peers that need a module loom itself
// does not depend on: locks.Semaphore against golang.org/x/sync/semaphore.Weighted. The
// sync.Mutex and sync.RWMutex comparisons live beside the locks package's own benchmarks.
package locks
