package executors

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
	"weak"

	"github.com/loomgo/loom/internal/rt"
	"github.com/loomgo/loom/internal/slab"
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
// [FutureTask] are one allocation (144 bytes for a one-word result): the executor asks package
// thread to make the thread inside it ([rt.NewVirtual]), with the task object itself as the
// thread's task, so no closure wraps the task, and the thread catches the task's panic and Goexit
// for the future ([rt.Catcher]) in the deferred call it has anyway, so nothing adds a frame under
// a task parked in it. With any other factory a task costs the factory's thread and a closure.
//
// The tasks are counted, and the running ones listed, in shardCount shards chosen by thread id,
// so that nothing is written by every task. Starting a task adds one to its shard's count of
// started tasks; that is all the submitter does. The task's thread, once it runs, enters its
// shard's list of running tasks (under the shard's mutex) and leaves it at its end, adding one
// to the shard's count of ended tasks: the list is the carriers' business, and its cache lines
// stay with them rather than moving to the submitter's core and back with every task. A list is
// a slab of thread pointers in chunks with a stack of free indexes (internal/slab), as package
// thread's registry of virtual threads; each task keeps its index (for Submit, in the padding beside its future's state
// word), so that its end clears its own slot without touching any other task. The bookkeeping
// thus costs 8 bytes per running task (12 while its slot is free), in the executor, and nothing
// in a task that has ended: a future outlives its task, often by far (a million futures
// submitted, then collected), and every byte it carries is allocated, cleared and scanned once
// per task.
//
// The lists also serve package thread: a task of a fused executor is [rt.Listed], so its thread,
// when it first parks, is not added to package thread's registry of virtual threads (another
// slot of 8 bytes and a lock pair per thread), and [thread.LiveThreads] and [thread.DumpThreads] read the
// executor's lists instead (see addLister).
//
// ShutdownNow interrupts the listed threads; a thread started but not yet running is not
// listed, so ShutdownNow first sets a flag that a thread looks at after entering its list, and
// interrupts itself if it is set: each of the two looks after it has written, so at least one of
// them sees the other (Go's atomics and mutexes are sequentially consistent), and every thread
// is interrupted at least once, as Java interrupts every thread in its set. Termination is
// found the same way: an ending task looks at the shutdown flag after counting itself out, and
// Shutdown sets the flag before it sums the counts (see taskComplete); a start counts itself in
// before it looks at the flag, and backs out if it is set.
//
// Designs measured and not taken: a map[*thread.Thread]struct{} under one mutex (loom's first
// set: ~15% of a million trivial futures went to the map and the lock); a closure around each
// task to call taskComplete (an allocation, and a frame with a deferred call under every parked
// task, whose stack then passed the goroutine's first 2 KB and doubled); an intrusive
// doubly-linked list through the tasks (a thread pointer and two links in every task for its
// whole life: a submitted task of 192 bytes instead of 160; 176 without the thread pointer,
// found from the link's address with package unsafe); a dense slice of the running tasks, an
// end moving the last entry into its place (each end then writes the index of another task, a
// cache miss: no faster than the list in a million trivial futures); the list entered by the
// submitter, before the thread starts, as Java's start adds the thread to its set (a lock, the
// slab and their cache lines shared by the submitter and the carriers: ~10% of the submitter's
// time in a million trivial futures, against one atomic add now); the future in an allocation
// of its own beside the thread's, so that only the future outlives the task (three allocations
// a task instead of two: a million trivial futures took ~25% more CPU).
type ThreadPerTaskExecutor struct {
	_       noCopy
	factory thread.Factory
	fused   bool // factory is one of package thread's virtual ones (rt.NewVirtual)

	isShut  atomic.Bool // Shutdown has been called
	isNow   atomic.Bool // ShutdownNow has been called: a thread entering its list interrupts itself
	term    termination
	listed  sync.Once              // the lists are added to package thread's listings (see lister)
	unlist  atomic.Pointer[func()] // takes them out again
	started [shardCount]startCount // written by the submitters
	shards  [shardCount]taskShard  // written by the tasks' threads
}

const shardCount = 16

// startCount is a shard's count of started tasks, on a cache line of its own.
type startCount struct {
	n atomic.Int64
	_ [56]byte
}

// taskShard is one of the executor's lists of running tasks, and the count of its tasks that
// have ended (or were started and then rejected).
type taskShard struct {
	mu    sync.Mutex
	ts    slab.List[thread.Thread]
	ended atomic.Int64
}

func shardIndex(t *thread.Thread) int64 { return t.ThreadID() & (shardCount - 1) }

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
	return e.start(&x.th)
}

// startWrapped starts task on a thread of a factory that is not one of package thread's virtual
// ones: the factory gets a closure.
func (e *ThreadPerTaskExecutor) startWrapped(task func()) error {
	w := new(wrapped)
	t := e.factory.NewThread(func() {
		// w.t is written before Start, which happens before this runs
		e.enter(w.t, &w.at)
		defer e.taskComplete(w.t, &w.at)
		task()
	})
	if t == nil {
		return e.rejected(nil)
	}
	w.t = t
	return e.start(t)
}

// wrapped is the bookkeeping of a task on a thread of another factory.
type wrapped struct {
	t  *thread.Thread
	at int32 // 1 + index in the executor's list, 0 if not in it
}

// start counts t, a new thread, among the executor's tasks and starts it.
func (e *ThreadPerTaskExecutor) start(t *thread.Thread) error {
	i := shardIndex(t)
	e.started[i].n.Add(1)
	// A Shutdown before the task was counted may have found the executor empty and terminated
	// it: reject, as Java's start does when it finds the executor shut down after adding the
	// thread.
	if e.IsShutdown() {
		e.countOut(i)
		return e.rejected(nil)
	}
	if err := t.TryStart(); err != nil {
		e.countOut(i)
		return e.rejected(err)
	}
	return nil
}

// enter adds t, whose task keeps 1 + its index in the executor's list at *at, to the list. The
// task's thread calls it when it starts running; if ShutdownNow has been called, the thread
// interrupts itself (see ThreadPerTaskExecutor).
func (e *ThreadPerTaskExecutor) enter(t *thread.Thread, at *int32) {
	if e.fused {
		e.listed.Do(e.addLister)
	}
	sh := &e.shards[shardIndex(t)]
	sh.mu.Lock()
	*at = sh.ts.Add(t) + 1
	sh.mu.Unlock()
	if e.isNow.Load() {
		t.Interrupt()
	}
}

// addLister makes package thread's listings of live threads (thread.LiveThreads, DumpThreads,
// FindDeadlocked) read the executor's lists of running tasks, which then leaves the threads of
// its tasks out of its registry of parked virtual threads (rt.Listed): a slot of 8 bytes and a
// lock pair per parked thread that the executor's lists already pay for. Package thread holds
// the executor weakly, as Java's registry of thread containers does: an executor nobody refers
// to (and none of its tasks runs: a task refers to its executor) is collected, and its lists
// are taken out of the listings then, or when it terminates.
func (e *ThreadPerTaskExecutor) addLister() {
	remove := rt.AddLister(lister{weak.Make(e)})
	e.unlist.Store(&remove)
	runtime.AddCleanup(e, func(remove func()) { remove() }, remove)
}

// lister is an executor's lists as package thread reads them (rt.Lister).
type lister struct {
	e weak.Pointer[ThreadPerTaskExecutor]
}

func (l lister) Threads(yield func(t any) bool) {
	e := l.e.Value()
	if e == nil {
		return
	}
	for i := range e.shards {
		sh := &e.shards[i]
		more := true
		sh.mu.Lock()
		sh.ts.All(func(t *thread.Thread) bool {
			more = yield(t)
			return more
		})
		sh.mu.Unlock()
		if !more {
			return
		}
	}
}

// terminated makes the executor terminated: it is shut down and its tasks have ended.
func (e *ThreadPerTaskExecutor) terminated() {
	e.term.signal()
	if remove := e.unlist.Load(); remove != nil {
		(*remove)()
	}
}

// A task started on a thread of one of package thread's virtual factories: the thread, the
// executor's link and the task in one allocation (see ThreadPerTaskExecutor).
type vtask struct {
	th thread.Thread
	e  *ThreadPerTaskExecutor
}

// executed is an Execute task.
type executed struct {
	vtask
	at   int32 // 1 + index in the executor's list, 0 if not in it
	task func()
}

// Listed implements rt.Listed: the executor lists the task's thread while the task runs.
func (x *executed) Listed() {}

// Run implements rt.Runner. A panic in the task is its thread's uncaught exception.
func (x *executed) Run() {
	x.e.enter(&x.th, &x.at)
	x.task()
}

// Ended implements rt.Ender: the task is over (Java's taskComplete in TaskRunner's finally).
func (x *executed) Ended() { x.e.taskComplete(&x.th, &x.at) }

// submitted is a Submit task: its FutureTask, run on its own thread.
type submitted[T any] struct {
	vtask
	f FutureTask[T]
}

// Listed implements rt.Listed: the executor lists the task's thread while the task runs.
func (s *submitted[T]) Listed() {}

// Run implements rt.Runner: FutureTask.Run, without its deferred calls, which the thread makes
// for it (Caught, Ended).
//
// Its frame is under every parked task (see thread's park.go on the parked stack): nothing but
// s lives across the task's call, and the future is found again from s after it.
func (s *submitted[T]) Run() {
	s.e.enter(&s.th, &s.f.at)
	if s.f.state.Load() != stNew || !s.f.runner.CompareAndSwap(nil, &s.th) {
		return
	}
	if s.f.state.Load() != stNew { // cancelled between the check and the runner CAS
		return
	}
	if v, err := s.f.taskFn()(); err != nil {
		s.f.setException(err)
	} else {
		s.f.set(v)
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

// Ended implements rt.Ender. The task's index in the executor's list is kept in its future
// (FutureTask.at), in the padding beside the state word.
//
// Only a Run that took the future (runner is this thread) has anything to finish: the future
// may have been run by whoever called its Run first, and that Run may still be going on. Unlike
// FutureTask.Run it leaves runner set: the future is settled by now (Run completed it, or found
// it cancelled; a panic or Goexit was Caught), and a settled future's runner is never read, so
// the atomic store would be for nothing; only a Cancel(true) still interrupting is waited out.
func (s *submitted[T]) Ended() {
	if s.f.runner.Load() == &s.th && s.f.state.Load() == stInterrupting {
		s.f.afterRun()
	}
	s.e.taskComplete(&s.th, &s.f.at)
}

// submit is Submit to e, whose factory is one of package thread's virtual ones (e.fused), of a
// task that runs task and completes with its result.
func submit[T any](e *ThreadPerTaskExecutor, task func() (T, error)) (Future[T], error) {
	if e.IsShutdown() {
		return nil, e.rejected(nil)
	}
	s := &submitted[T]{}
	s.f.setTask(task)
	s.e = e
	rt.NewVirtual(e.factory, &s.th, s)
	if err := e.start(&s.th); err != nil {
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

// taskComplete takes t, whose task keeps 1 + its index at *at, out of the executor's list (if
// it is in it: *at != 0) and counts it out. The task's thread calls it once, at its end.
func (e *ThreadPerTaskExecutor) taskComplete(t *thread.Thread, at *int32) {
	i := shardIndex(t)
	sh := &e.shards[i]
	sh.mu.Lock()
	if j := *at - 1; j >= 0 {
		*at = 0
		sh.ts.Remove(j)
	}
	sh.mu.Unlock()
	e.countOut(i)
}

// countOut counts out a task of shard i that has ended, or was counted in and then rejected.
// The end that leaves the executor shut down and empty terminates it: an end looks at the
// shutdown flag after counting itself out, Shutdown sets the flag before it sums the counts,
// and Go's atomics are sequentially consistent, so at least one of them sees the other (both
// may: signal is idempotent).
func (e *ThreadPerTaskExecutor) countOut(i int64) {
	e.shards[i].ended.Add(1)
	if e.isShut.Load() && e.count() == 0 {
		e.terminated()
	}
}

// count returns the number of tasks started and not ended. A shard's ended count is read
// before its started count, so a task whose end is counted has its start counted too, and the
// sum is never below the number of running tasks.
func (e *ThreadPerTaskExecutor) count() int {
	var n int64
	for i := range e.shards {
		n -= e.shards[i].ended.Load()
		n += e.started[i].n.Load()
	}
	return int(n)
}

// Shutdown rejects new tasks from now on; tasks already started run to their end. See
// [ExecutorService.Shutdown].
func (e *ThreadPerTaskExecutor) Shutdown() {
	if !e.isShut.Swap(true) && e.count() == 0 {
		e.terminated()
	}
}

// ShutdownNow shuts down and interrupts the thread of every running task. It returns nil: a
// thread-per-task executor has no queued tasks (Java returns an empty list).
func (e *ThreadPerTaskExecutor) ShutdownNow() []func() {
	e.Shutdown()
	e.isNow.Store(true) // before the lists are read: see ThreadPerTaskExecutor
	var ts []*thread.Thread
	for i := range e.shards {
		sh := &e.shards[i]
		sh.mu.Lock()
		sh.ts.All(func(t *thread.Thread) bool {
			ts = append(ts, t)
			return true
		})
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
