package thread

import "errors"

// Errors returned, or carried by panics, for the conditions where Java throws.
var (
	// ErrInterrupted is Java's InterruptedException: a blocking call returned early because its
	// thread was interrupted. Calls that return it have cleared the interrupt status, as in Java.
	ErrInterrupted = errors.New("thread: interrupted")
	// ErrIllegalThreadState is Java's IllegalThreadStateException: starting a thread twice,
	// SetDaemon on a started thread, JoinTimeout on a thread that was never started. It is raised
	// by a panic whose value wraps it.
	ErrIllegalThreadState = errors.New("thread: illegal thread state")
	// ErrIllegalArgument is Java's IllegalArgumentException: a negative name counter,
	// SetDaemon(false) on a virtual thread, a priority outside 1..10. It is raised by a panic.
	ErrIllegalArgument = errors.New("thread: illegal argument")
	// ErrNilArgument is Java's NullPointerException for a nil task, handler or thread. It is
	// raised by a panic.
	ErrNilArgument = errors.New("thread: nil argument")
	// ErrThreadLimit is Java's "OutOfMemoryError: unable to create native thread": a platform
	// thread could not be created because the process is at its thread limit (see
	// [PlatformThreadLimit]). Start panics with it; TryStart returns it.
	ErrThreadLimit = errors.New("thread: unable to create native thread: possibly out of memory or process/resource limits reached")
	// ErrRejected is Java's RejectedExecutionException from Thread.start: the virtual thread's
	// scheduler has been closed. An executor that could not start a thread for this reason
	// returns an error wrapping both it and executors.ErrRejected.
	ErrRejected = errors.New("thread: scheduler closed, thread rejected")
	// ErrIllegalState is Java's IllegalStateException, the one value every loom package uses
	// for it (locks.ErrIllegalState, executors.ErrIllegalState and structured.ErrIllegalState
	// are this error), so [errors.Is](err, [ErrIllegalState]) matches each as catch
	// (IllegalStateException e) does. It is raised by a panic whose value wraps it.
	ErrIllegalState = errors.New("thread: illegal state")
	// ErrTimeout is java.util.concurrent.TimeoutException, the one value the timed waits of
	// package locks (CyclicBarrier, Phaser, Exchanger) and of futures in package executors
	// return for it (locks.ErrTimeout and executors.ErrTimeout are this error). Java 25's
	// StructuredTaskScope.TimeoutException is another class, and structured.ErrTimeout another
	// error.
	ErrTimeout = errors.New("thread: timed out")
)
