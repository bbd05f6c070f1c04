package structured

import (
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/loomgo/loom/thread"
)

// Joiner is a scope's policy: it sees every subtask forked and every subtask completed, may
// cancel the scope early, and makes Join's result. It ports StructuredTaskScope.Joiner<T, R>.
// Implement it for a policy of your own (embed [BaseJoiner] for the default OnFork and
// OnComplete); a joiner serves one scope only.
type Joiner[T, R any] interface {
	// OnFork is called by Fork, on the owner thread, with the new subtask (Unavailable) before
	// its thread starts; returning true cancels the scope. A panic propagates out of Fork and
	// no thread is started.
	OnFork(subtask Subtask[T]) bool
	// OnComplete is called on the subtask's own thread when it completes (Success or Failed)
	// before the scope is cancelled; returning true cancels the scope. It may be called by
	// several subtask threads at once. A panic goes to the subtask thread's uncaught-exception
	// handler.
	OnComplete(subtask Subtask[T]) bool
	// Result is called by Join, on the owner thread, once every subtask has completed or the
	// scope was cancelled; an error makes Join return a *FailedError with it as Cause, and so
	// does a panic (the Cause is then a *PanicError), as Java's join wraps what result throws.
	Result() (R, error)
}

// BaseJoiner gives a custom joiner Java's default OnFork and OnComplete, which never cancel.
// Embed it and write Result (and whichever of the two you need).
type BaseJoiner[T any] struct{}

// OnFork returns false. It panics with an error wrapping [thread.ErrIllegalArgument] if subtask is
// not Unavailable, and with one wrapping [thread.ErrNilArgument] for the zero Subtask, as Java's
// default Joiner.onFork.
func (BaseJoiner[T]) OnFork(subtask Subtask[T]) bool {
	ensureUnavailable(subtask)
	return false
}

// OnComplete returns false. It panics with an error wrapping [thread.ErrIllegalArgument] if
// subtask has not completed (is Unavailable), and with one wrapping [thread.ErrNilArgument] for
// the zero Subtask, as Java's default Joiner.onComplete.
func (BaseJoiner[T]) OnComplete(subtask Subtask[T]) bool {
	ensureCompleted(subtask)
	return false
}

// ensureUnavailable is the check of every joiner's OnFork.
func ensureUnavailable[T any](s Subtask[T]) {
	if s.st == nil {
		panic(fmt.Errorf("%w: structured: nil subtask", thread.ErrNilArgument))
	}
	if s.State() != Unavailable {
		panic(fmt.Errorf("%w: structured: subtask not in UNAVAILABLE state", thread.ErrIllegalArgument))
	}
}

// ensureCompleted is the check of every joiner's OnComplete; it returns the subtask's state.
func ensureCompleted[T any](s Subtask[T]) State {
	if s.st == nil {
		panic(fmt.Errorf("%w: structured: nil subtask", thread.ErrNilArgument))
	}
	st := s.State()
	if st == Unavailable {
		panic(fmt.Errorf("%w: structured: subtask has not completed", thread.ErrIllegalArgument))
	}
	return st
}

// subtaskList records forked subtasks in fork order; OnFork runs on the owner only, so it needs
// no lock, and Result reads it on the owner too.
type subtaskList[T any] struct{ subtasks []Subtask[T] }

func (l *subtaskList[T]) OnFork(s Subtask[T]) bool {
	ensureUnavailable(s)
	l.subtasks = append(l.subtasks, s)
	return false
}

// firstFailure records the first subtask failure.
type firstFailure struct {
	once sync.Once
	err  error
}

func (f *firstFailure) record(err error) { f.once.Do(func() { f.err = err }) }

// AllSuccessfulOrThrow returns a joiner for subtasks that must all succeed: the first failure
// cancels the scope and Join returns a *FailedError with it as Cause; otherwise Join returns all
// the subtasks, Success, in fork order. It ports Joiner.allSuccessfulOrThrow (Java 21's
// ShutdownOnFailure, with the results in hand).
func AllSuccessfulOrThrow[T any]() Joiner[T, []Subtask[T]] { return &allSuccessful[T]{} }

type allSuccessful[T any] struct {
	subtaskList[T]
	failure firstFailure
}

func (j *allSuccessful[T]) OnComplete(s Subtask[T]) bool {
	if ensureCompleted(s) == Failed {
		j.failure.record(s.st.err)
		return true
	}
	return false
}

func (j *allSuccessful[T]) Result() ([]Subtask[T], error) {
	if j.failure.err != nil {
		return nil, j.failure.err
	}
	return j.subtasks, nil
}

// AnySuccessfulResultOrThrow returns a joiner that wants one result: the first subtask to succeed
// cancels the scope and Join returns its result. If none succeeds, Join returns a *FailedError
// whose Cause is the first failure, or [ErrNoSubtaskCompleted] if no subtask completed. It ports
// Joiner.anySuccessfulResultOrThrow (Java 21's ShutdownOnSuccess).
func AnySuccessfulResultOrThrow[T any]() Joiner[T, T] { return &anySuccessful[T]{} }

type anySuccessful[T any] struct {
	BaseJoiner[T]
	first   atomic.Pointer[subtask]
	failure firstFailure
}

func (j *anySuccessful[T]) OnComplete(s Subtask[T]) bool {
	switch ensureCompleted(s) {
	case Success:
		j.first.CompareAndSwap(nil, s.st)
		return true
	case Failed:
		j.failure.record(s.st.err)
	}
	return false
}

func (j *anySuccessful[T]) Result() (T, error) {
	if st := j.first.Load(); st != nil {
		v, _ := st.result().(T)
		return v, nil
	}
	var zero T
	if j.failure.err != nil {
		return zero, j.failure.err
	}
	return zero, ErrNoSubtaskCompleted
}

// AwaitAllSuccessfulOrThrow returns a joiner that waits for every subtask to succeed: the first
// failure cancels the scope and Join returns a *FailedError with it as Cause. Join's result is
// struct{}{} (Java's null); read results from the Subtasks that Fork returned. It is the joiner
// of Open. It ports Joiner.awaitAllSuccessfulOrThrow (Java 21's ShutdownOnFailure).
func AwaitAllSuccessfulOrThrow[T any]() Joiner[T, struct{}] { return &awaitAllSuccessful[T]{} }

type awaitAllSuccessful[T any] struct {
	BaseJoiner[T]
	failure firstFailure
}

func (j *awaitAllSuccessful[T]) OnComplete(s Subtask[T]) bool {
	if ensureCompleted(s) == Failed {
		j.failure.record(s.st.err)
		return true
	}
	return false
}

func (j *awaitAllSuccessful[T]) Result() (struct{}, error) { return struct{}{}, j.failure.err }

// AwaitAll returns a joiner that waits for every subtask, successful or not, and never cancels
// the scope; Join returns struct{}{} and no error (inspect each Subtask's State). It ports
// Joiner.awaitAll.
func AwaitAll[T any]() Joiner[T, struct{}] { return awaitAll[T]{} }

type awaitAll[T any] struct{ BaseJoiner[T] }

func (awaitAll[T]) Result() (struct{}, error) { return struct{}{}, nil }

// AllUntil returns a joiner that waits for every subtask until isDone, called on each subtask's
// thread as it completes (concurrently, so it must be safe for that), returns true: that cancels
// the scope. Join returns every subtask in fork order, in whatever state each is, and no error. A
// panic in isDone goes to the subtask thread's uncaught-exception handler. A nil isDone panics
// with an error wrapping [thread.ErrNilArgument]. It ports Joiner.allUntil.
func AllUntil[T any](isDone func(Subtask[T]) bool) Joiner[T, []Subtask[T]] {
	if isDone == nil {
		panic(fmt.Errorf("%w: structured: AllUntil predicate", thread.ErrNilArgument))
	}
	return &allUntil[T]{isDone: isDone}
}

type allUntil[T any] struct {
	subtaskList[T]
	isDone func(Subtask[T]) bool
}

func (j *allUntil[T]) OnComplete(s Subtask[T]) bool {
	ensureCompleted(s)
	return j.isDone(s)
}

func (j *allUntil[T]) Result() ([]Subtask[T], error) { return j.subtasks, nil }
