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
// the stage it depends on. The methods are documented on [CompletableFuture]. The interface has
// unexported methods, so only this package implements it.
type CompletionStage[T any] interface {
	Completion

	ThenAccept(fn func(T)) *CompletableFuture[struct{}]
	ThenAcceptAsync(fn func(T)) *CompletableFuture[struct{}]
	ThenAcceptAsyncOn(ex Executor, fn func(T)) *CompletableFuture[struct{}]
	ThenRun(fn func()) *CompletableFuture[struct{}]
	ThenRunAsync(fn func()) *CompletableFuture[struct{}]
	ThenRunAsyncOn(ex Executor, fn func()) *CompletableFuture[struct{}]
	WhenComplete(fn func(T, error)) *CompletableFuture[T]
	WhenCompleteAsync(fn func(T, error)) *CompletableFuture[T]
	WhenCompleteAsyncOn(ex Executor, fn func(T, error)) *CompletableFuture[T]
	Exceptionally(fn func(error) (T, error)) *CompletableFuture[T]
	ExceptionallyAsync(fn func(error) (T, error)) *CompletableFuture[T]
	ExceptionallyAsyncOn(ex Executor, fn func(error) (T, error)) *CompletableFuture[T]
	ExceptionallyCompose(fn func(error) *CompletableFuture[T]) *CompletableFuture[T]
	ExceptionallyComposeAsync(fn func(error) *CompletableFuture[T]) *CompletableFuture[T]
	ExceptionallyComposeAsyncOn(ex Executor, fn func(error) *CompletableFuture[T]) *CompletableFuture[T]
	AcceptEither(other CompletionStage[T], fn func(T)) *CompletableFuture[struct{}]
	AcceptEitherAsync(other CompletionStage[T], fn func(T)) *CompletableFuture[struct{}]
	AcceptEitherAsyncOn(other CompletionStage[T], ex Executor, fn func(T)) *CompletableFuture[struct{}]
	RunAfterEither(other Completion, fn func()) *CompletableFuture[struct{}]
	RunAfterEitherAsync(other Completion, fn func()) *CompletableFuture[struct{}]
	RunAfterEitherAsyncOn(other Completion, ex Executor, fn func()) *CompletableFuture[struct{}]
	RunAfterBoth(other Completion, fn func()) *CompletableFuture[struct{}]
	RunAfterBothAsync(other Completion, fn func()) *CompletableFuture[struct{}]
	RunAfterBothAsyncOn(other Completion, ex Executor, fn func()) *CompletableFuture[struct{}]
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
