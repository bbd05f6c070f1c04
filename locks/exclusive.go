package locks

import (
	"math"
	"sync/atomic"

	"github.com/loomgo/loom/internal/waitq"
	"github.com/loomgo/loom/thread"
)

// exclusive is the state of a reentrant mutual-exclusion lock: ReentrantLock and Monitor (Java's
// ReentrantLock.Sync).
//
// The owner word is the lock: 0 when free, the holding thread's id otherwise; taking the lock is
// one CAS 0->id and releasing it one store of 0, so an uncontended Lock/Unlock pair costs what a
// sync.Mutex pair does (two atomic read-modify-writes) plus two look-ups of the current thread.
// Java keeps the hold count in the state word and the owner beside it, which costs a second
// atomic write on each side; with the owner as the state, a thread that reads owner == itself
// really holds the lock, since only it can change the owner from itself.
//
// Why an id and not the *thread.Thread: atomic operations on pointers are not compiler
// intrinsics (they go through the GC write barrier), and cost about as much again as the rest
// of Lock. The *thread.Thread, needed only by Owner, is kept in last, written only when the
// owning thread changes (so a thread that locks repeatedly never writes it); Owner reports it
// when it matches the owner word.
//
// holds, the owner's hold count, is a plain field: only the owner reads or writes it, and
// ownership passes from one thread to the next through the owner word (a store of 0
// synchronizes with the CAS that next takes it).
type exclusive struct {
	owner atomic.Int64                  // owning thread's id, 0 when free
	last  atomic.Pointer[thread.Thread] // the thread that took the lock last
	holds int32                         // owner's holds; touched only by the owner
	q     waitq.Queue
}

// take records t, whose CAS just took the lock, as the owner with n holds.
func (s *exclusive) take(t *thread.Thread, n int64) {
	s.holds = int32(n)
	if s.last.Load() != t {
		s.last.Store(t)
	}
}

// TryAcquire implements waitq.Sync: take the lock with n holds if it is free, or add n holds if
// t owns it. It ignores the queue (it barges).
func (s *exclusive) TryAcquire(t *thread.Thread, n int64) bool {
	switch s.owner.Load() {
	case 0:
		if s.owner.CompareAndSwap(0, t.ThreadID()) {
			s.take(t, n)
			return true
		}
		return false
	case t.ThreadID():
		s.addHolds(n)
		return true
	}
	return false
}

func (s *exclusive) addHolds(n int64) {
	if int64(s.holds)+n > math.MaxInt32 {
		panicMaxCount("lock")
	}
	s.holds += int32(n)
}

// TryAcquireShared implements waitq.Sync; exclusive locks are never acquired shared.
func (s *exclusive) TryAcquireShared(*thread.Thread, int64) int64 { return -1 }

// tryLock takes one hold for t without waiting, barging ahead of queued threads unless fair.
func (s *exclusive) tryLock(t *thread.Thread, fair bool) bool {
	switch s.owner.Load() {
	case 0:
		if fair && s.q.HasQueuedPredecessors(t) {
			return false
		}
		if s.owner.CompareAndSwap(0, t.ThreadID()) {
			s.take(t, 1)
			return true
		}
		return false
	case t.ThreadID():
		s.addHolds(1)
		return true
	}
	return false
}

// spin retries tryLock for a short while before the caller queues and parks: a lock held for a
// few nanoseconds is usually free again sooner than a park and unpark take (~1 µs), as
// sync.Mutex and AQS also find. It gives up at once when threads are already queued, so it
// never delays a handoff to them, and it is short enough not to matter to a virtual thread's
// carrier.
func (s *exclusive) spin(t *thread.Thread, fair bool) bool {
	for range spins {
		if s.q.HasQueuedThreads() {
			return false
		}
		if s.owner.Load() == 0 && s.tryLock(t, fair) {
			return true
		}
		spinPause()
	}
	return false
}

const spins = 40

//go:noinline
func spinPause() {}

// release drops one hold of t; it panics with ErrIllegalMonitorState if t is not the owner. It
// reports whether the lock became free.
func (s *exclusive) release(t *thread.Thread) bool {
	if s.owner.Load() != t.ThreadID() {
		panicIMSE()
	}
	if s.holds--; s.holds > 0 {
		return false
	}
	s.owner.Store(0)
	s.q.Wake()
	return true
}

// ReleaseAll implements waitq.Owned: drop every hold of the current thread (the owner).
func (s *exclusive) ReleaseAll() int64 {
	n := s.holds
	s.holds = 0
	s.owner.Store(0)
	s.q.Wake()
	return int64(n)
}

func (s *exclusive) queue() *waitq.Queue { return &s.q }

func (s *exclusive) heldBy(t *thread.Thread) bool { return s.owner.Load() == t.ThreadID() }

func (s *exclusive) holdCount(t *thread.Thread) int {
	if s.owner.Load() == t.ThreadID() {
		return int(s.holds)
	}
	return 0
}

func (s *exclusive) isLocked() bool { return s.owner.Load() != 0 }

// ownerThread returns the owning thread, or nil if the lock is free or changing hands (a
// snapshot, as Java's getOwner).
func (s *exclusive) ownerThread() *thread.Thread {
	id := s.owner.Load()
	if id == 0 {
		return nil
	}
	if t := s.last.Load(); t != nil && t.ThreadID() == id {
		return t
	}
	return nil
}
