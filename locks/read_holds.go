package locks

import (
	"sync"
	"sync/atomic"

	"github.com/loomgo/loom/thread"
)

// readHolds counts the read holds of each thread on one ReentrantReadWriteLock, for reentrancy,
// ReadHoldCount and the ownership check of ReadLock.Unlock (Java keeps them in a ThreadLocal
// HoldCounter).
//
// The first thread to read-lock the lock takes a dedicated slot (first, firstHolds) and keeps it
// even when its count drops to zero, so a thread that reads repeatedly pays one atomic load and
// a plain increment, not a second atomic write. firstHolds is touched only by the thread in
// first. The slot passes to another reader only once its thread has terminated (its last writes
// happen before its termination, which the new owner observes). Other readers use a map split
// into shards by thread id, so readers on different shards do not contend. A thread may have
// holds in both places (it held through the map, then took over the slot); its count is the sum.
type readHolds struct {
	first      atomic.Pointer[thread.Thread]
	firstHolds int32 // touched only by the thread in first
	shards     [8]holdShard
}

type holdShard struct {
	mu sync.Mutex
	m  map[*thread.Thread]int32
	_  [40]byte
}

func (h *readHolds) shard(t *thread.Thread) *holdShard {
	return &h.shards[t.ThreadID()&int64(len(h.shards)-1)]
}

func (h *readHolds) mapCount(t *thread.Thread) int32 {
	sh := h.shard(t)
	sh.mu.Lock()
	n := sh.m[t]
	sh.mu.Unlock()
	return n
}

// count returns t's read holds; t must be the current thread.
func (h *readHolds) count(t *thread.Thread) int {
	n := int32(0)
	if h.first.Load() == t {
		n = h.firstHolds
	}
	return int(n + h.mapCount(t))
}

// has reports whether t, the current thread, holds the read lock.
func (h *readHolds) has(t *thread.Thread) bool {
	if h.first.Load() == t && h.firstHolds > 0 {
		return true
	}
	return h.mapCount(t) > 0
}

// inc records one more read hold of t, the current thread.
func (h *readHolds) inc(t *thread.Thread) {
	f := h.first.Load()
	if f == t {
		h.firstHolds++
		return
	}
	if (f == nil || f.State() == thread.Terminated) && h.first.CompareAndSwap(f, t) {
		h.firstHolds = 1
		return
	}
	sh := h.shard(t)
	sh.mu.Lock()
	if sh.m == nil {
		sh.m = make(map[*thread.Thread]int32)
	}
	sh.m[t]++
	sh.mu.Unlock()
}

// dec removes one read hold of t, the current thread, and reports false if it had none.
func (h *readHolds) dec(t *thread.Thread) bool {
	if h.first.Load() == t && h.firstHolds > 0 {
		h.firstHolds--
		return true
	}
	sh := h.shard(t)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	n, ok := sh.m[t]
	if !ok {
		return false
	}
	if n == 1 {
		delete(sh.m, t)
	} else {
		sh.m[t] = n - 1
	}
	return true
}
