package executors

import (
	"fmt"
	"slices"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/loomgo/loom/thread"
)

// The states of a FutureTask, as in java.util.concurrent.FutureTask:
//
//	new -> completing -> normal | exceptional
//	new -> cancelled
//	new -> interrupting -> interrupted
//
// Only a transition out of stNew is contended (a compare-and-swap decides between the runner's
// set/setException and Cancel); the rest are plain stores by the winner. completing and
// interrupting are short: the result is written, or the runner interrupted, then the final state
// is stored, which publishes the result to every reader of the state.
const (
	stNew int32 = iota
	stCompleting
	stNormal
	stExceptional
	stCancelled
	stInterrupting
	stInterrupted
)

// FutureTask is a cancellable computation that you run yourself, as
// java.util.concurrent.FutureTask: Run computes the task on the calling thread, and every other
// thread waits for the outcome through the Future methods. Executors wrap submitted tasks in
// FutureTasks. Make one with [NewFutureTask] or [NewFutureTaskRunnable]; a FutureTask must not be
// copied.
//
// Waiting threads park (a virtual thread unmounts) on a Treiber stack of wait nodes that
// completion drains, unparking each, as Java's FutureTask does.
type FutureTask[T any] struct {
	_ noCopy

	state   atomic.Int32
	at      int32                         // Submit to a virtual thread-per-task executor: 1 + its index in its list
	job     unsafe.Pointer                // the task, then the failure: see taskFn and failure
	runner  atomic.Pointer[thread.Thread] // the thread in Run, for Cancel(true)
	result  T                             // written before the state becomes stNormal
	waiters atomic.Pointer[waitNode]      // Treiber stack of waiting threads, and the done hook
}

// The task and the failure share a word (job), as Java's FutureTask keeps its result and its
// exception in one field: the task (a func() (T, error), which is a pointer to its closure) is
// read only by the thread that runs it, while the future is new; the failure (a pointer to the
// error) is written by that thread, once, when it completes the future exceptionally, and read
// only by those who have seen the exceptional state. Nobody needs the task once the future is
// done, so nobody reads the word as the task after it has become the failure. The failure costs
// an allocation of 16 bytes; the word saves 16 bytes in every FutureTask (task and error were
// three words), so that a task submitted to a virtual thread-per-task executor (its thread, its
// executor's link and its FutureTask[int], one allocation) is 144 bytes instead of 160, a size
// class less for every Submit.

// setTask makes task the future's task; only a constructor calls it, before the future is shared.
func (f *FutureTask[T]) setTask(task func() (T, error)) {
	f.job = *(*unsafe.Pointer)(unsafe.Pointer(&task))
}

// taskFn returns the task; only the thread running it calls it, while the future is new.
func (f *FutureTask[T]) taskFn() func() (T, error) {
	return *(*func() (T, error))(unsafe.Pointer(&f.job))
}

// failure returns the error of a future in state stExceptional.
func (f *FutureTask[T]) failure() error { return *(*error)(f.job) }

// waitNode is a thread waiting in Get, as FutureTask.WaitNode, or the future's done hook (see
// whenDone). A waiter's node whose thread is nil is cancelled (its waiter timed out or was
// interrupted) and is unlinked by removeWaiter.
type waitNode struct {
	t    atomic.Pointer[thread.Thread]
	next atomic.Pointer[waitNode]
	done func() // the hook's node: run on completion; t is nil
}

// noCopy makes go vet's copylocks check report copies.
type noCopy struct{}

func (*noCopy) Lock()   {}
func (*noCopy) Unlock() {}

// NewFutureTask returns a [FutureTask] that will, when run, call task. A nil task panics with an
// error wrapping [thread.ErrNilArgument]. It ports new [FutureTask](Callable).
func NewFutureTask[T any](task func() (T, error)) *FutureTask[T] {
	if task == nil {
		panic(nilArg("task"))
	}
	f := &FutureTask[T]{}
	f.setTask(task)
	return f
}

// NewFutureTaskRunnable returns a [FutureTask] that will, when run, call task and then complete
// with result. A nil task panics with an error wrapping [thread.ErrNilArgument]. It ports
// new [FutureTask](Runnable, V).
func NewFutureTaskRunnable[T any](task func(), result T) *FutureTask[T] {
	if task == nil {
		panic(nilArg("task"))
	}
	f := &FutureTask[T]{}
	f.setTask(func() (T, error) { task(); return result, nil })
	return f
}

// Run computes the task on the calling thread and completes the future with its outcome: the
// result, or a failure if the task returned an error, panicked (the cause is a *PanicError with
// the value and stack; the panic does not propagate) or called [runtime.Goexit] (the cause is
// [ErrGoexit], and the goroutine goes on exiting). Run does nothing if the future is already done
// or another thread is running it. It ports FutureTask.run().
func (f *FutureTask[T]) Run() {
	if f.state.Load() != stNew || !f.runner.CompareAndSwap(nil, thread.Current()) {
		return
	}
	defer f.afterRun()
	if f.state.Load() != stNew { // cancelled between the check and the runner CAS
		return
	}
	v, err := f.call()
	if err != nil {
		f.setException(err)
	} else {
		f.set(v)
	}
}

// runAndReset computes the task without setting a result, leaving the future in stNew so it can
// run again (for periodic tasks). It reports whether the task ran and returned no error and the
// future was not cancelled meanwhile; a failure completes the future. It ports
// FutureTask.runAndReset().
func (f *FutureTask[T]) runAndReset() bool {
	if f.state.Load() != stNew || !f.runner.CompareAndSwap(nil, thread.Current()) {
		return false
	}
	defer f.afterRun()
	if f.state.Load() != stNew {
		return false
	}
	if _, err := f.call(); err != nil {
		f.setException(err)
		return false
	}
	return f.state.Load() == stNew
}

func (f *FutureTask[T]) afterRun() {
	// runner must stay non-nil until the state is settled, so concurrent Runs are refused
	f.runner.Store(nil)
	if f.state.Load() >= stInterrupting {
		// Wait out a Cancel(true) that is about to interrupt us, so its interrupt lands while we
		// still run this task and not in whatever the thread runs next (a pool worker clears it
		// before its next task).
		for f.state.Load() == stInterrupting {
			thread.Yield()
		}
	}
}

// call runs the task, turning a panic into a *PanicError. If the task calls runtime.Goexit the
// future is failed with ErrGoexit from a deferred call, because nothing after the task runs on
// this goroutine.
func (f *FutureTask[T]) call() (T, error) {
	return protect(f.taskFn(), func() { f.setException(ErrGoexit) })
}

func (f *FutureTask[T]) set(v T) {
	if f.state.CompareAndSwap(stNew, stCompleting) {
		f.result = v
		// The task is not needed any more (Java's FutureTask drops its callable too): a future
		// kept until its Get no longer keeps the task's closure, nor a pointer for every
		// collection to follow meanwhile. (The word is read as the task only by the runner,
		// before this; as the failure only in the exceptional state.)
		f.job = nil
		f.state.Store(stNormal)
		f.finishCompletion()
	}
}

func (f *FutureTask[T]) setException(err error) {
	if f.state.CompareAndSwap(stNew, stCompleting) {
		f.job = unsafe.Pointer(&err)
		f.state.Store(stExceptional)
		f.finishCompletion()
	}
}

// whenDone makes done run once, on the thread that completes the future, after its waiters are
// woken (Java's done(), which the completion services override). It must be called at most once,
// before the task can complete.
//
// The hook is a node of the waiters' stack rather than a field: completion drains the stack
// anyway, and a field would cost every FutureTask (every Submit) a word for a hook that only
// the completion services set.
func (f *FutureTask[T]) whenDone(done func()) {
	q := &waitNode{done: done}
	for {
		h := f.waiters.Load()
		q.next.Store(h)
		if f.waiters.CompareAndSwap(h, q) {
			return
		}
	}
}

// finishCompletion wakes every waiter and runs the done hook, as FutureTask.finishCompletion. A
// waiter pushes its node and then looks at the state; the state is final before this takes the
// stack, so either the waiter sees the final state, or this finds its node: no waiter sleeps
// forever, and a future nobody waited for completes with one load.
func (f *FutureTask[T]) finishCompletion() {
	var done func()
	for q := f.waiters.Load(); q != nil; q = f.waiters.Load() {
		if !f.waiters.CompareAndSwap(q, nil) {
			continue
		}
		for q != nil {
			if t := q.t.Swap(nil); t != nil {
				thread.Unpark(t)
			} else if q.done != nil {
				done = q.done
			}
			next := q.next.Load()
			q.next.Store(nil) // unlink to help the collector
			q = next
		}
		break
	}
	if done != nil {
		done()
	}
}

// Cancel attempts to cancel the task; see [Future.Cancel]. With mayInterruptIfRunning the thread
// running the task is interrupted. It ports FutureTask.cancel.
func (f *FutureTask[T]) Cancel(mayInterruptIfRunning bool) bool {
	next := stCancelled
	if mayInterruptIfRunning {
		next = stInterrupting
	}
	if !f.state.CompareAndSwap(stNew, next) {
		return false
	}
	if mayInterruptIfRunning {
		if t := f.runner.Load(); t != nil {
			t.Interrupt()
		}
		f.state.Store(stInterrupted)
	}
	f.finishCompletion()
	return true
}

// IsDone reports whether the task completed, failed or was cancelled.
func (f *FutureTask[T]) IsDone() bool { return f.state.Load() != stNew }

// IsCancelled reports whether the task was cancelled before it completed.
func (f *FutureTask[T]) IsCancelled() bool { return f.state.Load() >= stCancelled }

// Get waits for the outcome; see [Future.Get]. It ports FutureTask.get().
func (f *FutureTask[T]) Get() (T, error) {
	s := f.state.Load()
	if s <= stCompleting {
		var err error
		if s, err = f.awaitDone(-1); err != nil {
			var zero T
			return zero, err
		}
	}
	return f.report(s)
}

// GetTimeout waits at most d for the outcome; see [Future.GetTimeout]. It ports
// FutureTask.get(long, TimeUnit).
func (f *FutureTask[T]) GetTimeout(d time.Duration) (T, error) {
	s := f.state.Load()
	if s <= stCompleting {
		if d < 0 {
			d = 0
		}
		var err error
		if s, err = f.awaitDone(d); err != nil {
			var zero T
			return zero, err
		}
	}
	return f.report(s)
}

func (f *FutureTask[T]) report(s int32) (T, error) {
	var zero T
	switch s {
	case stNormal:
		return f.result, nil
	case stExceptional:
		return zero, &ExecutionError{Cause: f.failure()}
	default:
		return zero, ErrCancelled
	}
}

// awaitDone waits until the future is done, the caller is interrupted (thread.ErrInterrupted, the
// status cleared) or d elapses (ErrTimeout; d < 0 waits without a limit). It returns the final
// state. It ports FutureTask.awaitDone.
func (f *FutureTask[T]) awaitDone(d time.Duration) (int32, error) {
	var q *waitNode
	var deadline time.Time
	queued := false
	for {
		s := f.state.Load()
		if s > stCompleting {
			if q != nil {
				q.t.Store(nil)
				if queued && f.waiters.Load() != nil {
					// pushed after completion took the stack, or beside a completion still
					// waking: take the node off rather than leave it on the future (Java
					// leaves it)
					f.removeWaiter(q)
				}
			}
			return s, nil
		}
		if s == stCompleting {
			thread.Yield() // the result is being written; it takes a few instructions
			continue
		}
		if q == nil {
			me := thread.Current()
			if thread.Interrupted() {
				return s, thread.ErrInterrupted
			}
			if d == 0 {
				return s, ErrTimeout
			}
			if d > 0 {
				deadline = time.Now().Add(d)
			}
			q = new(waitNode)
			q.t.Store(me)
			continue
		}
		if !queued {
			// pushed before the state is looked at again: see finishCompletion
			h := f.waiters.Load()
			q.next.Store(h)
			queued = f.waiters.CompareAndSwap(h, q)
			continue
		}
		if thread.Interrupted() {
			f.removeWaiter(q)
			return s, thread.ErrInterrupted
		}
		if d < 0 {
			thread.Park()
			continue
		}
		left := time.Until(deadline)
		if left <= 0 {
			f.removeWaiter(q)
			if s := f.state.Load(); s > stCompleting {
				return s, nil
			}
			return s, ErrTimeout
		}
		thread.ParkNanos(left)
	}
}

// cancelled reports whether n is the node of a waiter that gave up (the done hook's node never is).
func (n *waitNode) cancelled() bool { return n.t.Load() == nil && n.done == nil }

// removeWaiter unlinks q, whose waiter timed out or was interrupted, and any other cancelled node,
// as FutureTask.removeWaiter: it marks q cancelled, then walks the stack unsplicing cancelled
// nodes, and starts again when a race with another removal makes its view stale.
func (f *FutureTask[T]) removeWaiter(q *waitNode) {
	q.t.Store(nil)
retry:
	for {
		var pred *waitNode
		for n := f.waiters.Load(); n != nil; {
			s := n.next.Load()
			switch {
			case !n.cancelled():
				pred = n
			case pred != nil:
				pred.next.Store(s)
				if pred.cancelled() { // pred was cancelled meanwhile: its unlink may undo ours
					continue retry
				}
			case !f.waiters.CompareAndSwap(n, s):
				continue retry
			}
			n = s
		}
		return
	}
}

// removeThread removes the first occurrence of t from ws, the list of threads parked on a
// future or queue.
func removeThread(ws []*thread.Thread, t *thread.Thread) []*thread.Thread {
	if i := slices.Index(ws, t); i >= 0 {
		return slices.Delete(ws, i, i+1)
	}
	return ws
}

// settled returns the state, waiting out the short completing phase.
func (f *FutureTask[T]) settled() int32 {
	s := f.state.Load()
	for s == stCompleting {
		thread.Yield()
		s = f.state.Load()
	}
	return s
}

// State returns the state of the future without waiting. It ports Future.state().
func (f *FutureTask[T]) State() FutureState {
	switch f.settled() {
	case stNew:
		return Running
	case stNormal:
		return Success
	case stExceptional:
		return Failed
	default:
		return Cancelled
	}
}

// ResultNow returns the result of a successful future; see [Future.ResultNow]. The panic messages
// are Java's: "task has not completed", "task completed with exception", "task was cancelled".
// It ports Future.resultNow().
func (f *FutureTask[T]) ResultNow() T { return resultNow(f.settled(), &f.result) }

// resultNow implements ResultNow for a future settled in state st; *v is read only in state
// stNormal, whose atomic load ordered the result's write before it.
func resultNow[T any](st int32, v *T) T {
	switch st {
	case stNormal:
		return *v
	case stNew:
		panic(fmt.Errorf("%w: task has not completed", ErrIllegalState))
	case stExceptional:
		panic(fmt.Errorf("%w: task completed with exception", ErrIllegalState))
	default:
		panic(fmt.Errorf("%w: task was cancelled", ErrIllegalState))
	}
}

// ExceptionNow returns the cause of a failed future; see [Future.ExceptionNow]. The panic messages
// are Java's: "task has not completed", "task completed with a result", "task was cancelled". It
// ports Future.exceptionNow().
func (f *FutureTask[T]) ExceptionNow() error {
	st := f.settled()
	var err error
	if st == stExceptional {
		err = f.failure()
	}
	return exceptionNow(st, &err)
}

// exceptionNow implements ExceptionNow for a future settled in state st; *err is read only in
// state stExceptional.
func exceptionNow(st int32, err *error) error {
	switch st {
	case stExceptional:
		return *err
	case stNew:
		panic(fmt.Errorf("%w: task has not completed", ErrIllegalState))
	case stNormal:
		panic(fmt.Errorf("%w: task completed with a result", ErrIllegalState))
	default:
		panic(fmt.Errorf("%w: task was cancelled", ErrIllegalState))
	}
}

// String describes the future as FutureTask.toString does: "FutureTask[Completed normally]",
// "FutureTask[Completed exceptionally: <cause>]", "FutureTask[Cancelled]" or
// "FutureTask[Not completed]".
func (f *FutureTask[T]) String() string {
	switch f.settled() {
	case stNormal:
		return "FutureTask[Completed normally]"
	case stExceptional:
		return fmt.Sprintf("FutureTask[Completed exceptionally: %v]", f.failure())
	case stNew:
		return "FutureTask[Not completed]"
	default:
		return "FutureTask[Cancelled]"
	}
}
