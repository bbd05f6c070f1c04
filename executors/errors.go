package executors

import (
	"errors"
	"fmt"

	"github.com/loomgo/loom/thread"
)

// Errors returned by executors and futures, for the conditions where Java throws.
var (
	// ErrRejected is Java's RejectedExecutionException: the executor is shut down, saturated, or
	// could not start a thread for the task. Errors that wrap it say which executor refused; when
	// a platform thread could not be created they also wrap [thread.ErrThreadLimit], and when a
	// virtual thread's scheduler was closed they also wrap [thread.ErrRejected] (Java's
	// Thread.start throws the same exception class; loom keeps two values so that the message
	// says who refused).
	ErrRejected = errors.New("executors: task rejected")
	// ErrCancelled is Java's CancellationException: the future was cancelled before it completed.
	ErrCancelled = errors.New("executors: task was cancelled")
	// ErrTimeout is Java's TimeoutException: a timed wait on a future (or [InvokeAnyTimeout]) ran out
	// of time. The future is left as it was.
	// It is [thread.ErrTimeout], the one TimeoutException of every loom package (the timed
	// waits of package locks return it too).
	ErrTimeout = thread.ErrTimeout
	// ErrIllegalState is Java's IllegalStateException, raised by a panic from ResultNow and
	// ExceptionNow when the future is not in the state they need. It is
	// [thread.ErrIllegalState], the one IllegalStateException of every loom package.
	ErrIllegalState = thread.ErrIllegalState
	// ErrGoexit is the cause recorded when a task or a [CompletableFuture] action calls
	// [runtime.Goexit] instead of returning: its future fails with it, so waiters do not hang. It
	// is [thread.ErrGoexit], shared by every loom package that runs tasks.
	ErrGoexit = thread.ErrGoexit
)

// ExecutionError is Java's ExecutionException: the task of a future failed. Cause is the error the
// task returned, or a *PanicError if it panicked. Get returns it as *ExecutionError.
type ExecutionError struct {
	Cause error // what the task returned or the *PanicError of its panic; Java's getCause()
}

// Error returns "executors: task failed: " and the cause.
func (e *ExecutionError) Error() string {
	if e.Cause == nil {
		return "executors: task failed"
	}
	return "executors: task failed: " + e.Cause.Error()
}

// Unwrap returns the cause, so [errors.Is] and [errors.As] see through an [ExecutionError].
func (e *ExecutionError) Unwrap() error { return e.Cause }

// PanicError is the cause of an [ExecutionError] when the task panicked: the panic value and the
// stack where it was recovered. It is [thread.PanicError], shared by every loom package that runs
// tasks.
type PanicError = thread.PanicError

// nilArg is the panic value for a nil argument (Java's NullPointerException).
func nilArg(what string) error { return fmt.Errorf("%w: %s", thread.ErrNilArgument, what) }

// illegalArg is the panic value for a bad argument (Java's IllegalArgumentException).
func illegalArg(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{thread.ErrIllegalArgument}, args...)...)
}
