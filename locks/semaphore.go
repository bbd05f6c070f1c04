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

// A Semaphore is a counting semaphore: a number of permits that Acquire takes, waiting until
// enough are available, and Release gives back. It ports java.util.concurrent.Semaphore. The
// zero value has no permits and is non-fair; [NewSemaphore] sets the permits and fairness. A
// Semaphore must not be copied after first use.
//
// Permits are just a count: no thread owns them, any thread may release, and releases may raise
// the count above its initial value. The initial count may be zero or negative (then releases
// must come before any acquire succeeds).
//
// Waiting threads queue in FIFO order, and the first one must be satisfied before the ones
// behind it (a request for 3 at the head holds up a later request for 1). A non-fair semaphore
// lets an arriving thread take free permits ahead of the queue; a fair one does not, except
// through TryAcquire and TryAcquireN, which always barge (as in Java). A virtual thread unmounts
// while it waits. A Release synchronizes before the acquire that takes its permits returns.
//
// Negative permit arguments panic with [thread.ErrIllegalArgument]. The count never wraps around:
// a release past [math.MaxInt] panics with [ErrMaxCount], a reduction below [math.MinInt] with
// [ErrCountUnderflow], and an acquire from a count near [math.MinInt] simply finds too few permits.
type Semaphore struct {
	_    noCopy
	s    semSync
	fair bool
}

type semSync struct {
	permits atomic.Int64
	q       waitq.Queue
}

// TryAcquireShared implements waitq.Sync: take n permits if there are enough; return what is
// left (negative: not enough, nothing taken).
//
// It compares before it subtracts: from a count near math.MinInt, avail-n would wrap around to a
// large positive number and grant permits that do not exist. (Java's Semaphore subtracts first
// and, from Integer.MIN_VALUE+1, tryAcquire(10) succeeds; loom does not copy that.)
func (s *semSync) TryAcquireShared(_ *thread.Thread, n int64) int64 {
	for {
		avail := s.permits.Load()
		if avail < n {
			return -1
		}
		left := avail - n // n >= 0 and avail >= n: cannot wrap
		if s.permits.CompareAndSwap(avail, left) {
			return left
		}
	}
}

// TryAcquire implements waitq.Sync; semaphores are only acquired shared.
func (s *semSync) TryAcquire(*thread.Thread, int64) bool { return false }

// NewSemaphore returns a semaphore with the given number of permits (which may be zero or
// negative), fair or not. It ports new Semaphore(permits, fair).
func NewSemaphore(permits int, fair bool) *Semaphore {
	s := &Semaphore{fair: fair}
	s.s.permits.Store(int64(permits))
	return s
}

func checkPermits(n int) {
	if n < 0 {
		panicIAE("negative permits %d", n)
	}
}

// fastTry takes n permits without queueing, unless the semaphore is fair and threads are queued.
func (s *Semaphore) fastTry(n int) bool {
	if s.fair && s.s.q.HasQueuedThreads() {
		return false
	}
	return s.s.TryAcquireShared(nil, int64(n)) >= 0
}

func (s *Semaphore) acquire(n int, w waitq.Wait) (bool, error) {
	if s.fastTry(n) {
		return true, nil
	}
	if w.Timeout == 0 {
		return false, nil
	}
	return s.s.q.Acquire(&s.s, int64(n), true, w)
}

// Acquire takes one permit, blocking until one is available; a virtual thread unmounts while
// it waits. If the current thread is interrupted before or while waiting, Acquire returns
// [thread.ErrInterrupted], clears the interrupt status and takes nothing. It ports
// Semaphore.acquire().
func (s *Semaphore) Acquire() error { return s.AcquireN(1) }

// AcquireN takes n permits at once, blocking until that many are available; otherwise it is
// Acquire. It panics with [thread.ErrIllegalArgument] if n < 0. It ports Semaphore.acquire(int).
func (s *Semaphore) AcquireN(n int) error {
	checkPermits(n)
	if interrupted() {
		return thread.ErrInterrupted
	}
	_, err := s.acquire(n, waitq.Wait{Timeout: -1, Interruptible: true, Reason: rt.ParkWaiting, Blocker: s})
	return err
}

// AcquireUninterruptibly takes one permit, blocking until one is available, and ignores
// interrupts: if interrupted while waiting it keeps waiting and returns with the interrupt
// status set. It ports Semaphore.acquireUninterruptibly().
func (s *Semaphore) AcquireUninterruptibly() { s.AcquireUninterruptiblyN(1) }

// AcquireUninterruptiblyN is AcquireUninterruptibly for n permits. It panics with
// [thread.ErrIllegalArgument] if n < 0. It ports Semaphore.acquireUninterruptibly(int).
func (s *Semaphore) AcquireUninterruptiblyN(n int) {
	checkPermits(n)
	s.acquire(n, waitq.Untimed(rt.ParkWaiting, s))
}

// TryAcquire takes one permit if one is available now, and reports whether it did. It never
// waits, and it takes a free permit even on a fair semaphore with queued threads. It ports
// Semaphore.tryAcquire().
func (s *Semaphore) TryAcquire() bool { return s.TryAcquireN(1) }

// TryAcquireN is TryAcquire for n permits. It panics with [thread.ErrIllegalArgument] if n < 0.
// It ports Semaphore.tryAcquire(int).
func (s *Semaphore) TryAcquireN(n int) bool {
	checkPermits(n)
	return s.s.TryAcquireShared(nil, int64(n)) >= 0
}

// TryAcquireTimeout takes one permit if one becomes available within d, and reports whether it
// did; a virtual thread unmounts while it waits. It honours fairness (on a fair semaphore with
// queued threads, TryAcquireTimeout(0) fails even if a permit is free). If the current thread
// is interrupted before or while waiting it returns false, [thread.ErrInterrupted] and clears the
// status. On failure it takes nothing. It ports Semaphore.tryAcquire(long, TimeUnit).
func (s *Semaphore) TryAcquireTimeout(d time.Duration) (bool, error) {
	return s.TryAcquireNTimeout(1, d)
}

// TryAcquireNTimeout is TryAcquireTimeout for n permits. It panics with
// [thread.ErrIllegalArgument] if n < 0. It ports Semaphore.tryAcquire(int, long, TimeUnit).
func (s *Semaphore) TryAcquireNTimeout(n int, d time.Duration) (bool, error) {
	checkPermits(n)
	if interrupted() {
		return false, thread.ErrInterrupted
	}
	return s.acquire(n, waitq.Wait{Timeout: max(d, 0), Interruptible: true, Reason: rt.ParkWaiting, Blocker: s})
}

// Release gives back one permit and wakes the first waiting thread if any. Any thread may
// release, whether or not it acquired. It ports Semaphore.release().
func (s *Semaphore) Release() { s.ReleaseN(1) }

// ReleaseN gives back n permits. It panics with [thread.ErrIllegalArgument] if n < 0, and with
// [ErrMaxCount] if the count would pass [math.MaxInt] (Java's Error("Maximum permit count
// exceeded")), leaving it unchanged. It ports Semaphore.release(int).
func (s *Semaphore) ReleaseN(n int) {
	checkPermits(n)
	for {
		c := s.s.permits.Load()
		if c > math.MaxInt64-int64(n) {
			panicMaxCount("permit")
		}
		if s.s.permits.CompareAndSwap(c, c+int64(n)) {
			break
		}
	}
	s.s.q.Wake()
}

// AvailablePermits returns the number of permits available now (it may be negative). It ports
// Semaphore.availablePermits().
func (s *Semaphore) AvailablePermits() int { return int(s.s.permits.Load()) }

// DrainPermits takes every available permit and returns how many it took; if the count is
// negative it resets it to zero and returns the negative count. It ports
// Semaphore.drainPermits().
func (s *Semaphore) DrainPermits() int {
	for {
		c := s.s.permits.Load()
		if c == 0 || s.s.permits.CompareAndSwap(c, 0) {
			return int(c)
		}
	}
}

// ReducePermits removes n permits, without waiting; the count may become negative. It panics
// with [thread.ErrIllegalArgument] if n < 0, and with [ErrCountUnderflow] if the count would go
// below [math.MinInt] (Java's Error("Permit count underflow")), leaving it unchanged. It ports
// Semaphore.reducePermits.
func (s *Semaphore) ReducePermits(n int) {
	checkPermits(n)
	for {
		c := s.s.permits.Load()
		if c < math.MinInt64+int64(n) {
			panic(fmt.Errorf("%w: permits (Permit count underflow)", ErrCountUnderflow))
		}
		if s.s.permits.CompareAndSwap(c, c-int64(n)) {
			return
		}
	}
}

// IsFair reports whether the semaphore is fair. It ports Semaphore.isFair().
func (s *Semaphore) IsFair() bool { return s.fair }

// HasQueuedThreads reports whether any thread is waiting to acquire. It ports
// Semaphore.hasQueuedThreads().
func (s *Semaphore) HasQueuedThreads() bool { return s.s.q.HasQueuedThreads() }

// QueueLength returns the number of threads waiting to acquire (an estimate). It ports
// Semaphore.getQueueLength().
func (s *Semaphore) QueueLength() int { return s.s.q.Len() }

// QueuedThreads returns the threads waiting to acquire, longest-waiting first. It ports
// Semaphore.getQueuedThreads().
func (s *Semaphore) QueuedThreads() []*thread.Thread { return s.s.q.Threads() }

// String returns "Semaphore@<addr>[Permits = N]", as Java's toString.
func (s *Semaphore) String() string {
	return fmt.Sprintf("Semaphore@%p[Permits = %d]", s, s.AvailablePermits())
}
