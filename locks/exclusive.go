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
// The owner word is the lock: nil when free, the holding thread otherwise; taking the lock is
// one CAS nil->t and releasing it one store of nil, so an uncontended Lock/Unlock pair costs
// what a sync.Mutex pair does (two atomic read-modify-writes) plus two look-ups of the current
// thread. holds, the owner's hold count, is a plain field: only the owner reads or writes it,
// and ownership passes from one thread to the next through the owner word (a store of nil
// synchronizes with the CAS that next takes it). Java keeps the hold count in the state word
// and the owner beside it, which costs a second atomic write on each side; with the owner as
// the state, a thread that reads owner == itself really holds the lock, since only it can
// change the owner from itself.
type exclusive struct {
	owner atomic.Pointer[thread.Thread]
	holds int32 // owner's holds; touched only by the owner
	q     waitq.Queue
}

// TryAcquire implements waitq.Sync: take the lock with n holds if it is free, or add n holds if
// t owns it. It ignores the queue (it barges).
func (s *exclusive) TryAcquire(t *thread.Thread, n int64) bool {
	switch s.owner.Load() {
	case nil:
		if s.owner.CompareAndSwap(nil, t) {
			s.holds = int32(n)
			return true
		}
		return false
	case t:
		s.addHolds(n)
		return true
	}
	return false
}

func (s *exclusive) addHolds(n int64) {
	if int64(s.holds)+n > math.MaxInt32 {
		panic(ErrMaxCount)
	}
	s.holds += int32(n)
}

// TryAcquireShared implements waitq.Sync; exclusive locks are never acquired shared.
func (s *exclusive) TryAcquireShared(*thread.Thread, int64) int64 { return -1 }

// tryLock takes one hold for t without waiting, barging ahead of queued threads unless fair.
func (s *exclusive) tryLock(t *thread.Thread, fair bool) bool {
	switch s.owner.Load() {
	case nil:
		if fair && s.q.HasQueuedPredecessors(t) {
			return false
		}
		if s.owner.CompareAndSwap(nil, t) {
			s.holds = 1
			return true
		}
		return false
	case t:
		s.addHolds(1)
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
	if s.holds--; s.holds > 0 {
		return false
	}
	s.owner.Store(nil)
	s.q.Wake()
	return true
}

// ReleaseAll implements waitq.Owned: drop every hold of the current thread (the owner).
func (s *exclusive) ReleaseAll() int64 {
	n := s.holds
	s.holds = 0
	s.owner.Store(nil)
	s.q.Wake()
	return int64(n)
}

func (s *exclusive) queue() *waitq.Queue { return &s.q }

func (s *exclusive) heldBy(t *thread.Thread) bool { return s.owner.Load() == t }

func (s *exclusive) holdCount(t *thread.Thread) int {
	if s.owner.Load() == t {
		return int(s.holds)
	}
	return 0
}

func (s *exclusive) isLocked() bool { return s.owner.Load() != nil }
