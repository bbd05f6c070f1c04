package executors

import "time"

// Future is the result of an asynchronous computation, as java.util.concurrent.Future (with the
// Java 19 additions State, ResultNow and ExceptionNow). Futures are safe for concurrent use.
type Future[T any] interface {
	// Get waits until the computation completes and returns its result. It returns an
	// *ExecutionError whose Cause is what the task returned (or a *PanicError) if the task failed,
	// [ErrCancelled] if the future was cancelled, and [thread.ErrInterrupted] (clearing the interrupt
	// status) if the calling thread is interrupted while it waits; a future that is already done
	// returns its outcome even to an interrupted caller. A virtual thread unmounts while it waits.
	// The task's actions happen before Get returns its result.
	Get() (T, error)
	// GetTimeout is Get that waits at most d; it returns [ErrTimeout] when d runs out first (d <= 0
	// only looks), leaving the future unchanged.
	GetTimeout(d time.Duration) (T, error)
	// Cancel attempts to cancel the computation. It reports false if the future has already
	// completed or been cancelled. Otherwise the future becomes cancelled for good; a task not yet
	// started never runs, and a running one is interrupted if mayInterruptIfRunning (else it runs
	// on, and its outcome is discarded).
	Cancel(mayInterruptIfRunning bool) bool
	// IsDone reports whether the future completed: normally, with a failure, or by cancellation.
	IsDone() bool
	// IsCancelled reports whether the future was cancelled before it completed.
	IsCancelled() bool
	// State returns the state of the future, without waiting.
	State() FutureState
	// ResultNow returns the result of a future in state Success, without waiting. It panics with
	// an error wrapping [ErrIllegalState] otherwise.
	ResultNow() T
	// ExceptionNow returns the cause of the failure (not an *ExecutionError) of a future in state
	// Failed, without waiting. It panics with an error wrapping [ErrIllegalState] otherwise.
	ExceptionNow() error
}

// FutureState is the state of a Future, as Java's Future.State.
type FutureState int

const (
	// Running is a future that has not completed yet (its task may not have started).
	Running FutureState = iota
	// Success is a future whose task returned a result.
	Success
	// Failed is a future whose task returned an error or panicked.
	Failed
	// Cancelled is a future that was cancelled.
	Cancelled
)

var futureStateNames = [...]string{"RUNNING", "SUCCESS", "FAILED", "CANCELLED"}

// String returns the Java name of the state: "RUNNING", "SUCCESS", "FAILED" or "CANCELLED".
func (s FutureState) String() string {
	if s >= 0 && int(s) < len(futureStateNames) {
		return futureStateNames[s]
	}
	return "FutureState(" + itoa(int64(s)) + ")"
}

func itoa(n int64) string {
	if n < 0 {
		return "-" + itoa(-n)
	}
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}
