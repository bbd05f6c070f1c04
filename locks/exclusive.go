package locks

import (
	"math"
	"sync/atomic"

	"github.com/loomgo/loom/internal/rt"
	"github.com/loomgo/loom/internal/waitq"
	"github.com/loomgo/loom/thread"
	"github.com/petermattis/goid"
)

// exclusive is the state of a reentrant mutual-exclusion lock: ReentrantLock and Monitor (Java's
// ReentrantLock.Sync).
//
// # The owner word
//
// The owner word is the lock: 0 when free, otherwise the id of the goroutine the owning thread
// runs on. Taking the lock is one CAS 0->g and releasing it one store of 0, so an uncontended
// Lock/Unlock pair costs what a sync.Mutex pair does (two atomic read-modify-writes) plus two
// reads of the goroutine id, a few plain loads and, since the goroutine id cannot be read
// without one, a call each (fastpath.go). Java keeps the hold count in the state word
// and the owner beside it, which costs a second atomic write on each side; with the owner as
// the state, a thread that reads owner == its goroutine really holds the lock (see below), since
// only it can change the owner from that value.
//
// # Recognising the owner
//
// A goroutine runs one thread at a time and a thread never changes goroutine, but a goroutine
// may run several threads one after another: a virtual thread that never parked runs inline on
// a carrier's dispatching goroutine, and when it ends the next one runs on the same goroutine;
// a goroutine loom did not start gets a new Thread after Detach. So owner == g alone would let
// the next thread on g pass for the owner of a lock that an ended thread leaked: Lock would
// re-enter it and Unlock would release it, where Java blocks forever and throws
// IllegalMonitorStateException.
//
// The lock therefore also records who took it last: that thread's goroutine (g), the word
// holding its thread.State (st, from rt.StateWord) and the Thread itself (last). So the current
// thread, on goroutine g, owns the lock exactly when
//
//	owner == g  &&  *st != Terminated
//
// (the thread that set owner to g recorded itself in g, st and last before anything else ran
// on g; if it has not terminated it is the thread running on g, that is, the caller; if it has,
// the caller is a later thread on g and does not own the lock). A thread that takes the lock
// when it is already the one recorded (g == its goroutine and not terminated) writes nothing
// more; only when the taker changes does it look itself up (thread.Current) and record itself,
// which a thread that locks repeatedly never does. That is the check thread.Current makes of
// its own cache entry, with the lock as a one-entry cache.
//
// g, st and last are written only by the owner, right after it took the lock; the owner reads
// them, ordered by the owner word (a store of 0 synchronizes with the CAS that next takes the
// lock). g and last are atomic only because Owner, a snapshot for deadlock detection and
// String, reads them from anywhere; the state word is atomic anyway.
//
// holds counts the owner's holds beyond its first, and is 0 whenever the lock is free: a thread
// that takes a free lock has one hold without writing anything but the owner word, and one that
// releases its only hold finds holds == 0 with a load, where a count of all the holds would cost
// a store on each side of every uncontended Lock/Unlock pair (measured: about 0.3 ns of a 12 ns
// pair, a quarter of the gap to sync.Mutex then; see fastpath.go). It is a plain field: only the
// owner reads or writes it.
//
// # Designs not taken
//
//   - The owning thread's id as the owner word (loom's first version): every Lock, Unlock,
//     IsHeldByCurrentThread and Signal looked the current thread up (thread.Current: the
//     goroutine id, then a cache probe), which was the whole gap between an uncontended
//     ReentrantLock and a sync.Mutex (1.7x).
//   - The owning *thread.Thread as the owner word: atomic operations on pointers are not
//     compiler intrinsics (they go through the GC write barrier) and cost about as much again as
//     the rest of Lock.
//   - The goroutine id alone, with no record of the thread: wrong as soon as a thread ends
//     holding a lock and another runs on its goroutine (see above; TestLeakedLock* pin it).
//   - Asking package thread "has this thread terminated?" through a hook on every Lock and
//     Unlock (rt.Terminated): an indirect call and a type assertion each time, to learn what
//     one load of the state word tells.
//   - A liveness flag in the thread's rt.Data: the Data is made on a thread's first use of
//     thread-locals, so every thread that takes a lock would pay for one.
type exclusive struct {
	owner atomic.Int64 // goroutine id of the owning thread, 0 when free
	holds int32        // the owner's holds beyond the first, 0 when free; touched only by the owner

	// The thread that took the lock last, as seen from its goroutine (see above).
	g    atomic.Int64  // its goroutine
	st   *atomic.Int32 // its thread.State
	mc   *int32        // its count of monitors held, if anything reads it (rt.MonitorCount)
	last atomic.Pointer[thread.Thread]

	q waitq.Queue
}

// gid returns the current goroutine's id. The Go fast paths spell it out as
// rt.Checked(goid.Get()), which the compiler inlines where gid and rt.Goid cannot be (see
// rt.Checked); the assembly ones read it from the g (fastpath.go).
func gid() int64 { return rt.Goid() }

// mine reports whether the thread running on goroutine g, the caller's, is the owner.
func (s *exclusive) mine(g int64) bool { return s.owner.Load() == g && s.live() }

// live reports whether the recorded thread has not terminated; call it only when owner or g
// says the lock was recorded (st is set then).
func (s *exclusive) live() bool { return s.st.Load() != terminated }

const terminated = int32(thread.Terminated)

// took is called by the thread on goroutine g just after its CAS took the lock: it records the
// thread unless it is the one recorded already.
func (s *exclusive) took(g int64) {
	if s.g.Load() != g || !s.live() {
		s.recordCurrent(g)
	}
}

// recordCurrent records the current thread, on goroutine g (the slow part of took, out of line).
func (s *exclusive) recordCurrent(g int64) { s.record(waitq.Current(), g) }

// record makes t, the current thread, on goroutine g, the recorded taker.
func (s *exclusive) record(t *thread.Thread, g int64) {
	s.st = rt.StateWord(t)
	s.mc = rt.MonitorCount(t)
	if s.last.Load() != t {
		s.last.Store(t)
	}
	s.g.Store(g) // after last: Owner, seeing g, sees this thread or a later one in last
}

// lock takes one hold for the thread on goroutine g without waiting: the lock is free, or that
// thread owns it already. Unless fair, it barges ahead of queued threads. Lock and Enter try
// its first case in their fast paths, with one CAS, and call it for the rest.
func (s *exclusive) lock(g int64, fair bool) bool {
	switch o := s.owner.Load(); {
	case o == 0:
		if fair && s.q.HasQueuedThreads() || !s.owner.CompareAndSwap(0, g) {
			return false
		}
		s.took(g) // holds is 0 already: one hold
		return true
	case o == g && s.live():
		s.addHolds(1)
		return true
	}
	return false
}

// TryAcquire implements waitq.Sync: take the lock with n holds if it is free, or add n holds if
// t, the current thread, owns it. It ignores the queue (it barges).
func (s *exclusive) TryAcquire(t *thread.Thread, n int64) bool {
	g := gid()
	switch o := s.owner.Load(); {
	case o == 0:
		if !s.owner.CompareAndSwap(0, g) {
			return false
		}
		if s.g.Load() != g || !s.live() {
			s.record(t, g)
		}
		s.holds = int32(n - 1)
		return true
	case o == g && s.live():
		s.addHolds(n)
		return true
	}
	return false
}

func (s *exclusive) addHolds(n int64) {
	if int64(s.holds)+1+n > math.MaxInt32 {
		panicMaxCount("lock")
	}
	s.holds += int32(n)
}

// TryAcquireShared implements waitq.Sync; exclusive locks are never acquired shared.
func (s *exclusive) TryAcquireShared(*thread.Thread, int64) int64 { return -1 }

// spin retries lock for a short while before the caller queues and parks: a lock held for a
// few nanoseconds is usually free again sooner than a park and unpark take (~1 µs), as
// sync.Mutex and AQS also find. It gives up at once when threads are already queued, so it
// never delays a handoff to them, and it is short enough not to matter to a virtual thread's
// carrier.
func (s *exclusive) spin(g int64, fair bool) bool {
	for range spins {
		if s.q.HasQueuedThreads() {
			return false
		}
		if s.owner.Load() == 0 && s.lock(g, fair) {
			return true
		}
		spinPause()
	}
	return false
}

const spins = 40

//go:noinline
func spinPause() {}

// release drops one hold of the thread on goroutine g, and reports whether that freed the lock
// with threads queued: the caller then wakes the first (q.Wake). It panics with
// ErrIllegalMonitorState if that thread is not the owner. It is small enough to be inlined into
// the Go fast paths of Unlock and Exit (a call costs as much as a tenth of an uncontended
// Lock/Unlock pair), hence the panic written out and the wake-up left to the caller.
func (s *exclusive) release(g int64) (wake bool) {
	if s.owner.Load() != g || !s.live() {
		panic(ErrIllegalMonitorState)
	}
	if s.holds > 0 {
		s.holds--
		return false
	}
	s.owner.Store(0)
	return s.q.HasQueuedThreads()
}

// ReleaseAll implements waitq.Owned: drop every hold of the current thread (the owner).
func (s *exclusive) ReleaseAll() int64 {
	n := s.holds + 1
	s.holds = 0
	s.owner.Store(0)
	s.q.WakeExclusive()
	return int64(n)
}

func (s *exclusive) queue() *waitq.Queue { return &s.q }

// heldByCurrent reports whether the current thread owns the lock.
func (s *exclusive) heldByCurrent() bool { return s.mine(rt.Checked(goid.Get())) }

// holdCount returns the current thread's holds (0 if it does not own the lock).
func (s *exclusive) holdCount() int {
	if s.mine(gid()) {
		return int(s.holds) + 1
	}
	return 0
}

func (s *exclusive) isLocked() bool { return s.owner.Load() != 0 }

// ownerThread returns the owning thread, or nil if the lock is free or changing hands (a
// snapshot, as Java's getOwner). A thread that ended holding the lock is still its owner.
func (s *exclusive) ownerThread() *thread.Thread {
	g := s.owner.Load()
	if g == 0 || s.g.Load() != g {
		return nil
	}
	return s.last.Load()
}
