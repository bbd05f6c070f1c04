package locks

import (
	"errors"
	"fmt"

	"github.com/loomgo/loom/internal/waitq"
	"github.com/loomgo/loom/thread"
)

// ErrIllegalMonitorState is Java's IllegalMonitorStateException: unlocking a lock, exiting a
// monitor, or waiting on or signalling a condition or monitor without holding it. It is raised
// by a panic whose value wraps it, so recover() and [errors.Is] can recognise it.
var ErrIllegalMonitorState = errors.New("locks: current thread is not owner")

// ErrMaxCount is Java's Error("Maximum lock count exceeded") and Error("Maximum permit count
// exceeded"): a hold count ([ReentrantLock], Monitor, either lock of a [ReentrantReadWriteLock]) would
// pass 2,147,483,647, or a Semaphore's permit count would pass [math.MaxInt]. It is raised by a
// panic whose value wraps it and names the count, and the count is left as it was.
var ErrMaxCount = errors.New("locks: maximum count exceeded")

// ErrCountUnderflow is Java's Error("Permit count underflow"): [Semaphore.ReducePermits] would take
// the permit count below [math.MinInt]. It is raised by a panic whose value wraps it, and the count
// is left as it was.
var ErrCountUnderflow = errors.New("locks: count underflow")

// Every counter in the package checks both ends and fails as Java does instead of wrapping
// around: these are Errors in Java (not exceptions a program is expected to handle), so they
// panic here, with a value that errors.Is recognises and a message that gives Java's words.

func panicMaxCount(what string) {
	panic(fmt.Errorf("%w: %s (Maximum %s count exceeded)", ErrMaxCount, what, what))
}

// ErrUnsupported is Java's UnsupportedOperationException: a read lock has no conditions. It is
// raised by a panic.
var ErrUnsupported = errors.New("locks: unsupported operation")

func panicIMSE() { panic(ErrIllegalMonitorState) }

func panicIAE(format string, args ...any) {
	panic(fmt.Errorf("%w: "+format, append([]any{thread.ErrIllegalArgument}, args...)...))
}

func panicNil(what string) {
	panic(fmt.Errorf("%w: %s", thread.ErrNilArgument, what))
}

// noCopy makes go vet's copylocks check report copies.
type noCopy struct{}

func (*noCopy) Lock()   {}
func (*noCopy) Unlock() {}

// interrupted is thread.Interrupted (test and clear the current thread's interrupt status)
// that only writes when the status is set: a load instead of an atomic swap in the common case,
// on every interruptible entry.
func interrupted() bool {
	return waitq.Current().IsInterrupted() && thread.Interrupted()
}
