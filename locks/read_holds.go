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
// As in Java, the first thread to read-lock a free lock keeps its count in a dedicated field
// (first, firstHolds): the common cases (one reader at a time, or a reader that re-enters) then
// cost an atomic load and an increment. Other readers use a map split into shards by thread id,
// so readers on different shards do not contend. A thread may briefly have holds in both places
// (it held through the map, then became first); its count is the sum.
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

// count returns t's read holds; only exact when t is the current thread.
func (h *readHolds) count(t *thread.Thread) int {
	n := int32(0)
	if h.first.Load() == t {
		n = h.firstHolds
	}
	sh := h.shard(t)
	sh.mu.Lock()
	n += sh.m[t]
	sh.mu.Unlock()
	return int(n)
}

// has reports whether t (the current thread) holds the read lock.
func (h *readHolds) has(t *thread.Thread) bool {
	if h.first.Load() == t {
		return true
	}
	sh := h.shard(t)
	sh.mu.Lock()
	n := sh.m[t]
	sh.mu.Unlock()
	return n > 0
}

// inc records one more read hold of t, the current thread.
func (h *readHolds) inc(t *thread.Thread) {
	f := h.first.Load()
	if f == t {
		h.firstHolds++
		return
	}
	if f == nil && h.first.CompareAndSwap(nil, t) {
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
	if h.first.Load() == t {
		h.firstHolds--
		if h.firstHolds == 0 {
			h.first.Store(nil)
		}
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
