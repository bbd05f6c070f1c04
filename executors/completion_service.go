package executors

import (
	"sync"
	"time"

	"github.com/loomgo/loom/thread"
)

// ExecutorCompletionService runs tasks on an executor and hands their futures out in the order
// the tasks complete, as java.util.concurrent.ExecutorCompletionService. Make one with
// NewExecutorCompletionService; it is safe for concurrent use and must not be copied.
type ExecutorCompletionService[T any] struct {
	_       noCopy
	es      ExecutorService
	mu      sync.Mutex
	done    []Future[T]
	waiters []*thread.Thread
}

// NewExecutorCompletionService returns a completion service that runs its tasks on es. A nil es
// panics with an error wrapping thread.ErrNilArgument.
func NewExecutorCompletionService[T any](es ExecutorService) *ExecutorCompletionService[T] {
	if es == nil {
		panic(nilArg("executor"))
	}
	return &ExecutorCompletionService[T]{es: es}
}

// Submit runs task on the executor; its future is queued for Take when the task completes (or
// is cancelled). It returns the executor's error if the task is rejected (the future is then
// never queued). A nil task panics with an error wrapping thread.ErrNilArgument.
func (c *ExecutorCompletionService[T]) Submit(task func() (T, error)) (Future[T], error) {
	if task == nil {
		panic(nilArg("task"))
	}
	f := NewFutureTask(task)
	f.onDone = func() { c.add(f) }
	if err := c.es.Execute(f.Run); err != nil {
		return nil, err
	}
	return f, nil
}

func (c *ExecutorCompletionService[T]) add(f Future[T]) {
	c.mu.Lock()
	c.done = append(c.done, f)
	var w *thread.Thread
	if len(c.waiters) > 0 {
		w = c.waiters[0]
		c.waiters = c.waiters[1:]
	}
	c.mu.Unlock()
	thread.Unpark(w)
}

// Take waits for the next completed future and removes it. A virtual thread unmounts while it
// waits; an interrupt returns thread.ErrInterrupted (clearing the status).
func (c *ExecutorCompletionService[T]) Take() (Future[T], error) {
	f, _, err := c.poll(-1)
	return f, err
}

// Poll removes and returns the next completed future, if there is one, without waiting.
func (c *ExecutorCompletionService[T]) Poll() (Future[T], bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.done) == 0 {
		return nil, false
	}
	f := c.done[0]
	c.done = c.done[1:]
	return f, true
}

// PollTimeout is Take that waits at most d; ok is false if nothing completed in time.
func (c *ExecutorCompletionService[T]) PollTimeout(d time.Duration) (f Future[T], ok bool, err error) {
	if d < 0 {
		d = 0
	}
	return c.poll(d)
}

func (c *ExecutorCompletionService[T]) poll(d time.Duration) (Future[T], bool, error) {
	me := thread.Current()
	var deadline time.Time
	if d > 0 {
		deadline = time.Now().Add(d)
	}
	for {
		c.mu.Lock()
		c.removeWaiter(me)
		if len(c.done) > 0 {
			f := c.done[0]
			c.done = c.done[1:]
			c.mu.Unlock()
			return f, true, nil
		}
		if thread.Interrupted() {
			c.mu.Unlock()
			return nil, false, thread.ErrInterrupted
		}
		var left time.Duration = -1
		if d >= 0 {
			if left = time.Until(deadline); d == 0 || left <= 0 {
				c.mu.Unlock()
				return nil, false, nil
			}
		}
		c.waiters = append(c.waiters, me)
		c.mu.Unlock()
		if left < 0 {
			thread.Park()
		} else {
			thread.ParkNanos(left)
		}
	}
}

func (c *ExecutorCompletionService[T]) removeWaiter(me *thread.Thread) {
	for i, w := range c.waiters {
		if w == me {
			c.waiters = append(c.waiters[:i], c.waiters[i+1:]...)
			return
		}
	}
}
