package waitq

import "github.com/loomgo/loom/thread"

// CancelFirstWaiter marks the first waiter of c cancelled without removing it, as its thread
// does at the start of a timeout or an interrupt (before it moves itself to the sync queue).
func CancelFirstWaiter(c *Cond) *Node {
	n := c.head
	n.cstatus.CompareAndSwap(condWaiting, condCancelled)
	return n
}

// FinishCancel completes what CancelFirstWaiter began: n moves to the sync queue and its thread
// is woken to re-acquire.
func (q *Queue) FinishCancel(c *Cond, n *Node) {
	q.leaveCond(c, n)
	thread.Unpark(n.t)
}
