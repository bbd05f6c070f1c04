package forkjoin

import (
	"fmt"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/loomgo/loom/executors"
	"github.com/loomgo/loom/internal/carrier"
	"github.com/loomgo/loom/internal/rt"
	"github.com/loomgo/loom/locks"
	"github.com/loomgo/loom/thread"
)

// The work-stealing pool.
//
// # Terms
//
//   - A worker is a platform thread of the pool (ForkJoinPool-N-worker-K) with a deque of its
//     own. It pushes the tasks it forks on its deque and takes them back LIFO (FIFO in async
//     mode); other workers steal from the other end, oldest first.
//   - A submission is a task given to the pool from outside (Execute, ExecuteTask, Invoke, or a
//     Fork on a thread that is not a worker, which goes to the common pool). Submissions wait
//     in one FIFO queue, guarded by the pool's mutex.
//   - A worker is idle when it found nothing to run: it is on the pool's idle stack, parked.
//     It is blocked while it waits in a join it could not help with, or in ManagedBlock.
//
// # How work moves
//
// A worker runs its own tasks first, then scans, from a random start, the other workers'
// deques and the submission queue, and runs what it steals. Every push (a fork, a submission)
// then signals work: it unparks an idle worker if there is one, else starts a new worker if
// fewer than parallelism workers are neither idle nor blocked (so a blocked worker is
// compensated by a spare, up to MaximumPoolSize). A worker that finds nothing pushes itself on
// the idle stack, scans once more, and parks; after KeepAlive without work it ends. A surplus
// worker (more unblocked workers than parallelism, once a blocked one resumes) ends as soon as
// it finds nothing to do.
//
// A joiner helps: if the task it joins is still on top of its own deque it runs it itself;
// otherwise it runs tasks from its own deque, then steals from the worker running the task (its
// subtasks are there), then from anyone, until the task is done. When nothing is left to help with
// it keeps looking, for the task to be done or for a task to steal, for a short while (spinWait,
// 50µs), and only then blocks, counted as blocked: a divide-and-conquer join usually waits for a
// task its peer is about to finish or to split further, and a blocked worker needs an OS-level
// wake of its thread to resume (the Go runtime hands the processor to the thread the goroutine is
// locked to: about 150µs median on a loaded 2-core machine while the waker goes on running,
// against a small task's 20µs). (fib(30) with a threshold of 20 on 2 workers: its joins blocked 5
// to 9 times per run without the spin, and never with it; forkjoin/wait-group time went from about
// 1.22 to 1.10.) Deep recursion therefore runs on the stacks of the workers there are, and never
// needs a thread per level.
//
// # Invariants
//
//   - Only a worker pushes on or pops from its deque; anyone steals. A task is taken from a
//     queue at most once (the deque's CAS on its base, the submission queue's mutex).
//   - idle, the idle stack and a worker's idle flag change together under the mutex.
//   - total counts started workers that have not deregistered; it only grows under the mutex.
//
// # Why nothing is lost
//
// A push makes its task visible (an atomic store in the deque, or the submission queue under
// the mutex) before it looks at idle; a worker going idle increments idle (under the mutex)
// before its last scan. With sequentially consistent atomics either the pusher sees the idle
// worker and unparks it, or the worker's last scan sees the task. The park permit covers an
// unpark that comes before the park. A worker that ends abnormally (a task called
// runtime.Goexit, or an Execute task panicked into its thread) moves the tasks left on its
// deque to the submission queue and signals work, so they still run.
//
// # Designs not taken
//
//   - Java's single 64-bit ctl word packing the counts and a Treiber stack of idle workers:
//     a few atomics and a mutex taken only when a worker goes idle or is woken are simpler, and
//     the mutex is not on the fork/join path.
//   - Spinning before an idle worker parks (Java's awaitWork scans again before it parks):
//     on fib(30) with a threshold of 20 on 2 workers, a 50µs scan-spin before going idle
//     never found a task (idle workers are those of a computation that is over or not yet
//     started), and it delayed the thread waiting for the result, since both workers held
//     the processors (their goroutines are locked to OS threads) while the caller's goroutine
//     waited for one. An idle worker parks at once: its wake-up is paid once per
//     computation, not once per join, and an idle pool uses no CPU.
//   - Signalling only when a push makes a deque non-empty (Java's signalWork condition): a
//     push already signals only if a worker is idle (one atomic load otherwise) or the pool
//     is short of workers, and wakes one worker, taken off the idle stack.
//   - Virtual threads as workers: Java's ForkJoinPool workers are platform threads, and the
//     pool's point is CPU parallelism; code that blocks inside tasks belongs on virtual threads
//     (executors.NewVirtualThreadPerTaskExecutor) or in ManagedBlock.

// MaxParallelism is the largest parallelism and pool size, as Java's MAX_CAP (32767).
const MaxParallelism = 0x7fff

// DefaultKeepAlive is how long a worker waits for work before it ends, as Java's default
// keep-alive of 60 seconds.
const DefaultKeepAlive = 60 * time.Second

// PoolOptions configure [NewPoolWithOptions]. The zero value gives Java's new ForkJoinPool().
type PoolOptions struct {
	// Parallelism is the number of workers the pool keeps busy; 0 means
	// [runtime.GOMAXPROCS](0), Java's availableProcessors.
	Parallelism int
	// AsyncMode makes every deque FIFO: forked tasks that are never joined (event-style tasks)
	// run in the order they were forked. Java's asyncMode.
	AsyncMode bool
	// UncaughtExceptionHandler receives a panic of a function given to Execute, with the worker
	// thread that ran it (without one, the panic ends the worker thread as an uncaught
	// exception). Java's handler argument.
	UncaughtExceptionHandler func(t *thread.Thread, panicValue any)
	// MaximumPoolSize caps the workers, spares included; 0 means Parallelism+256, as Java's
	// default.
	MaximumPoolSize int
	// KeepAlive is how long an idle worker waits for work before it ends; 0 means
	// [DefaultKeepAlive].
	KeepAlive time.Duration
}

// A Pool is a work-stealing pool of platform threads that runs fork-join tasks: Java's
// ForkJoinPool. Use [NewPool], [NewPoolWithOptions], [NewWorkStealingPool], or the shared
// [CommonPool]. A Pool is an [executors.ExecutorService], and is safe for concurrent use.
//
// Workers are started on demand, up to the parallelism (plus spares while workers block in
// joins or [ManagedBlock]), and end after KeepAlive without work, so an idle pool holds no
// thread. Shut down pools you make (Close, or Shutdown and AwaitTermination).
type Pool struct {
	number    int64 // 0 for the common pool
	prefix    string
	parallel  int
	maxSize   int
	async     bool
	keepAlive time.Duration
	ueh       func(*thread.Thread, any)
	common    bool

	workers atomic.Pointer[[]*worker] // a snapshot of slots for scanning; nil entries are free
	total   atomic.Int32              // workers started and not yet deregistered
	idle    atomic.Int32              // workers on the idle stack
	blocked atomic.Int32              // workers blocked in a join or ManagedBlock
	nSubs   atomic.Int32              // len(subs)
	steals  atomic.Int64              // steals of workers that have ended

	mu         sync.Mutex
	slots      []*worker // by pool index
	idleStack  []*worker
	subs       taskQueue
	nextName   int64
	shutdown   bool
	stopping   bool // ShutdownNow, or Shutdown reached quiescence: workers end
	terminated bool
	startErr   error // why the last worker could not start

	isShutdown atomic.Bool
	isStopping atomic.Bool
	termLatch  *locks.CountDownLatch
}

var _ executors.ExecutorService = (*Pool)(nil)

// NewPool returns a pool with the given parallelism and Java's defaults otherwise. It panics
// with [thread.ErrIllegalArgument] if parallelism is not in 1..MaxParallelism. It ports new
// ForkJoinPool(parallelism).
func NewPool(parallelism int) *Pool {
	if parallelism <= 0 || parallelism > MaxParallelism {
		panic(illegalArg("parallelism %d", parallelism))
	}
	return NewPoolWithOptions(PoolOptions{Parallelism: parallelism})
}

// NewWorkStealingPool returns a pool in async mode with the given parallelism: Java's
// Executors.newWorkStealingPool(parallelism). Java's no-argument form is
// NewWorkStealingPool([runtime.GOMAXPROCS](0)). It panics as [NewPool] does.
func NewWorkStealingPool(parallelism int) *Pool {
	if parallelism <= 0 || parallelism > MaxParallelism {
		panic(illegalArg("parallelism %d", parallelism))
	}
	return NewPoolWithOptions(PoolOptions{Parallelism: parallelism, AsyncMode: true})
}

// NewPoolWithOptions returns a pool configured by opts. It panics with
// [thread.ErrIllegalArgument] if Parallelism is negative or above [MaxParallelism], or
// MaximumPoolSize is below Parallelism. It ports the ForkJoinPool constructors with a factory,
// handler and asyncMode (and Java 9's maximumPoolSize and keepAliveTime).
func NewPoolWithOptions(opts PoolOptions) *Pool {
	p := newPool(opts)
	p.number = carrier.NextPoolNumber()
	p.prefix = "ForkJoinPool-" + strconv.FormatInt(p.number, 10) + "-worker-"
	return p
}

func newPool(opts PoolOptions) *Pool {
	if opts.Parallelism < 0 || opts.Parallelism > MaxParallelism {
		panic(illegalArg("parallelism %d", opts.Parallelism))
	}
	if opts.Parallelism == 0 {
		opts.Parallelism = min(runtime.GOMAXPROCS(0), MaxParallelism)
	}
	if opts.MaximumPoolSize == 0 {
		opts.MaximumPoolSize = min(opts.Parallelism+256, MaxParallelism)
	} else if opts.MaximumPoolSize < opts.Parallelism || opts.MaximumPoolSize > MaxParallelism {
		panic(illegalArg("maximum pool size %d", opts.MaximumPoolSize))
	}
	if opts.KeepAlive <= 0 {
		opts.KeepAlive = DefaultKeepAlive
	}
	p := &Pool{
		parallel:  opts.Parallelism,
		maxSize:   opts.MaximumPoolSize,
		async:     opts.AsyncMode,
		keepAlive: opts.KeepAlive,
		ueh:       opts.UncaughtExceptionHandler,
		termLatch: locks.NewCountDownLatch(1),
	}
	p.workers.Store(new([]*worker))
	return p
}

func illegalArg(format string, args ...any) error {
	return fmt.Errorf("%w: forkjoin: "+format, append([]any{thread.ErrIllegalArgument}, args...)...)
}

// Execute runs task on the pool, as ExecutorService.execute: it returns an error wrapping
// [executors.ErrRejected] if the pool is shut down or cannot start a worker. A panic in task is
// an uncaught exception, as with Java's ForkJoinPool.execute(Runnable): it goes to
// [PoolOptions.UncaughtExceptionHandler], and the worker goes on; without one, the worker thread
// ends with it ([thread.SetDefaultUncaughtExceptionHandler]'s handler, or the "Exception in
// thread" report) and the pool starts another when work is queued. It panics with
// [thread.ErrNilArgument] if task is nil.
func (p *Pool) Execute(task func()) error {
	if task == nil {
		panic(nilArg("task"))
	}
	t := NewTask(func(*Task[struct{}]) bool { task(); return true })
	t.kind = kindExecute
	return p.submit(&t.task)
}

// ExecuteTask arranges for t to run on the pool; its outcome is then had from t (Join, Get).
// It returns an error wrapping [executors.ErrRejected] if the pool is shut down or cannot start
// a worker. It panics with [thread.ErrNilArgument] if t is nil. It ports
// ForkJoinPool.execute(ForkJoinTask) and submit(ForkJoinTask) (which returns the task itself).
func (p *Pool) ExecuteTask(t AnyTask) error {
	if t == nil {
		panic(nilArg("task"))
	}
	return p.submit(t.base())
}

// Invoke runs t on p and waits for its outcome, as Join does; it returns an error wrapping
// [executors.ErrRejected] if p refuses t. Called from a worker of p, it pushes t on the worker's
// own deque and joins it (usually running it at once). It ports ForkJoinPool.invoke.
func Invoke[T any](p *Pool, t *Task[T]) (T, error) {
	if t == nil {
		panic(nilArg("task"))
	}
	if err := p.submit(&t.task); err != nil {
		var zero T
		return zero, err
	}
	return t.Join()
}

// submit queues t: on the current worker's deque if it belongs to p, else as a submission.
func (p *Pool) submit(t *task) error {
	if w := currentWorker(); w != nil && w.pool == p {
		w.push(t)
		return nil
	}
	return p.externalPush(t)
}

// externalPush queues t as a submission and makes sure a worker will take it.
func (p *Pool) externalPush(t *task) error {
	p.mu.Lock()
	if p.shutdown {
		p.mu.Unlock()
		return fmt.Errorf("%w: %v is shut down", executors.ErrRejected, p)
	}
	p.subs.push(t)
	p.nSubs.Add(1)
	p.mu.Unlock()
	p.signalWork()
	if p.total.Load() == 0 {
		// No worker could be started: take the task back if nobody else has.
		p.mu.Lock()
		removed := p.subs.remove(t)
		err := p.startErr
		if removed {
			p.nSubs.Add(-1)
		}
		p.mu.Unlock()
		if removed {
			return fmt.Errorf("%w: %w", executors.ErrRejected, err)
		}
	}
	return nil
}

// signalWork makes sure a worker will look for the task just pushed: it wakes an idle worker,
// or starts one if fewer than parallelism workers are neither idle nor blocked.
func (p *Pool) signalWork() {
	if p.idle.Load() > 0 {
		p.mu.Lock()
		if n := len(p.idleStack); n > 0 {
			w := p.idleStack[n-1]
			p.idleStack = p.idleStack[:n-1]
			w.idle = false
			p.idle.Add(-1)
			p.mu.Unlock()
			rt.Unpark(w.th, rt.ParkWaiting)
			return
		}
		p.mu.Unlock()
	}
	if int(p.total.Load()-p.blocked.Load()) < p.parallel {
		p.tryAddWorker()
	}
}

// tryAddWorker starts a worker if the pool is still short of one.
func (p *Pool) tryAddWorker() {
	p.mu.Lock()
	if p.stopping || int(p.total.Load()-p.blocked.Load()) >= p.parallel || int(p.total.Load()) >= p.maxSize {
		p.mu.Unlock()
		return
	}
	w := &worker{pool: p, seed: uint64(time.Now().UnixNano()) | 1}
	p.nextName++
	b := thread.OfPlatform().Name(p.prefix + strconv.FormatInt(p.nextName, 10)).Daemon(true)
	if p.ueh != nil {
		b.UncaughtExceptionHandler(p.ueh)
	}
	w.th = b.Unstarted(w.run) // before w is published: readers of the slots use w.th
	rt.DataOf(w.th).Worker = w
	w.index = p.freeSlot()
	p.slots[w.index] = w
	p.publishSlots()
	p.total.Add(1)
	p.mu.Unlock()

	if err := w.th.TryStart(); err != nil {
		p.mu.Lock()
		p.startErr = err
		p.mu.Unlock()
		p.deregister(w, false)
	}
}

// freeSlot returns the lowest free pool index, growing the slots. Needs p.mu.
func (p *Pool) freeSlot() int {
	for i, w := range p.slots {
		if w == nil {
			return i
		}
	}
	p.slots = append(p.slots, nil)
	return len(p.slots) - 1
}

// publishSlots publishes a copy of the slots for lock-free scans. Needs p.mu.
func (p *Pool) publishSlots() {
	s := make([]*worker, len(p.slots))
	copy(s, p.slots)
	p.workers.Store(&s)
}

// deregister is the end of worker w's thread (or of its failed start). Tasks left on its deque
// (a worker ended by runtime.Goexit, or by a panic of an Execute task) are moved to the
// submission queue, so they still run.
func (p *Pool) deregister(w *worker, normalExit bool) {
	var left []*task
	if !normalExit {
		for t := w.q.poll(); t != nil; t = w.q.poll() {
			left = append(left, t)
		}
	}
	p.mu.Lock()
	for _, t := range left {
		if p.stopping {
			t.Cancel(false)
			continue
		}
		p.subs.push(t)
		p.nSubs.Add(1)
	}
	if !w.retired {
		p.retire(w)
	}
	p.mu.Unlock()
	if !normalExit && p.hasQueuedWork() {
		p.signalWork()
	}
}

// retire counts w out of the pool. Needs p.mu.
func (p *Pool) retire(w *worker) {
	if w.idle {
		p.removeIdle(w)
	}
	w.retired = true
	p.slots[w.index] = nil
	p.publishSlots()
	p.steals.Add(w.steals.Load())
	w.steals.Store(0)
	p.total.Add(-1)
	p.stopIfQuiescent()
	p.tryTerminate()
}

// stopIfQuiescent stops a shut-down pool whose every worker is idle, with nothing queued (an
// idle worker's deque is empty, and submissions are refused): it wakes them all to end. It is
// checked whenever a worker goes idle or ends. Needs p.mu.
func (p *Pool) stopIfQuiescent() bool {
	if !p.shutdown || p.stopping || len(p.idleStack) != int(p.total.Load()) || p.subs.len() != 0 {
		return false
	}
	p.stopping = true
	p.isStopping.Store(true)
	for _, w := range p.takeIdle() {
		rt.Unpark(w.th, rt.ParkWaiting)
	}
	return true
}

// removeIdle takes w off the idle stack. Needs p.mu.
func (p *Pool) removeIdle(w *worker) {
	for i, x := range p.idleStack {
		if x == w {
			p.idleStack = append(p.idleStack[:i], p.idleStack[i+1:]...)
			break
		}
	}
	w.idle = false
	p.idle.Add(-1)
}

// tryTerminate records termination once the pool is shut down and every worker has ended
// with nothing left queued. Needs p.mu.
func (p *Pool) tryTerminate() {
	if p.terminated || !p.shutdown || p.total.Load() != 0 || (p.subs.len() != 0 && !p.stopping) {
		return
	}
	p.terminated = true
	p.stopping = true
	p.isStopping.Store(true)
	p.termLatch.CountDown()
}

// hasQueuedWork reports whether a submission or a task on some deque is waiting.
func (p *Pool) hasQueuedWork() bool {
	if p.nSubs.Load() > 0 {
		return true
	}
	for _, w := range *p.workers.Load() {
		if w != nil && w.q.size() > 0 {
			return true
		}
	}
	return false
}

// beginBlock and endBlock bracket a worker's blocking wait (a join it could not help with,
// ManagedBlock): while it is blocked the pool may start a spare worker for queued work.
func (p *Pool) beginBlock() {
	p.blocked.Add(1)
	if p.hasQueuedWork() {
		p.signalWork()
	}
}

func (p *Pool) endBlock() { p.blocked.Add(-1) }

// Shutdown starts an orderly shutdown: tasks already submitted run (and the tasks they fork),
// new submissions are rejected, and the workers end once the pool is quiescent. It does not
// wait. It has no effect on the common pool. It ports ForkJoinPool.shutdown().
func (p *Pool) Shutdown() {
	if p.common {
		return
	}
	p.mu.Lock()
	p.shutdown = true
	p.isShutdown.Store(true)
	p.tryTerminate()
	idle := p.takeIdle()
	p.mu.Unlock()
	for _, w := range idle {
		rt.Unpark(w.th, rt.ParkWaiting) // let them see the shutdown
	}
}

// takeIdle empties the idle stack, returning the workers it held. Needs p.mu.
func (p *Pool) takeIdle() []*worker {
	idle := p.idleStack
	for _, w := range idle {
		w.idle = false
	}
	p.idle.Add(-int32(len(idle)))
	p.idleStack = nil
	return idle
}

// ShutdownNow shuts down, cancels every queued task and interrupts the workers, so that
// running tasks may stop early. It always returns an empty list, as Java's does: cancelled
// tasks complete (as cancelled) rather than being handed back. It has no effect on the common
// pool. It ports ForkJoinPool.shutdownNow().
func (p *Pool) ShutdownNow() []func() {
	if p.common {
		return nil
	}
	p.mu.Lock()
	p.shutdown = true
	p.isShutdown.Store(true)
	p.stopping = true
	p.isStopping.Store(true)
	var subs []*task
	for t := p.subs.pop(); t != nil; t = p.subs.pop() {
		subs = append(subs, t)
	}
	p.nSubs.Store(0)
	ws := append([]*worker(nil), p.slots...)
	p.takeIdle()
	p.tryTerminate()
	p.mu.Unlock()
	for _, t := range subs {
		t.Cancel(false)
	}
	for _, w := range ws {
		if w == nil {
			continue
		}
		for t := w.q.poll(); t != nil; t = w.q.poll() {
			t.Cancel(false)
		}
		w.th.Interrupt()
	}
	return nil
}

// IsShutdown reports whether Shutdown or ShutdownNow was called (always false for the common
// pool). It ports ForkJoinPool.isShutdown().
func (p *Pool) IsShutdown() bool { return p.isShutdown.Load() }

// IsTerminated reports whether the pool was shut down and every task and worker has ended. It
// ports ForkJoinPool.isTerminated().
func (p *Pool) IsTerminated() bool { return p.termLatch.Count() == 0 }

// IsTerminating reports whether the pool is shut down but not yet terminated. It ports
// ForkJoinPool.isTerminating().
func (p *Pool) IsTerminating() bool { return p.IsShutdown() && !p.IsTerminated() }

// AwaitTermination waits until the pool has terminated after a shutdown, or d has elapsed,
// and reports whether it terminated; d <= 0 only looks. It returns [thread.ErrInterrupted]
// (status cleared) if the calling thread is interrupted while it waits. A virtual thread
// unmounts while it waits. On the common pool, which never terminates, it is
// AwaitQuiescence(d) and reports false, as in Java. It ports ForkJoinPool.awaitTermination.
func (p *Pool) AwaitTermination(d time.Duration) (bool, error) {
	if p.common {
		p.AwaitQuiescence(d)
		return false, nil
	}
	if p.IsTerminated() {
		return true, nil
	}
	if d <= 0 {
		return false, nil
	}
	return p.termLatch.AwaitTimeout(d)
}

// Close shuts the pool down and waits for it to terminate, as Java 19's ForkJoinPool.close():
// if the calling thread is interrupted while it waits, it calls ShutdownNow, waits on, and
// returns with the interrupt status set. It has no effect on the common pool. It returns nil.
func (p *Pool) Close() error {
	if p.common || p.IsTerminated() {
		return nil
	}
	p.Shutdown()
	interrupted := false
	for {
		ok, err := p.AwaitTermination(24 * time.Hour)
		if ok {
			break
		}
		if err != nil && !interrupted {
			p.ShutdownNow()
			interrupted = true
		}
	}
	if interrupted {
		thread.Current().Interrupt()
	}
	return nil
}

// AwaitQuiescence waits until the pool is quiescent (no worker is running a task and nothing
// is queued) or d has elapsed, and reports whether it is. Called from a worker of the pool it
// helps as [HelpQuiesce] does. It polls with short parks: a virtual thread unmounts meanwhile. It
// ports ForkJoinPool.awaitQuiescence.
func (p *Pool) AwaitQuiescence(d time.Duration) bool {
	if w := currentWorker(); w != nil && w.pool == p {
		return w.helpQuiesce(d)
	}
	deadline := deadlineAfter(d)
	for backoff := time.Microsecond; ; backoff = min(2*backoff, time.Millisecond) {
		if p.IsQuiescent() {
			return true
		}
		left := time.Until(deadline)
		if left <= 0 {
			return false
		}
		rt.Park(min(backoff, left), rt.ParkWaiting, p)
	}
}

// deadlineAfter returns now+d, saturating for very long d.
func deadlineAfter(d time.Duration) time.Time {
	now := time.Now()
	if t := now.Add(d); d <= 0 || !t.Before(now) {
		return t
	}
	return now.Add(forever)
}

// Parallelism returns the pool's target parallelism. It ports ForkJoinPool.getParallelism().
func (p *Pool) Parallelism() int { return p.parallel }

// AsyncMode reports whether the pool's deques are FIFO. It ports ForkJoinPool.getAsyncMode().
func (p *Pool) AsyncMode() bool { return p.async }

// UncaughtExceptionHandler returns the handler the pool was made with (nil: the default). It
// ports ForkJoinPool.getUncaughtExceptionHandler().
func (p *Pool) UncaughtExceptionHandler() func(*thread.Thread, any) { return p.ueh }

// PoolSize returns the number of workers started and not yet ended. It ports
// ForkJoinPool.getPoolSize().
func (p *Pool) PoolSize() int { return int(p.total.Load()) }

// ActiveThreadCount returns the number of workers running or looking for tasks (not idle, not
// blocked in a join or [ManagedBlock]): an estimate. It ports ForkJoinPool.getActiveThreadCount().
func (p *Pool) ActiveThreadCount() int {
	return max(int(p.total.Load()-p.idle.Load()-p.blocked.Load()), 0)
}

// RunningThreadCount returns the number of workers that are not idle and not waiting (in a
// join, [ManagedBlock], or any blocking call of a task): an estimate. It ports
// ForkJoinPool.getRunningThreadCount().
func (p *Pool) RunningThreadCount() int {
	n := 0
	for _, w := range *p.workers.Load() {
		if w != nil && w.th.State() == thread.Runnable && !w.parked.Load() {
			n++
		}
	}
	return n
}

// StealCount returns the total number of tasks workers took from queues other than their own
// (other workers' deques and the submission queue): an estimate. It ports
// ForkJoinPool.getStealCount().
func (p *Pool) StealCount() int64 {
	n := p.steals.Load()
	for _, w := range *p.workers.Load() {
		if w != nil {
			n += w.steals.Load()
		}
	}
	return n
}

// QueuedTaskCount returns the number of tasks waiting on the workers' deques (not counting
// submissions): an estimate. It ports ForkJoinPool.getQueuedTaskCount().
func (p *Pool) QueuedTaskCount() int64 {
	var n int64
	for _, w := range *p.workers.Load() {
		if w != nil {
			n += int64(w.q.size())
		}
	}
	return n
}

// QueuedSubmissionCount returns the number of submissions not yet taken by a worker. It ports
// ForkJoinPool.getQueuedSubmissionCount().
func (p *Pool) QueuedSubmissionCount() int { return int(p.nSubs.Load()) }

// HasQueuedSubmissions reports whether any submission is waiting. It ports
// ForkJoinPool.hasQueuedSubmissions().
func (p *Pool) HasQueuedSubmissions() bool { return p.nSubs.Load() > 0 }

// IsQuiescent reports whether no worker is running a task and no task is queued. It ports
// ForkJoinPool.isQuiescent().
func (p *Pool) IsQuiescent() bool {
	return p.total.Load()-p.idle.Load() == 0 && !p.hasQueuedWork()
}

// PollSubmission removes and returns the oldest submission not yet taken, or nil. It ports
// ForkJoinPool.pollSubmission().
func (p *Pool) PollSubmission() AnyTask {
	if t := p.pollSubmission(); t != nil {
		return t.self
	}
	return nil
}

func (p *Pool) pollSubmission() *task {
	if p.nSubs.Load() == 0 {
		return nil
	}
	p.mu.Lock()
	t := p.subs.pop()
	if t != nil {
		p.nSubs.Add(-1)
	}
	p.mu.Unlock()
	return t
}

// DrainTasksTo removes every task not yet taken (submissions, then the workers' deques) and
// appends them to dst, returning the extended slice. It ports ForkJoinPool.drainTasksTo.
func (p *Pool) DrainTasksTo(dst []AnyTask) []AnyTask {
	for t := p.pollSubmission(); t != nil; t = p.pollSubmission() {
		dst = append(dst, t.self)
	}
	for _, w := range *p.workers.Load() {
		if w == nil {
			continue
		}
		for t := w.q.poll(); t != nil; t = w.q.poll() {
			dst = append(dst, t.self)
		}
	}
	return dst
}

// String returns Java's summary, e.g. "ForkJoinPool@<addr>[Running, parallelism = 2, size =
// 0, active = 0, running = 0, steals = 0, tasks = 0, submissions = 0]".
func (p *Pool) String() string {
	level := "Running"
	switch {
	case p.IsTerminated():
		level = "Terminated"
	case p.IsShutdown():
		level = "Shutting down"
	}
	return fmt.Sprintf("ForkJoinPool@%p[%s, parallelism = %d, size = %d, active = %d, running = %d, steals = %d, tasks = %d, submissions = %d]",
		p, level, p.parallel, p.PoolSize(), p.ActiveThreadCount(), p.RunningThreadCount(), p.StealCount(), p.QueuedTaskCount(), p.QueuedSubmissionCount())
}

// taskQueue is a FIFO ring of tasks: the submission queue. Guarded by the pool's mutex.
type taskQueue struct {
	buf        []*task
	head, size int
}

func (q *taskQueue) len() int { return q.size }

func (q *taskQueue) push(t *task) {
	if q.size == len(q.buf) {
		buf := make([]*task, max(2*len(q.buf), 16))
		for i := range q.size {
			buf[i] = q.buf[(q.head+i)%len(q.buf)]
		}
		q.buf, q.head = buf, 0
	}
	q.buf[(q.head+q.size)%len(q.buf)] = t
	q.size++
}

func (q *taskQueue) pop() *task {
	if q.size == 0 {
		return nil
	}
	t := q.buf[q.head]
	q.buf[q.head] = nil
	q.head = (q.head + 1) % len(q.buf)
	q.size--
	return t
}

// remove takes t out of the queue if it is there.
func (q *taskQueue) remove(t *task) bool {
	for i := range q.size {
		if q.buf[(q.head+i)%len(q.buf)] != t {
			continue
		}
		for j := i; j < q.size-1; j++ {
			q.buf[(q.head+j)%len(q.buf)] = q.buf[(q.head+j+1)%len(q.buf)]
		}
		q.buf[(q.head+q.size-1)%len(q.buf)] = nil
		q.size--
		return true
	}
	return false
}
