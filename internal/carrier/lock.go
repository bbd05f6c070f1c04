package carrier

import (
	"runtime"
	"sync/atomic"
)

// Lock is a mutual exclusion lock for loom's machinery whose wait stays shallow on the stack: a
// contended Lock spins briefly and then yields the processor ([runtime.Gosched]) until the lock is
// free, where a [sync.Mutex] would sleep in the runtime's semaphore (runtime_SemacquireMutex,
// semacquire1, gopark: about 300 bytes of frames, and an allocation of a sudog the first time).
// A virtual thread's goroutine takes these locks deep in its park (handing its carrier on,
// queueing its timeout, registering itself), and a goroutine whose stack goes past its first
// 2 KB once keeps 4 KB for the rest of its life: with a million parked threads that is the
// difference between 2 and 4 GB.
//
// Critical sections under a Lock are a few dozen instructions; a holder that is preempted makes
// the others yield until it runs again. The zero value is unlocked.
type Lock struct{ v atomic.Uint32 }

// Lock locks l.
func (l *Lock) Lock() {
	if !l.v.CompareAndSwap(0, 1) {
		l.lockSlow()
	}
}

//go:noinline
func (l *Lock) lockSlow() {
	for i := 0; ; i++ {
		if l.v.Load() == 0 && l.v.CompareAndSwap(0, 1) {
			return
		}
		if i >= 100 { // ~a microsecond: the holder runs on another core, or was preempted
			runtime.Gosched()
		}
	}
}

// Unlock unlocks l.
func (l *Lock) Unlock() { l.v.Store(0) }
