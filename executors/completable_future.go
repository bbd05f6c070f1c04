package executors

// CompletableFuture: java.util.concurrent.CompletableFuture.
//
// Terms. A stage is a CompletableFuture. A dependent is a stage made from one or two others, its
// sources, by ThenApply, Handle, ThenCombine, ApplyToEither and the rest; a completion is the
// record pushed on the stack of each source which, when it fires, runs the dependent's action (or
// hands it to an executor) and completes the dependent. The outcome of a stage is its value or its
// failure (any error; ErrCancelled for a cancelled stage).
//
// How completion moves. settle publishes a stage's outcome and takes its stack, under the
// stage's mutex; its caller then runs postComplete, which fires the completions in Java's order
// on the calling thread and goes on with the dependents of the stages they complete, in a loop
// (no recursion from stage to stage, so a chain of a million stages does not grow the stack). A
// completion pushed on a stage that is complete already fires at once, on the pushing thread. So
// a non-async action runs on the thread that completes its source, or on the caller when the
// source was complete already: Java's rule. An async completion hands the action to its executor
// and returns; the executor's thread completes the dependent and runs its postComplete.
//
// Invariants. A published outcome is never written again (ObtrudeValue and ObtrudeException
// publish a new one), so readers take no lock: they load the outcome pointer. A completion fires
// at most once: it sits on one stack, which the one settle that completes the stage takes whole.
// The two completions of an either dependent (ApplyToEither, AcceptEither, RunAfterEither)
// share a claim, and only the one that wins it runs the action; those of a both dependent
// (ThenCombine, ThenAcceptBoth, RunAfterBoth) share a count of two, and the one that brings it
// to zero runs the action. A completion whose dependent is complete already (cancelled, or
// completed by hand) or whose claim is taken is stale: it is skipped, as Java's tryFire skips it,
// and the action never runs.
//
// Stale completions on a stage that never completes. Java unlinks the stale completion of an
// either dependent from the other source when one side fires (cleanStack), but leaves those of
// cancelled dependents: a million thenRun(r).cancel(true) on a future that never completes hold a
// million completions in JDK 25. Here push sweeps the stale completions off a stack whenever the
// stack has grown to twice the live completions it held at the last sweep (and at least
// minSweep), so a stack holds at most about twice its live completions plus minSweep, at an
// amortized O(1) per push; NumberOfDependents counts the live ones.
//
// Designs not taken. Java's lock-free Treiber stack with completions claimed by CAS: a mutex per
// stage is simpler to prove and uncontended in practice (a stage is completed once), and Go can
// swap a generic outcome atomically only through a pointer, which this design uses for the
// outcome alone. A time.AfterFunc per OrTimeout: a timer and a goroutine per firing; the delay
// scheduler (completable_future_delay.go) is one thread for every timeout, as Java's.

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/loomgo/loom/internal/usercode"
	"github.com/loomgo/loom/thread"
)

// CompletableFuture is a Future that is completed explicitly (Complete, CompleteExceptionally,
// Cancel) or by a task ([SupplyAsync], CompleteAsync), and from which dependent stages are built
// ([ThenApply], [ThenCompose], [ThenCombine], [ApplyToEither], [AllOf], [AnyOf], ...), as
// java.util.concurrent.CompletableFuture. It implements [CompletionStage].
//
// Which thread runs a dependent action is Java's rule. A non-async action ([ThenApply],
// WhenComplete, ...) runs on the thread that completes the stage it depends on, or on the caller
// if that stage is complete already; the dependents of one stage run last-registered first, in
// the order Java's stack of completions gives them. An async action ([ThenApplyAsync], ...) runs
// on the executor given (the *AsyncOn variants) or on the default executor, DefaultExecutor: a
// new virtual thread per action. An action never runs if its stage was completed (or cancelled)
// by other means first. If the executor refuses the action, the stage fails with the executor's
// error (wrapping [ErrRejected]), as Java's fails with the RejectedExecutionException.
//
// A failure (an error, a panic as *PanicError, [ErrGoexit], [ErrCancelled]) propagates through
// dependent stages unchanged, which then are Failed (not Cancelled, as in Java); Get returns it
// wrapped in an *ExecutionError (Java's ExecutionException; Java's join and getNow wrap it in a
// CompletionException, which is the same *ExecutionError here). A task or action that calls
// [runtime.Goexit] fails its stage with [ErrGoexit] (the goroutine goes on exiting, after running what
// depends on that stage), so nothing waits forever.
//
// Make one with [NewCompletableFuture], [CompletedFuture], [FailedFuture], [SupplyAsync] or [RunAsync]; it
// must not be copied.
type CompletableFuture[T any] struct {
	_ noCopy

	out     atomic.Pointer[outcome[T]] // nil until complete, then the outcome readers see
	first   outcome[T]                 // the outcome settle publishes through out (never written after)
	mu      sync.Mutex
	waiters []*thread.Thread
	stack   *completion // dependents, newest first; nil once complete
	depth   int32       // completions on stack
	sweepAt int32       // depth at which push next sweeps the stale completions off the stack
}

// outcome is what a complete stage holds: Java's result field (a value, or an AltResult).
type outcome[T any] struct {
	v          T
	err        error  // the failure; nil for a value
	st         int32  // stNormal, stExceptional or stCancelled
	suppressed *error // a WhenComplete action's panic that gave way to err (rare: kept out of line)
}

// minSweep is the smallest stack that push sweeps of stale completions.
const minSweep = 32

// completion is a dependent action waiting for a stage to complete, as Java's Completion: pushed
// on the stage's stack, fired at most once.
type completion struct {
	next *completion
	// fire runs the action (or hands it to an executor) and completes the stage that depends on
	// it. It returns that stage's own dependents, taken from it, for the caller to run:
	// postComplete runs a whole tree of stages in a loop, in Java's order, without recursing.
	fire func() *completion
	// dep is the stage fire completes, if any: once that is complete, the completion is stale.
	dep interface{ IsDone() bool }
	// claim is shared by the two completions of an either stage: once taken, both are stale.
	claim *atomic.Bool
	// hidden marks a completion that is no dependent stage (a delayed submission's canceller):
	// NumberOfDependents does not count it.
	hidden bool
}

// live reports whether h may still have work to do (Java's isLive): its stage is not complete and
// no other source claimed it.
func (h *completion) live() bool {
	return (h.dep == nil || !h.dep.IsDone()) && (h.claim == nil || !h.claim.Load())
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
		if h.live() {
			p.nested = h.fire()
		}
	}
}

// NewCompletableFuture returns an incomplete future. It ports new [CompletableFuture]<>() (and
// newIncompleteFuture, which only subclasses need in Java).
func NewCompletableFuture[T any]() *CompletableFuture[T] { return &CompletableFuture[T]{} }

// completed returns a future already complete with o.
func completed[T any](o outcome[T]) *CompletableFuture[T] {
	c := &CompletableFuture[T]{first: o}
	c.out.Store(&c.first)
	return c
}

// CompletedFuture returns a future already completed with v. It ports
// CompletableFuture.completedFuture.
func CompletedFuture[T any](v T) *CompletableFuture[T] {
	return completed(outcome[T]{v: v, st: stNormal})
}

// FailedFuture returns a future already failed with err (cancelled, if err is [ErrCancelled], as
// Java's failedFuture(new CancellationException())). It ports CompletableFuture.failedFuture. A
// nil err panics with an error wrapping [thread.ErrNilArgument].
func FailedFuture[T any](err error) *CompletableFuture[T] {
	if err == nil {
		panic(nilArg("error"))
	}
	return completed(outcome[T]{err: err, st: failedState(err)})
}

// failedState is the state of a future completed explicitly with err: Java's CompletableFuture
// counts itself cancelled when its exception is a CancellationException.
func failedState(err error) int32 {
	if errors.Is(err, ErrCancelled) {
		return stCancelled
	}
	return stExceptional
}

// load returns the outcome, nil while the future is incomplete.
func (c *CompletableFuture[T]) load() *outcome[T] { return c.out.Load() }

// complete runs fn and completes c with its outcome (a panic as a *PanicError, and the failure
// is never a cancellation: Java wraps what a task throws in a CompletionException), unless c is
// complete already, in which case fn does not run (Java's tryFire checks the dependent first).
// It returns c's dependents for the caller to run. If fn calls runtime.Goexit, c fails with
// ErrGoexit and its dependents run here, as the goroutine exits.
func (c *CompletableFuture[T]) complete(fn func() (T, error)) *completion {
	if c.IsDone() {
		return nil
	}
	v, err := protect(fn, func() { postComplete(c.fail(ErrGoexit)) })
	if err != nil {
		return c.fail(err)
	}
	return c.succeed(v)
}

// protect calls fn and returns what it returns, or a *PanicError if it panics; if fn calls
// runtime.Goexit, protect calls onGoexit and does not return. See usercode.Call.
func protect[T any](fn func() (T, error), onGoexit func()) (T, error) {
	return usercode.Call(fn, onGoexit)
}

// Complete completes the future with v if it is not already complete, and reports whether this
// call completed it; the dependents then run on the calling thread. It ports
// CompletableFuture.complete.
func (c *CompletableFuture[T]) Complete(v T) bool {
	deps, ok := c.settle(outcome[T]{v: v, st: stNormal})
	postComplete(deps)
	return ok
}

// CompleteExceptionally fails the future with err if it is not already complete, and reports
// whether this call completed it; the dependents then run on the calling thread. Failing it with
// [ErrCancelled] (or an error wrapping it) cancels it, as Java's completeExceptionally with a
// CancellationException. A nil err panics with an error wrapping [thread.ErrNilArgument]. It ports
// CompletableFuture.completeExceptionally.
func (c *CompletableFuture[T]) CompleteExceptionally(err error) bool {
	if err == nil {
		panic(nilArg("error"))
	}
	deps, ok := c.settle(outcome[T]{err: err, st: failedState(err)})
	postComplete(deps)
	return ok
}

// Cancel cancels the future (it fails with [ErrCancelled]) if it is not already complete, and
// reports whether it is cancelled now: true also for a future that was cancelled before, as
// Java's cancel returns. mayInterruptIfRunning has no effect, as in Java (a [CompletableFuture]
// does not know what computes it). It ports CompletableFuture.cancel.
func (c *CompletableFuture[T]) Cancel(mayInterruptIfRunning bool) bool {
	deps, ok := c.settle(outcome[T]{err: ErrCancelled, st: stCancelled})
	postComplete(deps)
	return ok || c.IsCancelled()
}

// ObtrudeValue sets the outcome to v whether or not the future is complete: later Get, Join and
// the like return v. A future that was incomplete completes (its dependents run on the caller);
// the dependents of a future that was complete ran already, with the outcome they saw. It is
// for error recovery only, as Java says. It ports CompletableFuture.obtrudeValue.
func (c *CompletableFuture[T]) ObtrudeValue(v T) {
	c.obtrude(&outcome[T]{v: v, st: stNormal})
}

// ObtrudeException sets the outcome to the failure err whether or not the future is complete
// (cancelled, if err is [ErrCancelled]); see ObtrudeValue. A nil err panics with an error wrapping
// [thread.ErrNilArgument]. It ports CompletableFuture.obtrudeException.
func (c *CompletableFuture[T]) ObtrudeException(err error) {
	if err == nil {
		panic(nilArg("error"))
	}
	c.obtrude(&outcome[T]{err: err, st: failedState(err)})
}

func (c *CompletableFuture[T]) obtrude(o *outcome[T]) {
	c.mu.Lock()
	c.out.Store(o)
	ws, deps := c.waiters, c.stack
	c.waiters, c.stack, c.depth = nil, nil, 0
	c.mu.Unlock()
	for _, w := range ws {
		thread.Unpark(w)
	}
	postComplete(deps)
}

// succeed completes c with v and returns its dependents.
func (c *CompletableFuture[T]) succeed(v T) *completion {
	deps, _ := c.settle(outcome[T]{v: v, st: stNormal})
	return deps
}

// fail completes c with err as a stage whose source or action failed (never a cancellation) and
// returns its dependents.
func (c *CompletableFuture[T]) fail(err error) *completion {
	deps, _ := c.settle(outcome[T]{err: err, st: stExceptional})
	return deps
}

// relay completes c with o, the outcome of a stage it copies, and returns c's dependents: a
// value as it is, a failure as a failure (a cancelled source leaves c failed, not cancelled, as
// Java's encodeRelay wraps it in a CompletionException).
func (c *CompletableFuture[T]) relay(o *outcome[T]) *completion {
	if o.err != nil {
		return c.fail(o.err)
	}
	return c.succeed(o.v)
}

// settle completes c with o, if it is not complete, wakes its waiters and returns its
// dependents for the caller to run (Java's internal completion, before postComplete), and
// whether it completed c.
func (c *CompletableFuture[T]) settle(o outcome[T]) (*completion, bool) {
	c.mu.Lock()
	if c.out.Load() != nil {
		c.mu.Unlock()
		return nil, false
	}
	c.first = o
	c.out.Store(&c.first)
	ws, deps := c.waiters, c.stack
	c.waiters, c.stack, c.depth = nil, nil, 0
	c.mu.Unlock()
	for _, w := range ws {
		thread.Unpark(w)
	}
	return deps, true
}

// push registers h to fire when c completes; if c is complete already h fires now, on the
// caller, with the dependents of the stage it completes.
func (c *CompletableFuture[T]) push(h *completion) {
	c.mu.Lock()
	if c.out.Load() == nil {
		if c.depth >= max(c.sweepAt, minSweep) {
			c.sweep()
		}
		h.next, c.stack = c.stack, h
		c.depth++
		c.mu.Unlock()
		return
	}
	c.mu.Unlock()
	if h.live() {
		postComplete(h.fire())
	}
}

// sweep unlinks the stale completions from c's stack, keeping the order of the others, and
// sets the depth of the next sweep to twice what is left: each sweep follows at least as many
// pushes as it visits completions. c.mu is held.
func (c *CompletableFuture[T]) sweep() {
	var head *completion
	tail, n := &head, int32(0)
	for h := c.stack; h != nil; {
		next := h.next
		if h.live() {
			*tail, tail = h, &h.next
			n++
		}
		h = next
	}
	*tail = nil
	c.stack, c.depth, c.sweepAt = head, n, 2*n
}

// NumberOfDependents returns about how many stages and threads wait for the future to
// complete. It ports CompletableFuture.getNumberOfDependents, but counts only the dependents
// that may still run: Java also counts, until the future completes, the dependents that were
// cancelled or completed by other means.
func (c *CompletableFuture[T]) NumberOfDependents() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := len(c.waiters)
	for h := c.stack; h != nil; h = h.next {
		if !h.hidden && h.live() {
			n++
		}
	}
	return n
}

// Suppressed returns the panic of the action of a stage made by WhenComplete that gave way to
// the failure of the stage it depends on (Java's getSuppressed on that failure, to which
// whenComplete adds it), and nil otherwise.
func (c *CompletableFuture[T]) Suppressed() error {
	if o := c.load(); o != nil && o.suppressed != nil {
		return *o.suppressed
	}
	return nil
}

// IsDone reports whether the future completed in any way.
func (c *CompletableFuture[T]) IsDone() bool { return c.load() != nil }

// IsCancelled reports whether the future was cancelled.
func (c *CompletableFuture[T]) IsCancelled() bool {
	o := c.load()
	return o != nil && o.st == stCancelled
}

// IsCompletedExceptionally reports whether the future failed or was cancelled.
func (c *CompletableFuture[T]) IsCompletedExceptionally() bool {
	o := c.load()
	return o != nil && o.err != nil
}

// State returns the state of the future; see [Future.State].
func (c *CompletableFuture[T]) State() FutureState {
	o := c.load()
	switch {
	case o == nil:
		return Running
	case o.st == stNormal:
		return Success
	case o.st == stExceptional:
		return Failed
	default:
		return Cancelled
	}
}

// Get waits for the outcome; see [Future.Get].
func (c *CompletableFuture[T]) Get() (T, error) { return c.wait(-1, true) }

// GetTimeout waits at most d for the outcome; see [Future.GetTimeout].
func (c *CompletableFuture[T]) GetTimeout(d time.Duration) (T, error) {
	if d < 0 {
		d = 0
	}
	return c.wait(d, true)
}

// Join waits for the outcome without being interruptible (an interrupt while it waits stays
// set), and returns the result or an *ExecutionError ([ErrCancelled] if cancelled). It ports
// CompletableFuture.join (whose CompletionException is the *ExecutionError here).
func (c *CompletableFuture[T]) Join() (T, error) { return c.wait(-1, false) }

// GetNow returns the result if the future completed successfully, else valueIfAbsent if it is
// not complete; a failure is returned as in Get. It ports CompletableFuture.getNow.
func (c *CompletableFuture[T]) GetNow(valueIfAbsent T) (T, error) {
	o := c.load()
	if o == nil {
		return valueIfAbsent, nil
	}
	return o.report()
}

func (o *outcome[T]) report() (T, error) {
	var zero T
	switch o.st {
	case stNormal:
		return o.v, nil
	case stCancelled:
		return zero, o.err // ErrCancelled, or what CompleteExceptionally cancelled it with
	default:
		return zero, &ExecutionError{Cause: o.err}
	}
}

func (c *CompletableFuture[T]) wait(d time.Duration, interruptible bool) (T, error) {
	var zero T
	if o := c.load(); o != nil {
		return o.report()
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
	if c.load() == nil {
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
	for {
		if o := c.load(); o != nil {
			return o.report()
		}
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
}

func (c *CompletableFuture[T]) removeWaiter(me *thread.Thread) {
	c.mu.Lock()
	c.waiters = removeThread(c.waiters, me)
	c.mu.Unlock()
}

// ResultNow returns the result of a successful future; see [Future.ResultNow].
func (c *CompletableFuture[T]) ResultNow() T {
	if o := c.load(); o != nil {
		return resultNow(o.st, &o.v)
	}
	return resultNow[T](stNew, nil)
}

// ExceptionNow returns the cause of a failed future; see [Future.ExceptionNow].
func (c *CompletableFuture[T]) ExceptionNow() error {
	if o := c.load(); o != nil {
		return exceptionNow(o.st, &o.err)
	}
	return exceptionNow(stNew, nil)
}

// String describes the future as Java's toString does (without the identity hash):
// "CompletableFuture[Completed normally]", "CompletableFuture[Completed exceptionally: <cause>]",
// "CompletableFuture[Not completed]" or, with stages or threads waiting for it,
// "CompletableFuture[Not completed, 2 dependents]".
func (c *CompletableFuture[T]) String() string {
	o := c.load()
	switch {
	case o == nil:
		if n := c.NumberOfDependents(); n > 0 {
			return fmt.Sprintf("CompletableFuture[Not completed, %d dependents]", n)
		}
		return "CompletableFuture[Not completed]"
	case o.err == nil:
		return "CompletableFuture[Completed normally]"
	default:
		return fmt.Sprintf("CompletableFuture[Completed exceptionally: %v]", o.err)
	}
}

// Copy returns a new future that completes as c does: with c's value, or failing with c's
// failure (failed, not cancelled, if c is cancelled). Completing the copy does not complete c, so
// a copy can be handed to code that must not complete c (a defensive copy). It ports
// CompletableFuture.copy (Java 9).
func (c *CompletableFuture[T]) Copy() *CompletableFuture[T] {
	d := NewCompletableFuture[T]()
	postComplete(d.relayFrom(c))
	return d
}

// relayFrom makes d complete as src does: at once if src is complete (returning d's
// dependents), else when src completes, on the thread that completes it.
func (d *CompletableFuture[T]) relayFrom(src *CompletableFuture[T]) *completion {
	if o := src.load(); o != nil {
		return d.relay(o)
	}
	src.push(&completion{dep: d, fire: func() *completion { return d.relay(src.load()) }})
	return nil
}

// ToCompletableFuture returns c itself. It ports CompletableFuture.toCompletableFuture; on the
// view MinimalCompletionStage returns it gives a new future that completes as the view does.
func (c *CompletableFuture[T]) ToCompletableFuture() *CompletableFuture[T] { return c }

// DefaultExecutor returns the executor of the async methods given none ([ThenApplyAsync],
// [SupplyAsync], ...): one new virtual thread per task. Java's is the common ForkJoinPool; see the
// package documentation for why loom's is not. It ports CompletableFuture.defaultExecutor, which
// only subclasses override in Java.
func (c *CompletableFuture[T]) DefaultExecutor() Executor { return defaultAsync }
