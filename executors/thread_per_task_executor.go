package executors

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/loomgo/loom/internal/rt"
	"github.com/loomgo/loom/thread"
)

// ThreadPerTaskExecutor starts a new thread for each task, with no pool and no bound on the
// number of threads, as the executor of Java's Executors.newThreadPerTaskExecutor and
// newVirtualThreadPerTaskExecutor. It tracks the threads it started: it terminates once it is
// shut down and all of them have finished. Make one with [NewThreadPerTaskExecutor] or
// [NewVirtualThreadPerTaskExecutor]; it must not be copied.
//
// What a task costs. When the factory is one of package thread's virtual-thread factories (as for
// [NewVirtualThreadPerTaskExecutor]), the thread, the task's bookkeeping here and, for Submit, its
// [FutureTask] are one allocation: the executor asks package thread to make the thread inside it
// ([rt.NewVirtual]), with the task object itself as the thread's task, so no closure wraps the
// task, and the thread catches the task's panic and Goexit for the future ([rt.Catcher]) in the
// deferred call it has anyway, so nothing adds a frame under a task parked in it. With any other
// factory a task costs the factory's thread, a closure and a node.
//
// The threads are kept in shardCount intrusive lists, each under its own mutex, chosen by thread
// id: a start and an end lock one shard, and nothing is shared by every task. Termination is
// found without a count that every task writes: an ending task looks at the shutdown flag after
// leaving its list, and Shutdown sets the flag before it looks at the lists (see taskComplete).
//
// Designs measured and not taken: a map[*thread.Thread]struct{} under one mutex (loom's first
// set: ~15% of a million trivial futures went to the map and the lock); a closure around each
// task to call taskComplete (an allocation, and a frame with a deferred call under every parked
// task, whose stack then passed the goroutine's first 2 KB and doubled).
type ThreadPerTaskExecutor struct {
	_       noCopy
	factory thread.Factory
	fused   bool // factory is one of package thread's virtual ones (rt.NewVirtual)

	isShut atomic.Bool // Shutdown has been called
	term   termination
	shards [shardCount]taskShard
}

const shardCount = 16

// taskShard is one of the executor's lists of running tasks.
type taskShard struct {
	mu   sync.Mutex
	head *taskNode
	n    int
	_    [32]byte // shards on separate cache lines
}

// taskNode is a task in the executor's lists; its shard is its thread's (shardOf).
type taskNode struct {
	t          *thread.Thread
	prev, next *taskNode
}

func (e *ThreadPerTaskExecutor) shardOf(t *thread.Thread) *taskShard {
	return &e.shards[t.ThreadID()&(shardCount-1)]
}

// NewThreadPerTaskExecutor returns an executor that creates one thread with f for each task and
// runs the task on it. A nil f panics with an error wrapping [thread.ErrNilArgument]. If f returns
// nil, the task is rejected ([ErrRejected]). It ports Executors.newThreadPerTaskExecutor.
func NewThreadPerTaskExecutor(f thread.Factory) *ThreadPerTaskExecutor {
	if f == nil {
		panic(nilArg("thread factory"))
	}
	return &ThreadPerTaskExecutor{factory: f, fused: rt.NewVirtual(f, nil, nil), term: newTermination()}
}

// NewVirtualThreadPerTaskExecutor returns an executor that starts a new unnamed virtual thread
// for each task, on the default scheduler (or the calling virtual thread's). It ports
// Executors.newVirtualThreadPerTaskExecutor. Close it (or Shutdown) when done; Close waits for
// every task.
func NewVirtualThreadPerTaskExecutor() *ThreadPerTaskExecutor {
	return NewThreadPerTaskExecutor(thread.OfVirtual().Factory())
}

// Execute starts a new thread running task. It returns an error wrapping [ErrRejected] if the
// executor is shut down, if the factory returned nil, or if the thread could not be started (the
// error then also wraps the thread's error: [thread.ErrThreadLimit] for a platform thread past the
// limit, [thread.ErrRejected] for a closed scheduler). A nil task panics with an error wrapping
// [thread.ErrNilArgument]. A panic in task is an uncaught exception of its thread.
func (e *ThreadPerTaskExecutor) Execute(task func()) error {
	if task == nil {
		panic(nilArg("task"))
	}
	if e.IsShutdown() {
		return e.rejected(nil)
	}
	if !e.fused {
		return e.startWrapped(task)
	}
	x := &executed{task: task}
	x.e = e
	rt.NewVirtual(e.factory, &x.th, x)
	return e.startNode(&x.taskNode, &x.th)
}

// startWrapped starts task on a thread of a factory that is not one of package thread's virtual
// ones: the factory gets a closure, and the node is a separate allocation.
func (e *ThreadPerTaskExecutor) startWrapped(task func()) error {
	n := new(taskNode)
	t := e.factory.NewThread(func() {
		defer e.taskComplete(n) // n.t is written before Start, which happens before this runs
		task()
	})
	if t == nil {
		return e.rejected(nil)
	}
	return e.startNode(n, t)
}

// startNode adds the node of t, a new thread, to the executor's list and starts t.
func (e *ThreadPerTaskExecutor) startNode(n *taskNode, t *thread.Thread) error {
	n.t = t
	sh := e.shardOf(t)
	sh.mu.Lock()
	n.next = sh.head
	if sh.head != nil {
		sh.head.prev = n
	}
	sh.head = n
	sh.n++
	sh.mu.Unlock()
	// A Shutdown before the node was in the list may have found the executor empty and
	// terminated it: reject, as Java's start does when it finds the executor shut down after
	// adding the thread.
	if e.IsShutdown() {
		e.taskComplete(n)
		return e.rejected(nil)
	}
	if err := t.TryStart(); err != nil {
		e.taskComplete(n)
		return e.rejected(err)
	}
	return nil
}

// A task started on a thread of one of package thread's virtual factories: the thread, the
// executor's node and the task in one allocation (see ThreadPerTaskExecutor).
type vtask struct {
	th thread.Thread
	taskNode
	e *ThreadPerTaskExecutor
}

// Ended implements rt.Ender: the task is over (Java's taskComplete in TaskRunner's finally).
func (v *vtask) Ended() { v.e.taskComplete(&v.taskNode) }

// executed is an Execute task.
type executed struct {
	vtask
	task func()
}

// Run implements rt.Runner. A panic in the task is its thread's uncaught exception.
func (x *executed) Run() { x.task() }

// submitted is a Submit task: its FutureTask, run on its own thread.
type submitted[T any] struct {
	vtask
	f FutureTask[T]
}

// Run implements rt.Runner: FutureTask.Run, without its deferred calls, which the thread makes
// for it (Caught, Ended).
func (s *submitted[T]) Run() {
	f := &s.f
	if f.state.Load() != stNew || !f.runner.CompareAndSwap(nil, &s.th) {
		return
	}
	if f.state.Load() != stNew { // cancelled between the check and the runner CAS
		return
	}
	if v, err := f.task(); err != nil {
		f.setException(err)
	} else {
		f.set(v)
	}
}

// Caught implements rt.Catcher: the task panicked (a *PanicError with the value and stack) or
// called runtime.Goexit (ErrGoexit); the future fails with it, as FutureTask.Run's would.
func (s *submitted[T]) Caught(v any, stack []byte) {
	if v == nil {
		s.f.setException(ErrGoexit)
		return
	}
	s.f.setException(&thread.PanicError{Value: v, Stack: stack})
}

// Ended implements rt.Ender.
func (s *submitted[T]) Ended() {
	s.f.afterRun()
	s.vtask.Ended()
}

// submit is Submit to e, whose factory is one of package thread's virtual ones (e.fused), of a
// task that runs task and completes with its result.
func submit[T any](e *ThreadPerTaskExecutor, task func() (T, error)) (Future[T], error) {
	if e.IsShutdown() {
		return nil, e.rejected(nil)
	}
	s := &submitted[T]{}
	s.f.task, s.e = task, e
	rt.NewVirtual(e.factory, &s.th, s)
	if err := e.startNode(&s.taskNode, &s.th); err != nil {
		return nil, err
	}
	return &s.f, nil
}

func (e *ThreadPerTaskExecutor) rejected(cause error) error {
	if cause != nil {
		return fmt.Errorf("%w from %v: %w", ErrRejected, e, cause)
	}
	return fmt.Errorf("%w from %v", ErrRejected, e)
}

// taskComplete takes n out of the executor's list. The end that leaves the executor shut down
// and empty terminates it: an end looks at the shutdown flag after leaving its list, Shutdown
// sets the flag before it looks at the lists, and Go's atomics and mutexes order the two, so at
// least one of them sees the other (both may: signal is idempotent).
func (e *ThreadPerTaskExecutor) taskComplete(n *taskNode) {
	sh := e.shardOf(n.t)
	sh.mu.Lock()
	if n.prev != nil {
		n.prev.next = n.next
	} else {
		sh.head = n.next
	}
	if n.next != nil {
		n.next.prev = n.prev
	}
	n.prev, n.next = nil, nil
	sh.n--
	sh.mu.Unlock()
	if e.isShut.Load() && e.count() == 0 {
		e.term.signal()
	}
}

// count returns the number of running tasks.
func (e *ThreadPerTaskExecutor) count() int {
	n := 0
	for i := range e.shards {
		sh := &e.shards[i]
		sh.mu.Lock()
		n += sh.n
		sh.mu.Unlock()
	}
	return n
}

// Shutdown rejects new tasks from now on; tasks already started run to their end. See
// [ExecutorService.Shutdown].
func (e *ThreadPerTaskExecutor) Shutdown() {
	if !e.isShut.Swap(true) && e.count() == 0 {
		e.term.signal()
	}
}

// ShutdownNow shuts down and interrupts the thread of every running task. It returns nil: a
// thread-per-task executor has no queued tasks (Java returns an empty list).
func (e *ThreadPerTaskExecutor) ShutdownNow() []func() {
	e.Shutdown()
	var ts []*thread.Thread
	for i := range e.shards {
		sh := &e.shards[i]
		sh.mu.Lock()
		for n := sh.head; n != nil; n = n.next {
			ts = append(ts, n.t)
		}
		sh.mu.Unlock()
	}
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
// [ExecutorService.AwaitTermination].
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
	n, sd := e.count(), e.IsShutdown()
	st := "Running"
	if e.term.happened() {
		st = "Terminated"
	} else if sd {
		st = "Shutting down"
	}
	return fmt.Sprintf("ThreadPerTaskExecutor[%s, threads = %d]", st, n)
}
