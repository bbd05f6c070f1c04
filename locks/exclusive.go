package locks

import (
	"math"
	"sync/atomic"

	"github.com/loomgo/loom/internal/waitq"
	"github.com/loomgo/loom/thread"
)

// exclusive is the state of a reentrant mutual-exclusion lock: ReentrantLock and Monitor (Java's
// ReentrantLock.Sync). holds is the owner's hold count, 0 when free; owner is the holding thread.
//
// The owner is set just after the CAS that takes the lock and cleared just before the store
// that frees it, so a thread that reads owner == itself really holds the lock (only it can
// change owner from itself), which is all Unlock and reentrancy need. Other threads may briefly
// see a nil owner of a held lock, as in Java.
type exclusive struct {
	holds atomic.Int32
	owner atomic.Pointer[thread.Thread]
	q     waitq.Queue
}

// TryAcquire implements waitq.Sync: take the lock with n holds if it is free, or add n holds if
// t owns it. It ignores the queue (it barges).
func (s *exclusive) TryAcquire(t *thread.Thread, n int64) bool {
	c := s.holds.Load()
	if c == 0 {
		if s.holds.CompareAndSwap(0, int32(n)) {
			s.owner.Store(t)
			return true
		}
		return false
	}
	if s.owner.Load() == t {
		s.addHolds(c, n)
		return true
	}
	return false
}

func (s *exclusive) addHolds(c int32, n int64) {
	if int64(c)+n > math.MaxInt32 {
		panic(ErrMaxCount)
	}
	s.holds.Store(c + int32(n))
}

// TryAcquireShared implements waitq.Sync; exclusive locks are never acquired shared.
func (s *exclusive) TryAcquireShared(*thread.Thread, int64) int64 { return -1 }

// tryLock takes one hold for t without waiting, barging ahead of queued threads unless fair.
func (s *exclusive) tryLock(t *thread.Thread, fair bool) bool {
	c := s.holds.Load()
	if c == 0 {
		if fair && s.q.HasQueuedPredecessors(t) {
			return false
		}
		if s.holds.CompareAndSwap(0, 1) {
			s.owner.Store(t)
			return true
		}
		return false
	}
	if s.owner.Load() == t {
		s.addHolds(c, 1)
		return true
	}
	return false
}

// release drops one hold of t; it panics with ErrIllegalMonitorState if t is not the owner. It
// reports whether the lock became free.
func (s *exclusive) release(t *thread.Thread) bool {
	if s.owner.Load() != t {
		panicIMSE()
	}
	c := s.holds.Load() - 1
	if c > 0 {
		s.holds.Store(c)
		return false
	}
	s.owner.Store(nil)
	s.holds.Store(0)
	s.q.Wake()
	return true
}

// ReleaseAll implements waitq.Owned: drop every hold of the current thread (the owner).
func (s *exclusive) ReleaseAll() int64 {
	c := s.holds.Load()
	s.owner.Store(nil)
	s.holds.Store(0)
	s.q.Wake()
	return int64(c)
}

func (s *exclusive) queue() *waitq.Queue { return &s.q }

func (s *exclusive) heldBy(t *thread.Thread) bool { return s.owner.Load() == t }

func (s *exclusive) holdCount(t *thread.Thread) int {
	if s.owner.Load() == t {
		return int(s.holds.Load())
	}
	return 0
}
