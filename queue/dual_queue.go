package queue

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/loomgo/loom/internal/rt"
	"github.com/loomgo/loom/internal/waitq"
	"github.com/loomgo/loom/thread"
)

// dualQueue is the matching engine of SynchronousQueue and LinkedTransferQueue: a list of nodes
// that are all of one mode, either data (producers, or elements left by LinkedTransferQueue.Put)
// or requests (consumers). An operation of the other mode matches a node and completes both; an
// operation of the same mode appends its own node and, unless it is asynchronous, parks until it
// is matched, times out or is interrupted.
//
// Java's versions are lock-free (CAS on the node's item, a waiter field that the matcher
// unparks). Here a short sync.Mutex critical section guards the list and every node's state
// change, which makes the one race that matters easy to see: a waiter that gives up (timeout,
// interrupt) and a matcher that picks it both decide under mu, so exactly one of them wins, and
// an element handed to a waiter is either received by it or was never taken from its producer.
// The mutex is never held while parking.
type dualQueue[T any] struct {
	mu         sync.Mutex
	head, tail *dualNode[T]
	n          int // nodes in the list
}

type dualNode[T any] struct {
	item       T
	data       bool           // carries an element, rather than asking for one
	waiter     *thread.Thread // nil: an element left by Put, nobody waits for it
	matched    atomic.Bool    // set (under mu) by the matcher; the node is off the list
	prev, next *dualNode[T]
}

// spinsBeforePark is how many times a waiter checks for a match before it parks.
const spinsBeforePark = 64

// how an operation that finds no match proceeds
const (
	xferNow   = iota // give up at once
	xferAsync        // leave a data node and return (LinkedTransferQueue.Put)
	xferSync         // wait without limit
	xferTimed        // wait up to the timeout
)

func (q *dualQueue[T]) pushBack(n *dualNode[T]) {
	n.prev, n.next = q.tail, nil
	if q.tail == nil {
		q.head = n
	} else {
		q.tail.next = n
	}
	q.tail = n
	q.n++
}

func (q *dualQueue[T]) unlink(n *dualNode[T]) {
	if n.prev == nil {
		q.head = n.next
	} else {
		n.prev.next = n.next
	}
	if n.next == nil {
		q.tail = n.prev
	} else {
		n.next.prev = n.prev
	}
	n.prev, n.next = nil, nil
	q.n--
}

// matchable returns the node an operation of the other mode matches, or nil: the oldest, or
// with lifo the newest (unfair SynchronousQueue).
func (q *dualQueue[T]) matchable(data, lifo bool) *dualNode[T] {
	n := q.head
	if lifo {
		n = q.tail
	}
	if n == nil || n.data == data {
		return nil
	}
	return n
}

// complete matches n (off the list already) with the caller's e, under mu; it returns the
// element the caller receives (when the caller is a consumer) and the thread to unpark.
func complete[T any](n *dualNode[T], e T, data bool) (T, *thread.Thread) {
	var got T
	if data {
		n.item = e
	} else {
		got = n.item
		var zero T
		n.item = zero
	}
	n.matched.Store(true)
	return got, n.waiter
}

// xfer is the single operation behind every put and take: data says whether the caller brings e
// (a producer) or wants one (a consumer). It returns the element received (consumers) and
// whether the operation succeeded. lifo matches the newest node; blocker is what the thread
// reports it is parked on.
//
// Interrupts follow JDK 25's LinkedTransferQueue and SynchronousQueue. The untimed blocking mode
// (take, put, transfer) checks the interrupt status on entry and fails at once. The timed mode
// (poll and offer with a timeout, tryTransfer with a timeout) does not: a partner already
// waiting is matched and the call succeeds, leaving the status set; only when it finds no
// partner does an interrupt fail it, even with a zero timeout. A failed call returns
// thread.ErrInterrupted with the status cleared and leaves no trace in the queue. A node
// matched just as its waiter was interrupted counts as matched: the element is delivered and
// the interrupt status stays set, as in Java.
func (q *dualQueue[T]) xfer(e T, data bool, how int, d time.Duration, lifo bool, blocker any) (T, bool, error) {
	var zero T
	var me *thread.Thread
	if how == xferSync || how == xferTimed {
		me = waitq.Current()
		if how == xferSync && me.IsInterrupted() && thread.Interrupted() {
			return zero, false, thread.ErrInterrupted
		}
	}
	q.mu.Lock()
	if m := q.matchable(data, lifo); m != nil {
		q.unlink(m)
		got, w := complete(m, e, data)
		q.mu.Unlock()
		if w != nil {
			thread.Unpark(w)
		}
		return got, true, nil
	}
	if how == xferNow || (how == xferTimed && d <= 0) {
		q.mu.Unlock()
		if how == xferTimed && me.IsInterrupted() && thread.Interrupted() {
			return zero, false, thread.ErrInterrupted
		}
		return zero, false, nil
	}
	n := &dualNode[T]{data: data}
	if data {
		n.item = e
	}
	if how == xferAsync {
		q.pushBack(n)
		q.mu.Unlock()
		return zero, true, nil
	}
	n.waiter = me
	q.pushBack(n)
	q.mu.Unlock()

	var end time.Time
	if how == xferTimed {
		end = time.Now().Add(d)
	}
	// Spin briefly before parking, as Java's dual queues do: a partner on another carrier often
	// arrives within a microsecond, and parking and resuming a virtual thread costs more.
	for i := 0; i < spinsBeforePark && !n.matched.Load(); i++ {
		if i%16 == 15 {
			runtime.Gosched()
		}
	}
	for {
		timeout := time.Duration(-1)
		if how == xferTimed {
			if timeout = time.Until(end); timeout <= 0 {
				timeout = 0
			}
		}
		if timeout != 0 && !me.IsInterrupted() {
			rt.Park(timeout, rt.ParkWaiting, blocker)
		}
		q.mu.Lock()
		if n.matched.Load() {
			got := n.item
			n.item = zero
			q.mu.Unlock()
			return got, true, nil
		}
		interrupted := me.IsInterrupted()
		if interrupted || (how == xferTimed && !time.Now().Before(end)) {
			q.unlink(n)
			n.item = zero
			q.mu.Unlock()
			if interrupted {
				thread.Interrupted()
				return zero, false, thread.ErrInterrupted
			}
			return zero, false, nil
		}
		q.mu.Unlock()
	}
}

// waitingConsumers returns how many consumers wait in the list.
func (q *dualQueue[T]) waitingConsumers() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.head == nil || q.head.data {
		return 0
	}
	return q.n
}

// dataItems returns the elements of the data nodes in list order.
func (q *dualQueue[T]) dataItems() []T {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.head == nil || !q.head.data {
		return nil
	}
	s := make([]T, 0, q.n)
	for p := q.head; p != nil; p = p.next {
		s = append(s, p.item)
	}
	return s
}

// removeData takes the first data node whose element satisfies match (all of them if all) out of
// the list, as if a consumer had received it, releasing a producer waiting for it; it returns the
// elements removed.
func (q *dualQueue[T]) removeData(match func(T) bool, all bool, dst []T) []T {
	var woken []*thread.Thread
	q.mu.Lock()
	if q.head != nil && q.head.data {
		for p := q.head; p != nil; {
			next := p.next
			if match(p.item) {
				q.unlink(p)
				got, w := complete(p, p.item, false)
				dst = append(dst, got)
				if w != nil {
					woken = append(woken, w)
				}
				if !all {
					break
				}
			}
			p = next
		}
	}
	q.mu.Unlock()
	for _, w := range woken {
		thread.Unpark(w)
	}
	return dst
}
