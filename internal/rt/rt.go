// Package rt is the narrow door between package thread, which owns the thread control blocks and
// the one blocking primitive, and loom's other packages (locks, threadlocal, scoped, structured),
// which need a little more of a thread than its public API shows: per-thread storage, monitor
// bookkeeping for the pinning simulation, and parking in the BLOCKED state.
//
// Package thread fills in the function variables in its init, so they are set before any code
// that imports thread (directly or through another loom package) runs. Nothing here is part of
// loom's public API.
package rt

import "time"

// Data is the per-thread storage of thread-locals and scoped-value bindings. It is only touched by
// the thread that owns it, except at creation (inheritance) and termination (release), which are
// ordered with the thread's own accesses by Start and Join.
type Data struct {
	// The thread's ThreadLocal values (see locals.go).
	dense []Local
	more  map[uint64]*Local // values of ThreadLocals whose index is >= denseSlots
	swept uint64            // frees when the thread last dropped its stale slots
	entry *localsEntry      // the thread's entry in localsCache, nil until it first looks there

	Scoped any // the scoped-value bindings in force (owned by package scoped)
	Worker any // the fork-join pool worker the thread is (owned by package forkjoin)

	// InitDepth is the nesting of ThreadLocal initial-value suppliers running on the thread
	// (owned by package threadlocal).
	InitDepth int32
}

// Runner is a thread's task as package thread runs it. thread.Start takes a func(), which it
// wraps without allocating; [NewVirtual] takes any Runner, so that an object that is both the task
// and its bookkeeping (an executor's FutureTask) need not be wrapped in a closure.
type Runner interface{ Run() }

// A Catcher is a Runner that takes the end of its own Run when Run panics or calls
// [runtime.Goexit] (a FutureTask, whose failure is the future's, not the thread's): the virtual
// thread running it calls Caught, from the deferred call that catches every task's panic, with
// the panic value and the stack, or with v == nil after [runtime.Goexit]. A panic caught so is not
// the thread's uncaught exception. Catching it there saves the runner a deferred call of its own
// (a frame under every thread parked in the task).
type Catcher interface {
	Runner
	Caught(v any, stack []byte)
}

// An Ender is a Runner told when its thread is done with it, however Run ended (Java's
// "finally" around a task: an executor's taskComplete): the virtual thread running it calls
// Ended on its own goroutine after Run (and Caught) and before it terminates.
type Ender interface {
	Runner
	Ended()
}

// Park reasons, for the state a parked thread reports and for pinned events.
const (
	ParkWaiting     = iota // LockSupport.park and everything built on it
	ParkBlocked            // waiting to enter a monitor: BLOCKED, pins under PinSynchronized
	ParkMonitorWait        // Object.wait: pins and compensates under PinSynchronized
)

// WaitSet is implemented by the blocker of a thread in a monitor wait (the monitor's wait set):
// once the thread has been notified it waits for the monitor itself, which Monitor returns, and
// thread.Thread.Blocker reports that instead (deadlock detection then follows the monitor's
// owner).
type WaitSet interface{ Monitor() any }

// Filled in by package structured, if the program uses it.
var (
	// ScopedRunExit is called by package scoped when the operation of a Carrier.Run returns
	// (normally: true) or panics, with the bindings frame that Run put in force. It closes the
	// structured scopes opened inside the operation that are still open, and then, if the
	// operation returned normally, panics with structured.ErrStructureViolation, as Java's
	// ScopedValue.Carrier.run throws StructureViolationException.
	ScopedRunExit func(frame any, normal bool)
)

// Hooks filled in by package thread.
var (
	// CurrentData returns the current thread's storage.
	CurrentData func() *Data
	// DataOf returns the storage of t, which must be a *thread.Thread that has not started.
	DataOf func(t any) *Data
	// Park parks the current thread like thread.ParkNanos (timeout < 0: no timeout) with the given
	// reason; blocker is what the thread waits for (shown by thread dumps and deadlock
	// detection).
	Park func(timeout time.Duration, reason int, blocker any)
	// Unpark wakes t (a *thread.Thread) from a park with the given reason: thread.Unpark for
	// [ParkWaiting]; for the monitor reasons it uses a permit of their own, so monitor entry and
	// wait neither consume nor grant LockSupport's permit (Java: MonitorWaitNotify
	// testParkingPermitNotConsumed/NotOffered). An interrupt wakes [ParkWaiting] and
	// [ParkMonitorWait] parks but not [ParkBlocked] ones (monitor entry is not interruptible).
	Unpark func(t any, reason int)
	// Notified makes t (a *thread.Thread), whose monitor wait has just been notified, BLOCKED
	// until it has re-entered ([WaitEnded]), leaving it parked if it is; it reports false if it
	// could not (the caller then unparks t).
	Notified func(t any) bool
	// WaitEnded is called by the current thread once it has re-entered the monitor after a
	// wait: a notified thread is RUNNABLE again.
	WaitEnded func()
	// MonitorEntered and [MonitorExited] keep the count of monitors the current thread holds: a
	// virtual thread that parks while holding one is pinned under PinSynchronized.
	MonitorEntered func()
	MonitorExited  func()
	// Terminated reports whether t (a *thread.Thread) has terminated, as loom knows it now:
	// unlike t.State(), it never sweeps ended foreign goroutines first, so it may be called
	// while holding a synchronizer's mutex.
	Terminated func(t any) bool
	// CurrentID returns the current thread's id (cheaper than thread.Current().ThreadID()).
	CurrentID func() int64
	// NewVirtual makes t, a zero thread.Thread that the caller allocated as part of a struct of
	// its own (an executor's task: one allocation for the thread and its bookkeeping), a new,
	// unstarted virtual thread that runs r, exactly as factory f would make it; t is a
	// *thread.Thread, f a thread.Factory. It reports false, leaving t as it was, when f is not
	// one of package thread's virtual-thread factories: the caller then asks f for a thread.
	// With t == nil it only reports whether f is one.
	NewVirtual func(f any, t any, r Runner) bool
)
