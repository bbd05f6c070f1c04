package executors

import (
	"github.com/loomgo/loom/locks"
	"time"

	"github.com/loomgo/loom/thread"
)

// ExecutorService runs tasks asynchronously and manages their end, as
// java.util.concurrent.ExecutorService. Tasks with a result go through the package functions
// Submit, [SubmitRunnable], [InvokeAll] and [InvokeAny], which wrap them in a [FutureTask] and call
// Execute. Every ExecutorService in this package is safe for concurrent use.
type ExecutorService interface {
	// Execute runs task at some time in the future, on a thread the executor chooses. It returns
	// an error wrapping [ErrRejected] if the executor is shut down or cannot take the task (for a
	// pool, what its rejection policy decides). A nil task panics with an error wrapping
	// [thread.ErrNilArgument]. A panic in task is an uncaught exception of the thread that runs it.
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
	// elapsed, and reports whether it has terminated. It returns [thread.ErrInterrupted] (clearing
	// the status) if the calling thread is interrupted while it waits. A virtual thread unmounts
	// while it waits. d <= 0 only looks.
	AwaitTermination(d time.Duration) (bool, error)
	// Close shuts the executor down and waits until every task has finished, as Java 19's
	// ExecutorService.close: if the calling thread is interrupted while it waits, Close calls
	// ShutdownNow, waits on, and returns with the thread's interrupt status set. It returns nil.
	Close() error
}

// Submit submits task for execution and returns a Future of its result. It returns an error
// wrapping [ErrRejected] (and a nil Future) if es refuses the task. A nil task panics with an error
// wrapping [thread.ErrNilArgument]. It ports ExecutorService.submit(Callable).
//
// On a [ScheduledThreadPoolExecutor] (or a type that embeds one) the future is the scheduled task
// itself, a [ScheduledFuture] with no delay, as Java's ScheduledThreadPoolExecutor.submit returns:
// cancelling it removes the task (with SetRemoveOnCancelPolicy), and what the pool does to the
// task (cancelling it at Shutdown, the tasks ShutdownNow returns) settles this future.
func Submit[T any](es ExecutorService, task func() (T, error)) (Future[T], error) {
	if task == nil {
		panic(nilArg("task"))
	}
	if e, ok := es.(*ThreadPerTaskExecutor); ok && e.fused {
		return submit(e, task)
	}
	if s, ok := es.(scheduledPool); ok {
		return submitScheduled(s.scheduledPool(), task)
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
	if s, ok := es.(scheduledPool); ok {
		return s.scheduledPool().Schedule(task, 0)
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

// termination is the one-shot event "the executor has terminated" that AwaitTermination and
// Close wait for (the termination Condition of Java's ThreadPoolExecutor): a CountDownLatch of
// one, so the waiting is the locks package's, parked and interruptible.
type termination struct{ latch *locks.CountDownLatch }

func newTermination() termination { return termination{locks.NewCountDownLatch(1)} }

// signal makes the event happen and releases every waiter; later calls do nothing.
func (t termination) signal() { t.latch.CountDown() }

func (t termination) happened() bool { return t.latch.Count() == 0 }

// await waits until the event happened (true), d elapsed (false) or the caller is interrupted
// (thread.ErrInterrupted, status cleared). d <= 0 only looks.
func (t termination) await(d time.Duration) (bool, error) {
	if t.happened() {
		return true, nil
	}
	if d <= 0 {
		return false, nil
	}
	return t.latch.AwaitTimeout(d)
}
