package forkjoin

import (
	"errors"
	"fmt"
	"runtime/debug"
	"sync/atomic"
	"time"

	"github.com/loomgo/loom/executors"
	"github.com/loomgo/loom/internal/rt"
	"github.com/loomgo/loom/internal/waitq"
	"github.com/loomgo/loom/thread"
)

// Task status. A task leaves pending exactly once, through the short-lived completing state
// in which its completer writes the result or cause; readers treat completing as not done.
const (
	pending int32 = iota
	completing
	normal
	exceptional
	cancelled
)

// errNilCause is the cause recorded by CompleteExceptionally(nil), as Java records a plain
// RuntimeException for completeExceptionally(null).
var errNilCause = errors.New("forkjoin: task completed exceptionally (nil cause)")

// task is the part of a Task that does not depend on its result type: what deques and
// submission queues hold.
type task struct {
	status atomic.Int32
	err    error // the cause; written in completing, before the final status
	self   AnyTask
	runner atomic.Pointer[worker] // the worker executing the task, for a joiner to help
	q      waitq.Queue            // threads blocked waiting for the task
}

// AnyTask is a fork-join task of any result type: Java's ForkJoinTask<?>. Every
// *Task[T] is one. It is what [InvokeAll], ExecuteTask, [PollTask] and the other functions that
// handle tasks of mixed types take and return. The interface is closed: only *Task[T]
// implements it.
type AnyTask interface {
	// IsDone reports whether the task completed: normally, exceptionally, or by cancellation.
	IsDone() bool
	// IsCancelled reports whether the task was cancelled before it completed.
	IsCancelled() bool
	// IsCompletedNormally reports whether the task completed without failing or being
	// cancelled.
	IsCompletedNormally() bool
	// IsCompletedAbnormally reports whether the task failed or was cancelled.
	IsCompletedAbnormally() bool
	// Exception returns the cause of an abnormal completion ([executors.ErrCancelled] if
	// cancelled), or nil.
	Exception() error
	// Cancel cancels the task if it has not completed, and reports whether it is cancelled.
	Cancel(mayInterruptIfRunning bool) bool
	// QuietlyJoin waits for the task to complete, without returning its outcome.
	QuietlyJoin()
	// QuietlyInvoke runs the task in the current thread and waits for it, without returning
	// its outcome.
	QuietlyInvoke()
	// TryUnfork takes the task back from the current worker's queue if it is the task most
	// recently forked there and not yet run.
	TryUnfork() bool
	// Reinitialize resets the task so that it can be forked again.
	Reinitialize()
	// String describes the task and its state, as Java's ForkJoinTask.toString.
	String() string

	base() *task
}

// A Task is a fork-join task with a result of type T: Java's ForkJoinTask<T>, made as a
// RecursiveTask ([NewRecursiveTask]), a RecursiveAction ([NewRecursiveAction]), an adapted
// function ([Adapt], [AdaptRunnable]) or a task with its own completion protocol ([NewTask]).
//
// Fork queues the task on the current worker's deque (or the common pool), Join waits for its
// outcome, helping with other tasks meanwhile, and Invoke runs it in the current thread. A
// task's outcome is its result, the error its function returned, a *executors.PanicError if it
// panicked, or [executors.ErrCancelled]. The task's actions happen before Join or Get returns
// them. A Task is also an executors.Future[T]. A Task must not be copied after first use.
type Task[T any] struct {
	task
	result  T
	compute func() (T, error)     // RecursiveTask, Adapt
	action  func() error          // RecursiveAction
	exec    func(t *Task[T]) bool // NewTask; also AdaptRunnable, Pool.Execute (see kind)
	kind    taskKind
}

type taskKind uint8

const (
	kindPlain   taskKind = iota
	kindAdapted          // Adapt, AdaptRunnable: String shows the wrapped function
	kindExecute          // Pool.Execute: a panic also goes to the worker's uncaught-exception handler
)

var _ executors.Future[int] = (*Task[int])(nil)

// NewRecursiveTask returns a task that computes its result with compute, the body of Java's
// RecursiveTask.compute(). compute typically splits its work: it forks subtasks, computes one
// part itself, and joins the others. If compute returns an error, or panics, the task
// completes exceptionally with it (a panic as a *executors.PanicError).
//
// Java's
//
//	class Fibonacci extends RecursiveTask<Integer> {
//	    final int n;
//	    Fibonacci(int n) { this.n = n; }
//	    protected Integer compute() {
//	        if (n <= 1) return n;
//	        Fibonacci f1 = new Fibonacci(n - 1);
//	        f1.fork();
//	        Fibonacci f2 = new Fibonacci(n - 2);
//	        return f2.compute() + f1.join();
//	    }
//	}
//
// ports as
//
//	func fibonacci(n int) *forkjoin.Task[int] {
//		return forkjoin.NewRecursiveTask(func() (int, error) {
//			if n <= 1 {
//				return n, nil
//			}
//			f1 := fibonacci(n - 1).Fork()
//			r2, err := fibonacci(n - 2).Invoke()
//			if err != nil {
//				return 0, err
//			}
//			r1, err := f1.Join()
//			return r1 + r2, err
//		})
//	}
//
// It panics with [thread.ErrNilArgument] if compute is nil.
func NewRecursiveTask[T any](compute func() (T, error)) *Task[T] {
	if compute == nil {
		panic(nilArg("compute"))
	}
	t := &Task[T]{compute: compute}
	t.self = t
	return t
}

// NewRecursiveAction returns a task without a result that runs compute, the body of Java's
// RecursiveAction.compute(). Its outcome is struct{}{} or the error compute returned (or its
// panic). It panics with [thread.ErrNilArgument] if compute is nil.
func NewRecursiveAction(compute func() error) *Task[struct{}] {
	if compute == nil {
		panic(nilArg("compute"))
	}
	t := &Task[struct{}]{action: compute}
	t.self = t
	return t
}

// Adapt returns a task that runs callable, as Java's ForkJoinTask.adapt(Callable). It differs
// from [NewRecursiveTask] only in its String, which names the wrapped function. It panics with
// [thread.ErrNilArgument] if callable is nil.
func Adapt[T any](callable func() (T, error)) *Task[T] {
	t := NewRecursiveTask(callable)
	t.kind = kindAdapted
	return t
}

// AdaptRunnable returns a task that runs runnable, as Java's ForkJoinTask.adapt(Runnable). It
// panics with [thread.ErrNilArgument] if runnable is nil.
func AdaptRunnable(runnable func()) *Task[struct{}] {
	if runnable == nil {
		panic(nilArg("runnable"))
	}
	t := NewRecursiveAction(func() error { runnable(); return nil })
	t.kind = kindAdapted
	return t
}

// NewTask returns a task whose body is exec, for tasks with a completion protocol of their own
// (Java's ForkJoinTask subclasses that override exec()). exec receives the task; it returns
// true if the task completed normally (its result is then what SetRawResult set last), or
// false to leave the task incomplete until something calls Complete, CompleteExceptionally or
// QuietlyComplete on it. A panic in exec completes the task exceptionally. It panics with
// [thread.ErrNilArgument] if exec is nil.
func NewTask[T any](exec func(t *Task[T]) bool) *Task[T] {
	if exec == nil {
		panic(nilArg("exec"))
	}
	t := &Task[T]{exec: exec}
	t.self = t
	return t
}

func (c *task) base() *task { return c }

func nilArg(what string) error { return fmt.Errorf("%w: %s", thread.ErrNilArgument, what) }

// run executes the task's body once, on the current thread, which is worker w or (w nil) not a
// worker. It does nothing if the task is already done. Its outcome completes the task: a
// returned error or a panic completes it exceptionally (the panic is recovered here, as Java
// records an exception); runtime.Goexit completes it with executors.ErrGoexit and goes on. A
// panic of a task queued by Pool.Execute is also an uncaught exception of the worker, as Java's
// RunnableExecuteAction passes its exception to the uncaught-exception handler (see
// worker.uncaught).
func (t *Task[T]) run(w *worker) {
	if t.status.Load() != pending {
		return
	}
	if w != nil {
		t.runner.Store(w)
	}
	ok := false
	defer func() {
		if ok {
			return
		}
		if r := recover(); r != nil {
			t.completeExceptionally(&executors.PanicError{Value: r, Stack: debug.Stack()}, exceptional)
			if t.kind == kindExecute {
				if w == nil {
					panic(r) // run by hand outside a pool (a polled task): the caller's problem
				}
				w.uncaught(r)
			}
			return
		}
		t.completeExceptionally(executors.ErrGoexit, exceptional)
	}()
	switch {
	case t.compute != nil:
		v, err := t.compute()
		ok = true
		if err != nil {
			t.completeExceptionally(err, exceptional)
		} else {
			t.completeNormally(v)
		}
	case t.action != nil:
		err := t.action()
		ok = true
		if err != nil {
			t.completeExceptionally(err, exceptional)
		} else {
			t.quietlyCompleteNormally()
		}
	default:
		done := t.exec(t)
		ok = true
		if done {
			t.quietlyCompleteNormally()
		}
	}
}

// execTask runs c's body on the current thread (worker w, or nil).
func execTask(c *task, w *worker) { c.self.(runner).run(w) }

type runner interface{ run(w *worker) }

// begin moves c from pending to completing; it reports false if c was done (or being
// completed) already.
func (c *task) begin() bool { return c.status.CompareAndSwap(pending, completing) }

// finish publishes final status st and wakes the threads blocked waiting for c.
func (c *task) finish(st int32) {
	c.status.Store(st)
	c.q.Wake()
}

func (t *Task[T]) completeNormally(v T) bool {
	if !t.begin() {
		return false
	}
	t.result = v
	t.finish(normal)
	return true
}

func (c *task) quietlyCompleteNormally() bool {
	if !c.begin() {
		return false
	}
	c.finish(normal)
	return true
}

func (c *task) completeExceptionally(err error, st int32) bool {
	if !c.begin() {
		return false
	}
	c.err = err
	c.finish(st)
	return true
}

// settled returns c's status once it is not completing.
func (c *task) settled() int32 {
	for {
		if s := c.status.Load(); s != completing {
			return s
		}
		thread.Yield()
	}
}

func (c *task) done() bool { return c.status.Load() >= normal }

// cause is the outcome error of done task c with status s.
func (c *task) cause(s int32) error {
	switch s {
	case exceptional:
		return c.err
	case cancelled:
		return executors.ErrCancelled
	}
	return nil
}

// TryAcquireShared implements waitq.Sync for doneSync: waiters pass once the task is done.
type doneSync task

func (d *doneSync) TryAcquireShared(*thread.Thread, int64) int64 {
	if (*task)(d).done() {
		return 1
	}
	return -1
}

func (d *doneSync) TryAcquire(*thread.Thread, int64) bool { return false }

// block waits, parked, until c is done, d elapses (d < 0: never) or, if interruptible, the
// thread is interrupted. Uninterruptible waits keep the interrupt status for later.
func (c *task) block(interruptible bool, d time.Duration) (bool, error) {
	if c.done() {
		return true, nil
	}
	return c.q.Acquire((*doneSync)(c), 1, true, waitq.Wait{Timeout: d, Interruptible: interruptible, Reason: rt.ParkWaiting, Blocker: c.self})
}

// Fork arranges for the task to run asynchronously: in the pool of the current thread if it
// is a worker (pushed on its own deque, where it is the first task the worker takes back and
// the last one others steal), or else in the common pool. It returns t, so that
// `f := sub.Fork()` reads as in Java. Forking a task twice before it completes is an error
// whose effects are undefined, as in Java. If the common pool cannot take the task (it cannot
// start a worker), the task completes with an error wrapping [executors.ErrRejected]. It ports
// ForkJoinTask.fork().
func (t *Task[T]) Fork() *Task[T] {
	t.fork()
	return t
}

func (c *task) fork() {
	if w := currentWorker(); w != nil {
		w.push(c)
		return
	}
	if err := CommonPool().externalPush(c); err != nil {
		c.completeExceptionally(err, exceptional)
	}
}

// Join waits until the task is done and returns its outcome: the result, or the cause of its
// failure (the error its body returned, a *executors.PanicError, or [executors.ErrCancelled]),
// not wrapped in an ExecutionError, as Java's join throws the task's own exception. A worker
// that joins does not just wait: it takes back the task if it is still on its own deque and
// runs it, else it runs other queued tasks (its own first, then those of the worker running the
// task, then any) until the task is done, and only then blocks (the pool may start a spare
// worker meanwhile). A virtual thread unmounts while it blocks. Join is not interruptible: an
// interrupt while it waits is kept and the status is set when it returns. It ports
// ForkJoinTask.join().
func (t *Task[T]) Join() (T, error) {
	return t.outcome(t.awaitDone())
}

// outcome is Join's return for done status s.
func (t *Task[T]) outcome(s int32) (T, error) {
	if s == normal {
		return t.result, nil
	}
	var zero T
	return zero, t.cause(s)
}

// awaitDone is Join's wait, returning the final status.
func (c *task) awaitDone() int32 {
	if s := c.status.Load(); s >= normal {
		return s
	}
	w := currentWorker()
	if w != nil {
		w.helpDone(c)
		if c.done() {
			return c.settled()
		}
		w.pool.beginBlock()
		defer w.pool.endBlock()
	}
	c.block(false, -1)
	return c.settled()
}

// Invoke runs the task in the current thread (whether or not it is a worker), waits for it if
// its body left it incomplete, and returns its outcome as Join does. A task already done is not
// run again. It ports ForkJoinTask.invoke().
func (t *Task[T]) Invoke() (T, error) {
	execTask(&t.task, currentWorker())
	return t.Join()
}

// QuietlyJoin waits for the task as Join does, without returning its outcome. It ports
// ForkJoinTask.quietlyJoin().
func (c *task) QuietlyJoin() { c.awaitDone() }

// QuietlyInvoke runs the task as Invoke does, without returning its outcome. It ports
// ForkJoinTask.quietlyInvoke().
func (c *task) QuietlyInvoke() {
	execTask(c, currentWorker())
	c.awaitDone()
}

// Get waits for the task and returns its result, as [executors.Future]: an *ExecutionError whose
// Cause is the task's failure, [executors.ErrCancelled], or [thread.ErrInterrupted] (status
// cleared) if the current thread is interrupted before or while it waits and the task is not
// done. A worker helps as in Join before it blocks. It ports ForkJoinTask.get().
func (t *Task[T]) Get() (T, error) {
	if _, err := t.getWait(-1); err != nil {
		var zero T
		return zero, err
	}
	return t.futureOutcome(t.settled())
}

// GetTimeout is Get that waits at most d; it returns [executors.ErrTimeout] if the task is not
// done by then (d <= 0 only looks). A worker helps first, as in Join, which may take longer
// than d. It ports ForkJoinTask.get(long, TimeUnit).
func (t *Task[T]) GetTimeout(d time.Duration) (T, error) {
	var zero T
	ok, err := t.getWait(max(d, 0))
	if err != nil {
		return zero, err
	}
	if !ok {
		return zero, executors.ErrTimeout
	}
	return t.futureOutcome(t.settled())
}

// getWait is Get's wait (d < 0: untimed; d == 0: only look): it reports whether c is done,
// or thread.ErrInterrupted. A worker helps as Join does, then blocks counted as blocked.
func (c *task) getWait(d time.Duration) (bool, error) {
	if c.done() {
		return true, nil
	}
	if thread.Interrupted() {
		return false, thread.ErrInterrupted
	}
	if d == 0 {
		return false, nil
	}
	if w := currentWorker(); w != nil {
		w.helpDone(c)
		if !c.done() {
			w.pool.beginBlock()
			defer w.pool.endBlock()
		}
	}
	return c.block(true, d)
}

func (t *Task[T]) futureOutcome(s int32) (T, error) {
	v, err := t.outcome(s)
	if s == exceptional {
		err = &executors.ExecutionError{Cause: err}
	}
	return v, err
}

// Cancel cancels the task unless it has already completed, and reports whether it is now
// cancelled: true also for a task cancelled before, unlike FutureTask, as in Java. A cancelled
// task that was queued is not run; one that is running runs on, and its outcome is discarded.
// mayInterruptIfRunning has no effect, as in Java's ForkJoinTask (use executors.Submit for
// tasks that must be interrupted). It ports ForkJoinTask.cancel.
func (c *task) Cancel(mayInterruptIfRunning bool) bool {
	c.completeExceptionally(nil, cancelled)
	return c.settled() == cancelled
}

// IsDone reports whether the task completed, in any way. It ports ForkJoinTask.isDone().
func (c *task) IsDone() bool { return c.done() }

// IsCancelled reports whether the task was cancelled. It ports ForkJoinTask.isCancelled().
func (c *task) IsCancelled() bool { return c.status.Load() == cancelled }

// IsCompletedNormally reports whether the task completed without failing or being cancelled.
// It ports ForkJoinTask.isCompletedNormally().
func (c *task) IsCompletedNormally() bool { return c.status.Load() == normal }

// IsCompletedAbnormally reports whether the task failed or was cancelled. It ports
// ForkJoinTask.isCompletedAbnormally().
func (c *task) IsCompletedAbnormally() bool { return c.status.Load() >= exceptional }

// Exception returns the cause of the task's abnormal completion (executors.ErrCancelled if it
// was cancelled), or nil if it has not completed abnormally. It ports
// ForkJoinTask.getException().
func (c *task) Exception() error {
	if s := c.status.Load(); s >= exceptional {
		return c.cause(s)
	}
	return nil
}

// State returns the task's executors.FutureState. It ports ForkJoinTask.state().
func (c *task) State() executors.FutureState {
	switch c.status.Load() {
	case normal:
		return executors.Success
	case exceptional:
		return executors.Failed
	case cancelled:
		return executors.Cancelled
	}
	return executors.Running
}

// ResultNow returns the result of a task that completed normally, without waiting. It panics
// with an error wrapping [executors.ErrIllegalState] otherwise. It ports
// ForkJoinTask.resultNow().
func (t *Task[T]) ResultNow() T {
	switch t.status.Load() {
	case normal:
		return t.result
	case exceptional:
		panic(fmt.Errorf("%w: task completed with exception", executors.ErrIllegalState))
	case cancelled:
		panic(fmt.Errorf("%w: task was cancelled", executors.ErrIllegalState))
	}
	panic(fmt.Errorf("%w: task has not completed", executors.ErrIllegalState))
}

// ExceptionNow returns the cause of the failure of a task that completed exceptionally,
// without waiting. It panics with an error wrapping executors.ErrIllegalState otherwise. It
// ports ForkJoinTask.exceptionNow().
func (c *task) ExceptionNow() error {
	switch c.status.Load() {
	case exceptional:
		return c.err
	case normal:
		panic(fmt.Errorf("%w: task completed with a result", executors.ErrIllegalState))
	case cancelled:
		panic(fmt.Errorf("%w: task was cancelled", executors.ErrIllegalState))
	}
	panic(fmt.Errorf("%w: task has not completed", executors.ErrIllegalState))
}

// Complete completes the task normally with result v, if it has not completed, and wakes the
// threads waiting for it; on a completed task it does nothing. It is for tasks whose body
// leaves them incomplete ([NewTask]). It ports ForkJoinTask.complete.
func (t *Task[T]) Complete(v T) { t.completeNormally(v) }

// CompleteExceptionally completes the task with cause err, if it has not completed; a nil err
// records a generic error, as Java's completeExceptionally(null) records a RuntimeException.
// It ports ForkJoinTask.completeExceptionally.
func (c *task) CompleteExceptionally(err error) {
	if err == nil {
		err = errNilCause
	}
	c.completeExceptionally(err, exceptional)
}

// QuietlyComplete completes the task normally without setting a result: its result is what
// SetRawResult set last (the zero value by default). It ports ForkJoinTask.quietlyComplete().
func (c *task) QuietlyComplete() { c.quietlyCompleteNormally() }

// RawResult returns the task's result if it completed normally, and the zero value otherwise.
// It ports ForkJoinTask.getRawResult().
func (t *Task[T]) RawResult() T {
	if t.status.Load() == normal {
		return t.result
	}
	var zero T
	return zero
}

// SetRawResult sets the result that a later normal completion without a value (a [NewTask] body
// returning true, QuietlyComplete) will carry. Only the thread running the task's body may
// call it, before the task completes. It ports ForkJoinTask.setRawResult.
func (t *Task[T]) SetRawResult(v T) {
	if t.status.Load() == pending {
		t.result = v
	}
}

// TryUnfork takes the task back from the current worker's deque if it is the task most
// recently pushed there and has not been taken, and reports whether it did; the task will
// then not run unless forked or invoked again. It always reports false outside a pool. It ports
// ForkJoinTask.tryUnfork().
func (c *task) TryUnfork() bool {
	w := currentWorker()
	return w != nil && w.q.tryUnpush(c)
}

// Reinitialize resets the task to not done, forgetting its outcome, so that it can be forked
// or invoked again. Its effects are undefined unless the task is done or was never forked, and
// no thread is waiting for it. It ports ForkJoinTask.reinitialize().
func (t *Task[T]) Reinitialize() {
	var zero T
	t.result = zero
	t.err = nil
	t.runner.Store(nil)
	t.status.Store(pending)
}

// String returns "ForkJoinTask@<addr>[Completed normally]" (or "[Completed exceptionally:
// cause]", "[Cancelled]", "[Not completed]"); an adapted task shows "[Wrapped task = f]", as
// Java's adapted tasks do.
func (t *Task[T]) String() string {
	if t.kind == kindAdapted {
		var f any = t.compute
		if t.compute == nil {
			f = t.action
		}
		return fmt.Sprintf("ForkJoinTask@%p[Wrapped task = %p]", t, f)
	}
	switch t.settled() {
	case normal:
		return fmt.Sprintf("ForkJoinTask@%p[Completed normally]", t)
	case exceptional:
		return fmt.Sprintf("ForkJoinTask@%p[Completed exceptionally: %v]", t, t.err)
	case cancelled:
		return fmt.Sprintf("ForkJoinTask@%p[Cancelled]", t)
	}
	return fmt.Sprintf("ForkJoinTask@%p[Not completed]", t)
}
