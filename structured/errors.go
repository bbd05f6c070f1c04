package structured

import (
	"errors"
	"fmt"

	"github.com/loomgo/loom/thread"
)

// Errors returned by Join, or carried by the panics of misused scopes.
var (
	// ErrTimeout is Java's StructuredTaskScope.TimeoutException: the scope's timeout (see
	// [WithTimeout]) expired before or while the owner joined; the scope was cancelled. Join
	// returns an error wrapping it. As in Java 25, where StructuredTaskScope.TimeoutException is
	// not java.util.concurrent.TimeoutException, it is not [thread.ErrTimeout].
	ErrTimeout = errors.New("structured: scope timed out")

	// ErrStructureViolation is Java's StructureViolationException: a scope closed while a scope
	// opened after it is still open (those are closed too), a scope forked into or closed with
	// scoped-value bindings other than those in force when it was opened. It is raised by a
	// panic whose value wraps it.
	ErrStructureViolation = errors.New("structured: structure violation")

	// ErrWrongThread is Java's WrongThreadException: Fork, Join or Close called by a thread
	// other than the scope's owner (the thread that opened it; the scope's own subtasks are not
	// owners). It is raised by a panic; as a breach of the scope's structure, the panic value
	// also matches [ErrStructureViolation].
	ErrWrongThread = errors.New("structured: wrong thread")

	// ErrIllegalState is Java's IllegalStateException: Fork after Join was called or after
	// Close, a second Join, [Subtask.Get] of a subtask that did not succeed (or by the owner
	// before it has joined), [Subtask.Exception] of one that did not fail, and Close of a scope
	// that forked subtasks but was never joined. It is raised by a panic whose value wraps it.
	//
	// It is [thread.ErrIllegalState], the one IllegalStateException of every loom package.
	ErrIllegalState = thread.ErrIllegalState

	// ErrNoSubtaskCompleted is Java's NoSuchElementException from
	// anySuccessfulResultOrThrow: no subtask completed (none was forked, or all were
	// cancelled). It is the Cause of the [FailedError] that Join then returns.
	ErrNoSubtaskCompleted = errors.New("structured: no subtasks completed")
)

// FailedError is Java's StructuredTaskScope.FailedException: the joiner's Result returned an
// error, typically the first subtask failure. Join returns it as a *FailedError; [errors.Is] and
// [errors.As] see through it to Cause.
type FailedError struct {
	Cause error // what the joiner's Result returned, typically the first subtask's failure; Java's getCause()
}

// Error returns "structured: scope failed: " and the cause.
func (e *FailedError) Error() string { return "structured: scope failed: " + e.Cause.Error() }

// Unwrap returns the cause.
func (e *FailedError) Unwrap() error { return e.Cause }

// PanicError is the failure of a subtask whose task panicked: [Subtask.Exception] returns it, with
// the panic value and the stack of the panicking goroutine. If the value is an error, Unwrap
// returns it. (A Java task that throws completes its subtask as failed; a Go task that panics
// does the same.) It is [thread.PanicError], shared by every loom package that runs tasks.
type PanicError = thread.PanicError

// wrongThread is the panic value for a call from a thread that is not the owner.
type wrongThread struct{ msg string }

func (e *wrongThread) Error() string { return ErrWrongThread.Error() + ": " + e.msg }

func (e *wrongThread) Is(target error) bool {
	return target == ErrWrongThread || target == ErrStructureViolation
}

func illegalState(msg string) error { return fmt.Errorf("%w: %s", ErrIllegalState, msg) }

func structureViolation(msg string) error { return fmt.Errorf("%w: %s", ErrStructureViolation, msg) }
