package thread

import (
	"errors"
	"fmt"
)

// PanicError is a panic recovered from a task, as an error: the value passed to panic and the
// stack of the goroutine where it was recovered. Loom's executors and structured scopes complete a
// task that panicked as failed with a *PanicError cause, as a Java task that throws completes
// with its exception. Error gives the value only; print Stack to see where it came from.
type PanicError struct {
	Value any    // the value passed to panic
	Stack []byte // the goroutine's stack when the panic was recovered (runtime/debug.Stack)
}

// Error returns "panic: " and the panic value.
func (p *PanicError) Error() string { return fmt.Sprintf("panic: %v", p.Value) }

// Unwrap returns the panic value if it is an error, else nil, so [errors.Is] and [errors.As] see
// through a panic with an error value.
func (p *PanicError) Unwrap() error {
	err, _ := p.Value.(error)
	return err
}

// ErrGoexit is the failure recorded for a task that called [runtime.Goexit] instead of returning:
// loom's futures and structured subtasks complete with it (the goroutine goes on exiting), so
// nothing that waits for the task hangs. Java has no counterpart; a Java task returns or throws.
var ErrGoexit = errors.New("thread: task called runtime.Goexit")
