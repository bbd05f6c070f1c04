package structured

import (
	"fmt"
	"sync/atomic"

	"github.com/loomgo/loom/thread"
)

// State is the state of a Subtask, as Java's StructuredTaskScope.Subtask.State.
type State int32

const (
	// Unavailable: the subtask has not completed, was forked after the scope was cancelled, or
	// completed after the scope was cancelled (its result is then discarded).
	Unavailable State = iota
	// Success: the subtask completed with a result.
	Success
	// Failed: the subtask returned an error or panicked.
	Failed
)

var stateNames = [...]string{"UNAVAILABLE", "SUCCESS", "FAILED"}

// String returns the Java name: "UNAVAILABLE", "SUCCESS" or "FAILED".
func (s State) String() string {
	if s >= 0 && int(s) < len(stateNames) {
		return stateNames[s]
	}
	return fmt.Sprintf("State(%d)", int32(s))
}

// Subtask is a handle to a task forked in a Scope, as Java's StructuredTaskScope.Subtask. Fork
// returns one; joiners get one (typed with the scope's T) for each fork and completion. Subtask
// is a small value: copy it freely; two Subtasks of the same type are == when they are the same
// subtask.
type Subtask[T any] struct {
	st *subtask
}

// subtask is the state of one fork, shared by every typed view of it.
type subtask struct {
	scope  *core
	thread *thread.Thread // nil if no thread was started for it
	state  atomic.Int32   // State; value and err are written before it is stored
	value  any
	err    error
}

// State returns the subtask's state. It ports Subtask.state.
func (s Subtask[T]) State() State { return State(s.st.state.Load()) }

// Get returns the subtask's result. It panics with [ErrIllegalState] if the subtask did not
// complete successfully, or if the caller is the scope's owner and has not yet joined (Join has
// not returned normally). Get by the scope's owner after Join synchronizes after the subtask
// completed. It ports Subtask.get.
func (s Subtask[T]) Get() T {
	s.st.ensureJoinedIfOwner()
	if s.State() != Success {
		panic(illegalState("result is unavailable or subtask did not complete successfully"))
	}
	v, _ := s.st.value.(T) // a nil interface result for an interface T
	return v
}

// Exception returns the error the subtask failed with (a *PanicError if its task panicked). It
// panics with [ErrIllegalState] if the subtask did not fail, or if the caller is the scope's owner
// and has not yet joined. It ports Subtask.exception.
func (s Subtask[T]) Exception() error {
	s.st.ensureJoinedIfOwner()
	if s.State() != Failed {
		panic(illegalState("exception is unavailable or subtask did not complete with exception"))
	}
	return s.st.err
}

// String describes the subtask and its state, as Java's Subtask.toString:
// "Subtask[Unavailable]", "Subtask[Completed successfully]", "Subtask[Failed: <error>]".
func (s Subtask[T]) String() string {
	switch s.State() {
	case Success:
		return "Subtask[Completed successfully]"
	case Failed:
		return "Subtask[Failed: " + s.st.err.Error() + "]"
	}
	return "Subtask[Unavailable]"
}

func (st *subtask) ensureJoinedIfOwner() {
	c := st.scope
	if c.state.Load() < stJoinCompleted && thread.Current() == c.owner {
		panic(illegalState("owner did not join"))
	}
}

// result returns the value of a successful subtask, for the built-in joiners (which may read it
// before the owner has joined).
func (st *subtask) result() any { return st.value }

// view returns st as a Subtask[T]: the subtask's value is a U that Fork checked is assignable to T.
func view[T any](st *subtask) Subtask[T] { return Subtask[T]{st: st} }
