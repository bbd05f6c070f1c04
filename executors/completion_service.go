package executors

import (
	"time"

	"github.com/loomgo/loom/queue"
)

// ExecutorCompletionService runs tasks on an executor and hands their futures out in the order
// the tasks complete, as java.util.concurrent.ExecutorCompletionService. Make one with
// [NewExecutorCompletionService]; it is safe for concurrent use and must not be copied. As in Java,
// the completed futures wait in a LinkedBlockingQueue.
type ExecutorCompletionService[T any] struct {
	_    noCopy
	es   ExecutorService
	done queue.LinkedBlockingQueue[Future[T]] // unbounded
}

// NewExecutorCompletionService returns a completion service that runs its tasks on es. A nil es
// panics with an error wrapping [thread.ErrNilArgument].
func NewExecutorCompletionService[T any](es ExecutorService) *ExecutorCompletionService[T] {
	if es == nil {
		panic(nilArg("executor"))
	}
	return &ExecutorCompletionService[T]{es: es}
}

// Submit runs task on the executor; its future is queued for Take when the task completes (or
// is cancelled). It returns the executor's error if the task is rejected (the future is then
// never queued). A nil task panics with an error wrapping [thread.ErrNilArgument].
func (c *ExecutorCompletionService[T]) Submit(task func() (T, error)) (Future[T], error) {
	if task == nil {
		panic(nilArg("task"))
	}
	f := NewFutureTask(task)
	f.whenDone(func() { c.add(f) })
	if err := c.es.Execute(f.Run); err != nil {
		return nil, err
	}
	return f, nil
}

func (c *ExecutorCompletionService[T]) add(f Future[T]) { c.done.Offer(f) }

// Take waits for the next completed future and removes it. A virtual thread unmounts while it
// waits; an interrupt returns [thread.ErrInterrupted] (clearing the status).
func (c *ExecutorCompletionService[T]) Take() (Future[T], error) { return c.done.Take() }

// Poll removes and returns the next completed future, if there is one, without waiting.
func (c *ExecutorCompletionService[T]) Poll() (Future[T], bool) { return c.done.Poll() }

// PollTimeout is Take that waits at most d; ok is false if nothing completed in time.
func (c *ExecutorCompletionService[T]) PollTimeout(d time.Duration) (f Future[T], ok bool, err error) {
	return c.done.PollTimeout(d)
}
