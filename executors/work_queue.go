package executors

import (
	"math"
	"sync"
	"time"

	"github.com/loomgo/loom/thread"
)

// WorkQueue is what a ThreadPoolExecutor needs of the queue that holds tasks waiting for a
// worker. Every queue.BlockingQueue[func()] is a WorkQueue (queue.NewLinkedBlockingQueue,
// NewArrayBlockingQueue, NewSynchronousQueue, NewPriorityBlockingQueue, ...), so any of them can
// be passed to NewThreadPoolExecutor, as any BlockingQueue<Runnable> can in Java. Offer must not
// block; Take and PollTimeout must wait by parking and return thread.ErrInterrupted when the
// waiting thread is interrupted.
type WorkQueue interface {
	Offer(task func()) bool
	Poll() (func(), bool)
	PollTimeout(d time.Duration) (func(), bool, error)
	Take() (func(), error)
	Len() int
	RemainingCapacity() int
}

// handoffQueue is the executors' own WorkQueue: a FIFO buffer of capacity cap (cap < 0:
// unbounded, as LinkedBlockingQueue; cap == 0: none, as SynchronousQueue, where Offer succeeds
// only by handing the task to a waiting taker). Takers that find no task wait in FIFO order and
// Offer hands a task straight to the first of them, so the buffer is non-empty only when nobody
// waits.
type handoffQueue struct {
	mu     sync.Mutex
	cap    int
	items  []func()
	takers []*taker
}

// taker is a thread waiting in Take or PollTimeout; item is set (under the queue's mutex) by
// the Offer that hands it a task.
type taker struct {
	t      *thread.Thread
	item   func()
	filled bool
}

func newHandoffQueue(capacity int) *handoffQueue { return &handoffQueue{cap: capacity} }

func (q *handoffQueue) Offer(task func()) bool {
	q.mu.Lock()
	if len(q.takers) > 0 {
		tk := q.takers[0]
		q.takers[0] = nil
		q.takers = q.takers[1:]
		tk.item, tk.filled = task, true
		q.mu.Unlock()
		thread.Unpark(tk.t)
		return true
	}
	if q.cap >= 0 && len(q.items) >= q.cap {
		q.mu.Unlock()
		return false
	}
	q.items = append(q.items, task)
	q.mu.Unlock()
	return true
}

func (q *handoffQueue) Poll() (func(), bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.pop()
}

func (q *handoffQueue) pop() (func(), bool) {
	if len(q.items) == 0 {
		return nil, false
	}
	e := q.items[0]
	q.items[0] = nil
	q.items = q.items[1:]
	return e, true
}

func (q *handoffQueue) Take() (func(), error) {
	e, _, err := q.PollTimeout(-1)
	return e, err
}

// PollTimeout waits at most d (d < 0: no limit) for a task. A task handed over while the thread
// was being interrupted is returned, with the interrupt status left set.
func (q *handoffQueue) PollTimeout(d time.Duration) (func(), bool, error) {
	q.mu.Lock()
	if e, ok := q.pop(); ok {
		q.mu.Unlock()
		return e, true, nil
	}
	if d == 0 {
		q.mu.Unlock()
		return nil, false, nil
	}
	me := thread.Current()
	tk := &taker{t: me}
	q.takers = append(q.takers, tk)
	var deadline time.Time
	if d > 0 {
		deadline = time.Now().Add(d)
	}
	for {
		if tk.filled {
			q.mu.Unlock()
			return tk.item, true, nil
		}
		if me.IsInterrupted() {
			q.removeTaker(tk)
			q.mu.Unlock()
			thread.Interrupted()
			return nil, false, thread.ErrInterrupted
		}
		var left time.Duration = -1
		if d > 0 {
			if left = time.Until(deadline); left <= 0 {
				q.removeTaker(tk)
				q.mu.Unlock()
				return nil, false, nil
			}
		}
		q.mu.Unlock()
		if left < 0 {
			thread.Park()
		} else {
			thread.ParkNanos(left)
		}
		q.mu.Lock()
	}
}

func (q *handoffQueue) removeTaker(tk *taker) {
	for i, x := range q.takers {
		if x == tk {
			q.takers = append(q.takers[:i], q.takers[i+1:]...)
			return
		}
	}
}

func (q *handoffQueue) Len() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.items)
}

func (q *handoffQueue) RemainingCapacity() int {
	if q.cap < 0 {
		return math.MaxInt32
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.cap - len(q.items)
}
