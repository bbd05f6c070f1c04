package locks

import (
	"sync"
	"sync/atomic"

	"github.com/loomgo/loom/internal/rt"
	"github.com/loomgo/loom/thread"
)

// readHolds counts the read holds of each thread on one ReentrantReadWriteLock, for reentrancy,
// ReadHoldCount and the ownership check of ReadLock.Unlock (Java keeps them in a ThreadLocal
// HoldCounter, with the first reader cached in the lock).
//
// A few readers get a slot of their own (a thread pointer and a count, on its own cache line):
// a thread claims a free slot on its first read lock and keeps it even when its count drops to
// zero, so a thread that reads repeatedly pays a few plain loads and an increment, no atomic
// write and no lock. A slot's count is touched only by the thread in it. A slot is free when
// empty or when its thread has terminated (whose last writes happen before its termination,
// which the next claimant observes). Readers that find no slot use a map split into shards by
// thread id, and leave it when their count drops to zero, so it holds only current readers. A
// thread may have holds in both places (it held through the map, then claimed a slot); its
// count is the sum.
//
// Rejected: a map entry per reader kept for good (grows with every thread that ever read, e.g.
// a million short virtual threads); deleting slots at zero (an atomic pointer store, with its
// GC write barrier, on every last unlock); one global map (readers contend on its mutex).
type readHolds struct {
	slots  [readSlots]readSlot
	shards [4]holdShard
}

const readSlots = 4

type readSlot struct {
	t     atomic.Pointer[thread.Thread]
	holds int32 // touched only by the thread in t
	_     [52]byte
}

type holdShard struct {
	mu sync.Mutex
	m  map[*thread.Thread]int32
	_  [48]byte
}

func (h *readHolds) slot(t *thread.Thread) *readSlot {
	for i := range h.slots {
		if h.slots[i].t.Load() == t {
			return &h.slots[i]
		}
	}
	return nil
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
	if s := h.slot(t); s != nil {
		n = s.holds
	}
	return int(n + h.mapCount(t))
}

// has reports whether t, the current thread, holds the read lock.
func (h *readHolds) has(t *thread.Thread) bool {
	if s := h.slot(t); s != nil && s.holds > 0 {
		return true
	}
	return h.mapCount(t) > 0
}

// inc records one more read hold of t, the current thread.
func (h *readHolds) inc(t *thread.Thread) {
	if s := h.slot(t); s != nil {
		s.holds++
		return
	}
	for i := range h.slots {
		s := &h.slots[i]
		if o := s.t.Load(); (o == nil || rt.Terminated(o)) && s.t.CompareAndSwap(o, t) {
			s.holds = 1
			return
		}
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
	if s := h.slot(t); s != nil && s.holds > 0 {
		s.holds--
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
