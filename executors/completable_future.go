package executors

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/loomgo/loom/internal/usercode"
	"github.com/loomgo/loom/thread"
)

// CompletableFuture is a Future that is completed explicitly (Complete, CompleteExceptionally)
// or by the task of SupplyAsync, and from which dependent stages are built (ThenApply,
// ThenCompose, ThenCombine, AllOf, AnyOf, ...), as java.util.concurrent.CompletableFuture.
// Dependent actions run on the thread that completes the stage they depend on, or on the caller
// if that stage is already complete, as Java's non-async methods do; the dependents of one stage
// run last-registered first, in the order Java's stack of completions gives them. A failure (an
// error, a panic as *PanicError, ErrGoexit, or ErrCancelled) propagates through dependent stages
// unchanged, which then are Failed (not Cancelled, as in Java); Get returns it wrapped in an
// *ExecutionError. A task or action that calls runtime.Goexit fails its stage with ErrGoexit
// (the goroutine goes on exiting, after running what depends on that stage), so nothing waits
// forever. Make one with NewCompletableFuture, CompletedFuture, FailedFuture, SupplyAsync or
// RunAsync; it must not be copied.
type CompletableFuture[T any] struct {
	_ noCopy

	state      atomic.Int32 // stNew, stNormal, stExceptional or stCancelled
	mu         sync.Mutex
	result     T
	err        error
	suppressed error // a WhenComplete action's panic that gave way to err
	waiters    []*thread.Thread
	stack      *completion // dependents, newest first; nil once complete
}

// completion is a dependent action waiting for a stage to complete, as Java's Completion: pushed
// on the stage's stack, fired once.
type completion struct {
	next *completion
	// fire runs the action and completes the stage that depends on it. It returns that stage's
	// own dependents, taken from it, for the caller to run: postComplete runs a whole tree of
	// stages in a loop, in Java's order, without recursing from stage to stage.
	fire func() *completion
}

// postComplete runs the dependents of a stage that has just completed, and the dependents of
// the stages they complete, in the order of Java's CompletableFuture.postComplete: the stage's
// own dependents last-registered first, each followed at once by the dependents of the stage it
// completed (those in registration order, as Java moves them onto the first stage's stack one by
// one before it fires the last).
//
// If an action calls runtime.Goexit its stage fails with ErrGoexit (see complete), and the rest
// of the work is done here, in a deferred call, as the goroutine exits: a Goexit in one
// callback must not strand the stages that depend on the others.
func postComplete(stack *completion) {
	if stack != nil {
		(&postCompleter{stack: stack}).run()
	}
}

type postCompleter struct {
	stack  *completion // the completed stage's dependents
	nested *completion // the dependents of the stage fired last, not yet moved or fired
}

func (p *postCompleter) run() {
	done := false
	defer func() {
		if !done { // an action called runtime.Goexit: finish on the way out
			p.run()
		}
	}()
	for {
		var h *completion
		switch {
		case p.nested != nil:
			h, p.nested = p.nested, p.nested.next
			if p.nested != nil { // not the last one: move it to the main stack
				h.next, p.stack = p.stack, h
				continue
			}
		case p.stack != nil:
			h, p.stack = p.stack, p.stack.next
		default:
			done = true
			return
		}
		h.next = nil
		p.nested = h.fire()
	}
}

// NewCompletableFuture returns an incomplete future. It ports new CompletableFuture<>().
func NewCompletableFuture[T any]() *CompletableFuture[T] { return &CompletableFuture[T]{} }

// CompletedFuture returns a future already completed with v. It ports
// CompletableFuture.completedFuture.
func CompletedFuture[T any](v T) *CompletableFuture[T] {
	c := &CompletableFuture[T]{result: v}
	c.state.Store(stNormal)
	return c
}

// FailedFuture returns a future already failed with err (cancelled, if err is ErrCancelled, as
// Java's failedFuture(new CancellationException())). It ports CompletableFuture.failedFuture. A
// nil err panics with an error wrapping thread.ErrNilArgument.
func FailedFuture[T any](err error) *CompletableFuture[T] {
	if err == nil {
		panic(nilArg("error"))
	}
	c := &CompletableFuture[T]{err: err}
	c.state.Store(failedState(err))
	return c
}

// failedState is the state of a future completed explicitly with err: Java's CompletableFuture
// counts itself cancelled when its exception is a CancellationException.
func failedState(err error) int32 {
	if errors.Is(err, ErrCancelled) {
		return stCancelled
	}
	return stExceptional
}

// SupplyAsync runs task on a new virtual thread and returns a future of its outcome. It ports
// CompletableFuture.supplyAsync(Supplier), with a virtual thread per task in the place of the
// common ForkJoinPool. A nil task panics with an error wrapping thread.ErrNilArgument.
func SupplyAsync[T any](task func() (T, error)) *CompletableFuture[T] {
	if task == nil {
		panic(nilArg("task"))
	}
	c := NewCompletableFuture[T]()
	thread.StartVirtualThread(func() { postComplete(c.complete(task)) })
	return c
}

// SupplyAsyncOn is SupplyAsync running task on es. If es rejects it, the future fails with the
// rejection. It ports CompletableFuture.supplyAsync(Supplier, Executor).
func SupplyAsyncOn[T any](es ExecutorService, task func() (T, error)) *CompletableFuture[T] {
	if task == nil {
		panic(nilArg("task"))
	}
	c := NewCompletableFuture[T]()
	if err := es.Execute(func() { postComplete(c.complete(task)) }); err != nil {
		postComplete(c.fail(err))
	}
	return c
}

// RunAsync runs task on a new virtual thread; the future completes with struct{}{} when it
// returns. It ports CompletableFuture.runAsync.
func RunAsync(task func()) *CompletableFuture[struct{}] {
	if task == nil {
		panic(nilArg("task"))
	}
	return SupplyAsync(func() (struct{}, error) { task(); return struct{}{}, nil })
}

// complete runs fn and completes c with its outcome (a panic as a *PanicError, and the failure
// is never a cancellation: Java wraps what a task throws in a CompletionException). It returns
// c's dependents for the caller to run. If fn calls runtime.Goexit, c fails with ErrGoexit and
// its dependents run here, as the goroutine exits.
func (c *CompletableFuture[T]) complete(fn func() (T, error)) *completion {
	v, err := protect(fn, func() { postComplete(c.fail(ErrGoexit)) })
	if err != nil {
		return c.fail(err)
	}
	deps, _ := c.settle(v, nil, stNormal)
	return deps
}

// protect calls fn and returns what it returns, or a *PanicError if it panics; if fn calls
// runtime.Goexit, protect calls onGoexit and does not return. See usercode.Call.
func protect[T any](fn func() (T, error), onGoexit func()) (T, error) {
	return usercode.Call(fn, onGoexit)
}

// Complete completes the future with v if it is not already complete, and reports whether this
// call completed it; the dependents then run on the calling thread. It ports
// CompletableFuture.complete.
func (c *CompletableFuture[T]) Complete(v T) bool { return c.finish(v, nil, stNormal) }

// CompleteExceptionally fails the future with err if it is not already complete, and reports
// whether this call completed it; the dependents then run on the calling thread. Failing it with
// ErrCancelled (or an error wrapping it) cancels it, as Java's completeExceptionally with a
// CancellationException. A nil err panics with an error wrapping thread.ErrNilArgument. It ports
// CompletableFuture.completeExceptionally.
func (c *CompletableFuture[T]) CompleteExceptionally(err error) bool {
	if err == nil {
		panic(nilArg("error"))
	}
	var zero T
	return c.finish(zero, err, failedState(err))
}

// Cancel cancels the future (it fails with ErrCancelled) if it is not already complete, and
// reports whether it is cancelled now: true also for a future that was cancelled before, as
// Java's cancel returns. mayInterruptIfRunning has no effect, as in Java (a CompletableFuture
// does not know what computes it). It ports CompletableFuture.cancel.
func (c *CompletableFuture[T]) Cancel(mayInterruptIfRunning bool) bool {
	var zero T
	return c.finish(zero, ErrCancelled, stCancelled) || c.IsCancelled()
}

// finish completes c, if it is not complete, and runs its dependents on the caller.
func (c *CompletableFuture[T]) finish(v T, err error, st int32) bool {
	deps, ok := c.settle(v, err, st)
	postComplete(deps)
	return ok
}

// fail completes c with err as a stage whose source or action failed (never a cancellation) and
// returns its dependents.
func (c *CompletableFuture[T]) fail(err error) *completion {
	var zero T
	deps, _ := c.settle(zero, err, stExceptional)
	return deps
}

// settle completes c, if it is not complete, wakes its waiters and returns its dependents for
// the caller to run (Java's internal completion, before postComplete), and whether it completed c.
func (c *CompletableFuture[T]) settle(v T, err error, st int32) (*completion, bool) {
	c.mu.Lock()
	if c.state.Load() != stNew {
		c.mu.Unlock()
		return nil, false
	}
	c.result, c.err = v, err
	c.state.Store(st)
	ws, deps := c.waiters, c.stack
	c.waiters, c.stack = nil, nil
	c.mu.Unlock()
	for _, w := range ws {
		thread.Unpark(w)
	}
	return deps, true
}

// push registers fire to run when c completes; if c is already complete it runs now, on the
// caller, with the dependents of the stage it completes.
func (c *CompletableFuture[T]) push(fire func() *completion) {
	c.mu.Lock()
	if c.state.Load() == stNew {
		c.stack = &completion{next: c.stack, fire: fire}
		c.mu.Unlock()
		return
	}
	c.mu.Unlock()
	postComplete(fire())
}

// failure returns the failure cause of a complete future, nil if it succeeded.
func (c *CompletableFuture[T]) failure() error {
	if c.state.Load() == stNormal {
		return nil
	}
	return c.err
}

// NumberOfDependents returns about how many stages and threads wait for the future to
// complete. It ports CompletableFuture.getNumberOfDependents.
func (c *CompletableFuture[T]) NumberOfDependents() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := len(c.waiters)
	for p := c.stack; p != nil; p = p.next {
		n++
	}
	return n
}

// Suppressed returns the panic of the action of a stage made by WhenComplete that gave way to
// the failure of the stage it depends on (Java's getSuppressed on that failure, to which
// whenComplete adds it), and nil otherwise.
func (c *CompletableFuture[T]) Suppressed() error {
	if c.state.Load() == stNew {
		return nil
	}
	return c.suppressed
}

// IsDone reports whether the future completed in any way.
func (c *CompletableFuture[T]) IsDone() bool { return c.state.Load() != stNew }

// IsCancelled reports whether the future was cancelled.
func (c *CompletableFuture[T]) IsCancelled() bool { return c.state.Load() == stCancelled }

// IsCompletedExceptionally reports whether the future failed or was cancelled.
func (c *CompletableFuture[T]) IsCompletedExceptionally() bool {
	s := c.state.Load()
	return s == stExceptional || s == stCancelled
}

// State returns the state of the future; see Future.State.
func (c *CompletableFuture[T]) State() FutureState {
	switch c.state.Load() {
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

// Get waits for the outcome; see Future.Get.
func (c *CompletableFuture[T]) Get() (T, error) { return c.wait(-1, true) }

// GetTimeout waits at most d for the outcome; see Future.GetTimeout.
func (c *CompletableFuture[T]) GetTimeout(d time.Duration) (T, error) {
	if d < 0 {
		d = 0
	}
	return c.wait(d, true)
}

// Join waits for the outcome without being interruptible (an interrupt while it waits stays
// set), and returns the result or an *ExecutionError (ErrCancelled if cancelled). It ports
// CompletableFuture.join (whose CompletionException is the *ExecutionError here).
func (c *CompletableFuture[T]) Join() (T, error) { return c.wait(-1, false) }

// GetNow returns the result if the future completed successfully, else valueIfAbsent if it is
// not complete; a failure is returned as in Get. It ports CompletableFuture.getNow.
func (c *CompletableFuture[T]) GetNow(valueIfAbsent T) (T, error) {
	if c.state.Load() == stNew {
		return valueIfAbsent, nil
	}
	return c.report()
}

func (c *CompletableFuture[T]) report() (T, error) {
	var zero T
	switch c.state.Load() {
	case stNormal:
		return c.result, nil
	case stCancelled:
		return zero, c.err // ErrCancelled, or what CompleteExceptionally cancelled it with
	default:
		return zero, &ExecutionError{Cause: c.err}
	}
}

func (c *CompletableFuture[T]) wait(d time.Duration, interruptible bool) (T, error) {
	var zero T
	if c.state.Load() != stNew {
		return c.report()
	}
	if d == 0 { // Java's timed get only looks: even an interrupted caller gets a time-out
		return zero, ErrTimeout
	}
	me := thread.Current()
	var deadline time.Time
	if d > 0 {
		deadline = time.Now().Add(d)
	}
	c.mu.Lock()
	if c.state.Load() == stNew {
		c.waiters = append(c.waiters, me)
	}
	c.mu.Unlock()
	sawInterrupt := false
	defer func() {
		c.removeWaiter(me)
		if sawInterrupt {
			me.Interrupt() // Join keeps the interrupt for the caller
		}
	}()
	for c.state.Load() == stNew {
		if me.IsInterrupted() {
			thread.Interrupted()
			if interruptible {
				return zero, thread.ErrInterrupted
			}
			sawInterrupt = true
		}
		if d < 0 {
			thread.Park()
			continue
		}
		left := time.Until(deadline)
		if left <= 0 {
			return zero, ErrTimeout
		}
		thread.ParkNanos(left)
	}
	return c.report()
}

func (c *CompletableFuture[T]) removeWaiter(me *thread.Thread) {
	c.mu.Lock()
	c.waiters = removeThread(c.waiters, me)
	c.mu.Unlock()
}

// ResultNow returns the result of a successful future; see Future.ResultNow.
func (c *CompletableFuture[T]) ResultNow() T { return resultNow(c.state.Load(), &c.result) }

// ExceptionNow returns the cause of a failed future; see Future.ExceptionNow.
func (c *CompletableFuture[T]) ExceptionNow() error { return exceptionNow(c.state.Load(), &c.err) }

// String describes the future as Java's toString does (without the identity hash):
// "CompletableFuture[Completed normally]", "CompletableFuture[Completed exceptionally: <cause>]",
// "CompletableFuture[Not completed]" or, with stages or threads waiting for it,
// "CompletableFuture[Not completed, 2 dependents]".
func (c *CompletableFuture[T]) String() string {
	switch c.state.Load() {
	case stNew:
		if n := c.NumberOfDependents(); n > 0 {
			return fmt.Sprintf("CompletableFuture[Not completed, %d dependents]", n)
		}
		return "CompletableFuture[Not completed]"
	case stNormal:
		return "CompletableFuture[Completed normally]"
	default:
		return fmt.Sprintf("CompletableFuture[Completed exceptionally: %v]", c.err)
	}
}

// ThenApply returns a stage that completes with fn applied to f's result, or fails as f does.
// fn runs on the thread that completes f (or the caller, if f is complete). It ports
// CompletableFuture.thenApply.
func ThenApply[T, U any](f *CompletableFuture[T], fn func(T) (U, error)) *CompletableFuture[U] {
	if fn == nil {
		panic(nilArg("function"))
	}
	d := NewCompletableFuture[U]()
	f.push(func() *completion {
		if err := f.failure(); err != nil {
			return d.fail(err)
		}
		return d.complete(func() (U, error) { return fn(f.result) })
	})
	return d
}

// ThenAccept returns a stage that runs fn with f's result and completes with struct{}{}. It ports
// thenAccept.
func (c *CompletableFuture[T]) ThenAccept(fn func(T)) *CompletableFuture[struct{}] {
	if fn == nil {
		panic(nilArg("function"))
	}
	return ThenApply(c, func(v T) (struct{}, error) { fn(v); return struct{}{}, nil })
}

// ThenRun returns a stage that runs fn once c has completed successfully. It ports thenRun.
func (c *CompletableFuture[T]) ThenRun(fn func()) *CompletableFuture[struct{}] {
	if fn == nil {
		panic(nilArg("function"))
	}
	return ThenApply(c, func(T) (struct{}, error) { fn(); return struct{}{}, nil })
}

// ThenCompose returns a stage that completes as the future fn returns for f's result. It ports
// thenCompose.
func ThenCompose[T, U any](f *CompletableFuture[T], fn func(T) *CompletableFuture[U]) *CompletableFuture[U] {
	if fn == nil {
		panic(nilArg("function"))
	}
	d := NewCompletableFuture[U]()
	f.push(func() *completion {
		if err := f.failure(); err != nil {
			return d.fail(err)
		}
		next, err := protect(func() (*CompletableFuture[U], error) { return fn(f.result), nil },
			func() { postComplete(d.fail(ErrGoexit)) })
		if err != nil {
			return d.fail(err)
		}
		if next == nil {
			return d.fail(nilArg("ThenCompose function returned nil"))
		}
		next.push(func() *completion {
			if err := next.failure(); err != nil {
				return d.fail(err)
			}
			deps, _ := d.settle(next.result, nil, stNormal)
			return deps
		})
		return nil
	})
	return d
}

// ThenCombine returns a stage that completes with fn applied to the results of a and b, once
// both have completed; it fails as soon as either fails. It ports thenCombine.
func ThenCombine[T, U, V any](a *CompletableFuture[T], b *CompletableFuture[U], fn func(T, U) (V, error)) *CompletableFuture[V] {
	if fn == nil {
		panic(nilArg("function"))
	}
	return ThenCompose(a, func(x T) *CompletableFuture[V] {
		return ThenApply(b, func(y U) (V, error) { return fn(x, y) })
	})
}

// Exceptionally returns a stage that completes with c's result, or, if c fails, with what fn
// returns for the failure's cause. It ports exceptionally.
func (c *CompletableFuture[T]) Exceptionally(fn func(error) (T, error)) *CompletableFuture[T] {
	if fn == nil {
		panic(nilArg("function"))
	}
	return Handle(c, func(v T, err error) (T, error) {
		if err != nil {
			return fn(err)
		}
		return v, nil
	})
}

// Handle returns a stage that completes with fn applied to c's result and failure cause (one of
// them zero), whichever way c completes. It ports handle.
func Handle[T, U any](f *CompletableFuture[T], fn func(T, error) (U, error)) *CompletableFuture[U] {
	if fn == nil {
		panic(nilArg("function"))
	}
	d := NewCompletableFuture[U]()
	f.push(func() *completion {
		v, err := f.result, f.failure()
		return d.complete(func() (U, error) { return fn(v, err) })
	})
	return d
}

// WhenComplete returns a stage with c's outcome that runs fn with it first (result and failure
// cause, one of them zero). If fn panics (or calls runtime.Goexit), the stage fails with the
// panic as a *PanicError (or ErrGoexit) when c succeeded; when c failed, the stage keeps c's
// failure, as Java does, and the panic is kept as its Suppressed error (Java adds it to the
// exception with addSuppressed). It ports whenComplete.
func (c *CompletableFuture[T]) WhenComplete(fn func(T, error)) *CompletableFuture[T] {
	if fn == nil {
		panic(nilArg("function"))
	}
	d := NewCompletableFuture[T]()
	c.push(func() *completion {
		v, x := c.result, c.failure()
		// settle d as Java's uniWhenComplete: the source's failure wins over the action's
		settle := func(ex error) *completion {
			switch {
			case x == nil && ex == nil:
				deps, _ := d.settle(v, nil, stNormal)
				return deps
			case x == nil:
				return d.fail(ex)
			}
			d.mu.Lock()
			if d.state.Load() == stNew {
				d.suppressed = ex // written before d's state, which publishes it
			}
			d.mu.Unlock()
			return d.fail(x)
		}
		_, ex := protect(func() (struct{}, error) { fn(v, x); return struct{}{}, nil },
			func() { postComplete(settle(ErrGoexit)) })
		return settle(ex)
	})
	return d
}

// Completion is any CompletableFuture, whatever its result type, for AllOf and AnyOf.
type Completion interface {
	IsDone() bool
	push(fire func() *completion)
	failure() error
	resultAny() any
}

func (c *CompletableFuture[T]) resultAny() any { return c.ResultNow() }

// AllOf returns a future that completes when all of fs have completed: with struct{}{} if all
// succeeded, else failing with the cause of one that failed. With no fs it is complete at once.
// It ports CompletableFuture.allOf.
func AllOf(fs ...Completion) *CompletableFuture[struct{}] {
	d := NewCompletableFuture[struct{}]()
	if len(fs) == 0 {
		d.Complete(struct{}{})
		return d
	}
	var left atomic.Int64
	left.Store(int64(len(fs)))
	for _, f := range fs {
		if f == nil {
			panic(nilArg("future"))
		}
	}
	for _, f := range fs {
		f.push(func() *completion {
			if left.Add(-1) != 0 {
				return nil
			}
			for _, g := range fs {
				if err := g.failure(); err != nil {
					return d.fail(err)
				}
			}
			deps, _ := d.settle(struct{}{}, nil, stNormal)
			return deps
		})
	}
	return d
}

// AnyOf returns a future that completes as the first of fs to complete does: with its result (as
// any) or its failure. With no fs it never completes. It ports CompletableFuture.anyOf.
func AnyOf(fs ...Completion) *CompletableFuture[any] {
	d := NewCompletableFuture[any]()
	for _, f := range fs {
		if f == nil {
			panic(nilArg("future"))
		}
	}
	for _, f := range fs {
		f.push(func() *completion {
			if err := f.failure(); err != nil {
				return d.fail(err)
			}
			deps, _ := d.settle(f.resultAny(), nil, stNormal)
			return deps
		})
	}
	return d
}
