package executors

import (
	"fmt"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/loomgo/loom/thread"
)

// CompletableFuture is a Future that is completed explicitly (Complete, CompleteExceptionally)
// or by the task of SupplyAsync, and from which dependent stages are built (ThenApply,
// ThenCompose, ThenCombine, AllOf, AnyOf, ...), as java.util.concurrent.CompletableFuture.
// Dependent actions run on the thread that completes the stage they depend on, or on the caller
// if that stage is already complete, as Java's non-async methods do. A failure (an error, a
// panic as *PanicError, or ErrCancelled) propagates through dependent stages unchanged, which
// then are Failed (not Cancelled, as in Java); Get returns it wrapped in an *ExecutionError. Make one with NewCompletableFuture,
// CompletedFuture, FailedFuture, SupplyAsync or RunAsync; it must not be copied.
type CompletableFuture[T any] struct {
	_ noCopy

	state     atomic.Int32 // stNew, stNormal, stExceptional or stCancelled
	mu        sync.Mutex
	result    T
	err       error
	waiters   []*thread.Thread
	callbacks []func()
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

// FailedFuture returns a future already failed with err. It ports
// CompletableFuture.failedFuture. A nil err panics with an error wrapping thread.ErrNilArgument.
func FailedFuture[T any](err error) *CompletableFuture[T] {
	if err == nil {
		panic(nilArg("error"))
	}
	c := &CompletableFuture[T]{err: err}
	c.state.Store(stExceptional)
	return c
}

// SupplyAsync runs task on a new virtual thread and returns a future of its outcome. It ports
// CompletableFuture.supplyAsync(Supplier), with a virtual thread per task in the place of the
// common ForkJoinPool. A nil task panics with an error wrapping thread.ErrNilArgument.
func SupplyAsync[T any](task func() (T, error)) *CompletableFuture[T] {
	if task == nil {
		panic(nilArg("task"))
	}
	c := NewCompletableFuture[T]()
	thread.StartVirtualThread(func() { c.completeWith(task) })
	return c
}

// SupplyAsyncOn is SupplyAsync running task on es. If es rejects it, the future fails with the
// rejection. It ports CompletableFuture.supplyAsync(Supplier, Executor).
func SupplyAsyncOn[T any](es ExecutorService, task func() (T, error)) *CompletableFuture[T] {
	if task == nil {
		panic(nilArg("task"))
	}
	c := NewCompletableFuture[T]()
	if err := es.Execute(func() { c.completeWith(task) }); err != nil {
		c.CompleteExceptionally(err)
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

// completeWith runs fn and completes c with its outcome; a panic becomes a *PanicError.
func (c *CompletableFuture[T]) completeWith(fn func() (T, error)) {
	v, err := protect(fn)
	if err != nil {
		c.CompleteExceptionally(err)
	} else {
		c.Complete(v)
	}
}

func protect[T any](fn func() (T, error)) (v T, err error) {
	normal := false
	defer func() {
		if !normal {
			if r := recover(); r != nil {
				err = &PanicError{Value: r, Stack: debug.Stack()}
			}
		}
	}()
	v, err = fn()
	normal = true
	return v, err
}

// Complete completes the future with v if it is not already complete, and reports whether this
// call completed it. It ports CompletableFuture.complete.
func (c *CompletableFuture[T]) Complete(v T) bool { return c.finish(v, nil, stNormal) }

// CompleteExceptionally fails the future with err if it is not already complete, and reports
// whether this call completed it. A nil err panics with an error wrapping thread.ErrNilArgument.
// It ports CompletableFuture.completeExceptionally.
func (c *CompletableFuture[T]) CompleteExceptionally(err error) bool {
	if err == nil {
		panic(nilArg("error"))
	}
	var zero T
	return c.finish(zero, err, stExceptional)
}

// Cancel fails the future with ErrCancelled if it is not already complete; mayInterruptIfRunning
// has no effect, as in Java (a CompletableFuture does not know what computes it).
func (c *CompletableFuture[T]) Cancel(mayInterruptIfRunning bool) bool {
	var zero T
	return c.finish(zero, ErrCancelled, stCancelled)
}

func (c *CompletableFuture[T]) finish(v T, err error, st int32) bool {
	c.mu.Lock()
	if c.state.Load() != stNew {
		c.mu.Unlock()
		return false
	}
	c.result, c.err = v, err
	c.state.Store(st)
	ws, cbs := c.waiters, c.callbacks
	c.waiters, c.callbacks = nil, nil
	c.mu.Unlock()
	for _, w := range ws {
		thread.Unpark(w)
	}
	for _, cb := range cbs {
		cb()
	}
	return true
}

// whenDone runs fn once c is complete: now, on the caller, if it already is.
func (c *CompletableFuture[T]) whenDone(fn func()) {
	c.mu.Lock()
	if c.state.Load() == stNew {
		c.callbacks = append(c.callbacks, fn)
		c.mu.Unlock()
		return
	}
	c.mu.Unlock()
	fn()
}

// outcome returns the result and the failure cause of a complete future.
func (c *CompletableFuture[T]) outcome() (T, error) { return c.result, c.err }

func (c *CompletableFuture[T]) failure() error {
	if c.state.Load() == stNormal {
		return nil
	}
	return c.err
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
		return zero, ErrCancelled
	default:
		return zero, &ExecutionError{Cause: c.err}
	}
}

func (c *CompletableFuture[T]) wait(d time.Duration, interruptible bool) (T, error) {
	var zero T
	if c.state.Load() != stNew {
		return c.report()
	}
	if d == 0 {
		if interruptible && thread.Interrupted() {
			return zero, thread.ErrInterrupted
		}
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

// String describes the future as Java does: "CompletableFuture[Completed normally]",
// "[Completed exceptionally: <cause>]" or "[Incomplete]".
func (c *CompletableFuture[T]) String() string {
	switch c.state.Load() {
	case stNew:
		return "CompletableFuture[Incomplete]"
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
	f.whenDone(func() {
		v, err := f.outcome()
		if f.failure() != nil {
			d.CompleteExceptionally(err)
			return
		}
		d.completeWith(func() (U, error) { return fn(v) })
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
	f.whenDone(func() {
		v, err := f.outcome()
		if f.failure() != nil {
			d.CompleteExceptionally(err)
			return
		}
		next, perr := protect(func() (*CompletableFuture[U], error) { return fn(v), nil })
		if perr != nil {
			d.CompleteExceptionally(perr)
			return
		}
		if next == nil {
			d.CompleteExceptionally(nilArg("ThenCompose function returned nil"))
			return
		}
		next.whenDone(func() {
			u, err := next.outcome()
			if next.failure() != nil {
				d.CompleteExceptionally(err)
				return
			}
			d.Complete(u)
		})
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
	f.whenDone(func() {
		v, err := f.outcome()
		d.completeWith(func() (U, error) { return fn(v, err) })
	})
	return d
}

// WhenComplete returns a stage with c's outcome that runs fn with it first. It ports
// whenComplete.
func (c *CompletableFuture[T]) WhenComplete(fn func(T, error)) *CompletableFuture[T] {
	if fn == nil {
		panic(nilArg("function"))
	}
	return Handle(c, func(v T, err error) (T, error) {
		fn(v, err)
		return v, err
	})
}

// Completion is any CompletableFuture, whatever its result type, for AllOf and AnyOf.
type Completion interface {
	IsDone() bool
	whenDone(fn func())
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
		f.whenDone(func() {
			if left.Add(-1) != 0 {
				return
			}
			for _, g := range fs {
				if err := g.failure(); err != nil {
					d.CompleteExceptionally(err)
					return
				}
			}
			d.Complete(struct{}{})
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
		f.whenDone(func() {
			if err := f.failure(); err != nil {
				d.CompleteExceptionally(err)
				return
			}
			d.Complete(f.resultAny())
		})
	}
	return d
}
