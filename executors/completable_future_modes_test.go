package executors_test

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/loomgo/loom/executors"
	"github.com/loomgo/loom/thread"
)

// The machinery of the TCK's CompletableFutureTest: Item, the ExecutionMode enum (every stage in
// its sync, async and async-with-executor form), ThreadExecutor, and the checked actions that
// record how often and on which thread they ran.

// item is the TCK's Item: a boxed int, nil standing for Java's null.
type item struct{ Value int }

func itemFor(i int) *item { return &item{i} }

var (
	one, two, three      = itemFor(1), itemFor(2), itemFor(3)
	four, fortytwo       = itemFor(4), itemFor(42)
	minusOne, ninetynine = itemFor(-1), itemFor(99)
)

// values are the TCK's `for (Item v1 : new Item[] { one, null })`.
var values = []*item{one, nil}

// inc is the TCK's inc: nil stays nil.
func inc(x *item) *item {
	if x == nil {
		return nil
	}
	return itemFor(x.Value + 1)
}

// subtract is the TCK's non-commutative subtract.
func subtract(x, y *item) *item {
	if x == nil && y == nil {
		return nil
	}
	a, b := 42, 99
	if x != nil {
		a = x.Value
	}
	if y != nil {
		b = y.Value
	}
	return itemFor(a - b)
}

type cf = executors.CompletableFuture[*item]
type cfVoid = executors.CompletableFuture[struct{}]

var void = struct{}{}

// tck runs one TCK test body on a driver thread of one kind: the body creates stages and
// completes their sources, so a sync action must run on it.
type tck struct {
	*testing.T
	virtual bool           // the driver and the threadExecutors' threads are virtual
	driver  *thread.Thread // the thread that runs the body
}

// runTCK runs body twice, on a virtual and on a platform driver thread. Checks report with
// Errorf: the body does not run on the test's goroutine.
func runTCK(t *testing.T, body func(c *tck)) {
	t.Helper()
	for _, virtual := range []bool{true, false} {
		name := "platform"
		if virtual {
			name = "virtual"
		}
		t.Run(name, func(t *testing.T) {
			c := &tck{T: t, virtual: virtual}
			th := startThread(virtual, func() {
				c.driver = thread.Current()
				body(c)
			})
			if ok, _ := th.JoinTimeout(2 * time.Minute); !ok {
				t.Fatalf("the %s driver thread did not finish", name)
			}
		})
	}
}

func startThread(virtual bool, fn func()) *thread.Thread {
	if virtual {
		return thread.OfVirtual().Start(fn)
	}
	return thread.OfPlatform().Start(fn)
}

// threadExecutor is the TCK's ThreadExecutor: a new thread per task (of the tck's kind), counted;
// its threads are marked while they run the task, as the TCK marks them with a ThreadGroup.
type threadExecutor struct {
	virtual bool
	count   atomic.Int64
}

var threadExecutorThreads sync.Map

func (c *tck) newThreadExecutor() *threadExecutor { return &threadExecutor{virtual: c.virtual} }

func (e *threadExecutor) Execute(task func()) error {
	e.count.Add(1)
	startThread(e.virtual, func() {
		t := thread.Current()
		threadExecutorThreads.Store(t, struct{}{})
		defer threadExecutorThreads.Delete(t)
		task()
	})
	return nil
}

// startedCurrentThread is ThreadExecutor.startedCurrentThread.
func startedCurrentThread() bool {
	_, ok := threadExecutorThreads.Load(thread.Current())
	return ok
}

// countingRejectingExecutor is the TCK's CountingRejectingExecutor.
type countingRejectingExecutor struct {
	ex    error
	count atomic.Int64
}

func newCountingRejectingExecutor() *countingRejectingExecutor {
	return &countingRejectingExecutor{ex: fmt.Errorf("%w: by the test", executors.ErrRejected)}
}

func (e *countingRejectingExecutor) Execute(func()) error {
	e.count.Add(1)
	return e.ex
}

// executionMode is the TCK's ExecutionMode.
type executionMode int

const (
	syncMode executionMode = iota
	asyncMode
	executorMode
)

var executionModes = []executionMode{syncMode, asyncMode, executorMode}

func (m executionMode) String() string { return [...]string{"SYNC", "ASYNC", "EXECUTOR"}[m] }

// checkExecutionMode checks the thread an action runs on: in SYNC mode the driver (the thread
// that completes the source, or that made the stage of a complete source: Java's rule, where the
// TCK only checks "not an executor's thread"); in ASYNC mode a virtual thread of the default
// executor; in EXECUTOR mode a thread of a threadExecutor.
func (c *tck) checkExecutionMode(m executionMode) {
	cur := thread.Current()
	switch m {
	case syncMode:
		if cur != c.driver || startedCurrentThread() || executors.RunsOnDefaultExecutor() {
			c.Errorf("SYNC action ran on %v, want the completing thread %v", cur, c.driver)
		}
	case asyncMode:
		if !executors.RunsOnDefaultExecutor() || !cur.IsVirtual() || startedCurrentThread() {
			c.Errorf("ASYNC action ran on %v, not on a virtual thread of the default executor", cur)
		}
	case executorMode:
		if !startedCurrentThread() || executors.RunsOnDefaultExecutor() {
			c.Errorf("EXECUTOR action ran on %v, not on a thread of the executor given", cur)
		}
	}
}

func (m executionMode) executor(c *tck) executors.Executor { return c.newThreadExecutor() }

func (m executionMode) runAsync(c *tck, a func()) *cfVoid {
	if m == asyncMode {
		return executors.RunAsync(a)
	}
	return executors.RunAsyncOn(m.executor(c), a)
}

func (m executionMode) supplyAsync(c *tck, a func() (*item, error)) *cf {
	if m == asyncMode {
		return executors.SupplyAsync(a)
	}
	return executors.SupplyAsyncOn(m.executor(c), a)
}

func (m executionMode) thenRun(c *tck, f *cf, a func()) *cfVoid {
	switch m {
	case syncMode:
		return f.ThenRun(a)
	case asyncMode:
		return f.ThenRunAsync(a)
	}
	return f.ThenRunAsyncOn(m.executor(c), a)
}

func (m executionMode) thenAccept(c *tck, f *cf, a func(*item)) *cfVoid {
	switch m {
	case syncMode:
		return f.ThenAccept(a)
	case asyncMode:
		return f.ThenAcceptAsync(a)
	}
	return f.ThenAcceptAsyncOn(m.executor(c), a)
}

func (m executionMode) thenApply(c *tck, f *cf, a func(*item) (*item, error)) *cf {
	switch m {
	case syncMode:
		return executors.ThenApply(f, a)
	case asyncMode:
		return executors.ThenApplyAsync(f, a)
	}
	return executors.ThenApplyAsyncOn(f, m.executor(c), a)
}

func (m executionMode) thenCompose(c *tck, f *cf, a func(*item) *cf) *cf {
	switch m {
	case syncMode:
		return executors.ThenCompose(f, a)
	case asyncMode:
		return executors.ThenComposeAsync(f, a)
	}
	return executors.ThenComposeAsyncOn(f, m.executor(c), a)
}

func (m executionMode) handle(c *tck, f *cf, a func(*item, error) (*item, error)) *cf {
	switch m {
	case syncMode:
		return executors.Handle(f, a)
	case asyncMode:
		return executors.HandleAsync(f, a)
	}
	return executors.HandleAsyncOn(f, m.executor(c), a)
}

func (m executionMode) whenComplete(c *tck, f *cf, a func(*item, error)) *cf {
	switch m {
	case syncMode:
		return f.WhenComplete(a)
	case asyncMode:
		return f.WhenCompleteAsync(a)
	}
	return f.WhenCompleteAsyncOn(m.executor(c), a)
}

func (m executionMode) runAfterBoth(c *tck, f, g *cf, a func()) *cfVoid {
	switch m {
	case syncMode:
		return f.RunAfterBoth(g, a)
	case asyncMode:
		return f.RunAfterBothAsync(g, a)
	}
	return f.RunAfterBothAsyncOn(g, m.executor(c), a)
}

func (m executionMode) thenAcceptBoth(c *tck, f, g *cf, a func(*item, *item)) *cfVoid {
	switch m {
	case syncMode:
		return executors.ThenAcceptBoth(f, g, a)
	case asyncMode:
		return executors.ThenAcceptBothAsync(f, g, a)
	}
	return executors.ThenAcceptBothAsyncOn(f, g, m.executor(c), a)
}

func (m executionMode) thenCombine(c *tck, f, g *cf, a func(*item, *item) (*item, error)) *cf {
	switch m {
	case syncMode:
		return executors.ThenCombine(f, g, a)
	case asyncMode:
		return executors.ThenCombineAsync(f, g, a)
	}
	return executors.ThenCombineAsyncOn(f, g, m.executor(c), a)
}

func (m executionMode) runAfterEither(c *tck, f, g *cf, a func()) *cfVoid {
	switch m {
	case syncMode:
		return f.RunAfterEither(g, a)
	case asyncMode:
		return f.RunAfterEitherAsync(g, a)
	}
	return f.RunAfterEitherAsyncOn(g, m.executor(c), a)
}

func (m executionMode) acceptEither(c *tck, f, g *cf, a func(*item)) *cfVoid {
	switch m {
	case syncMode:
		return f.AcceptEither(g, a)
	case asyncMode:
		return f.AcceptEitherAsync(g, a)
	}
	return f.AcceptEitherAsyncOn(g, m.executor(c), a)
}

func (m executionMode) applyToEither(c *tck, f, g *cf, a func(*item) (*item, error)) *cf {
	switch m {
	case syncMode:
		return executors.ApplyToEither(f, g, a)
	case asyncMode:
		return executors.ApplyToEitherAsync(f, g, a)
	}
	return executors.ApplyToEitherAsyncOn(f, g, m.executor(c), a)
}

func (m executionMode) exceptionally(c *tck, f *cf, a func(error) (*item, error)) *cf {
	switch m {
	case syncMode:
		return f.Exceptionally(a)
	case asyncMode:
		return f.ExceptionallyAsync(a)
	}
	return f.ExceptionallyAsyncOn(m.executor(c), a)
}

func (m executionMode) exceptionallyCompose(c *tck, f *cf, a func(error) *cf) *cf {
	switch m {
	case syncMode:
		return f.ExceptionallyCompose(a)
	case asyncMode:
		return f.ExceptionallyComposeAsync(a)
	}
	return f.ExceptionallyComposeAsyncOn(m.executor(c), a)
}

// action is the TCK's CheckedAction and CheckedItemAction: it counts its invocations, checks
// the thread of each (checkExecutionMode), and keeps the value it saw or made. A failing action
// fails with ex: by returning it where the Java interface has a result (Supplier, Function,
// BiFunction: the checked exception's place in Go), by panicking with it where it has none
// (Runnable, Consumer, BiConsumer); failedWith checks the stage accordingly.
type action struct {
	c      *tck
	m      executionMode
	n      atomic.Int32
	mu     sync.Mutex
	value  *item
	ex     error
	panics bool
}

func (c *tck) newAction(m executionMode) *action {
	return &action{c: c, m: m, ex: newCFException()}
}

func (c *tck) newActions(m executionMode, n int) []*action {
	as := make([]*action, n)
	for i := range as {
		as[i] = c.newAction(m)
	}
	return as
}

func (a *action) invoked() {
	a.c.checkExecutionMode(a.m)
	if n := a.n.Add(1); n != 1 {
		a.c.Errorf("%v action invoked %d times", a.m, n)
	}
}

func (a *action) set(v *item) {
	a.mu.Lock()
	a.value = v
	a.mu.Unlock()
}

func (a *action) get() *item {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.value
}

func (a *action) assertNotInvoked() {
	a.c.Helper()
	if n := a.n.Load(); n != 0 {
		a.c.Errorf("%v action invoked %d times, want never", a.m, n)
	}
}

func (a *action) assertInvoked() {
	a.c.Helper()
	if n := a.n.Load(); n != 1 {
		a.c.Errorf("%v action invoked %d times, want once", a.m, n)
	}
}

func (a *action) assertValue(want *item) {
	a.c.Helper()
	a.assertInvoked()
	if got := a.get(); !cmp.Equal(got, want) {
		a.c.Errorf("%v action saw %v, want %v", a.m, got, want)
	}
}

// Noop
func (a *action) noop() func() { return a.invoked }

// NoopConsumer
func (a *action) noopConsumer() func(*item) {
	return func(x *item) { a.invoked(); a.set(x) }
}

// IncFunction
func (a *action) incFunction() func(*item) (*item, error) {
	return func(x *item) (*item, error) { a.invoked(); v := inc(x); a.set(v); return v, nil }
}

// SubtractAction
func (a *action) subtractAction() func(x, y *item) {
	return func(x, y *item) { a.invoked(); a.set(subtract(x, y)) }
}

// SubtractFunction
func (a *action) subtractFunction() func(x, y *item) (*item, error) {
	return func(x, y *item) (*item, error) { a.invoked(); v := subtract(x, y); a.set(v); return v, nil }
}

// ItemSupplier
func (a *action) itemSupplier(v *item) func() (*item, error) {
	return func() (*item, error) { a.invoked(); return v, nil }
}

// CompletableFutureInc
func (a *action) completableFutureInc() func(*item) *cf {
	return func(x *item) *cf { a.invoked(); a.set(x); return executors.CompletedFuture(inc(x)) }
}

// FailingRunnable
func (a *action) failingRunnable() func() {
	a.panics = true
	return func() { a.invoked(); panic(a.ex) }
}

// FailingConsumer
func (a *action) failingConsumer() func(*item) {
	a.panics = true
	return func(x *item) { a.invoked(); a.set(x); panic(a.ex) }
}

// FailingBiConsumer
func (a *action) failingBiConsumer() func(x, y *item) {
	a.panics = true
	return func(x, y *item) { a.invoked(); a.set(subtract(x, y)); panic(a.ex) }
}

// FailingFunction
func (a *action) failingFunction() func(*item) (*item, error) {
	return func(x *item) (*item, error) { a.invoked(); a.set(x); return nil, a.ex }
}

// FailingBiFunction
func (a *action) failingBiFunction() func(x, y *item) (*item, error) {
	return func(x, y *item) (*item, error) { a.invoked(); a.set(subtract(x, y)); return nil, a.ex }
}

// FailingSupplier
func (a *action) failingSupplier() func() (*item, error) {
	return func() (*item, error) { a.invoked(); return nil, a.ex }
}

// FailingCompletableFutureFunction (a panic: the function has no error result)
func (a *action) failingCompletableFutureFunction() func(*item) *cf {
	a.panics = true
	return func(x *item) *cf { a.invoked(); a.set(x); panic(a.ex) }
}

// ExceptionalCompletableFutureFunction: completes with three.
func (a *action) exceptionalCompletableFutureFunction() func(error) *cf {
	return func(error) *cf { a.invoked(); return executors.CompletedFuture(three) }
}

// FailingExceptionalCompletableFutureFunction
func (a *action) failingExceptionalCompletableFutureFunction() func(error) *cf {
	a.panics = true
	return func(error) *cf { a.invoked(); panic(a.ex) }
}

// failedWith checks that f failed because a did (the TCK's checkCompletedWithWrappedException(f,
// a.ex)): with a.ex itself, or with the *PanicError of a's panic.
func failedWith[T any](c *tck, f *executors.CompletableFuture[T], a *action) {
	c.Helper()
	if !a.panics {
		checkCompletedExceptionally(c.T, f, a.ex)
		return
	}
	if _, err := f.GetTimeout(10 * time.Second); err == nil {
		c.Errorf("stage succeeded, want it failed with the action's panic")
		return
	}
	var pe *executors.PanicError
	if err := f.ExceptionNow(); !errors.As(err, &pe) || pe.Value != a.ex {
		c.Errorf("stage failed with %v, want the action's panic %v", err, a.ex)
	}
	if f.IsCancelled() || f.State() != executors.Failed {
		c.Errorf("cancelled %v, state %v", f.IsCancelled(), f.State())
	}
}

// checkCompletedWithWrappedCancellation is the TCK's checkCompletedWithWrappedCancellationException:
// a dependent of a cancelled stage fails with the cancellation, and is not cancelled itself.
func checkCompletedWithWrappedCancellation[T any](t *testing.T, f *executors.CompletableFuture[T]) {
	t.Helper()
	if got := exceptionalCompletion(f); !errors.Is(got, executors.ErrCancelled) {
		t.Errorf("Handle sees %v, want ErrCancelled", got)
	}
	for _, g := range getters(f) {
		_, err := g.get()
		var ee *executors.ExecutionError
		if !errors.As(err, &ee) || !errors.Is(ee.Cause, executors.ErrCancelled) {
			t.Errorf("%s = %v, want an ExecutionError caused by ErrCancelled", g.name, err)
		}
	}
	if f.IsCancelled() || !f.IsCompletedExceptionally() || f.State() != executors.Failed {
		t.Errorf("cancelled %v, exceptionally %v, state %v", f.IsCancelled(), f.IsCompletedExceptionally(), f.State())
	}
}

// sourceFailure is one of the TCK's ways for a source to fail: with an exception, or cancelled
// (either way of mayInterruptIfRunning, which has no effect).
type sourceFailure struct {
	name      string
	ex        error // the exception, for "exceptional"
	fail      func(f *cf) bool
	checkItem func(t *testing.T, h *cf)
	checkVoid func(t *testing.T, h *cfVoid)
}

func exceptionalFailure() []sourceFailure {
	ex := newCFException()
	return []sourceFailure{{"exceptional", ex, func(f *cf) bool { return f.CompleteExceptionally(ex) },
		func(t *testing.T, h *cf) { t.Helper(); checkCompletedExceptionally(t, h, ex) },
		func(t *testing.T, h *cfVoid) { t.Helper(); checkCompletedExceptionally(t, h, ex) }}}
}

func cancellation() []sourceFailure {
	var sfs []sourceFailure
	for _, mayInterrupt := range []bool{true, false} {
		sfs = append(sfs, sourceFailure{"cancelled", nil, func(f *cf) bool { return f.Cancel(mayInterrupt) },
			func(t *testing.T, h *cf) { t.Helper(); checkCompletedWithWrappedCancellation(t, h) },
			func(t *testing.T, h *cfVoid) { t.Helper(); checkCompletedWithWrappedCancellation(t, h) }})
	}
	return sfs
}

// stageProbe is a stage of *item or struct{} seen through the TCK's checks.
type stageProbe struct {
	incomplete func()
	normal     func(want *item) // a struct{} stage ignores want
	failedAs   func(sf sourceFailure)
	failedBy   func(a *action)
	wait       func() (*item, error)
}

func probeItem(c *tck, h *cf) stageProbe {
	return stageProbe{
		incomplete: func() { c.Helper(); checkIncomplete(c.T, h) },
		normal:     func(want *item) { c.Helper(); checkCompletedNormally(c.T, h, want) },
		failedAs:   func(sf sourceFailure) { c.Helper(); sf.checkItem(c.T, h) },
		failedBy:   func(a *action) { c.Helper(); failedWith(c, h, a) },
		wait:       func() (*item, error) { return h.GetTimeout(tckLongDelay) },
	}
}

func probeVoid(c *tck, h *cfVoid) stageProbe {
	return stageProbe{
		incomplete: func() { c.Helper(); checkIncomplete(c.T, h) },
		normal:     func(*item) { c.Helper(); checkCompletedNormally(c.T, h, void) },
		failedAs:   func(sf sourceFailure) { c.Helper(); sf.checkVoid(c.T, h) },
		failedBy:   func(a *action) { c.Helper(); failedWith(c, h, a) },
		wait:       func() (*item, error) { _, err := h.GetTimeout(tckLongDelay); return nil, err },
	}
}

// stageKind is one of the stage methods the TCK checks together, made of sources f and g (one-
// source kinds ignore g) and running a's ordinary or failing form.
type stageKind struct {
	name  string
	make  func(c *tck, m executionMode, f, g *cf, a *action, failing bool) stageProbe
	value func(x, y *item) *item // the stage's value for its sources' values; nil for a struct{} stage
	saw   func(x, y *item) *item // what the action records; nil when it records nothing
}

func (k stageKind) valueOf(x, y *item) *item {
	if k.value == nil {
		return nil
	}
	return k.value(x, y)
}

func (k stageKind) assertSaw(a *action, x, y *item) {
	a.c.Helper()
	if k.saw == nil {
		a.assertInvoked()
		return
	}
	a.assertValue(k.saw(x, y))
}

// unary makes a function of one source's value a function of two.
func unary(fn func(*item) *item) func(x, y *item) *item {
	return func(x, _ *item) *item { return fn(x) }
}

// pick returns the action's failing form if failing, else its ordinary one.
func pick[F any](failing bool, ordinary, failingForm func() F) F {
	if failing {
		return failingForm()
	}
	return ordinary()
}
