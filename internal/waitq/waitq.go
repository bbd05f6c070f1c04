// Package waitq is loom's one wait queue: the role AbstractQueuedSynchronizer plays in
// java.util.concurrent. Every lock, condition, monitor, semaphore and latch in package locks
// keeps its state in its own atomic word and uses a Queue for the threads that must wait for it.
//
// # Model
//
// A synchronizer (a type implementing Sync) owns its state word and says, in TryAcquire or
// TryAcquireShared, whether a thread may take it now. The hot path never touches the Queue: a
// lock CASes its state word and returns, allocating nothing. Only when that fails does it call
// [Queue.Acquire], which appends a node for the current thread and loops:
//
//	if I am the first node: try the state word; on success leave the queue and return
//	if interrupted (interruptible acquire) or past the deadline: cancel and return
//	park (rt.Park, with the synchronizer as blocker)
//
// Releasing is the synchronizer's job (it updates its state word); if that made the resource
// available it calls [Queue.Wake], which unparks the first node. Only the first node ever retries,
// so a release wakes one thread, not all (no thundering herd), and queued threads are served in
// FIFO order. A thread that has not queued yet may still "barge" in ahead of the first node when
// the synchronizer allows it (non-fair locks); fair ones refuse while HasQueuedThreads.
//
// # Why nothing is lost
//
// Wake-ups: a node is appended before its first try, and a release changes the state word
// before it looks for a first node. Go's atomics are sequentially consistent, so either the
// release sees the node (and unparks it), or the node's try sees the release. The park permit
// covers the window between a failed try and the park.
//
// Shared mode: the first node's try and its removal happen under the queue's mutex, and Wake
// reads the first node under the same mutex. Without that, a release could read node A as first
// just after A's successful try and just before A leaves the queue, and unpark A (who does not
// need it) instead of B behind it: a semaphore permit would then sit unused while B sleeps. With
// it, a release either precedes A's try (which then sees the permit and, if more are left,
// wakes B itself: propagation) or follows A's removal (and wakes B).
//
// Repeated releases: a thread that releases an exclusive lock while the first node has been
// woken but has not run yet (on a busy carrier it may wait a while for one) need not wake it
// again. WakeExclusive skips the wake-up when the first node's woken flag is set; Wake and
// WakeExclusive set it when they unpark a first node, and the node clears it at the top of
// every round of its loop, before it tries. So woken is set only between an unpark and the
// node's next try, which comes after the release that skipped (the try follows the clear,
// which follows the skip's load of the flag, which follows the release): nothing is lost. The
// skip is for exclusive synchronizers only: in shared mode the node that was woken may be in
// the middle of a try that does not see the release and leave without passing it on (see
// "Shared mode"), which is why Wake reads the first node under the mutex and always unparks.
//
// Cancellation: a first node that gives up (timeout, interrupt) may have been the one a release
// unparked. It therefore always unparks the node behind it as it leaves; at worst that thread
// retries, fails and parks again.
//
// Conditions: a condition waiter's node sits in the condition's list with status waiting.
// Signal CASes it waiting->signalled and moves the very same node to the tail of the sync queue
// (as Java's transferForSignal), so signalled threads re-acquire in signal order. A waiter that
// times out or is interrupted CASes waiting->cancelled and appends itself. Exactly one CAS wins,
// so a signalled waiter is never also reported timed out or interrupted, and a signal never goes
// to a waiter that already left (Signal moves on to the next one).
//
// The queue's mutex guards only list surgery and the first node's try; nothing blocks while
// holding it. Threads block only in [rt.Park], so virtual threads unmount, and interrupts,
// timeouts, states and pinning are the core's.
package waitq

import (
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/loomgo/loom/internal/rt"
	"github.com/loomgo/loom/thread"
)

// Sync is a synchronizer's state word, as seen by the queue. Its methods are called with the
// queue's mutex held and must not block.
type Sync interface {
	// TryAcquire tries to take arg units exclusively for t (the current thread).
	TryAcquire(t *thread.Thread, arg int64) bool
	// TryAcquireShared tries to take arg units in shared mode for t. It returns a negative
	// number on failure, 0 on a success after which no other shared acquire can succeed, and a
	// positive number when one might (the queue then wakes the next node too).
	TryAcquireShared(t *thread.Thread, arg int64) int64
}

// Owned is an exclusive synchronizer that conditions can wait on.
type Owned interface {
	Sync
	// ReleaseAll releases every hold of the current thread, which must hold the synchronizer
	// exclusively, wakes the queue if that freed it, and returns what TryAcquire needs to
	// restore the holds.
	ReleaseAll() int64
}

// Wait says how an acquire or an await waits.
type Wait struct {
	// Timeout bounds the wait; < 0 means no timeout.
	Timeout time.Duration
	// Interruptible acquires and awaits give up with [thread.ErrInterrupted] (status cleared)
	// when the thread is interrupted; others clear the status while they wait and set it again
	// before they return.
	Interruptible bool
	// Reason is the [rt.Park] reason ([rt.ParkWaiting], [rt.ParkBlocked], [rt.ParkMonitorWait]).
	Reason int
	// Blocker is what the parked thread shows as (*thread.Thread).Blocker: the lock itself.
	Blocker any
}

// Untimed returns an untimed, uninterruptible Wait with the given reason and blocker.
func Untimed(reason int, blocker any) Wait {
	return Wait{Timeout: -1, Reason: reason, Blocker: blocker}
}

// Condition-node status.
const (
	condWaiting int32 = iota
	condSignalled
	condCancelled
)

// Node is one waiting thread.
type Node struct {
	t      *thread.Thread
	shared bool
	reason int // rt.Park reason of the wait that made it: picks the permit rt.Unpark sets

	// sync queue links, guarded by Queue.mu
	prev, next *Node
	// condition list links, guarded by Queue.mu
	cprev, cnext *Node
	inCond       bool
	cstatus      atomic.Int32

	woken atomic.Bool // unparked as first node since its last try (see "Repeated releases")
}

// Queue is a FIFO queue of waiting threads. The zero value is an empty queue. A Queue must not
// be copied after first use.
type Queue struct {
	mu   sync.Mutex
	head atomic.Pointer[Node] // first waiting node; written under mu
	tail *Node
	n    atomic.Int32 // nodes in the sync queue
}

// Cond is a condition's list of waiting threads. The zero value is empty. Its list is guarded by
// the mutex of the Queue it is used with; a Cond must always be used with the same Queue.
type Cond struct {
	head, tail *Node
	n          atomic.Int32 // waiters; written under the queue's mutex, read without it
}

// HeadOffset is the offset in a Queue of its first node's pointer (nil when no thread waits), for
// assembly that tests it, as [Queue.HasQueuedThreads] does (locks' amd64 Unlock and Exit).
const HeadOffset = unsafe.Offsetof(Queue{}.head)

func (q *Queue) enqueue(n *Node) {
	n.next = nil
	n.prev = q.tail
	if q.tail == nil {
		q.head.Store(n)
	} else {
		q.tail.next = n
	}
	q.tail = n
	q.n.Add(1)
}

// unlink removes n from the sync queue and reports whether it was the first node.
func (q *Queue) unlink(n *Node) bool {
	first := q.head.Load() == n
	if n.prev != nil {
		n.prev.next = n.next
	} else {
		q.head.Store(n.next)
	}
	if n.next != nil {
		n.next.prev = n.prev
	} else {
		q.tail = n.prev
	}
	n.prev, n.next = nil, nil
	q.n.Add(-1)
	return first
}

// Acquire waits, queued behind the threads already waiting, until s grants arg units to the
// current thread (exclusively, or shared if shared), the timeout elapses or (if interruptible)
// the thread is interrupted. It reports true if it acquired; false, nil on timeout;
// false, [thread.ErrInterrupted] on interrupt (status cleared). On failure nothing is held and the
// queue is as if the thread had never come. The caller has already tried the fast path; Acquire
// tries again once queued. It does not check the interrupt status on entry.
func (q *Queue) Acquire(s Sync, arg int64, shared bool, w Wait) (bool, error) {
	var deadline time.Time
	if w.Timeout >= 0 {
		deadline = time.Now().Add(w.Timeout)
	}
	n := &Node{t: Current(), shared: shared, reason: w.Reason}
	q.mu.Lock()
	q.enqueue(n)
	q.mu.Unlock()
	return q.acquireQueued(n, s, arg, w, deadline)
}

// acquireQueued is Acquire for a node already in the sync queue.
//
// If it unwinds instead of returning (s panics, a count overflow such as Java's "Maximum lock
// count exceeded"; or a panic or runtime.Goexit reaches it from inside a park), it takes n out
// of the queue on the way, as AQS's acquire cancels its node on any Throwable: a node left
// behind would be first forever, and every later acquire would wait behind a thread that is
// not waiting any more.
func (q *Queue) acquireQueued(n *Node, s Sync, arg int64, w Wait, deadline time.Time) (bool, error) {
	selfInterrupted := false
	queued := true // n is in the sync queue; cleared on every way out that removes it
	defer func() {
		if queued {
			q.cancel(n)
		}
		if selfInterrupted {
			n.t.Interrupt() // re-assert the status cleared while waiting uninterruptibly
		}
	}()
	for {
		// Only n itself removes n, so once n is first it stays first until it leaves.
		if q.head.Load() == n {
			n.woken.Store(false) // before the try: see "Repeated releases"
			if ok, wake := q.tryFirst(n, s, arg); ok {
				queued = false
				if wake != nil {
					wake.unpark()
				}
				return true, nil
			}
		}
		// A monitor entry (rt.ParkBlocked) is not woken by interrupts at all, so its status
		// stays set, visibly, while it waits, as in Java. Other uninterruptible waits would
		// return from every park while the status is set, so they clear it and set it again
		// on return, as AQS's selfInterrupt does.
		if w.Reason != rt.ParkBlocked && n.t.IsInterrupted() {
			thread.Interrupted()
			if w.Interruptible {
				queued = false
				q.cancel(n)
				return false, thread.ErrInterrupted
			}
			selfInterrupted = true
		}
		timeout := time.Duration(-1)
		if w.Timeout >= 0 {
			if timeout = time.Until(deadline); timeout <= 0 {
				queued = false
				q.cancel(n)
				return false, nil
			}
		}
		rt.Park(timeout, w.Reason, w.Blocker)
	}
}

// tryFirst makes first node n try s, under the queue's mutex (see the package comment for
// why), and leaves the queue if it succeeds. In shared mode it also returns the next node to
// wake when more may succeed. The deferred unlock keeps the queue usable if s panics (a count
// overflow); n is then still queued, and acquireQueued removes it.
func (q *Queue) tryFirst(n *Node, s Sync, arg int64) (ok bool, wake *Node) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if n.shared {
		r := s.TryAcquireShared(n.t, arg)
		if r < 0 {
			return false, nil
		}
		q.unlink(n)
		if r > 0 {
			wake = q.head.Load() // propagate: the next one may succeed too
		}
		return true, wake
	}
	if !s.TryAcquire(n.t, arg) {
		return false, nil
	}
	q.unlink(n)
	return true, nil
}

// cancel removes n, which gave up, from the sync queue. If n was first it may have consumed a
// release's wake-up, so it passes it on to the new first node.
func (q *Queue) cancel(n *Node) {
	q.mu.Lock()
	first := q.unlink(n)
	next := q.head.Load()
	q.mu.Unlock()
	if first && next != nil {
		next.unpark()
	}
}

// Wake unparks the first queued thread, if any, so it retries. Synchronizers call it after a
// release that may let a waiter in.
func (q *Queue) Wake() {
	if q.head.Load() == nil {
		return
	}
	q.mu.Lock()
	h := q.head.Load()
	q.mu.Unlock()
	if h != nil {
		h.woken.Store(true)
		h.unpark()
	}
}

// WakeExclusive is Wake for exclusive synchronizers (locks, monitors: no shared waiters): it
// does nothing if the first node was woken already and has not tried since (see "Repeated
// releases"), and it reads the first node without the mutex. A node that is first when it is
// read but leaves before the unpark reaches it has taken the lock (or given up, and then it
// wakes the next node itself), so the lock's next release wakes the next node.
func (q *Queue) WakeExclusive() {
	if h := q.head.Load(); h != nil && !h.woken.Load() && h.woken.CompareAndSwap(false, true) {
		h.unpark()
	}
}

// unpark wakes n's thread with the permit its kind of wait uses: monitor entry and wait neither
// consume nor grant LockSupport's permit (see rt.Unpark).
func (n *Node) unpark() { rt.Unpark(n.t, n.reason) }

// HasQueuedThreads reports whether any thread is waiting to acquire.
func (q *Queue) HasQueuedThreads() bool { return q.head.Load() != nil }

// HasQueuedPredecessors reports whether a thread other than t is first in the queue: a fair
// synchronizer must not let t barge in then.
func (q *Queue) HasQueuedPredecessors(t *thread.Thread) bool {
	h := q.head.Load()
	return h != nil && h.t != t
}

// FirstQueuedIsExclusive reports whether the first waiting thread waits for exclusive access
// (a non-fair read-write lock makes new readers wait behind a queued writer).
//
// It takes no lock: a node's mode is written under the queue's mutex before the node can become
// first (an atomic store of head, also under the mutex), so a reader that loads it as head sees
// its mode.
func (q *Queue) FirstQueuedIsExclusive() bool {
	h := q.head.Load()
	return h != nil && !h.shared
}

// Len returns the number of threads waiting to acquire.
func (q *Queue) Len() int { return int(q.n.Load()) }

// Contains reports whether t is waiting to acquire.
func (q *Queue) Contains(t *thread.Thread) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	for n := q.head.Load(); n != nil; n = n.next {
		if n.t == t {
			return true
		}
	}
	return false
}

// Threads returns the threads waiting to acquire, first first.
func (q *Queue) Threads() []*thread.Thread {
	q.mu.Lock()
	defer q.mu.Unlock()
	var ts []*thread.Thread
	for n := q.head.Load(); n != nil; n = n.next {
		ts = append(ts, n.t)
	}
	return ts
}
