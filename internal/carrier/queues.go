package carrier

import "sync/atomic"

// runQueues is the pool's run queue: two FIFOs (runQueue each), one for new tasks and one for
// resumptions, popped alternately while both have work, so that neither waits behind the
// other's backlog and neither starves.
//
// Why two: with one FIFO, a submitter that queues a million tasks faster than the carriers can
// start them puts every timer wake-up behind the whole backlog, so no sleeper can finish (and
// give back its goroutine and stack) until every task has started and parked: a million ×
// Sleep(100 ms) had ~750,000 parked goroutines at its peak, where goroutines (whose woken ones
// the Go scheduler runs between the new ones) peaked at ~45,000, and its wall time and memory
// grew faster than the thread count (GC scans every parked stack, again and again). The JDK's
// ForkJoinPool does the same in its own way: a virtual thread woken on a carrier goes to that
// carrier's queue, which its worker serves before it polls the external submission queue.
// Within each class order stays FIFO; across the two, pops alternate.
type runQueues struct {
	fresh, resumed *runQueue
	turn           atomic.Uint32 // its parity picks the queue tried first
}

func newRunQueues() *runQueues { return &runQueues{fresh: newRunQueue(), resumed: newRunQueue()} }

func (q *runQueues) push(r Runnable) {
	if r.Resumption() {
		q.resumed.push(r)
	} else {
		q.fresh.push(r)
	}
}

// pop takes the head of one of the two queues: of the one that has work, or, while both have,
// of each in its turn (or of the other, if a carrier emptied that one meanwhile).
func (q *runQueues) pop() (Runnable, bool) {
	first, second := q.resumed, q.fresh
	if first.empty() { // the common cases take no turn: one class queued (or none)
		return second.pop()
	}
	if second.empty() {
		return first.pop()
	}
	if q.turn.Add(1)&1 == 0 {
		first, second = second, first
	}
	if r, ok := first.pop(); ok {
		return r, true
	}
	return second.pop()
}

// popAfterYield is pop for a carrier whose thread has just queued its own resumption (Yield):
// new tasks first, then the resumptions, at whose tail the yielding thread is, so that it runs
// again only when nothing else was queued.
func (q *runQueues) popAfterYield() (Runnable, bool) {
	if r, ok := q.fresh.pop(); ok {
		return r, true
	}
	return q.resumed.pop()
}

func (q *runQueues) empty() bool   { return q.resumed.empty() && q.fresh.empty() }
func (q *runQueues) len() int      { return q.resumed.len() + q.fresh.len() }
func (q *runQueues) pushed() int64 { return q.resumed.pushed() + q.fresh.pushed() }
