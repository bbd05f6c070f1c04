package locks

import (
	"fmt"
	"math"
	"sync/atomic"
	"time"

	"github.com/loomgo/loom/internal/rt"
	"github.com/loomgo/loom/internal/waitq"
	"github.com/loomgo/loom/thread"
)

// A ReentrantReadWriteLock is a pair of locks: a read lock that many threads may hold at once
// while no thread writes, and a write lock that one thread holds alone. It ports
// java.util.concurrent.locks.ReentrantReadWriteLock. The zero value is an unlocked non-fair
// lock; [NewReentrantReadWriteLock](true) makes a fair one. Use [ReadLock] and [WriteLock] to lock;
// both implement [sync.Locker]. A ReentrantReadWriteLock must not be copied after first use.
//
// Both locks are reentrant. The writer may also take the read lock, and then release the write
// lock: that downgrades it to a read lock. Upgrading is not possible: a thread holding only the
// read lock that calls [WriteLock]().Lock() waits for every reader to leave, itself included, so
// it waits forever, as in Java ([WriteLock]().TryLock() just fails).
//
// Waiting threads queue in FIFO order. In non-fair mode (the default) an arriving writer may
// barge ahead of the queue, and an arriving reader may too unless the first queued thread is a
// writer (so a stream of readers cannot starve writers). In fair mode arriving threads queue
// behind waiting ones, except those re-entering a lock they hold; TryLock always barges. A
// virtual thread unmounts while it waits. A write Unlock synchronizes before any later Lock;
// a read Unlock synchronizes before a later write Lock.
type ReentrantReadWriteLock struct {
	_ noCopy
	s rwSync
}

// ReadLock is the read lock of a [ReentrantReadWriteLock] ([ReentrantReadWriteLock.ReadLock]). It
// shares the memory of its [ReentrantReadWriteLock].
type ReadLock ReentrantReadWriteLock

// WriteLock is the write lock of a [ReentrantReadWriteLock] ([ReentrantReadWriteLock.WriteLock]).
// It shares the memory of its [ReentrantReadWriteLock].
type WriteLock ReentrantReadWriteLock

// rwSync packs the lock's state as Java does, with wider fields: the total read holds in the
// high 32 bits, the writer's holds in the low 32 bits.
type rwSync struct {
	state atomic.Int64
	owner atomic.Int64                  // the writer's thread id (see exclusive for why an id)
	last  atomic.Pointer[thread.Thread] // the thread that took the write lock last
	reads readHolds
	q     waitq.Queue
	fair  bool
}

const (
	readUnit  = int64(1) << 32
	writeMask = readUnit - 1
	maxCount  = math.MaxInt32
)

func readCount(c int64) int64  { return c >> 32 }
func writeCount(c int64) int64 { return c & writeMask }

// NewReentrantReadWriteLock returns an unlocked read-write lock, fair or not. It ports
// new [ReentrantReadWriteLock](fair).
func NewReentrantReadWriteLock(fair bool) *ReentrantReadWriteLock {
	rw := &ReentrantReadWriteLock{}
	rw.s.fair = fair
	return rw
}

// ReadLock returns the read lock. It ports ReentrantReadWriteLock.readLock().
func (rw *ReentrantReadWriteLock) ReadLock() *ReadLock { return (*ReadLock)(rw) }

// WriteLock returns the write lock. It ports ReentrantReadWriteLock.writeLock().
func (rw *ReentrantReadWriteLock) WriteLock() *WriteLock { return (*WriteLock)(rw) }

// TryAcquire implements waitq.Sync for the write lock: free, or already written by t.
func (s *rwSync) TryAcquire(t *thread.Thread, n int64) bool {
	c := s.state.Load()
	if c != 0 {
		w := writeCount(c)
		if w == 0 || s.owner.Load() != t.ThreadID() {
			return false // readers (maybe t itself: no upgrade) or another writer
		}
		if w+n > maxCount {
			panicMaxCount("lock")
		}
		s.state.Add(n)
		return true
	}
	if s.state.CompareAndSwap(0, n) {
		s.owner.Store(t.ThreadID())
		if s.last.Load() != t {
			s.last.Store(t)
		}
		return true
	}
	return false
}

// TryAcquireShared implements waitq.Sync for the read lock: no writer but t itself. It always
// returns 1 on success, so the queue lets the next waiter try too.
func (s *rwSync) TryAcquireShared(t *thread.Thread, _ int64) int64 {
	for {
		c := s.state.Load()
		if writeCount(c) != 0 && s.owner.Load() != t.ThreadID() {
			return -1
		}
		if readCount(c) == maxCount {
			panicMaxCount("lock")
		}
		if s.state.CompareAndSwap(c, c+readUnit) {
			s.reads.inc(t)
			return 1
		}
	}
}

// tryRead is the read lock's arrival path: TryAcquireShared, unless the policy makes a new
// reader queue (fair: anyone queued; non-fair: a writer first in the queue). A thread that
// already holds the read or the write lock never queues, or it could deadlock with the writer
// it would wait behind.
func (s *rwSync) tryRead(t *thread.Thread) bool {
	c := s.state.Load()
	if writeCount(c) != 0 {
		if s.owner.Load() != t.ThreadID() {
			return false
		}
	} else if s.readerShouldBlock(t) && !s.reads.has(t) {
		return false
	}
	return s.TryAcquireShared(t, 1) >= 0
}

func (s *rwSync) readerShouldBlock(t *thread.Thread) bool {
	if s.fair {
		return s.q.HasQueuedPredecessors(t)
	}
	return s.q.FirstQueuedIsExclusive()
}

// tryWrite is the write lock's arrival path.
func (s *rwSync) tryWrite(t *thread.Thread) bool {
	if s.fair && s.state.Load() == 0 && s.q.HasQueuedPredecessors(t) {
		return false
	}
	return s.TryAcquire(t, 1)
}

// ReleaseAll implements waitq.Owned for conditions of the write lock: drop every write hold.
func (s *rwSync) ReleaseAll() int64 {
	w := writeCount(s.state.Load())
	s.releaseWrite(w)
	return w
}

func (s *rwSync) releaseWrite(n int64) {
	c := s.state.Load()
	if writeCount(c) == n {
		s.owner.Store(0)
	}
	if writeCount(s.state.Add(-n)) == 0 {
		s.q.Wake()
	}
}

func (s *rwSync) heldBy(t *thread.Thread) bool {
	return writeCount(s.state.Load()) != 0 && s.owner.Load() == t.ThreadID()
}

func (s *rwSync) heldByCurrent() bool { return s.heldBy(waitq.Current()) }

func (s *rwSync) queue() *waitq.Queue { return &s.q }

func (rw *ReentrantReadWriteLock) wait(interruptible bool, d time.Duration) waitq.Wait {
	return waitq.Wait{Timeout: d, Interruptible: interruptible, Reason: rt.ParkWaiting, Blocker: rw}
}

// Lock acquires the read lock, blocking while another thread holds the write lock (or, by the
// fairness policy, while a writer is queued). It is not interruptible: an interrupt while
// waiting sets the interrupt status on return. It panics with [ErrMaxCount] past 2,147,483,647
// read holds. It ports ReentrantReadWriteLock.ReadLock.lock().
func (r *ReadLock) Lock() {
	rw := (*ReentrantReadWriteLock)(r)
	t := waitq.Current()
	if !rw.s.tryRead(t) {
		rw.s.q.Acquire(&rw.s, 1, true, rw.wait(false, -1))
	}
}

// LockInterruptibly is Lock that returns [thread.ErrInterrupted] (status cleared, nothing held)
// if the current thread is interrupted before or while waiting. It ports
// ReadLock.lockInterruptibly().
func (r *ReadLock) LockInterruptibly() error {
	if interrupted() {
		return thread.ErrInterrupted
	}
	rw := (*ReentrantReadWriteLock)(r)
	if rw.s.tryRead(waitq.Current()) {
		return nil
	}
	_, err := rw.s.q.Acquire(&rw.s, 1, true, rw.wait(true, -1))
	return err
}

// TryLock acquires the read lock if no other thread holds the write lock, and reports whether
// it did. It never waits, and it barges even on a fair lock. It ports ReadLock.tryLock().
func (r *ReadLock) TryLock() bool {
	return (*ReentrantReadWriteLock)(r).s.TryAcquireShared(waitq.Current(), 1) >= 0
}

// TryLockTimeout acquires the read lock if it becomes available within d, honouring fairness,
// and reports whether it did. If the current thread is interrupted before or while waiting it
// returns false, [thread.ErrInterrupted] and clears the status. It ports
// ReadLock.tryLock(long, TimeUnit).
func (r *ReadLock) TryLockTimeout(d time.Duration) (bool, error) {
	if interrupted() {
		return false, thread.ErrInterrupted
	}
	rw := (*ReentrantReadWriteLock)(r)
	if rw.s.tryRead(waitq.Current()) {
		return true, nil
	}
	if d <= 0 {
		return false, nil
	}
	return rw.s.q.Acquire(&rw.s, 1, true, rw.wait(true, d))
}

// Unlock releases one read hold of the current thread; when no read holds are left, a waiting
// writer may proceed. It panics with [ErrIllegalMonitorState] if the current thread does not hold
// the read lock. It ports ReadLock.unlock().
func (r *ReadLock) Unlock() {
	s := &(*ReentrantReadWriteLock)(r).s
	if !s.reads.dec(waitq.Current()) {
		panicIMSE()
	}
	if s.state.Add(-readUnit) == 0 {
		s.q.Wake()
	}
}

// NewCondition panics with [ErrUnsupported]: the read lock has no conditions, as in Java.
func (r *ReadLock) NewCondition() *Condition {
	panic(fmt.Errorf("%w: read locks do not support conditions", ErrUnsupported))
}

// String returns "[ReadLock]@<addr>[Read locks = N]", as Java's toString.
func (r *ReadLock) String() string {
	return fmt.Sprintf("ReadLock@%p[Read locks = %d]", r, (*ReentrantReadWriteLock)(r).ReadLockCount())
}

// Lock acquires the write lock, blocking while any other thread holds the read or write lock,
// and adds a hold if the current thread already holds it. A thread that holds only the read
// lock blocks forever (no upgrade). It is not interruptible. It panics with [ErrMaxCount] past
// 2,147,483,647 holds. It ports WriteLock.lock().
func (w *WriteLock) Lock() {
	rw := (*ReentrantReadWriteLock)(w)
	if !rw.s.tryWrite(waitq.Current()) {
		rw.s.q.Acquire(&rw.s, 1, false, rw.wait(false, -1))
	}
}

// LockInterruptibly is Lock that returns [thread.ErrInterrupted] (status cleared, nothing held)
// if the current thread is interrupted before or while waiting. It ports
// WriteLock.lockInterruptibly().
func (w *WriteLock) LockInterruptibly() error {
	if interrupted() {
		return thread.ErrInterrupted
	}
	rw := (*ReentrantReadWriteLock)(w)
	if rw.s.tryWrite(waitq.Current()) {
		return nil
	}
	_, err := rw.s.q.Acquire(&rw.s, 1, false, rw.wait(true, -1))
	return err
}

// TryLock acquires the write lock if no other thread holds either lock (and the current thread
// holds no read lock), and reports whether it did. It never waits and barges even on a fair
// lock. It ports WriteLock.tryLock().
func (w *WriteLock) TryLock() bool {
	return (*ReentrantReadWriteLock)(w).s.TryAcquire(waitq.Current(), 1)
}

// TryLockTimeout acquires the write lock if it becomes available within d, honouring fairness,
// and reports whether it did. If the current thread is interrupted before or while waiting it
// returns false, [thread.ErrInterrupted] and clears the status. It ports
// WriteLock.tryLock(long, TimeUnit).
func (w *WriteLock) TryLockTimeout(d time.Duration) (bool, error) {
	if interrupted() {
		return false, thread.ErrInterrupted
	}
	rw := (*ReentrantReadWriteLock)(w)
	if rw.s.tryWrite(waitq.Current()) {
		return true, nil
	}
	if d <= 0 {
		return false, nil
	}
	return rw.s.q.Acquire(&rw.s, 1, false, rw.wait(true, d))
}

// Unlock releases one write hold; when none are left the lock is free for readers and writers
// (or, if the thread also took the read lock, downgraded to that read lock). It panics with
// [ErrIllegalMonitorState] if the current thread does not hold the write lock. It ports
// WriteLock.unlock().
func (w *WriteLock) Unlock() {
	s := &(*ReentrantReadWriteLock)(w).s
	if !s.heldBy(waitq.Current()) {
		panicIMSE()
	}
	s.releaseWrite(1)
}

// NewCondition returns a new Condition bound to the write lock. It ports
// WriteLock.newCondition().
func (w *WriteLock) NewCondition() *Condition {
	rw := (*ReentrantReadWriteLock)(w)
	return &Condition{lock: rw, s: &rw.s, blocker: rw}
}

// IsHeldByCurrentThread reports whether the current thread holds the write lock. It ports
// WriteLock.isHeldByCurrentThread().
func (w *WriteLock) IsHeldByCurrentThread() bool {
	return (*ReentrantReadWriteLock)(w).s.heldBy(waitq.Current())
}

// HoldCount returns the current thread's write holds. It ports WriteLock.getHoldCount().
func (w *WriteLock) HoldCount() int { return (*ReentrantReadWriteLock)(w).WriteHoldCount() }

// String returns "[WriteLock]@<addr>[Unlocked]" or "...[Locked by thread <name>]".
func (w *WriteLock) String() string {
	rw := (*ReentrantReadWriteLock)(w)
	return fmt.Sprintf("WriteLock@%p%s", w, lockState(rw.Owner(), rw.IsWriteLocked()))
}

// IsFair reports whether the lock is fair. It ports isFair().
func (rw *ReentrantReadWriteLock) IsFair() bool { return rw.s.fair }

// ReadLockCount returns the number of read holds of all threads. It ports getReadLockCount().
func (rw *ReentrantReadWriteLock) ReadLockCount() int { return int(readCount(rw.s.state.Load())) }

// ReadHoldCount returns the current thread's read holds. It ports getReadHoldCount().
func (rw *ReentrantReadWriteLock) ReadHoldCount() int { return rw.s.reads.count(waitq.Current()) }

// IsWriteLocked reports whether any thread holds the write lock. It ports isWriteLocked().
func (rw *ReentrantReadWriteLock) IsWriteLocked() bool { return writeCount(rw.s.state.Load()) != 0 }

// IsWriteLockedByCurrentThread reports whether the current thread holds the write lock. It
// ports isWriteLockedByCurrentThread().
func (rw *ReentrantReadWriteLock) IsWriteLockedByCurrentThread() bool {
	return rw.s.heldBy(waitq.Current())
}

// WriteHoldCount returns the current thread's write holds. It ports getWriteHoldCount().
func (rw *ReentrantReadWriteLock) WriteHoldCount() int {
	if rw.s.heldBy(waitq.Current()) {
		return int(writeCount(rw.s.state.Load()))
	}
	return 0
}

// Owner returns the thread holding the write lock, or nil. It ports getOwner(); deadlock
// detection follows it from a thread's Blocker.
func (rw *ReentrantReadWriteLock) Owner() *thread.Thread {
	id := rw.s.owner.Load()
	if !rw.IsWriteLocked() || id == 0 {
		return nil
	}
	if t := rw.s.last.Load(); t != nil && t.ThreadID() == id {
		return t
	}
	return nil
}

// HasQueuedThreads reports whether any thread waits for either lock. It ports
// hasQueuedThreads().
func (rw *ReentrantReadWriteLock) HasQueuedThreads() bool { return rw.s.q.HasQueuedThreads() }

// HasQueuedThread reports whether t waits for either lock. It panics with
// [thread.ErrNilArgument] if t is nil. It ports hasQueuedThread.
func (rw *ReentrantReadWriteLock) HasQueuedThread(t *thread.Thread) bool {
	if t == nil {
		panicNil("thread")
	}
	return rw.s.q.Contains(t)
}

// QueueLength returns the number of threads waiting for either lock. It ports
// getQueueLength().
func (rw *ReentrantReadWriteLock) QueueLength() int { return rw.s.q.Len() }

// QueuedThreads returns the threads waiting for either lock, longest-waiting first. It ports
// getQueuedThreads().
func (rw *ReentrantReadWriteLock) QueuedThreads() []*thread.Thread { return rw.s.q.Threads() }

// HasWaiters reports whether any thread waits on c, a condition of the write lock. It panics
// with [thread.ErrNilArgument] for a nil c, [thread.ErrIllegalArgument] for a condition of another
// lock and [ErrIllegalMonitorState] unless the current thread holds the write lock. It ports
// hasWaiters.
func (rw *ReentrantReadWriteLock) HasWaiters(c *Condition) bool {
	rw.checkCondition(c)
	return rw.s.q.HasWaiters(&c.c)
}

// WaitQueueLength returns the number of threads waiting on c; it panics as HasWaiters. It
// ports getWaitQueueLength.
func (rw *ReentrantReadWriteLock) WaitQueueLength(c *Condition) int {
	rw.checkCondition(c)
	return rw.s.q.WaitQueueLength(&c.c)
}

// WaitingThreads returns the threads waiting on c; it panics as HasWaiters. It ports
// getWaitingThreads.
func (rw *ReentrantReadWriteLock) WaitingThreads(c *Condition) []*thread.Thread {
	rw.checkCondition(c)
	return rw.s.q.WaitingThreads(&c.c)
}

func (rw *ReentrantReadWriteLock) checkCondition(c *Condition) {
	if c == nil {
		panicNil("condition")
	}
	if c.lock != rw {
		panicIAE("not owner")
	}
	if !rw.s.heldBy(waitq.Current()) {
		panicIMSE()
	}
}

// String returns "[ReentrantReadWriteLock]@<addr>[Write locks = W, Read locks = R]", as Java's
// toString.
func (rw *ReentrantReadWriteLock) String() string {
	c := rw.s.state.Load()
	return fmt.Sprintf("ReentrantReadWriteLock@%p[Write locks = %d, Read locks = %d]", rw, writeCount(c), readCount(c))
}
