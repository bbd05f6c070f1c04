package executors

// Completion is any [CompletableFuture] or [CompletionStage], whatever its result type: what [AllOf],
// [AnyOf], RunAfterBoth and RunAfterEither take (Java's CompletableFuture<?> and
// [CompletionStage]<?>). Its methods are unexported: only this package's stages implement it.
type Completion interface {
	isNil() bool
	isDone() bool
	push(h *completion)
	failure() error           // the failure of a complete stage, nil if it succeeded
	anyOutcome() (any, error) // the outcome of a complete stage, its value as an any
}

func (c *CompletableFuture[T]) isNil() bool  { return c == nil }
func (c *CompletableFuture[T]) isDone() bool { return c.IsDone() }
func (c *CompletableFuture[T]) failure() error {
	if o := c.load(); o != nil {
		return o.err
	}
	return nil
}
func (c *CompletableFuture[T]) anyOutcome() (any, error) {
	o := c.load()
	if o.err != nil {
		return nil, o.err
	}
	return o.v, nil
}

// checked returns c, panicking with an error wrapping thread.ErrNilArgument if it is nil.
func checked(c Completion) Completion {
	if c == nil || c.isNil() {
		panic(nilArg("stage"))
	}
	return c
}

// CompletionStage is a stage of a computation that can be observed and chained but not
// completed: java.util.concurrent.CompletionStage. *CompletableFuture[T] implements it, and so
// does the restricted view that MinimalCompletionStage, [CompletedStage] and [FailedStage] return.
// The holder of a view can add dependent stages, through these methods and through the package
// functions that take a CompletionStage ([ThenApply], [ThenCompose], [ThenCombine], Handle,
// [ThenAcceptBoth], [ApplyToEither] and their async variants), but cannot complete, cancel, obtrude
// or wait for the stage it views: for that, ToCompletableFuture gives a new future that
// completes as the view does (Java's minimalStage.toCompletableFuture().join()).
//
// The methods return full CompletableFutures, also on a view (Java's return minimal stages; Go
// has no covariant results): those are new dependent stages, and completing one does not touch
// the stage it depends on. None of the methods blocks: each adds a stage and returns; the
// methods of [CompletableFuture] document each in full. The interface has unexported methods, so
// only this package implements it.
type CompletionStage[T any] interface {
	Completion

	// ThenAccept returns a stage that runs fn with this stage's result and completes with
	// struct{}{}, or fails as this stage does ([CompletableFuture.ThenAccept]). It ports thenAccept.
	ThenAccept(fn func(T)) *CompletableFuture[struct{}]

	// ThenAcceptAsync is ThenAccept with fn run on the default executor. It ports thenAcceptAsync.
	ThenAcceptAsync(fn func(T)) *CompletableFuture[struct{}]

	// ThenAcceptAsyncOn is ThenAccept with fn run on ex. It ports thenAcceptAsync(action, executor).
	ThenAcceptAsyncOn(ex Executor, fn func(T)) *CompletableFuture[struct{}]

	// ThenRun returns a stage that runs fn once this stage has completed successfully, or fails as
	// it does ([CompletableFuture.ThenRun]). It ports thenRun.
	ThenRun(fn func()) *CompletableFuture[struct{}]

	// ThenRunAsync is ThenRun with fn run on the default executor. It ports thenRunAsync.
	ThenRunAsync(fn func()) *CompletableFuture[struct{}]

	// ThenRunAsyncOn is ThenRun with fn run on ex. It ports thenRunAsync(action, executor).
	ThenRunAsyncOn(ex Executor, fn func()) *CompletableFuture[struct{}]

	// WhenComplete returns a stage with this stage's outcome that runs fn with it first
	// ([CompletableFuture.WhenComplete] says what a panic in fn does). It ports whenComplete.
	WhenComplete(fn func(T, error)) *CompletableFuture[T]

	// WhenCompleteAsync is WhenComplete with fn run on the default executor. It ports
	// whenCompleteAsync(action).
	WhenCompleteAsync(fn func(T, error)) *CompletableFuture[T]

	// WhenCompleteAsyncOn is WhenComplete with fn run on ex. It ports whenCompleteAsync(action,
	// executor).
	WhenCompleteAsyncOn(ex Executor, fn func(T, error)) *CompletableFuture[T]

	// Exceptionally returns a stage that completes with this stage's result or, if it fails, with
	// what fn returns for the failure ([CompletableFuture.Exceptionally]). It ports exceptionally.
	Exceptionally(fn func(error) (T, error)) *CompletableFuture[T]

	// ExceptionallyAsync is Exceptionally with fn run on the default executor. It ports
	// exceptionallyAsync(fn) (Java 12).
	ExceptionallyAsync(fn func(error) (T, error)) *CompletableFuture[T]

	// ExceptionallyAsyncOn is Exceptionally with fn run on ex. It ports exceptionallyAsync(fn,
	// executor).
	ExceptionallyAsyncOn(ex Executor, fn func(error) (T, error)) *CompletableFuture[T]

	// ExceptionallyCompose returns a stage that completes with this stage's result or, if it
	// fails, as the future fn returns for the failure ([CompletableFuture.ExceptionallyCompose]).
	// It ports exceptionallyCompose (Java 12).
	ExceptionallyCompose(fn func(error) *CompletableFuture[T]) *CompletableFuture[T]

	// ExceptionallyComposeAsync is ExceptionallyCompose with fn run on the default executor. It
	// ports exceptionallyComposeAsync(fn).
	ExceptionallyComposeAsync(fn func(error) *CompletableFuture[T]) *CompletableFuture[T]

	// ExceptionallyComposeAsyncOn is ExceptionallyCompose with fn run on ex. It ports
	// exceptionallyComposeAsync(fn, executor).
	ExceptionallyComposeAsyncOn(ex Executor, fn func(error) *CompletableFuture[T]) *CompletableFuture[T]

	// AcceptEither returns a stage that runs fn with the result of whichever of this stage and
	// other completes first ([CompletableFuture.AcceptEither]). It ports acceptEither.
	AcceptEither(other CompletionStage[T], fn func(T)) *CompletableFuture[struct{}]

	// AcceptEitherAsync is AcceptEither with fn run on the default executor. It ports
	// acceptEitherAsync(other, action).
	AcceptEitherAsync(other CompletionStage[T], fn func(T)) *CompletableFuture[struct{}]

	// AcceptEitherAsyncOn is AcceptEither with fn run on ex. It ports acceptEitherAsync(other,
	// action, executor).
	AcceptEitherAsyncOn(other CompletionStage[T], ex Executor, fn func(T)) *CompletableFuture[struct{}]

	// RunAfterEither returns a stage that runs fn once either this stage or other (of any result
	// type) has completed successfully ([CompletableFuture.RunAfterEither]). It ports
	// runAfterEither.
	RunAfterEither(other Completion, fn func()) *CompletableFuture[struct{}]

	// RunAfterEitherAsync is RunAfterEither with fn run on the default executor. It ports
	// runAfterEitherAsync(other, action).
	RunAfterEitherAsync(other Completion, fn func()) *CompletableFuture[struct{}]

	// RunAfterEitherAsyncOn is RunAfterEither with fn run on ex. It ports
	// runAfterEitherAsync(other, action, executor).
	RunAfterEitherAsyncOn(other Completion, ex Executor, fn func()) *CompletableFuture[struct{}]

	// RunAfterBoth returns a stage that runs fn once this stage and other (of any result type)
	// have both completed successfully ([CompletableFuture.RunAfterBoth]). It ports runAfterBoth.
	RunAfterBoth(other Completion, fn func()) *CompletableFuture[struct{}]

	// RunAfterBothAsync is RunAfterBoth with fn run on the default executor. It ports
	// runAfterBothAsync(other, action).
	RunAfterBothAsync(other Completion, fn func()) *CompletableFuture[struct{}]

	// RunAfterBothAsyncOn is RunAfterBoth with fn run on ex. It ports runAfterBothAsync(other,
	// action, executor).
	RunAfterBothAsyncOn(other Completion, ex Executor, fn func()) *CompletableFuture[struct{}]

	// ToCompletableFuture returns a future that completes as this stage does: the future itself
	// for a *CompletableFuture, a new one for a view, whose completion does not touch the view. It
	// ports toCompletableFuture.
	ToCompletableFuture() *CompletableFuture[T]

	// stage returns the future the package functions chain on: the stage itself, or the future a
	// view keeps to itself.
	stage() *CompletableFuture[T]
}

func (c *CompletableFuture[T]) stage() *CompletableFuture[T] { return c }

// MinimalCompletionStage returns a view of a copy of c (see Copy) that offers only the
// [CompletionStage] methods: code given it can chain on c but cannot complete, cancel or wait for
// it. It ports CompletableFuture.minimalCompletionStage (Java 9), whose other methods throw
// UnsupportedOperationException; here the view has none.
func (c *CompletableFuture[T]) MinimalCompletionStage() CompletionStage[T] {
	return &minimalStage[T]{f: c.Copy()}
}

// CompletedStage returns a [CompletionStage] view of a stage already completed with v. It ports
// CompletableFuture.completedStage (Java 9).
func CompletedStage[T any](v T) CompletionStage[T] {
	return &minimalStage[T]{f: CompletedFuture(v)}
}

// FailedStage returns a [CompletionStage] view of a stage already failed with err. A nil err
// panics with an error wrapping [thread.ErrNilArgument]. It ports CompletableFuture.failedStage
// (Java 9).
func FailedStage[T any](err error) CompletionStage[T] {
	return &minimalStage[T]{f: FailedFuture[T](err)}
}

// minimalStage is Java's MinimalStage: a CompletionStage over a future that nobody else holds,
// with no method that completes it or waits for it. It does not embed the future, so that no
// type assertion can reach those methods.
type minimalStage[T any] struct{ f *CompletableFuture[T] }

func (m *minimalStage[T]) stage() *CompletableFuture[T] { return m.f }
func (m *minimalStage[T]) isNil() bool                  { return m == nil || m.f == nil }
func (m *minimalStage[T]) isDone() bool                 { return m.f.isDone() }
func (m *minimalStage[T]) push(h *completion)           { m.f.push(h) }
func (m *minimalStage[T]) failure() error               { return m.f.failure() }
func (m *minimalStage[T]) anyOutcome() (any, error)     { return m.f.anyOutcome() }

// ToCompletableFuture returns a new future that completes as the view does; completing it does
// not complete the view. It ports MinimalStage.toCompletableFuture.
func (m *minimalStage[T]) ToCompletableFuture() *CompletableFuture[T] { return m.f.Copy() }

// String describes the stage as CompletableFuture.String does.
func (m *minimalStage[T]) String() string { return m.f.String() }

func (m *minimalStage[T]) ThenAccept(fn func(T)) *CompletableFuture[struct{}] {
	return m.f.ThenAccept(fn)
}
func (m *minimalStage[T]) ThenAcceptAsync(fn func(T)) *CompletableFuture[struct{}] {
	return m.f.ThenAcceptAsync(fn)
}
func (m *minimalStage[T]) ThenAcceptAsyncOn(ex Executor, fn func(T)) *CompletableFuture[struct{}] {
	return m.f.ThenAcceptAsyncOn(ex, fn)
}
func (m *minimalStage[T]) ThenRun(fn func()) *CompletableFuture[struct{}] { return m.f.ThenRun(fn) }
func (m *minimalStage[T]) ThenRunAsync(fn func()) *CompletableFuture[struct{}] {
	return m.f.ThenRunAsync(fn)
}
func (m *minimalStage[T]) ThenRunAsyncOn(ex Executor, fn func()) *CompletableFuture[struct{}] {
	return m.f.ThenRunAsyncOn(ex, fn)
}
func (m *minimalStage[T]) WhenComplete(fn func(T, error)) *CompletableFuture[T] {
	return m.f.WhenComplete(fn)
}
func (m *minimalStage[T]) WhenCompleteAsync(fn func(T, error)) *CompletableFuture[T] {
	return m.f.WhenCompleteAsync(fn)
}
func (m *minimalStage[T]) WhenCompleteAsyncOn(ex Executor, fn func(T, error)) *CompletableFuture[T] {
	return m.f.WhenCompleteAsyncOn(ex, fn)
}
func (m *minimalStage[T]) Exceptionally(fn func(error) (T, error)) *CompletableFuture[T] {
	return m.f.Exceptionally(fn)
}
func (m *minimalStage[T]) ExceptionallyAsync(fn func(error) (T, error)) *CompletableFuture[T] {
	return m.f.ExceptionallyAsync(fn)
}
func (m *minimalStage[T]) ExceptionallyAsyncOn(ex Executor, fn func(error) (T, error)) *CompletableFuture[T] {
	return m.f.ExceptionallyAsyncOn(ex, fn)
}
func (m *minimalStage[T]) ExceptionallyCompose(fn func(error) *CompletableFuture[T]) *CompletableFuture[T] {
	return m.f.ExceptionallyCompose(fn)
}
func (m *minimalStage[T]) ExceptionallyComposeAsync(fn func(error) *CompletableFuture[T]) *CompletableFuture[T] {
	return m.f.ExceptionallyComposeAsync(fn)
}
func (m *minimalStage[T]) ExceptionallyComposeAsyncOn(ex Executor, fn func(error) *CompletableFuture[T]) *CompletableFuture[T] {
	return m.f.ExceptionallyComposeAsyncOn(ex, fn)
}
func (m *minimalStage[T]) AcceptEither(other CompletionStage[T], fn func(T)) *CompletableFuture[struct{}] {
	return m.f.AcceptEither(other, fn)
}
func (m *minimalStage[T]) AcceptEitherAsync(other CompletionStage[T], fn func(T)) *CompletableFuture[struct{}] {
	return m.f.AcceptEitherAsync(other, fn)
}
func (m *minimalStage[T]) AcceptEitherAsyncOn(other CompletionStage[T], ex Executor, fn func(T)) *CompletableFuture[struct{}] {
	return m.f.AcceptEitherAsyncOn(other, ex, fn)
}
func (m *minimalStage[T]) RunAfterEither(other Completion, fn func()) *CompletableFuture[struct{}] {
	return m.f.RunAfterEither(other, fn)
}
func (m *minimalStage[T]) RunAfterEitherAsync(other Completion, fn func()) *CompletableFuture[struct{}] {
	return m.f.RunAfterEitherAsync(other, fn)
}
func (m *minimalStage[T]) RunAfterEitherAsyncOn(other Completion, ex Executor, fn func()) *CompletableFuture[struct{}] {
	return m.f.RunAfterEitherAsyncOn(other, ex, fn)
}
func (m *minimalStage[T]) RunAfterBoth(other Completion, fn func()) *CompletableFuture[struct{}] {
	return m.f.RunAfterBoth(other, fn)
}
func (m *minimalStage[T]) RunAfterBothAsync(other Completion, fn func()) *CompletableFuture[struct{}] {
	return m.f.RunAfterBothAsync(other, fn)
}
func (m *minimalStage[T]) RunAfterBothAsyncOn(other Completion, ex Executor, fn func()) *CompletableFuture[struct{}] {
	return m.f.RunAfterBothAsyncOn(other, ex, fn)
}
