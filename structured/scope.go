package structured

import (
	"fmt"
	"reflect"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/loomgo/loom/internal/rt"
	"github.com/loomgo/loom/internal/usercode"
	"github.com/loomgo/loom/thread"
	"github.com/loomgo/loom/threadlocal"
)

// Scope is a structured task scope: the owner thread forks subtasks into it, each on a thread of
// its own (a virtual thread unless [WithThreadFactory] says otherwise), joins them all at once, and
// closes it; no subtask outlives the scope. Its Joiner decides, as subtasks complete, whether to
// cancel the scope early, and makes Join's result. It ports java.util.concurrent.
// StructuredTaskScope<T, R> (JDK 25, JEP 505): T is the type the joiner sees subtask results as,
// R the type of Join's result.
//
// Use it in this shape, as Java's try-with-resources:
//
//	s := structured.Open()
//	defer s.Close()
//	user := structured.Fork(s, findUser)
//	order := structured.Fork(s, fetchOrder)
//	if _, err := s.Join(); err != nil {
//		return err
//	}
//	use(user.Get(), order.Get())
//
// Only the owner may call Fork, Join and Close; Join must be called exactly once after forking,
// and Close must be called, in the reverse order of opening when scopes nest. Breaking these
// rules panics (see [ErrWrongThread], [ErrIllegalState], [ErrStructureViolation]). A Scope must not be
// copied.
type Scope[T, R any] struct {
	_ noCopy
	core
	joiner Joiner[T, R]
}

// noCopy makes go vet's copylocks check report copies.
type noCopy struct{}

func (*noCopy) Lock()   {}
func (*noCopy) Unlock() {}

// The scope's life, as StructuredTaskScopeImpl's state: written by the owner, read by anyone.
const (
	stOpen          = iota
	stForked        // subtasks forked: the owner must join
	stJoinStarted   // Join called: no more forks
	stJoinCompleted // Join waited to the end (its result may still be an error)
	stClosed
)

// core is what a Scope does that does not depend on its type parameters.
type core struct {
	owner    *thread.Thread
	name     string
	factory  thread.Factory
	bindings any // the owner's scoped-value bindings when the scope was opened
	timeout  time.Duration
	timer    *time.Timer

	onComplete func(*subtask) bool // the joiner's OnComplete

	state          atomic.Int32
	cancelled      atomic.Bool
	timeoutExpired atomic.Bool

	mu          sync.Mutex
	flockClosed bool                        // no new thread may start: see closeFlock
	threads     map[*thread.Thread]struct{} // threads whose task has not finished
	ended       []*thread.Thread            // threads whose task finished, not yet joined
}

// openScopes is each thread's stack of open scopes, innermost last, to check that scopes are
// closed in the reverse order of opening. It is not inheritable: a subtask starts with none.
var openScopes threadlocal.ThreadLocal[*[]*core]

func init() { rt.ScopedRunExit = closeScopesOpenedIn }

// closeScopesOpenedIn force-closes the scopes the current thread opened while the scoped-value
// bindings frame was in force and left open, innermost first, and takes them off the thread's
// stack; see rt.ScopedRunExit. As Java's ScopedValueContainer does (popForcefully, then each
// scope's ThreadFlock.close), this closes their thread flocks only: see closeFlock.
func closeScopesOpenedIn(frame any, normal bool) {
	stack := openScopes.Get()
	if stack == nil {
		return
	}
	var open []*core
	for _, c := range *stack {
		if c.bindings == frame && c.state.Load() != stClosed {
			open = append(open, c)
		}
	}
	if len(open) == 0 {
		return
	}
	for j := len(open) - 1; j >= 0; j-- {
		open[j].closeFlock()
	}
	*stack = slices.DeleteFunc(*stack, func(x *core) bool { return slices.Contains(open, x) })
	if len(*stack) == 0 {
		openScopes.Remove()
	}
	if normal {
		panic(structureViolation("a scope opened inside ScopedValue.Carrier.Run was not closed before it returned"))
	}
}

var defaultFactory = sync.OnceValue(func() thread.Factory { return thread.OfVirtual().Factory() })

// Open opens a scope whose subtasks are unnamed virtual threads and whose joiner is
// [AwaitAllSuccessfulOrThrow]: Join waits for every subtask and fails with the first subtask
// failure, cancelling the others. The current thread becomes the owner. It ports
// StructuredTaskScope.open().
func Open() *Scope[any, struct{}] {
	return OpenWith(AwaitAllSuccessfulOrThrow[any]())
}

// OpenWith opens a scope with the given joiner and options ([WithName], [WithTimeout],
// [WithThreadFactory]); the current thread becomes the owner, and the scoped-value bindings in
// force now are the ones its subtasks see. A timeout starts now. A joiner must not be shared
// between scopes. A nil joiner or option panics with an error wrapping [thread.ErrNilArgument]. It
// ports StructuredTaskScope.open(Joiner, Function<Configuration, Configuration>).
func OpenWith[T, R any](joiner Joiner[T, R], options ...Option) *Scope[T, R] {
	if joiner == nil {
		panic(fmt.Errorf("%w: structured: joiner", thread.ErrNilArgument))
	}
	var cfg config
	for _, o := range options {
		if o == nil {
			panic(fmt.Errorf("%w: structured: option", thread.ErrNilArgument))
		}
		o.apply(&cfg)
	}
	if cfg.factory == nil {
		cfg.factory = defaultFactory()
	}
	s := &Scope[T, R]{joiner: joiner}
	c := &s.core
	c.owner = thread.Current()
	c.name = cfg.name
	c.factory = cfg.factory
	c.bindings = rt.CurrentData().Scoped
	c.threads = make(map[*thread.Thread]struct{})
	c.onComplete = func(st *subtask) bool { return joiner.OnComplete(view[T](st)) }
	stack := openScopes.Get()
	if stack == nil {
		stack = new([]*core)
		openScopes.Set(stack)
	}
	*stack = append(*stack, c)
	if cfg.hasTimeout {
		c.timeout = cfg.timeout
		if cfg.timeout <= 0 {
			c.expire()
		} else {
			c.timer = time.AfterFunc(cfg.timeout, c.expire)
		}
	}
	return s
}

// Fork starts a thread that runs task as a subtask of s and returns its Subtask, in state
// Unavailable until the task completes. The joiner's OnFork sees the subtask first, on the
// calling thread; if it panics, the panic propagates and no thread is started. If the scope is
// already cancelled, or OnFork cancels it, or its threads were shut down by the close of an
// enclosing scope (see Close), no thread is started and the subtask stays Unavailable. When the
// task completes before the scope is cancelled, the subtask becomes Success (task returned a nil
// error) or Failed (it returned an error, panicked: the error is then a *PanicError, or called
// [runtime.Goexit]: [thread.ErrGoexit]), and the joiner's OnComplete sees it on the subtask's
// thread. A task whose scope is cancelled after its thread started still runs, with its
// thread's interrupt status set, as in Java; its outcome is discarded. The
// subtask thread sees the scoped-value bindings captured when s was opened, and everything the
// owner did before Fork happens before the task starts.
//
// U, the task's result type, must be assignable to the scope's T (any for Open), else Fork
// panics with an error wrapping [thread.ErrIllegalArgument]. Fork panics with [ErrWrongThread] if
// the caller is not the owner, with [ErrIllegalState] after Join was called or after Close, with
// [ErrStructureViolation] if the scoped-value bindings in force differ from those when s was
// opened, with [thread.ErrNilArgument] for a nil task, with [thread.ErrRejected] if the thread
// factory returns nil or the thread cannot be started ([thread.ErrThreadLimit] for a platform
// thread past the limit). It ports StructuredTaskScope.fork(Callable).
func Fork[U, T, R any](s *Scope[T, R], task func() (U, error)) Subtask[U] {
	if task == nil {
		panic(fmt.Errorf("%w: structured: task", thread.ErrNilArgument))
	}
	c := &s.core
	c.ensureOwner("fork")
	st := c.state.Load()
	if st > stForked {
		panic(illegalState("join already called or scope is closed"))
	}
	if tu, tt := reflect.TypeFor[U](), reflect.TypeFor[T](); tu != tt && !tu.AssignableTo(tt) {
		panic(fmt.Errorf("%w: structured: a subtask result of type %v cannot be a %v", thread.ErrIllegalArgument, tu, tt))
	}
	sub := &subtask{scope: c}
	if s.joiner.OnFork(view[T](sub)) {
		c.cancel(nil)
	}
	if !c.cancelled.Load() {
		c.start(sub, func() (any, error) { return task() })
	}
	if st < stForked {
		c.state.Store(stForked)
	}
	return view[U](sub)
}

// start creates and starts the thread that runs sub; it does nothing if the scope is cancelled
// or its flock closed first (Java's ThreadFlock.start then fails, and fork ignores it), and
// panics with ErrStructureViolation if the bindings in force are not the scope's.
func (c *core) start(sub *subtask, task func() (any, error)) {
	t := c.factory.NewThread(func() { c.run(sub, task) })
	if t == nil {
		panic(fmt.Errorf("%w: structured: rejected by thread factory", thread.ErrRejected))
	}
	sub.thread = t
	rt.DataOf(t).Scoped = c.bindings
	// Registering under mu, with the cancelled check, orders the registration with cancel:
	// either cancel sees the thread (and interrupts it) or we see cancelled (and do not start).
	c.mu.Lock()
	if c.cancelled.Load() || c.flockClosed {
		c.mu.Unlock()
		sub.thread = nil
		return
	}
	// Java checks the bindings when the thread starts, after the flock has accepted it: a scope
	// whose flock is closed returns an Unavailable subtask even under other bindings.
	if rt.CurrentData().Scoped != c.bindings {
		c.mu.Unlock()
		sub.thread = nil
		panic(structureViolation("scoped value bindings have changed since the scope was opened"))
	}
	c.threads[t] = struct{}{}
	c.mu.Unlock()
	if err := t.TryStart(); err != nil {
		c.finished(t)
		sub.thread = nil
		panic(err)
	}
}

// run is the body of a subtask's thread. The task runs even if the scope was cancelled after
// the thread started (cancel has interrupted the thread then), as Java's SubtaskImpl.run does.
func (c *core) run(sub *subtask, task func() (any, error)) {
	defer c.finished(sub.thread)
	v, err := call(task, func() { c.complete(sub, nil, thread.ErrGoexit) })
	c.complete(sub, v, err)
}

// complete records the outcome of sub's task and tells the joiner, unless the scope was
// cancelled meanwhile (the outcome is then discarded and sub stays Unavailable). A panic in
// OnComplete ends the subtask's thread through its uncaught-exception handler, as in Java; the
// deferred finished in run still lets the owner go on.
func (c *core) complete(sub *subtask, v any, err error) {
	if c.cancelled.Load() {
		return
	}
	sub.value, sub.err = v, err
	if err != nil {
		sub.state.Store(int32(Failed))
	} else {
		sub.state.Store(int32(Success))
	}
	if c.onComplete(sub) {
		c.cancel(sub.thread)
	}
}

// call runs task, turning a panic into a *PanicError. If task calls runtime.Goexit, call runs
// onGoexit and does not return: the subtask then completes as failed with thread.ErrGoexit, so
// a Goexit cannot pass for a success.
func call(task func() (any, error), onGoexit func()) (any, error) {
	v, err := usercode.Call(task, onGoexit)
	if err != nil {
		v = nil
	}
	return v, err
}

// finished records that t's task is over and wakes the owner when it was the last. The thread
// itself ends a little later, after its uncaught-exception handler has run for a panic in
// OnComplete: awaitAll joins it.
func (c *core) finished(t *thread.Thread) {
	c.mu.Lock()
	delete(c.threads, t)
	c.ended = append(c.ended, t)
	n := len(c.threads)
	c.mu.Unlock()
	if n == 0 {
		thread.Unpark(c.owner)
	}
}

func (c *core) running() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.threads)
}

// cancel cancels the scope, once: no new threads start, the threads of unfinished subtasks are
// interrupted (except self, a subtask cancelling from its OnComplete), and a joining owner wakes.
func (c *core) cancel(self *thread.Thread) {
	if !c.cancelled.CompareAndSwap(false, true) {
		return
	}
	c.mu.Lock()
	ts := make([]*thread.Thread, 0, len(c.threads))
	for t := range c.threads {
		if t != self {
			ts = append(ts, t)
		}
	}
	c.mu.Unlock()
	for _, t := range ts {
		t.Interrupt()
	}
	thread.Unpark(c.owner)
}

// expire runs on the timer's goroutine when the timeout elapses.
func (c *core) expire() {
	if !c.cancelled.Load() {
		c.timeoutExpired.Store(true)
		c.cancel(nil)
	}
}

// Join waits until every subtask has completed or the scope is cancelled (by the joiner or the
// timeout), then returns the joiner's result. When the scope was cancelled, the threads of unfinished subtasks have been interrupted,
// and Join waits for them to end before it returns: no subtask is running when Join returns
// (except after ErrInterrupted). A virtual owner unmounts while it waits.
//
// Join returns a *FailedError if the joiner's Result returns an error (for the built-in joiners,
// the first subtask failure) or panics (the Cause is then a *PanicError), an error wrapping
// [ErrTimeout] if the scope's timeout expired (before or during Join; the scope is then
// cancelled), and [thread.ErrInterrupted] if the owner is interrupted while subtasks are still
// running (the interrupt status is cleared; the scope is not cancelled, and Close will cancel
// it). Join may be called once: a second call panics
// with [ErrIllegalState], whatever the first returned; so does Join after Close. A call by a thread
// other than the owner panics with [ErrWrongThread]. It ports StructuredTaskScope.join.
func (s *Scope[T, R]) Join() (R, error) {
	var zero R
	c := &s.core
	c.ensureOwner("join")
	if c.state.Load() >= stJoinStarted {
		panic(illegalState("already joined or scope is closed"))
	}
	c.state.Store(stJoinStarted)
	for c.running() > 0 && !c.cancelled.Load() {
		if thread.Interrupted() {
			return zero, thread.ErrInterrupted
		}
		rt.Park(-1, rt.ParkWaiting, s)
	}
	c.awaitAll(s) // the interrupted stragglers, if cancelled; then the threads' ends
	if c.timeoutExpired.Load() {
		return zero, fmt.Errorf("%w after %v", ErrTimeout, c.timeout)
	}
	c.stopTimer()
	c.state.Store(stJoinCompleted)
	r, err := result(s.joiner)
	if err != nil {
		return zero, &FailedError{Cause: err}
	}
	return r, nil
}

// result calls the joiner's Result; a panic in it becomes its error (a *PanicError), as Java's
// join wraps whatever joiner.result() throws in a FailedException. A Goexit in it ends the
// owner, which owes nothing more here.
func result[T, R any](j Joiner[T, R]) (R, error) { return usercode.Call(j.Result, func() {}) }

// awaitAll waits, uninterruptibly, until every started thread has terminated; an interrupt
// received meanwhile is re-asserted when it returns.
func (c *core) awaitAll(blocker any) {
	interrupted := false
	for c.running() > 0 {
		if thread.Interrupted() {
			interrupted = true
			continue
		}
		rt.Park(-1, rt.ParkWaiting, blocker)
	}
	// Join the threads, so that what they did after their task (an uncaught-exception handler)
	// is done too, as Java's thread flock waits for its threads to terminate.
	c.mu.Lock()
	ended := c.ended
	c.ended = nil
	c.mu.Unlock()
	for _, t := range ended {
		for t.Join() != nil {
			interrupted = true
		}
	}
	if interrupted {
		c.owner.Interrupt()
	}
}

func (c *core) stopTimer() {
	if c.timer != nil {
		c.timer.Stop()
	}
}

// IsCancelled reports whether the scope was cancelled: by its joiner, its timeout, or Close. It
// ports StructuredTaskScope.isCancelled.
func (s *Scope[T, R]) IsCancelled() bool { return s.cancelled.Load() }

// Close closes the scope: if Join did not wait to the end, it cancels the scope (interrupting
// unfinished subtasks); then it waits, uninterruptibly, for every subtask thread to finish (an
// interrupt received meanwhile is re-asserted on return). A virtual owner unmounts while it
// waits. Closing a closed scope does nothing.
//
// Closing a scope while scopes the owner opened after it are still open is a structure
// violation: after closing s, Close shuts down the threads of those nested scopes, innermost
// first, as Java's close does with their thread flocks. A nested scope is not cancelled by this:
// Close waits for its running subtasks to end (they complete normally), and it stays usable:
// Fork returns an Unavailable subtask without running it, Join returns its joiner's result, and
// it must still be closed. Close then panics with [ErrStructureViolation]. It also panics with
// [ErrStructureViolation] if the scoped-value bindings in force differ from those when s was
// opened, and otherwise with [ErrIllegalState] if subtasks were forked but Join was never called.
// A call by a thread other than the owner panics with [ErrWrongThread]. It ports
// StructuredTaskScope.close.
func (s *Scope[T, R]) Close() {
	c := &s.core
	c.ensureOwner("close")
	st := c.state.Load()
	if st == stClosed {
		return
	}
	stack := openScopes.Get()
	i := -1
	if stack != nil {
		i = slices.Index(*stack, c)
	}
	// A scope no longer on the stack had its flock closed by an enclosing close; as Java's close
	// of such a scope (its flock is closed, its container already popped), Close does not
	// check the bindings then.
	rebound := i >= 0 && rt.CurrentData().Scoped != c.bindings
	c.close(s)
	nested := i >= 0 && i < len(*stack)-1
	if i >= 0 {
		inner := (*stack)[i+1:]
		for j := len(inner) - 1; j >= 0; j-- {
			inner[j].closeFlock()
		}
		*stack = (*stack)[:i]
		if len(*stack) == 0 {
			openScopes.Remove()
		}
	}
	switch {
	case nested:
		panic(structureViolation("scope closed while scopes opened after it are still open"))
	case rebound:
		panic(structureViolation("scope closed with scoped value bindings other than when it was opened"))
	case st == stForked:
		panic(illegalState("owner did not join after forking"))
	}
}

// closeFlock is what an enclosing scope's close (or the end of the scoped.Carrier.Run the scope
// was opened in) does to a scope left open inside it, as Java's ThreadFlock.close from
// popForcefully: no new thread starts in the scope, and the owner waits, uninterruptibly, for
// the threads it has. The scope is not cancelled (its subtasks run to their end and complete)
// and not closed: Fork, Join and Close still work.
func (c *core) closeFlock() {
	c.mu.Lock()
	c.flockClosed = true
	c.mu.Unlock()
	c.awaitAll(c)
}

// close cancels the scope unless Join completed, waits for its threads and marks it closed;
// blocker is what the owner shows it is parked on meanwhile.
func (c *core) close(blocker any) {
	if c.state.Load() == stClosed {
		return
	}
	if c.state.Load() < stJoinCompleted {
		c.cancel(nil)
	}
	c.stopTimer()
	c.awaitAll(blocker)
	c.state.Store(stClosed)
}

func (c *core) ensureOwner(op string) {
	if thread.Current() != c.owner {
		panic(&wrongThread{msg: op + ": current thread is not the owner of " + c.String()})
	}
}

// String returns the scope's name (WithName), or "StructuredTaskScope@" and an address.
func (c *core) String() string {
	if c.name != "" {
		return c.name
	}
	return fmt.Sprintf("StructuredTaskScope@%p", c)
}
