// Package usercode runs code that loom's task runners take from their users (tasks,
// CompletableFuture stages, structured forks) so that it ends in one of three ways the runner
// can always handle: a return, a panic turned into a *thread.PanicError, or a [runtime.Goexit],
// which the runner hears about from a deferred call while the goroutine goes on exiting.
//
// A recover that returns nil cannot tell a Goexit from a return on its own (the deferred
// function runs in both cases); a flag set after the call returns can, which is how
// golang.org/x/sync/singleflight keeps its waiters from hanging.
package usercode

import (
	"runtime/debug"

	"github.com/loomgo/loom/thread"
)

// Call calls fn and returns what it returns, or, if fn panics, T's zero value and a
// *thread.PanicError with the panic value and the stack. If fn calls [runtime.Goexit], Call calls
// onGoexit from a deferred call and does not return: the goroutine goes on exiting, so onGoexit
// must complete whatever the caller owes (a future, a subtask) and must not wait for anything
// this goroutine would have done.
func Call[T any](fn func() (T, error), onGoexit func()) (v T, err error) {
	returned, recovered := false, false
	defer func() {
		if !returned && !recovered {
			onGoexit()
		}
	}()
	func() {
		defer func() {
			if !returned {
				if r := recover(); r != nil {
					var zero T
					v, err = zero, &thread.PanicError{Value: r, Stack: debug.Stack()}
					recovered = true
				}
			}
		}()
		v, err = fn()
		returned = true
	}()
	return v, err
}
