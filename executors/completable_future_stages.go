package executors

import "sync/atomic"

// The stages that depend on one source. Each Java method comes three times, as in Java: the
// plain one runs its action on the thread that completes the source (or on the caller, if the
// source is complete already); the Async one on the default executor (a new virtual thread); the
// AsyncOn one on the executor given. Java's generic methods are package functions here (Go
// methods cannot have type parameters); the methods that keep the result type, or make a
// CompletableFuture[struct{}] (Java's CompletableFuture<Void>), are methods.

// Each stage function makes its dependent d and pushes on its source a completion whose fire
// runs on the thread that completes the source (or on the caller, if the source is complete). It
// pushes it itself rather than through a helper taking fire as a function, since a closure
// handed to a closure costs two allocations per stage; and the hot ones write their action twice,
// once for complete (on the calling thread: the closure stays on the stack) and once for async
// (where it escapes into the task).

// async hands action, which completes d, to ex: d completes with its outcome on ex's thread, which
// then runs d's dependents. It returns d's dependents if ex refused the task (see dispatch).
func (d *CompletableFuture[T]) async(ex Executor, action func() (T, error)) *completion {
	return dispatch(ex, d, func() { postComplete(d.complete(action)) })
}

// run completes d with what action returns: on the calling thread if ex is nil (returning d's
// dependents), else as a task of ex (action then always escapes to the heap).
func (d *CompletableFuture[T]) run(ex Executor, action func() (T, error)) *completion {
	if ex == nil {
		return d.complete(action)
	}
	return d.async(ex, action)
}

// screen checks an executor argument (Java's screenExecutor).
func screen(ex Executor) Executor {
	if ex == nil {
		panic(nilArg("executor"))
	}
	return ex
}

// stageOf returns the future a stage argument chains on, panicking with an error wrapping
// thread.ErrNilArgument for a nil one.
func stageOf[T any](s CompletionStage[T]) *CompletableFuture[T] {
	if s != nil {
		if f := s.stage(); f != nil {
			return f
		}
	}
	panic(nilArg("stage"))
}

// ThenApply returns a stage that completes with fn applied to f's result, or fails as f does
// (without calling fn). fn runs on the thread that completes f, or on the caller if f is
// complete. A nil f or fn panics with an error wrapping [thread.ErrNilArgument], as do nil
// arguments of every stage method. It ports CompletionStage.thenApply.
func ThenApply[T, U any](f CompletionStage[T], fn func(T) (U, error)) *CompletableFuture[U] {
	return thenApply(stageOf(f), nil, fn)
}

// ThenApplyAsync is [ThenApply] with fn run on the default executor (a new virtual thread). It
// ports CompletionStage.thenApplyAsync(fn).
func ThenApplyAsync[T, U any](f CompletionStage[T], fn func(T) (U, error)) *CompletableFuture[U] {
	return thenApply(stageOf(f), defaultAsync, fn)
}

// ThenApplyAsyncOn is [ThenApply] with fn run on ex; if ex refuses it, the stage fails with ex's
// error. It ports CompletionStage.thenApplyAsync(fn, executor).
func ThenApplyAsyncOn[T, U any](f CompletionStage[T], ex Executor, fn func(T) (U, error)) *CompletableFuture[U] {
	return thenApply(stageOf(f), screen(ex), fn)
}

func thenApply[T, U any](f *CompletableFuture[T], ex Executor, fn func(T) (U, error)) *CompletableFuture[U] {
	if fn == nil {
		panic(nilArg("function"))
	}
	d := NewCompletableFuture[U]()
	f.push(&completion{dep: d, fire: func() *completion {
		o := f.load()
		switch {
		case o.err != nil:
			return d.fail(o.err)
		case ex == nil:
			return d.complete(func() (U, error) { return fn(o.v) })
		}
		return d.async(ex, func() (U, error) { return fn(o.v) })
	}})
	return d
}

func accept[T any](fn func(T)) func(T) (struct{}, error) {
	if fn == nil {
		panic(nilArg("action"))
	}
	return func(v T) (struct{}, error) { fn(v); return struct{}{}, nil }
}

func runner[T any](fn func()) func(T) (struct{}, error) {
	if fn == nil {
		panic(nilArg("action"))
	}
	return func(T) (struct{}, error) { fn(); return struct{}{}, nil }
}

// ThenAccept returns a stage that runs fn with c's result and completes with struct{}{}, or fails
// as c does. It ports CompletionStage.thenAccept.
func (c *CompletableFuture[T]) ThenAccept(fn func(T)) *CompletableFuture[struct{}] {
	return thenApply(c, nil, accept(fn))
}

// ThenAcceptAsync is ThenAccept with fn run on the default executor. It ports thenAcceptAsync.
func (c *CompletableFuture[T]) ThenAcceptAsync(fn func(T)) *CompletableFuture[struct{}] {
	return thenApply(c, defaultAsync, accept(fn))
}

// ThenAcceptAsyncOn is ThenAccept with fn run on ex. It ports thenAcceptAsync(action, executor).
func (c *CompletableFuture[T]) ThenAcceptAsyncOn(ex Executor, fn func(T)) *CompletableFuture[struct{}] {
	return thenApply(c, screen(ex), accept(fn))
}

// ThenRun returns a stage that runs fn once c has completed successfully, or fails as c does. It
// ports CompletionStage.thenRun.
func (c *CompletableFuture[T]) ThenRun(fn func()) *CompletableFuture[struct{}] {
	return thenApply(c, nil, runner[T](fn))
}

// ThenRunAsync is ThenRun with fn run on the default executor. It ports thenRunAsync.
func (c *CompletableFuture[T]) ThenRunAsync(fn func()) *CompletableFuture[struct{}] {
	return thenApply(c, defaultAsync, runner[T](fn))
}

// ThenRunAsyncOn is ThenRun with fn run on ex. It ports thenRunAsync(action, executor).
func (c *CompletableFuture[T]) ThenRunAsyncOn(ex Executor, fn func()) *CompletableFuture[struct{}] {
	return thenApply(c, screen(ex), runner[T](fn))
}

// ThenCompose returns a stage that completes as the future fn returns for f's result (fn returning
// nil fails it with an error wrapping [thread.ErrNilArgument]), or fails as f does. It ports
// CompletionStage.thenCompose.
func ThenCompose[T, U any](f CompletionStage[T], fn func(T) *CompletableFuture[U]) *CompletableFuture[U] {
	return thenCompose(stageOf(f), nil, fn)
}

// ThenComposeAsync is [ThenCompose] with fn run on the default executor. It ports
// thenComposeAsync(fn).
func ThenComposeAsync[T, U any](f CompletionStage[T], fn func(T) *CompletableFuture[U]) *CompletableFuture[U] {
	return thenCompose(stageOf(f), defaultAsync, fn)
}

// ThenComposeAsyncOn is [ThenCompose] with fn run on ex. It ports thenComposeAsync(fn, executor).
func ThenComposeAsyncOn[T, U any](f CompletionStage[T], ex Executor, fn func(T) *CompletableFuture[U]) *CompletableFuture[U] {
	return thenCompose(stageOf(f), screen(ex), fn)
}

func thenCompose[T, U any](f *CompletableFuture[T], ex Executor, fn func(T) *CompletableFuture[U]) *CompletableFuture[U] {
	if fn == nil {
		panic(nilArg("function"))
	}
	d := NewCompletableFuture[U]()
	f.push(&completion{dep: d, fire: func() *completion {
		o := f.load()
		if o.err != nil {
			return d.fail(o.err)
		}
		return d.runCompose(ex, func() *CompletableFuture[U] { return fn(o.v) })
	}})
	return d
}

// runCompose makes d complete as the future fn returns does, calling fn on the calling thread if
// ex is nil, else as a task of ex.
func (d *CompletableFuture[T]) runCompose(ex Executor, fn func() *CompletableFuture[T]) *completion {
	if ex == nil {
		return d.compose(fn)
	}
	return dispatch(ex, d, func() { postComplete(d.compose(fn)) })
}

func (d *CompletableFuture[T]) compose(fn func() *CompletableFuture[T]) *completion {
	if d.IsDone() {
		return nil
	}
	next, err := protect(func() (*CompletableFuture[T], error) { return fn(), nil },
		func() { postComplete(d.fail(ErrGoexit)) })
	switch {
	case err != nil:
		return d.fail(err)
	case next == nil:
		return d.fail(nilArg("compose function returned nil"))
	}
	return d.relayFrom(next)
}

// Handle returns a stage that completes with fn applied to f's result and failure (one of them
// zero), whichever way f completes. It ports CompletionStage.handle.
func Handle[T, U any](f CompletionStage[T], fn func(T, error) (U, error)) *CompletableFuture[U] {
	return handle(stageOf(f), nil, fn)
}

// HandleAsync is Handle with fn run on the default executor. It ports handleAsync(fn).
func HandleAsync[T, U any](f CompletionStage[T], fn func(T, error) (U, error)) *CompletableFuture[U] {
	return handle(stageOf(f), defaultAsync, fn)
}

// HandleAsyncOn is Handle with fn run on ex. It ports handleAsync(fn, executor).
func HandleAsyncOn[T, U any](f CompletionStage[T], ex Executor, fn func(T, error) (U, error)) *CompletableFuture[U] {
	return handle(stageOf(f), screen(ex), fn)
}

func handle[T, U any](f *CompletableFuture[T], ex Executor, fn func(T, error) (U, error)) *CompletableFuture[U] {
	if fn == nil {
		panic(nilArg("function"))
	}
	d := NewCompletableFuture[U]()
	f.push(&completion{dep: d, fire: func() *completion {
		o := f.load()
		if ex == nil {
			return d.complete(func() (U, error) { return fn(o.v, o.err) })
		}
		return d.async(ex, func() (U, error) { return fn(o.v, o.err) })
	}})
	return d
}

// WhenComplete returns a stage with c's outcome that runs fn with it first (result and failure,
// one of them zero). If fn panics (or calls [runtime.Goexit]), the stage fails with the panic as a
// *PanicError (or [ErrGoexit]) when c succeeded; when c failed, the stage keeps c's failure, as
// Java does, and the panic is kept as its Suppressed error (Java adds it to the exception with
// addSuppressed). It ports CompletionStage.whenComplete.
func (c *CompletableFuture[T]) WhenComplete(fn func(T, error)) *CompletableFuture[T] {
	return c.whenComplete(nil, fn)
}

// WhenCompleteAsync is WhenComplete with fn run on the default executor. It ports
// whenCompleteAsync(action).
func (c *CompletableFuture[T]) WhenCompleteAsync(fn func(T, error)) *CompletableFuture[T] {
	return c.whenComplete(defaultAsync, fn)
}

// WhenCompleteAsyncOn is WhenComplete with fn run on ex. It ports whenCompleteAsync(action,
// executor).
func (c *CompletableFuture[T]) WhenCompleteAsyncOn(ex Executor, fn func(T, error)) *CompletableFuture[T] {
	return c.whenComplete(screen(ex), fn)
}

func (c *CompletableFuture[T]) whenComplete(ex Executor, fn func(T, error)) *CompletableFuture[T] {
	if fn == nil {
		panic(nilArg("action"))
	}
	d := NewCompletableFuture[T]()
	c.push(&completion{dep: d, fire: func() *completion {
		o := c.load()
		if ex == nil {
			return d.runWhenComplete(o, fn)
		}
		return dispatch(ex, d, func() { postComplete(d.runWhenComplete(o, fn)) })
	}})
	return d
}

// runWhenComplete runs fn with o and completes d as Java's uniWhenComplete: the source's
// failure wins over the action's.
func (d *CompletableFuture[T]) runWhenComplete(o *outcome[T], fn func(T, error)) *completion {
	if d.IsDone() {
		return nil
	}
	settle := func(ex error) *completion {
		switch {
		case o.err == nil && ex == nil:
			return d.succeed(o.v)
		case o.err == nil:
			return d.fail(ex)
		}
		failed := outcome[T]{err: o.err, st: stExceptional}
		if ex != nil {
			suppressed := ex // only this rare path allocates
			failed.suppressed = &suppressed
		}
		deps, _ := d.settle(failed)
		return deps
	}
	_, ex := protect(func() (struct{}, error) { fn(o.v, o.err); return struct{}{}, nil },
		func() { postComplete(settle(ErrGoexit)) })
	return settle(ex)
}

// Exceptionally returns a stage that completes with c's result, or, if c fails, with what fn
// returns for the failure. It ports CompletionStage.exceptionally.
func (c *CompletableFuture[T]) Exceptionally(fn func(error) (T, error)) *CompletableFuture[T] {
	return c.exceptionally(nil, fn)
}

// ExceptionallyAsync is Exceptionally with fn run on the default executor (the stage completes
// there on success too, as in Java). It ports exceptionallyAsync(fn) (Java 12).
func (c *CompletableFuture[T]) ExceptionallyAsync(fn func(error) (T, error)) *CompletableFuture[T] {
	return c.exceptionally(defaultAsync, fn)
}

// ExceptionallyAsyncOn is Exceptionally with fn run on ex. It ports exceptionallyAsync(fn,
// executor).
func (c *CompletableFuture[T]) ExceptionallyAsyncOn(ex Executor, fn func(error) (T, error)) *CompletableFuture[T] {
	return c.exceptionally(screen(ex), fn)
}

func (c *CompletableFuture[T]) exceptionally(ex Executor, fn func(error) (T, error)) *CompletableFuture[T] {
	if fn == nil {
		panic(nilArg("function"))
	}
	d := NewCompletableFuture[T]()
	c.push(&completion{dep: d, fire: func() *completion {
		o := c.load()
		action := func() (T, error) {
			if o.err != nil {
				return fn(o.err)
			}
			return o.v, nil
		}
		return d.run(ex, action)
	}})
	return d
}

// ExceptionallyCompose returns a stage that completes with c's result, or, if c fails, as the
// future fn returns for the failure. It ports CompletionStage.exceptionallyCompose (Java 12).
func (c *CompletableFuture[T]) ExceptionallyCompose(fn func(error) *CompletableFuture[T]) *CompletableFuture[T] {
	return c.exceptionallyCompose(nil, fn)
}

// ExceptionallyComposeAsync is ExceptionallyCompose with fn run on the default executor. It ports
// exceptionallyComposeAsync(fn).
func (c *CompletableFuture[T]) ExceptionallyComposeAsync(fn func(error) *CompletableFuture[T]) *CompletableFuture[T] {
	return c.exceptionallyCompose(defaultAsync, fn)
}

// ExceptionallyComposeAsyncOn is ExceptionallyCompose with fn run on ex. It ports
// exceptionallyComposeAsync(fn, executor).
func (c *CompletableFuture[T]) ExceptionallyComposeAsyncOn(ex Executor, fn func(error) *CompletableFuture[T]) *CompletableFuture[T] {
	return c.exceptionallyCompose(screen(ex), fn)
}

func (c *CompletableFuture[T]) exceptionallyCompose(ex Executor, fn func(error) *CompletableFuture[T]) *CompletableFuture[T] {
	if fn == nil {
		panic(nilArg("function"))
	}
	d := NewCompletableFuture[T]()
	c.push(&completion{dep: d, fire: func() *completion {
		o := c.load()
		if o.err == nil {
			return d.succeed(o.v)
		}
		return d.runCompose(ex, func() *CompletableFuture[T] { return fn(o.err) })
	}})
	return d
}

// The stages that depend on two sources.

// both makes d run act once a and b have both completed successfully, or fail with the failure
// of a (else b) without running it, as Java's BiApply: a completion on each source, sharing a
// count of two. With both sources complete already and an executor, the whole stage is handed to
// the executor, as Java's biApplyStage does.
func both[V any](a, b Completion, ex Executor, act func() (V, error)) *CompletableFuture[V] {
	d := NewCompletableFuture[V]()
	failure := func() error {
		if err := a.failure(); err != nil {
			return err
		}
		return b.failure()
	}
	if ex != nil && a.isDone() && b.isDone() {
		postComplete(dispatch(ex, d, func() {
			if err := failure(); err != nil {
				postComplete(d.fail(err))
				return
			}
			postComplete(d.complete(act))
		}))
		return d
	}
	var left atomic.Int32
	left.Store(2)
	for _, src := range [2]Completion{a, b} {
		src.push(&completion{dep: d, fire: func() *completion {
			if left.Add(-1) != 0 {
				return nil
			}
			if err := failure(); err != nil {
				return d.fail(err)
			}
			return d.run(ex, act)
		}})
	}
	return d
}

// ThenCombine returns a stage that completes with fn applied to the results of a and b once both
// have completed; if either fails, it fails (with a's failure if both do) once both have
// completed, without calling fn, as Java's. It ports CompletionStage.thenCombine.
func ThenCombine[T, U, V any](a CompletionStage[T], b CompletionStage[U], fn func(T, U) (V, error)) *CompletableFuture[V] {
	return thenCombine(stageOf(a), stageOf(b), nil, fn)
}

// ThenCombineAsync is [ThenCombine] with fn run on the default executor. It ports
// thenCombineAsync(other, fn).
func ThenCombineAsync[T, U, V any](a CompletionStage[T], b CompletionStage[U], fn func(T, U) (V, error)) *CompletableFuture[V] {
	return thenCombine(stageOf(a), stageOf(b), defaultAsync, fn)
}

// ThenCombineAsyncOn is [ThenCombine] with fn run on ex. It ports thenCombineAsync(other, fn,
// executor).
func ThenCombineAsyncOn[T, U, V any](a CompletionStage[T], b CompletionStage[U], ex Executor, fn func(T, U) (V, error)) *CompletableFuture[V] {
	return thenCombine(stageOf(a), stageOf(b), screen(ex), fn)
}

func thenCombine[T, U, V any](a *CompletableFuture[T], b *CompletableFuture[U], ex Executor, fn func(T, U) (V, error)) *CompletableFuture[V] {
	if fn == nil {
		panic(nilArg("function"))
	}
	return both(a, b, ex, func() (V, error) { return fn(a.load().v, b.load().v) })
}

// ThenAcceptBoth returns a stage that runs fn with the results of a and b once both have
// completed, and completes with struct{}{}; it fails as [ThenCombine]'s does. It ports
// CompletionStage.thenAcceptBoth.
func ThenAcceptBoth[T, U any](a CompletionStage[T], b CompletionStage[U], fn func(T, U)) *CompletableFuture[struct{}] {
	return thenAcceptBoth(stageOf(a), stageOf(b), nil, fn)
}

// ThenAcceptBothAsync is [ThenAcceptBoth] with fn run on the default executor. It ports
// thenAcceptBothAsync(other, action).
func ThenAcceptBothAsync[T, U any](a CompletionStage[T], b CompletionStage[U], fn func(T, U)) *CompletableFuture[struct{}] {
	return thenAcceptBoth(stageOf(a), stageOf(b), defaultAsync, fn)
}

// ThenAcceptBothAsyncOn is [ThenAcceptBoth] with fn run on ex. It ports
// thenAcceptBothAsync(other, action, executor).
func ThenAcceptBothAsyncOn[T, U any](a CompletionStage[T], b CompletionStage[U], ex Executor, fn func(T, U)) *CompletableFuture[struct{}] {
	return thenAcceptBoth(stageOf(a), stageOf(b), screen(ex), fn)
}

func thenAcceptBoth[T, U any](a *CompletableFuture[T], b *CompletableFuture[U], ex Executor, fn func(T, U)) *CompletableFuture[struct{}] {
	if fn == nil {
		panic(nilArg("action"))
	}
	return both(a, b, ex, func() (struct{}, error) { fn(a.load().v, b.load().v); return struct{}{}, nil })
}

// RunAfterBoth returns a stage that runs fn once c and other (a stage of any result type) have
// both completed successfully, and completes with struct{}{}; it fails as [ThenCombine]'s does. It
// ports CompletionStage.runAfterBoth.
func (c *CompletableFuture[T]) RunAfterBoth(other Completion, fn func()) *CompletableFuture[struct{}] {
	return runAfterBoth(c, other, nil, fn)
}

// RunAfterBothAsync is RunAfterBoth with fn run on the default executor. It ports
// runAfterBothAsync(other, action).
func (c *CompletableFuture[T]) RunAfterBothAsync(other Completion, fn func()) *CompletableFuture[struct{}] {
	return runAfterBoth(c, other, defaultAsync, fn)
}

// RunAfterBothAsyncOn is RunAfterBoth with fn run on ex. It ports runAfterBothAsync(other,
// action, executor).
func (c *CompletableFuture[T]) RunAfterBothAsyncOn(other Completion, ex Executor, fn func()) *CompletableFuture[struct{}] {
	return runAfterBoth(c, other, screen(ex), fn)
}

func runAfterBoth(a, b Completion, ex Executor, fn func()) *CompletableFuture[struct{}] {
	if fn == nil {
		panic(nilArg("action"))
	}
	return both(a, checked(b), ex, func() (struct{}, error) { fn(); return struct{}{}, nil })
}

// either makes d run act(w), w the first of a and b to complete, and complete with what it
// returns, or fail as w did, as Java's OrApply: a completion on each source, sharing a claim, so
// that the action runs once. If a source is complete already, the stage depends on it alone (Java's
// uniApplyNow: a failure fails it at once, a value goes to the executor if there is one); if
// not, the winner's action, or its failure, goes to the executor when there is one.
func either[U any](a, b Completion, ex Executor, act func(w Completion) (U, error)) *CompletableFuture[U] {
	d := NewCompletableFuture[U]()
	for _, w := range [2]Completion{a, b} {
		if w.isDone() {
			if err := w.failure(); err != nil {
				postComplete(d.fail(err))
			} else {
				postComplete(d.run(ex, func() (U, error) { return act(w) }))
			}
			return d
		}
	}
	claim := new(atomic.Bool)
	for _, w := range [2]Completion{a, b} {
		if claim.Load() {
			break // the first push fired already: none needed on the other source
		}
		w.push(&completion{dep: d, claim: claim, fire: func() *completion {
			if !claim.CompareAndSwap(false, true) {
				return nil
			}
			finish := func() *completion {
				if err := w.failure(); err != nil {
					return d.fail(err)
				}
				return d.complete(func() (U, error) { return act(w) })
			}
			if ex == nil {
				return finish()
			}
			return dispatch(ex, d, func() { postComplete(finish()) })
		}})
	}
	return d
}

// ApplyToEither returns a stage that completes with fn applied to the result of whichever of a
// and b completes first, or fails as that one did; fn runs at most once. Which one counts when
// both are complete is unspecified, as in Java. It ports CompletionStage.applyToEither.
func ApplyToEither[T, U any](a, b CompletionStage[T], fn func(T) (U, error)) *CompletableFuture[U] {
	return applyToEither(stageOf(a), stageOf(b), nil, fn)
}

// ApplyToEitherAsync is [ApplyToEither] with fn run on the default executor. It ports
// applyToEitherAsync(other, fn).
func ApplyToEitherAsync[T, U any](a, b CompletionStage[T], fn func(T) (U, error)) *CompletableFuture[U] {
	return applyToEither(stageOf(a), stageOf(b), defaultAsync, fn)
}

// ApplyToEitherAsyncOn is [ApplyToEither] with fn run on ex. It ports applyToEitherAsync(other,
// fn, executor).
func ApplyToEitherAsyncOn[T, U any](a, b CompletionStage[T], ex Executor, fn func(T) (U, error)) *CompletableFuture[U] {
	return applyToEither(stageOf(a), stageOf(b), screen(ex), fn)
}

func applyToEither[T, U any](a, b *CompletableFuture[T], ex Executor, fn func(T) (U, error)) *CompletableFuture[U] {
	if fn == nil {
		panic(nilArg("function"))
	}
	return either(a, b, ex, func(w Completion) (U, error) { return fn(w.(*CompletableFuture[T]).load().v) })
}

// AcceptEither returns a stage that runs fn with the result of whichever of c and other completes
// first, and completes with struct{}{}; it fails as [ApplyToEither]'s does. It ports
// CompletionStage.acceptEither.
func (c *CompletableFuture[T]) AcceptEither(other CompletionStage[T], fn func(T)) *CompletableFuture[struct{}] {
	return applyToEither(c, stageOf(other), nil, accept(fn))
}

// AcceptEitherAsync is AcceptEither with fn run on the default executor. It ports
// acceptEitherAsync(other, action).
func (c *CompletableFuture[T]) AcceptEitherAsync(other CompletionStage[T], fn func(T)) *CompletableFuture[struct{}] {
	return applyToEither(c, stageOf(other), defaultAsync, accept(fn))
}

// AcceptEitherAsyncOn is AcceptEither with fn run on ex. It ports acceptEitherAsync(other,
// action, executor).
func (c *CompletableFuture[T]) AcceptEitherAsyncOn(other CompletionStage[T], ex Executor, fn func(T)) *CompletableFuture[struct{}] {
	return applyToEither(c, stageOf(other), screen(ex), accept(fn))
}

// RunAfterEither returns a stage that runs fn once either c or other (a stage of any result type)
// has completed successfully, and completes with struct{}{}; it fails as [ApplyToEither]'s does.
// It ports CompletionStage.runAfterEither.
func (c *CompletableFuture[T]) RunAfterEither(other Completion, fn func()) *CompletableFuture[struct{}] {
	return runAfterEither(c, other, nil, fn)
}

// RunAfterEitherAsync is RunAfterEither with fn run on the default executor. It ports
// runAfterEitherAsync(other, action).
func (c *CompletableFuture[T]) RunAfterEitherAsync(other Completion, fn func()) *CompletableFuture[struct{}] {
	return runAfterEither(c, other, defaultAsync, fn)
}

// RunAfterEitherAsyncOn is RunAfterEither with fn run on ex. It ports runAfterEitherAsync(other,
// action, executor).
func (c *CompletableFuture[T]) RunAfterEitherAsyncOn(other Completion, ex Executor, fn func()) *CompletableFuture[struct{}] {
	return runAfterEither(c, other, screen(ex), fn)
}

func runAfterEither(a, b Completion, ex Executor, fn func()) *CompletableFuture[struct{}] {
	if fn == nil {
		panic(nilArg("action"))
	}
	return either(a, checked(b), ex, func(Completion) (struct{}, error) { fn(); return struct{}{}, nil })
}

// AllOf returns a future that completes when all of fs have completed: with struct{}{} if all
// succeeded, else failing with the failure of the first of fs that failed. With no fs it is
// complete at once. A nil element panics with an error wrapping [thread.ErrNilArgument]. It ports
// CompletableFuture.allOf.
func AllOf(fs ...Completion) *CompletableFuture[struct{}] {
	for _, f := range fs {
		checked(f)
	}
	d := NewCompletableFuture[struct{}]()
	if len(fs) == 0 {
		d.Complete(struct{}{})
		return d
	}
	var left atomic.Int64
	left.Store(int64(len(fs)))
	for _, f := range fs {
		f.push(&completion{dep: d, fire: func() *completion {
			if left.Add(-1) != 0 {
				return nil
			}
			for _, g := range fs {
				if err := g.failure(); err != nil {
					return d.fail(err)
				}
			}
			return d.succeed(struct{}{})
		}})
	}
	return d
}

// AnyOf returns a future that completes as the first of fs to complete does: with its result (as
// any) or its failure. With no fs it never completes. A nil element panics with an error wrapping
// [thread.ErrNilArgument]. It ports CompletableFuture.anyOf.
func AnyOf(fs ...Completion) *CompletableFuture[any] {
	for _, f := range fs {
		checked(f)
	}
	d := NewCompletableFuture[any]()
	for _, f := range fs {
		if d.IsDone() {
			break
		}
		f.push(&completion{dep: d, fire: func() *completion {
			v, err := f.anyOutcome()
			if err != nil {
				return d.fail(err)
			}
			return d.succeed(v)
		}})
	}
	return d
}
