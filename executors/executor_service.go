package executors

import (
	"sync"
	"time"

	"github.com/loomgo/loom/thread"
)

// ExecutorService runs tasks asynchronously and manages their end, as
// java.util.concurrent.ExecutorService. Tasks with a result go through the package functions
// Submit, SubmitRunnable, InvokeAll and InvokeAny, which wrap them in a FutureTask and call
// Execute. Every ExecutorService in this package is safe for concurrent use.
type ExecutorService interface {
	// Execute runs task at some time in the future, on a thread the executor chooses. It returns
	// an error wrapping ErrRejected if the executor is shut down or cannot take the task (for a
	// pool, what its rejection policy decides). A nil task panics with an error wrapping
	// thread.ErrNilArgument. A panic in task is an uncaught exception of the thread that runs it.
	Execute(task func()) error
	// Shutdown starts an orderly shutdown: tasks already submitted run, new ones are rejected. It
	// does not wait (see AwaitTermination) and does not interrupt running tasks. Calling it again
	// does nothing.
	Shutdown()
	// ShutdownNow shuts down, interrupts the tasks that are running and returns the tasks that
	// never started (they are removed from the executor).
	ShutdownNow() []func()
	// IsShutdown reports whether Shutdown or ShutdownNow has been called.
	IsShutdown() bool
	// IsTerminated reports whether the executor is shut down and every task has finished.
	IsTerminated() bool
	// AwaitTermination waits until the executor has terminated after a shutdown, or d has
	// elapsed, and reports whether it has terminated. It returns thread.ErrInterrupted (clearing
	// the status) if the calling thread is interrupted while it waits. A virtual thread unmounts
	// while it waits. d <= 0 only looks.
	AwaitTermination(d time.Duration) (bool, error)
	// Close shuts the executor down and waits until every task has finished, as Java 19's
	// ExecutorService.close: if the calling thread is interrupted while it waits, Close calls
	// ShutdownNow, waits on, and returns with the thread's interrupt status set. It returns nil.
	Close() error
}

// Submit submits task for execution and returns a Future of its result. It returns an error
// wrapping ErrRejected (and a nil Future) if es refuses the task. A nil task panics with an error
// wrapping thread.ErrNilArgument. It ports ExecutorService.submit(Callable).
func Submit[T any](es ExecutorService, task func() (T, error)) (Future[T], error) {
	if task == nil {
		panic(nilArg("task"))
	}
	f := NewFutureTask(task)
	if err := es.Execute(f.Run); err != nil {
		return nil, err
	}
	return f, nil
}

// SubmitRunnable submits task and returns a Future that completes with struct{}{} when task
// returns. See Submit. It ports ExecutorService.submit(Runnable).
func SubmitRunnable(es ExecutorService, task func()) (Future[struct{}], error) {
	if task == nil {
		panic(nilArg("task"))
	}
	f := NewFutureTaskRunnable(task, struct{}{})
	if err := es.Execute(f.Run); err != nil {
		return nil, err
	}
	return f, nil
}

// closeService is ExecutorService.close() of Java 19.
func closeService(es ExecutorService) error {
	if es.IsTerminated() {
		return nil
	}
	es.Shutdown()
	interrupted := false
	for {
		ok, err := es.AwaitTermination(24 * time.Hour)
		if ok {
			break
		}
		if err != nil && !interrupted {
			es.ShutdownNow()
			interrupted = true
		}
	}
	if interrupted {
		thread.Current().Interrupt()
	}
	return nil
}

// termination is a one-shot event that threads wait for by parking (Java's termination
// Condition of ThreadPoolExecutor). Its zero value is an event that has not happened.
type termination struct {
	mu      sync.Mutex
	done    bool
	waiters []*thread.Thread
}

// signal makes the event happen and unparks every waiter.
func (t *termination) signal() {
	t.mu.Lock()
	t.done = true
	ws := t.waiters
	t.waiters = nil
	t.mu.Unlock()
	for _, w := range ws {
		thread.Unpark(w)
	}
}

func (t *termination) happened() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.done
}

// await waits until the event happened (true), d elapsed (false) or the caller is interrupted
// (thread.ErrInterrupted, status cleared). d <= 0 only looks.
func (t *termination) await(d time.Duration) (bool, error) {
	if t.happened() {
		return true, nil
	}
	if d <= 0 {
		return false, nil
	}
	me := thread.Current()
	deadline := time.Now().Add(d)
	queued := false
	defer func() {
		if queued {
			t.remove(me)
		}
	}()
	for {
		t.mu.Lock()
		if t.done {
			t.mu.Unlock()
			return true, nil
		}
		if thread.Interrupted() {
			t.mu.Unlock()
			return false, thread.ErrInterrupted
		}
		left := time.Until(deadline)
		if left <= 0 {
			t.mu.Unlock()
			return false, nil
		}
		if !queued {
			t.waiters = append(t.waiters, me)
			queued = true
		}
		t.mu.Unlock()
		thread.ParkNanos(left)
	}
}

func (t *termination) remove(me *thread.Thread) {
	t.mu.Lock()
	for i, w := range t.waiters {
		if w == me {
			t.waiters = append(t.waiters[:i], t.waiters[i+1:]...)
			break
		}
	}
	t.mu.Unlock()
}
