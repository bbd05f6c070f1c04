package waitq

import (
	"time"

	"github.com/loomgo/loom/internal/rt"
	"github.com/loomgo/loom/thread"
)

// Await is Condition.await for every await form and Object.wait: the current thread, which must
// hold s exclusively (the caller checks), joins c, releases every hold (s.ReleaseAll), parks
// until signalled, timed out (w.Timeout >= 0) or (if w.Interruptible) interrupted, then
// re-acquires s with the same holds, waiting uninterruptibly as reacquire says (its Timeout
// and Interruptible are ignored; Reason and Blocker are used). It returns
// once s is held again, whatever happened:
//
//   - signalled: true, nil — also when an interrupt came after the signal: the interrupt
//     status is then left set (JAVA-SEMANTICS 1.4 item 66, 1.8 item 72);
//   - interrupted before any signal: false, [thread.ErrInterrupted], status cleared;
//   - timed out before any signal: false, nil.
//
// An uninterruptible Await keeps waiting through interrupts and returns with the status set.
// It does not check the interrupt status on entry (callers do, in Java's order).
func (q *Queue) Await(c *Cond, s Owned, w Wait, reacquire Wait) (signalled bool, err error) {
	n := &Node{t: Current(), reason: w.Reason}
	q.mu.Lock()
	c.add(n)
	q.mu.Unlock()
	saved := s.ReleaseAll()

	var deadline time.Time
	if w.Timeout >= 0 {
		deadline = time.Now().Add(w.Timeout)
	}
	throwIE, reinterrupt := false, false
	signalled = true
	waiting := true
	defer func() {
		if waiting {
			// Unwinding from the wait (a panic or runtime.Goexit that reached a park): leave
			// the condition and take the holds back before the unwinding goes on, so the
			// caller's deferred Unlock finds the lock held and no signal goes to a thread
			// that is not waiting.
			if n.cstatus.CompareAndSwap(condWaiting, condCancelled) {
				q.leaveCond(c, n)
			}
			q.acquireQueued(n, s, saved, Untimed(reacquire.Reason, reacquire.Blocker), time.Time{})
		}
		if w.Reason == rt.ParkMonitorWait {
			rt.WaitEnded() // a notified waiter was BLOCKED until now (see thread's state.go)
		}
	}()
	for n.cstatus.Load() == condWaiting {
		if n.t.IsInterrupted() {
			if w.Interruptible {
				if n.cstatus.CompareAndSwap(condWaiting, condCancelled) {
					thread.Interrupted()
					throwIE, signalled = true, false
					q.leaveCond(c, n)
				} else {
					reinterrupt = true // signalled first: keep the status (set) and return normally
				}
				break
			}
			thread.Interrupted()
			reinterrupt = true
		}
		timeout := time.Duration(-1)
		if w.Timeout >= 0 {
			if timeout = time.Until(deadline); timeout <= 0 {
				if n.cstatus.CompareAndSwap(condWaiting, condCancelled) {
					signalled = false
					q.leaveCond(c, n)
				}
				break
			}
		}
		rt.Park(timeout, w.Reason, w.Blocker)
	}
	// n is now in the sync queue: moved there by Signal, or by leaveCond.
	waiting = false
	q.acquireQueued(n, s, saved, Untimed(reacquire.Reason, reacquire.Blocker), time.Time{})
	if reinterrupt {
		n.t.Interrupt()
	}
	if throwIE {
		return false, thread.ErrInterrupted
	}
	return signalled, nil
}

// leaveCond moves n, whose wait was cancelled, from c to the tail of the sync queue.
func (q *Queue) leaveCond(c *Cond, n *Node) {
	q.mu.Lock()
	c.remove(n)
	n.shared = false
	q.enqueue(n)
	q.mu.Unlock()
}

// Signal moves the longest-waiting thread of c (if any) to the sync queue, where it re-acquires
// the lock once the signaller releases it. It reports whether a thread was signalled. The
// caller must hold the lock exclusively.
//
// With wake false the signalled thread stays parked (WAITING) until a release wakes it as the
// first node, as Java's ConditionObject does. With wake true (a monitor's Notify) it also stays
// parked, but BLOCKED on the lock from this moment, as a notified Object.wait is while the
// notifier still holds the monitor (see notify).
func (q *Queue) Signal(c *Cond, wake bool) bool {
	// No waiter, no mutex: waiters join c while holding the lock the signaller holds now, so
	// the lock orders their join before this load. (Most signals, e.g. a queue's notEmpty on
	// every put, find nobody waiting.)
	if c.n.Load() == 0 {
		return false
	}
	q.mu.Lock()
	for c.head != nil {
		n := c.head
		c.remove(n)
		if n.cstatus.CompareAndSwap(condWaiting, condSignalled) {
			n.shared = false
			q.enqueue(n)
			q.mu.Unlock()
			if wake {
				n.notify()
			}
			return true
		}
		// cancelled meanwhile (timeout, interrupt): it moves itself; try the next one
	}
	q.mu.Unlock()
	return false
}

// SignalAll moves every thread waiting on c to the sync queue, in waiting order, waking them if
// wake (see Signal). It returns how many were signalled. The caller must hold the lock
// exclusively.
func (q *Queue) SignalAll(c *Cond, wake bool) int {
	if c.n.Load() == 0 { // see Signal
		return 0
	}
	q.mu.Lock()
	var woken []*Node
	k := 0
	for c.head != nil {
		n := c.head
		c.remove(n)
		if n.cstatus.CompareAndSwap(condWaiting, condSignalled) {
			n.shared = false
			q.enqueue(n)
			k++
			if wake {
				woken = append(woken, n)
			}
		}
	}
	q.mu.Unlock()
	for _, n := range woken {
		n.notify()
	}
	return k
}

// notify tells the thread of n, just moved from a condition to the sync queue by a monitor's
// Notify, that it now waits to re-enter: it turns BLOCKED at once and, if it is parked in its
// wait, stays parked until a release wakes it as the first node (no wake-up, run and re-park
// while the notifier still holds the monitor). If its state cannot be changed it is unparked,
// finds itself signalled and re-enters on its own.
func (n *Node) notify() {
	if !rt.Notified(n.t) {
		n.unpark()
	}
}

// HasWaiters reports whether any thread waits on c.
func (q *Queue) HasWaiters(c *Cond) bool { return c.n.Load() > 0 }

// WaitQueueLength returns the number of threads waiting on c.
func (q *Queue) WaitQueueLength(c *Cond) int { return int(c.n.Load()) }

// WaitingThreads returns the threads waiting on c, longest-waiting first.
func (q *Queue) WaitingThreads(c *Cond) []*thread.Thread {
	q.mu.Lock()
	defer q.mu.Unlock()
	var ts []*thread.Thread
	for n := c.head; n != nil; n = n.cnext {
		ts = append(ts, n.t)
	}
	return ts
}

func (c *Cond) add(n *Node) {
	n.inCond = true
	n.cprev = c.tail
	n.cnext = nil
	if c.tail == nil {
		c.head = n
	} else {
		c.tail.cnext = n
	}
	c.tail = n
	c.n.Add(1)
}

// remove unlinks n from c, once: Signal and a cancelled waiter may both try.
func (c *Cond) remove(n *Node) {
	if !n.inCond {
		return
	}
	n.inCond = false
	if n.cprev != nil {
		n.cprev.cnext = n.cnext
	} else {
		c.head = n.cnext
	}
	if n.cnext != nil {
		n.cnext.cprev = n.cprev
	} else {
		c.tail = n.cprev
	}
	n.cprev, n.cnext = nil, nil
	c.n.Add(-1)
}
