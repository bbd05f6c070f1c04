package executors

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/loomgo/loom/thread"
)

// ThreadPerTaskExecutor starts a new thread for each task, with no pool and no bound on the
// number of threads, as the executor of Java's Executors.newThreadPerTaskExecutor and
// newVirtualThreadPerTaskExecutor. It tracks the threads it started: it terminates once it is
// shut down and all of them have finished. Make one with NewThreadPerTaskExecutor or
// NewVirtualThreadPerTaskExecutor; it must not be copied.
type ThreadPerTaskExecutor struct {
	_       noCopy
	factory thread.Factory

	mu       sync.Mutex
	shutdown bool // guarded by mu; isShut mirrors it for the lock-free check in Execute
	isShut   atomic.Bool
	threads  map[*thread.Thread]struct{}
	term     termination
}

// NewThreadPerTaskExecutor returns an executor that creates one thread with f for each task and
// runs the task on it. A nil f panics with an error wrapping thread.ErrNilArgument. If f returns
// nil, the task is rejected (ErrRejected). It ports Executors.newThreadPerTaskExecutor.
func NewThreadPerTaskExecutor(f thread.Factory) *ThreadPerTaskExecutor {
	if f == nil {
		panic(nilArg("thread factory"))
	}
	return &ThreadPerTaskExecutor{factory: f, threads: make(map[*thread.Thread]struct{}), term: newTermination()}
}

// NewVirtualThreadPerTaskExecutor returns an executor that starts a new unnamed virtual thread
// for each task, on the default scheduler (or the calling virtual thread's). It ports
// Executors.newVirtualThreadPerTaskExecutor. Close it (or Shutdown) when done; Close waits for
// every task.
func NewVirtualThreadPerTaskExecutor() *ThreadPerTaskExecutor {
	return NewThreadPerTaskExecutor(thread.OfVirtual().Factory())
}

// Execute starts a new thread running task. It returns an error wrapping ErrRejected if the
// executor is shut down, if the factory returned nil, or if the thread could not be started (the
// error then also wraps the thread's error: thread.ErrThreadLimit for a platform thread past the
// limit, thread.ErrRejected for a closed scheduler). A nil task panics with an error wrapping
// thread.ErrNilArgument. A panic in task is an uncaught exception of its thread.
func (e *ThreadPerTaskExecutor) Execute(task func()) error {
	_, err := e.start(task)
	return err
}

func (e *ThreadPerTaskExecutor) start(task func()) (*thread.Thread, error) {
	if task == nil {
		panic(nilArg("task"))
	}
	if e.IsShutdown() {
		return nil, e.rejected(nil)
	}
	var t *thread.Thread
	t = e.factory.NewThread(func() {
		defer e.taskComplete(t) // t is written before Start, which happens before this runs
		task()
	})
	if t == nil {
		return nil, e.rejected(nil)
	}
	e.mu.Lock()
	if e.shutdown {
		e.mu.Unlock()
		return nil, e.rejected(nil)
	}
	e.threads[t] = struct{}{}
	e.mu.Unlock()
	if err := t.TryStart(); err != nil {
		e.taskComplete(t)
		return nil, e.rejected(err)
	}
	return t, nil
}

func (e *ThreadPerTaskExecutor) rejected(cause error) error {
	if cause != nil {
		return fmt.Errorf("%w from %v: %w", ErrRejected, e, cause)
	}
	return fmt.Errorf("%w from %v", ErrRejected, e)
}

func (e *ThreadPerTaskExecutor) taskComplete(t *thread.Thread) {
	e.mu.Lock()
	delete(e.threads, t)
	done := e.shutdown && len(e.threads) == 0
	e.mu.Unlock()
	if done {
		e.term.signal()
	}
}

// Shutdown rejects new tasks from now on; tasks already started run to their end. See
// ExecutorService.Shutdown.
func (e *ThreadPerTaskExecutor) Shutdown() {
	e.mu.Lock()
	first := !e.shutdown
	e.shutdown = true
	e.isShut.Store(true)
	done := len(e.threads) == 0
	e.mu.Unlock()
	if first && done {
		e.term.signal()
	}
}

// ShutdownNow shuts down and interrupts the thread of every running task. It returns nil: a
// thread-per-task executor has no queued tasks (Java returns an empty list).
func (e *ThreadPerTaskExecutor) ShutdownNow() []func() {
	e.Shutdown()
	e.mu.Lock()
	ts := make([]*thread.Thread, 0, len(e.threads))
	for t := range e.threads {
		ts = append(ts, t)
	}
	e.mu.Unlock()
	for _, t := range ts {
		t.Interrupt()
	}
	return nil
}

// IsShutdown reports whether Shutdown, ShutdownNow or Close has been called.
func (e *ThreadPerTaskExecutor) IsShutdown() bool { return e.isShut.Load() }

// IsTerminated reports whether the executor is shut down and every thread it started has
// finished its task.
func (e *ThreadPerTaskExecutor) IsTerminated() bool { return e.term.happened() }

// AwaitTermination waits until the executor has terminated or d has elapsed; see
// ExecutorService.AwaitTermination.
func (e *ThreadPerTaskExecutor) AwaitTermination(d time.Duration) (bool, error) {
	return e.term.await(d)
}

// Close shuts down and waits for every task, as Java 19's ExecutorService.close (an interrupt
// while waiting makes it ShutdownNow and wait on; the interrupt status is set again when it
// returns). It returns nil. Calling it again returns at once.
func (e *ThreadPerTaskExecutor) Close() error { return closeService(e) }

// String describes the executor: "ThreadPerTaskExecutor[Running, threads = 3]", with
// "Shutting down" or "Terminated".
func (e *ThreadPerTaskExecutor) String() string {
	e.mu.Lock()
	n, sd := len(e.threads), e.shutdown
	e.mu.Unlock()
	st := "Running"
	if e.term.happened() {
		st = "Terminated"
	} else if sd {
		st = "Shutting down"
	}
	return fmt.Sprintf("ThreadPerTaskExecutor[%s, threads = %d]", st, n)
}
