package executors

import (
	"sync"
	"time"

	"github.com/loomgo/loom/thread"
)

// InvokeAll runs every task on es and waits until all are done; it returns their futures in
// task order, each done (a task's failure is in its future, not in the error). If the calling
// thread is interrupted while it waits, InvokeAll cancels (interrupting) every unfinished task
// and returns [thread.ErrInterrupted], clearing the status. If es rejects a task, the tasks already
// submitted are cancelled and the rejection is returned. A nil task panics with an error wrapping
// [thread.ErrNilArgument]; no task is submitted then. It ports ExecutorService.invokeAll.
func InvokeAll[T any](es ExecutorService, tasks []func() (T, error)) ([]Future[T], error) {
	return invokeAll(es, tasks, -1)
}

// InvokeAllTimeout is [InvokeAll] that waits at most d: the tasks unfinished when d runs out are
// cancelled (interrupting them) and their futures returned cancelled, with a nil error. It ports
// ExecutorService.invokeAll(tasks, timeout, unit).
func InvokeAllTimeout[T any](es ExecutorService, tasks []func() (T, error), d time.Duration) ([]Future[T], error) {
	if d < 0 {
		d = 0
	}
	return invokeAll(es, tasks, d)
}

func checkTasks[T any](tasks []func() (T, error)) {
	for _, t := range tasks {
		if t == nil {
			panic(nilArg("task"))
		}
	}
}

func cancelAll[T any](fs []*FutureTask[T]) {
	for _, f := range fs {
		f.Cancel(true)
	}
}

func invokeAll[T any](es ExecutorService, tasks []func() (T, error), d time.Duration) ([]Future[T], error) {
	checkTasks(tasks)
	var deadline time.Time
	if d >= 0 {
		deadline = time.Now().Add(d)
	}
	fts := make([]*FutureTask[T], 0, len(tasks))
	out := make([]Future[T], 0, len(tasks))
	for _, t := range tasks {
		f := NewFutureTask(t)
		fts = append(fts, f)
		out = append(out, f)
	}
	for i, f := range fts {
		if d >= 0 && !time.Now().Before(deadline) {
			cancelAll(fts)
			return out, nil
		}
		if err := es.Execute(f.Run); err != nil {
			cancelAll(fts[:i])
			return nil, err
		}
	}
	for _, f := range fts {
		if f.IsDone() {
			continue
		}
		wait := time.Duration(-1)
		if d >= 0 {
			if wait = time.Until(deadline); wait <= 0 {
				cancelAll(fts)
				return out, nil
			}
		}
		if _, err := f.awaitDone(wait); err != nil {
			cancelAll(fts)
			if err == ErrTimeout {
				return out, nil
			}
			return nil, err
		}
	}
	return out, nil
}

// InvokeAny runs the tasks on es and returns the result of one that succeeded (returned no
// error), cancelling (interrupting) the others once it has. If every task fails, it returns an
// *ExecutionError with the cause of one of them. If the calling thread is interrupted while it
// waits, it cancels the tasks and returns [thread.ErrInterrupted], clearing the status. An empty
// tasks panics with an error wrapping [thread.ErrIllegalArgument], a nil task with one wrapping
// [thread.ErrNilArgument]. It ports ExecutorService.invokeAny.
func InvokeAny[T any](es ExecutorService, tasks []func() (T, error)) (T, error) {
	return invokeAny(es, tasks, -1)
}

// InvokeAnyTimeout is [InvokeAny] that waits at most d, returning [ErrTimeout] (and cancelling the
// tasks) if no task has succeeded by then. It ports invokeAny(tasks, timeout, unit).
func InvokeAnyTimeout[T any](es ExecutorService, tasks []func() (T, error), d time.Duration) (T, error) {
	if d < 0 {
		d = 0
	}
	return invokeAny(es, tasks, d)
}

func invokeAny[T any](es ExecutorService, tasks []func() (T, error), d time.Duration) (T, error) {
	var zero T
	if len(tasks) == 0 {
		panic(illegalArg("no tasks"))
	}
	checkTasks(tasks)
	var deadline time.Time
	if d >= 0 {
		deadline = time.Now().Add(d)
	}
	if thread.Interrupted() {
		return zero, thread.ErrInterrupted
	}
	cq := &completionQueue[T]{}
	fts := make([]*FutureTask[T], 0, len(tasks))
	defer func() { cancelAll(fts) }()
	for _, t := range tasks {
		f := NewFutureTask(t)
		f.whenDone(func() { cq.add(f) })
		fts = append(fts, f)
		if err := es.Execute(f.Run); err != nil {
			return zero, err
		}
	}
	var last error
	for range fts {
		f, err := cq.take(d >= 0, deadline)
		if err != nil {
			return zero, err
		}
		switch f.settled() {
		case stNormal:
			return f.result, nil
		case stExceptional:
			last = &ExecutionError{Cause: f.failure()}
		default:
			last = &ExecutionError{Cause: ErrCancelled}
		}
	}
	return zero, last
}

// completionQueue collects futures as they complete, for InvokeAny (Java's
// ExecutorCompletionService). One thread takes from it.
type completionQueue[T any] struct {
	mu     sync.Mutex
	done   []*FutureTask[T]
	waiter *thread.Thread
}

func (q *completionQueue[T]) add(f *FutureTask[T]) {
	q.mu.Lock()
	q.done = append(q.done, f)
	w := q.waiter
	q.mu.Unlock()
	thread.Unpark(w)
}

// take waits for the next completed future, until deadline if timed (ErrTimeout), or until the
// caller is interrupted (thread.ErrInterrupted, status cleared).
func (q *completionQueue[T]) take(timed bool, deadline time.Time) (*FutureTask[T], error) {
	me := thread.Current()
	for {
		q.mu.Lock()
		if len(q.done) > 0 {
			f := q.done[0]
			q.done = q.done[1:]
			q.waiter = nil
			q.mu.Unlock()
			return f, nil
		}
		q.waiter = me
		q.mu.Unlock()
		if thread.Interrupted() {
			return nil, thread.ErrInterrupted
		}
		if !timed {
			thread.Park()
			continue
		}
		left := time.Until(deadline)
		if left <= 0 {
			return nil, ErrTimeout
		}
		thread.ParkNanos(left)
	}
}
