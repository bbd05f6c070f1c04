package executors

import (
	"fmt"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/loomgo/loom/locks"
	"github.com/loomgo/loom/queue"
	"github.com/loomgo/loom/thread"
)

// The run states of a ThreadPoolExecutor, in the order they advance (Java's RUNNING, SHUTDOWN,
// STOP, TIDYING, TERMINATED).
const (
	rsRunning int32 = iota
	rsShutdown
	rsStop
	rsTidying
	rsTerminated
)

// ThreadPoolExecutor runs each task on one of a pool of worker threads, as
// java.util.concurrent.ThreadPoolExecutor. Make one with [NewThreadPoolExecutor], or use
// [NewFixedThreadPool], [NewCachedThreadPool] and [NewSingleThreadExecutor]; it must not be copied.
//
// Execute follows Java's policy: while fewer than the core pool size of workers exist, a new
// worker is started for the task; otherwise the task is offered to the work queue; if the queue
// refuses it, a new worker is started up to the maximum pool size; otherwise the task is handed
// to the rejection handler ([AbortPolicy] by default). Workers beyond the core size (or all of
// them, with AllowCoreThreadTimeOut) end after waiting KeepAliveTime for a task. A worker whose
// task panics ends (the panic is its thread's uncaught exception) and is replaced.
//
// The pool's bookkeeping is guarded by one lock, held only for short sections (never while a
// task runs or a worker waits for one), where Java uses a CAS-updated control word plus a
// mainLock: one lock is simpler, and it makes "shutdown has not started" and "the task is
// queued" one atomic step, so a task can never be left in the queue of a terminated pool (Java
// removes it again, which needs comparable tasks; Go's func values are not). The lock is a
// [locks.ReentrantLock], not a [sync.Mutex], because the queue's Offer runs under it and may park on
// the queue's own lock: a thread waiting for the pool's lock must then unmount too, or
// virtual threads spinning in [sync.Mutex.Lock] could hold every carrier while the parked holder
// waits for one.
type ThreadPoolExecutor struct {
	_ noCopy

	mu               locks.ReentrantLock // Java's mainLock; see the type's comment
	state            atomic.Int32        // rs*, written under mu
	wc               int                 // workers reserved or alive, as Java's workerCount
	workers          map[*worker]struct{}
	core, max        int
	keepAlive        time.Duration
	allowCoreTimeOut bool
	workQueue        queue.BlockingQueue[func()]
	factory          thread.Factory
	handler          RejectedExecutionHandler
	before           func(t *thread.Thread, task func())
	after            func(task func(), err error)
	terminatedHook   func()
	onShutdown       func() // called under mu by Shutdown (ScheduledThreadPoolExecutor)
	largest          int
	completed        int64 // tasks completed by workers that have ended
	term             termination
	name             string // for String: "ThreadPoolExecutor", "ScheduledThreadPoolExecutor"
}

// RejectedExecutionHandler decides what happens to a task that a [ThreadPoolExecutor] cannot take
// (it is shut down, or its queue is full and it has its maximum number of workers); Execute
// returns what it returns. It ports java.util.concurrent.RejectedExecutionHandler. The policies
// [AbortPolicy], [CallerRunsPolicy], [DiscardPolicy] and [DiscardOldestPolicy] are handlers.
type RejectedExecutionHandler func(task func(), e *ThreadPoolExecutor) error

// AbortPolicy rejects the task with an error wrapping [ErrRejected] that names the executor. It is
// the default handler. It ports ThreadPoolExecutor.AbortPolicy.
func AbortPolicy(task func(), e *ThreadPoolExecutor) error {
	return fmt.Errorf("%w from %v", ErrRejected, e)
}

// CallerRunsPolicy runs the task on the thread that called Execute, unless the executor is shut
// down (then the task is dropped). It slows submitters down to the pool's pace. It ports
// ThreadPoolExecutor.CallerRunsPolicy.
func CallerRunsPolicy(task func(), e *ThreadPoolExecutor) error {
	if !e.IsShutdown() {
		task()
	}
	return nil
}

// DiscardPolicy silently drops the task. It ports ThreadPoolExecutor.DiscardPolicy.
func DiscardPolicy(task func(), e *ThreadPoolExecutor) error { return nil }

// DiscardOldestPolicy drops the oldest queued task and submits this one again, unless the
// executor is shut down (then the task is dropped). It ports
// ThreadPoolExecutor.DiscardOldestPolicy.
func DiscardOldestPolicy(task func(), e *ThreadPoolExecutor) error {
	if !e.IsShutdown() {
		e.workQueue.Poll()
		return e.Execute(task)
	}
	return nil
}

// PoolOption configures a [ThreadPoolExecutor] made by [NewThreadPoolExecutor].
type PoolOption func(*poolOptions)

type poolOptions struct {
	factory    thread.Factory
	handler    RejectedExecutionHandler
	before     func(t *thread.Thread, task func())
	after      func(task func(), err error)
	terminated func()
}

// WithThreadFactory makes the pool create its workers with f (default: [DefaultThreadFactory]()).
// A nil f panics with an error wrapping [thread.ErrNilArgument].
func WithThreadFactory(f thread.Factory) PoolOption {
	if f == nil {
		panic(nilArg("thread factory"))
	}
	return func(o *poolOptions) { o.factory = f }
}

// WithRejectionHandler sets the handler for tasks the pool cannot take (default: [AbortPolicy]). A
// nil h panics with an error wrapping [thread.ErrNilArgument].
func WithRejectionHandler(h RejectedExecutionHandler) PoolOption {
	if h == nil {
		panic(nilArg("rejection handler"))
	}
	return func(o *poolOptions) { o.handler = h }
}

// WithBeforeExecute sets a hook called on the worker thread t before it runs each task (Java's
// protected beforeExecute). If the hook panics the task does not run and the worker ends.
func WithBeforeExecute(fn func(t *thread.Thread, task func())) PoolOption {
	return func(o *poolOptions) { o.before = fn }
}

// WithAfterExecute sets a hook called on the worker thread after each task (Java's protected
// afterExecute): err is nil if the task returned, a *PanicError if it panicked (the panic then
// goes on to end the worker), [ErrGoexit] if it called [runtime.Goexit]. Tasks submitted with Submit
// never panic: their failure is in their Future.
func WithAfterExecute(fn func(task func(), err error)) PoolOption {
	return func(o *poolOptions) { o.after = fn }
}

// WithTerminated sets a hook called once when the pool has terminated, before AwaitTermination
// returns true (Java's protected terminated()).
func WithTerminated(fn func()) PoolOption {
	return func(o *poolOptions) { o.terminated = fn }
}

// NewThreadPoolExecutor returns a pool that keeps core workers (started on demand), grows to max
// workers when workQueue refuses a task (any [queue.BlockingQueue] of tasks: a LinkedBlockingQueue
// for an unbounded backlog, an ArrayBlockingQueue to bound it, a SynchronousQueue for direct
// hand-off, a PriorityBlockingQueue, ...), and lets workers beyond core end after keepAlive without a
// task. It panics with an error wrapping [thread.ErrIllegalArgument] if core < 0, max <= 0,
// max < core or keepAlive < 0, and with one wrapping [thread.ErrNilArgument] if queue is nil. It
// ports new [ThreadPoolExecutor](core, max, keepAlive, unit, queue, factory, handler).
func NewThreadPoolExecutor(core, max int, keepAlive time.Duration, workQueue queue.BlockingQueue[func()], opts ...PoolOption) *ThreadPoolExecutor {
	if core < 0 || max <= 0 || max < core || keepAlive < 0 {
		panic(illegalArg("core %d, max %d, keep-alive %v", core, max, keepAlive))
	}
	if workQueue == nil {
		panic(nilArg("work queue"))
	}
	var o poolOptions
	for _, opt := range opts {
		opt(&o)
	}
	if o.factory == nil {
		o.factory = DefaultThreadFactory()
	}
	if o.handler == nil {
		o.handler = AbortPolicy
	}
	return &ThreadPoolExecutor{
		term:           newTermination(),
		workers:        make(map[*worker]struct{}),
		core:           core,
		max:            max,
		keepAlive:      keepAlive,
		workQueue:      workQueue,
		factory:        o.factory,
		handler:        o.handler,
		before:         o.before,
		after:          o.after,
		terminatedHook: o.terminated,
		name:           "ThreadPoolExecutor",
	}
}

// worker is a pool thread and the task it was started with. Its mutex is held while it runs a
// task, so the pool can tell idle workers (which Shutdown interrupts) from busy ones (which it
// leaves alone), as Java's Worker does with its own AQS lock.
type worker struct {
	mu        sync.Mutex
	e         *ThreadPoolExecutor
	t         *thread.Thread
	first     func()
	started   atomic.Bool
	completed atomic.Int64
}

func (e *ThreadPoolExecutor) runState() int32 { return e.state.Load() }

// advance moves the run state forward to at least rs; the caller holds mu.
func (e *ThreadPoolExecutor) advance(rs int32) {
	if e.state.Load() < rs {
		e.state.Store(rs)
	}
}

// Execute runs task on a worker at some time in the future; see the type's comment for the
// policy. It returns what the rejection handler returns if the pool cannot take the task, and an
// error wrapping both [ErrRejected] and the thread's error ([thread.ErrThreadLimit] for a platform
// thread past the limit) if a worker needed for it could not be started. A nil task panics with
// an error wrapping [thread.ErrNilArgument]. It ports ThreadPoolExecutor.execute.
func (e *ThreadPoolExecutor) Execute(task func()) error {
	if task == nil {
		panic(nilArg("task"))
	}
	e.mu.Lock()
	if e.runState() == rsRunning && e.wc < e.core {
		e.wc++
		e.mu.Unlock()
		ok, err := e.startWorker(task)
		if ok {
			return nil
		}
		if err != nil {
			return e.rejectedBy(err)
		}
		e.mu.Lock()
	}
	if e.runState() == rsRunning && e.workQueue.Offer(task) {
		if e.wc == 0 {
			e.wc++
			e.mu.Unlock()
			e.startWorker(nil)
			return nil
		}
		e.mu.Unlock()
		return nil
	}
	if e.runState() == rsRunning && e.wc < e.max {
		e.wc++
		e.mu.Unlock()
		ok, err := e.startWorker(task)
		if ok {
			return nil
		}
		if err != nil {
			return e.rejectedBy(err)
		}
		return e.reject(task)
	}
	e.mu.Unlock()
	return e.reject(task)
}

func (e *ThreadPoolExecutor) reject(task func()) error {
	e.mu.Lock()
	h := e.handler
	e.mu.Unlock()
	return h(task, e)
}

func (e *ThreadPoolExecutor) rejectedBy(cause error) error {
	return fmt.Errorf("%w from %v: %w", ErrRejected, e, cause)
}

// startWorker creates and starts a worker whose slot in wc the caller has reserved. It reports
// false, with the thread's start error if that is why, when no worker was started; the
// reservation is then released.
func (e *ThreadPoolExecutor) startWorker(first func()) (bool, error) {
	w := &worker{e: e, first: first}
	e.mu.Lock()
	f := e.factory
	e.mu.Unlock()
	t := e.newThread(f, w)
	if t == nil {
		e.addWorkerFailed(nil)
		return false, nil
	}
	w.t = t
	e.mu.Lock()
	rs := e.runState()
	if rs != rsRunning && !(rs == rsShutdown && first == nil) {
		e.mu.Unlock()
		e.addWorkerFailed(nil)
		return false, nil
	}
	e.workers[w] = struct{}{}
	if n := len(e.workers); n > e.largest {
		e.largest = n
	}
	e.mu.Unlock()
	if err := t.TryStart(); err != nil {
		e.addWorkerFailed(w)
		return false, err
	}
	return true, nil
}

// newThread asks f for w's thread. If f panics, the reservation is released before the panic
// goes on to the caller of Execute (as Java's addWorker does in its finally block).
func (e *ThreadPoolExecutor) newThread(f thread.Factory, w *worker) *thread.Thread {
	ok := false
	defer func() {
		if !ok {
			e.addWorkerFailed(nil)
		}
	}()
	t := f.NewThread(w.run)
	ok = true
	return t
}

func (e *ThreadPoolExecutor) addWorkerFailed(w *worker) {
	e.mu.Lock()
	if w != nil {
		delete(e.workers, w)
	}
	e.wc--
	e.mu.Unlock()
	e.tryTerminate()
}

// addWorker reserves a slot (below the core or the maximum size) and starts a worker.
func (e *ThreadPoolExecutor) addWorker(first func(), core bool) (bool, error) {
	e.mu.Lock()
	rs := e.runState()
	if rs >= rsStop || (rs == rsShutdown && (first != nil || e.workQueue.Len() == 0)) {
		e.mu.Unlock()
		return false, nil
	}
	limit := e.max
	if core {
		limit = e.core
	}
	if e.wc >= limit {
		e.mu.Unlock()
		return false, nil
	}
	e.wc++
	e.mu.Unlock()
	return e.startWorker(first)
}

func (w *worker) run() {
	w.started.Store(true)
	w.e.runWorker(w)
}

// runWorker is a worker's life: run the first task, then tasks from the queue, until getTask
// says the worker is no longer needed.
func (e *ThreadPoolExecutor) runWorker(w *worker) {
	me := w.t
	task := w.first
	w.first = nil
	abrupt := true
	defer func() { e.processWorkerExit(w, abrupt) }()
	for task != nil || e.getTaskInto(&task) {
		w.mu.Lock()
		// A stopping pool's tasks run interrupted; otherwise drop an interrupt left over from an
		// idle-worker interrupt or a Cancel(true) that raced the previous task's end. Check the
		// state again after clearing, in case ShutdownNow ran in between.
		if e.runState() >= rsStop {
			if !me.IsInterrupted() {
				me.Interrupt()
			}
		} else if thread.Interrupted() && e.runState() >= rsStop {
			me.Interrupt()
		}
		e.runTask(w, task)
		task = nil
	}
	abrupt = false
}

func (e *ThreadPoolExecutor) runTask(w *worker, task func()) {
	defer func() {
		w.completed.Add(1)
		w.mu.Unlock()
	}()
	if e.before != nil {
		e.before(w.t, task)
	}
	if e.after == nil {
		task()
		return
	}
	normal := false
	defer func() {
		if normal {
			e.after(task, nil)
			return
		}
		r := recover()
		if r == nil { // runtime.Goexit: let it go on
			e.after(task, ErrGoexit)
			return
		}
		e.after(task, &PanicError{Value: r, Stack: debug.Stack()})
		panic(r)
	}()
	task()
	normal = true
}

func (e *ThreadPoolExecutor) getTaskInto(task *func()) bool {
	*task = e.getTask()
	return *task != nil
}

// getTask waits for the next task; it returns nil, having removed this worker from the count,
// when the worker should end: the pool is stopping, or shut down with an empty queue, or there
// are more workers than allowed, or this one timed out while not needed.
func (e *ThreadPoolExecutor) getTask() func() {
	timedOut := false
	for {
		e.mu.Lock()
		rs := e.runState()
		if rs >= rsStop || (rs >= rsShutdown && e.workQueue.Len() == 0) {
			e.wc--
			e.mu.Unlock()
			return nil
		}
		timed := e.allowCoreTimeOut || e.wc > e.core
		if (e.wc > e.max || (timed && timedOut)) && (e.wc > 1 || e.workQueue.Len() == 0) {
			e.wc--
			e.mu.Unlock()
			return nil
		}
		keep := e.keepAlive
		e.mu.Unlock()
		var task func()
		var ok bool
		var err error
		if timed {
			task, ok, err = e.workQueue.PollTimeout(keep)
		} else {
			task, err = e.workQueue.Take()
			ok = err == nil
		}
		if ok && task != nil {
			return task
		}
		timedOut = err == nil // an interrupt is not a time-out: look at the state again
	}
}

func (e *ThreadPoolExecutor) processWorkerExit(w *worker, abrupt bool) {
	e.mu.Lock()
	if abrupt {
		e.wc--
	}
	e.completed += w.completed.Load()
	delete(e.workers, w)
	e.mu.Unlock()

	e.tryTerminate()

	e.mu.Lock()
	if e.runState() >= rsStop {
		e.mu.Unlock()
		return
	}
	if !abrupt {
		min := e.core
		if e.allowCoreTimeOut {
			min = 0
		}
		if min == 0 && e.workQueue.Len() > 0 {
			min = 1
		}
		if e.wc >= min {
			e.mu.Unlock()
			return
		}
	}
	e.mu.Unlock()
	e.addWorker(nil, false)
}

// tryTerminate moves a shut-down pool with no workers and no queued task to TERMINATED, running
// the terminated hook and waking AwaitTermination. If workers remain, it interrupts one idle
// worker so the news of the shutdown propagates from worker to worker.
func (e *ThreadPoolExecutor) tryTerminate() {
	e.mu.Lock()
	rs := e.runState()
	if rs == rsRunning || rs >= rsTidying || (rs == rsShutdown && e.workQueue.Len() > 0) {
		e.mu.Unlock()
		return
	}
	if e.wc != 0 {
		e.interruptIdleWorkers(true)
		e.mu.Unlock()
		return
	}
	e.state.Store(rsTidying)
	hook := e.terminatedHook
	e.mu.Unlock()
	defer func() {
		e.mu.Lock()
		e.state.Store(rsTerminated)
		e.mu.Unlock()
		e.term.signal()
	}()
	if hook != nil {
		hook()
	}
}

// interruptIdleWorkers interrupts workers waiting for a task (all, or just one); the caller
// holds mu.
func (e *ThreadPoolExecutor) interruptIdleWorkers(onlyOne bool) {
	for w := range e.workers {
		if w.mu.TryLock() {
			if !w.t.IsInterrupted() {
				w.t.Interrupt()
			}
			w.mu.Unlock()
		}
		if onlyOne {
			return
		}
	}
}

// Shutdown starts an orderly shutdown: queued tasks still run, new ones are rejected, idle
// workers are woken to end. It does not wait; see AwaitTermination. It ports
// ThreadPoolExecutor.shutdown.
func (e *ThreadPoolExecutor) Shutdown() {
	e.mu.Lock()
	e.advance(rsShutdown)
	e.interruptIdleWorkers(false)
	if e.onShutdown != nil {
		e.onShutdown()
	}
	e.mu.Unlock()
	e.tryTerminate()
}

// ShutdownNow stops the pool: it rejects new tasks, interrupts every worker (running tasks see
// an interrupt) and removes and returns the tasks still queued, in queue order. It ports
// ThreadPoolExecutor.shutdownNow.
func (e *ThreadPoolExecutor) ShutdownNow() []func() {
	e.mu.Lock()
	e.advance(rsStop)
	for w := range e.workers {
		if w.started.Load() {
			w.t.Interrupt()
		}
	}
	var tasks []func()
	if d, ok := e.workQueue.(interface{ drainAll() []func() }); ok {
		tasks = d.drainAll()
	}
	for {
		t, ok := e.workQueue.Poll()
		if !ok {
			break
		}
		tasks = append(tasks, t)
	}
	e.mu.Unlock()
	e.tryTerminate()
	return tasks
}

// IsShutdown reports whether Shutdown, ShutdownNow or Close has been called.
func (e *ThreadPoolExecutor) IsShutdown() bool { return e.runState() >= rsShutdown }

// IsTerminating reports whether the pool is shut down but not yet terminated.
func (e *ThreadPoolExecutor) IsTerminating() bool {
	rs := e.runState()
	return rs >= rsShutdown && rs < rsTerminated
}

// IsTerminated reports whether the pool is shut down, every worker has ended and the queue is
// empty.
func (e *ThreadPoolExecutor) IsTerminated() bool { return e.runState() == rsTerminated }

// AwaitTermination waits until the pool has terminated or d has elapsed; see
// [ExecutorService.AwaitTermination].
func (e *ThreadPoolExecutor) AwaitTermination(d time.Duration) (bool, error) {
	return e.term.await(d)
}

// Close shuts down and waits for every queued and running task, as Java 19's
// ExecutorService.close; see [ExecutorService.Close].
func (e *ThreadPoolExecutor) Close() error { return closeService(e) }

// CorePoolSize returns the number of workers kept even when idle.
func (e *ThreadPoolExecutor) CorePoolSize() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.core
}

// SetCorePoolSize changes the core size. Extra workers end when next idle; if it grows, new
// workers are started for queued tasks. n < 0 or n > MaximumPoolSize panics with an error
// wrapping [thread.ErrIllegalArgument].
func (e *ThreadPoolExecutor) SetCorePoolSize(n int) {
	e.mu.Lock()
	if n < 0 || n > e.max {
		e.mu.Unlock()
		panic(illegalArg("core pool size %d (maximum %d)", n, e.max))
	}
	delta := n - e.core
	e.core = n
	if e.wc > n {
		e.interruptIdleWorkers(false)
		e.mu.Unlock()
		return
	}
	k := min(delta, e.workQueue.Len())
	e.mu.Unlock()
	for ; k > 0; k-- {
		if ok, _ := e.addWorker(nil, true); !ok || e.workQueue.Len() == 0 {
			break
		}
	}
}

// MaximumPoolSize returns the largest number of workers the pool may have.
func (e *ThreadPoolExecutor) MaximumPoolSize() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.max
}

// SetMaximumPoolSize changes the maximum size; extra workers end when next idle. n <= 0 or
// n < CorePoolSize panics with an error wrapping [thread.ErrIllegalArgument].
func (e *ThreadPoolExecutor) SetMaximumPoolSize(n int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if n <= 0 || n < e.core {
		panic(illegalArg("maximum pool size %d (core %d)", n, e.core))
	}
	e.max = n
	if e.wc > n {
		e.interruptIdleWorkers(false)
	}
}

// KeepAliveTime returns how long a worker beyond the core size waits for a task before it ends.
func (e *ThreadPoolExecutor) KeepAliveTime() time.Duration {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.keepAlive
}

// SetKeepAliveTime changes the keep-alive time. d < 0, or d == 0 while core threads may time
// out, panics with an error wrapping [thread.ErrIllegalArgument].
func (e *ThreadPoolExecutor) SetKeepAliveTime(d time.Duration) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if d < 0 || (d == 0 && e.allowCoreTimeOut) {
		panic(illegalArg("keep-alive time %v", d))
	}
	shorter := d < e.keepAlive
	e.keepAlive = d
	if shorter {
		e.interruptIdleWorkers(false)
	}
}

// AllowsCoreThreadTimeOut reports whether core workers also end after the keep-alive time.
func (e *ThreadPoolExecutor) AllowsCoreThreadTimeOut() bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.allowCoreTimeOut
}

// AllowCoreThreadTimeOut lets core workers end after the keep-alive time too. Turning it on with
// a zero keep-alive time panics with an error wrapping [thread.ErrIllegalArgument].
func (e *ThreadPoolExecutor) AllowCoreThreadTimeOut(on bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if on && e.keepAlive <= 0 {
		panic(illegalArg("core threads must have nonzero keep alive times"))
	}
	if on != e.allowCoreTimeOut {
		e.allowCoreTimeOut = on
		if on {
			e.interruptIdleWorkers(false)
		}
	}
}

// PrestartCoreThread starts one idle core worker if there are fewer than CorePoolSize, and
// reports whether it did.
func (e *ThreadPoolExecutor) PrestartCoreThread() bool {
	ok, _ := e.addWorker(nil, true)
	return ok
}

// PrestartAllCoreThreads starts idle core workers up to CorePoolSize and returns how many it
// started.
func (e *ThreadPoolExecutor) PrestartAllCoreThreads() int {
	n := 0
	for e.PrestartCoreThread() {
		n++
	}
	return n
}

// PoolSize returns the current number of workers.
func (e *ThreadPoolExecutor) PoolSize() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.runState() >= rsTidying {
		return 0
	}
	return len(e.workers)
}

// ActiveCount returns about how many workers are running a task.
func (e *ThreadPoolExecutor) ActiveCount() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.activeLocked()
}

func (e *ThreadPoolExecutor) activeLocked() int {
	n := 0
	for w := range e.workers {
		if w.mu.TryLock() {
			w.mu.Unlock()
		} else {
			n++
		}
	}
	return n
}

// LargestPoolSize returns the largest number of workers the pool has had at once.
func (e *ThreadPoolExecutor) LargestPoolSize() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.largest
}

// CompletedTaskCount returns about how many tasks have completed (returned or panicked).
func (e *ThreadPoolExecutor) CompletedTaskCount() int64 {
	e.mu.Lock()
	defer e.mu.Unlock()
	n := e.completed
	for w := range e.workers {
		n += w.completed.Load()
	}
	return n
}

// TaskCount returns about how many tasks have ever been scheduled: completed, running and queued.
func (e *ThreadPoolExecutor) TaskCount() int64 {
	e.mu.Lock()
	defer e.mu.Unlock()
	n := e.completed + int64(e.workQueue.Len()) + int64(e.activeLocked())
	for w := range e.workers {
		n += w.completed.Load()
	}
	return n
}

// Queue returns the pool's work queue (to inspect it; adding to it directly bypasses Execute's
// policy).
func (e *ThreadPoolExecutor) Queue() queue.BlockingQueue[func()] { return e.workQueue }

// ThreadFactory returns the factory that makes the pool's workers.
func (e *ThreadPoolExecutor) ThreadFactory() thread.Factory {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.factory
}

// SetThreadFactory changes the factory used for new workers. nil panics with an error wrapping
// [thread.ErrNilArgument].
func (e *ThreadPoolExecutor) SetThreadFactory(f thread.Factory) {
	if f == nil {
		panic(nilArg("thread factory"))
	}
	e.mu.Lock()
	e.factory = f
	e.mu.Unlock()
}

// RejectedExecutionHandler returns the handler for tasks the pool cannot take.
func (e *ThreadPoolExecutor) RejectedExecutionHandler() RejectedExecutionHandler {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.handler
}

// SetRejectedExecutionHandler changes the handler. nil panics with an error wrapping
// [thread.ErrNilArgument].
func (e *ThreadPoolExecutor) SetRejectedExecutionHandler(h RejectedExecutionHandler) {
	if h == nil {
		panic(nilArg("rejection handler"))
	}
	e.mu.Lock()
	e.handler = h
	e.mu.Unlock()
}

// String describes the pool as Java does: "[ThreadPoolExecutor]@c000010000[Running, pool size =
// 2, active threads = 1, queued tasks = 0, completed tasks = 5]", the first word being Running,
// Shutting down or Terminated.
func (e *ThreadPoolExecutor) String() string {
	e.mu.Lock()
	rs := e.runState()
	size := len(e.workers)
	active := e.activeLocked()
	done := e.completed
	for w := range e.workers {
		done += w.completed.Load()
	}
	e.mu.Unlock()
	st := "Running"
	switch {
	case rs == rsTerminated:
		st = "Terminated"
	case rs >= rsShutdown:
		st = "Shutting down"
	}
	return fmt.Sprintf("%s@%s[%s, pool size = %d, active threads = %d, queued tasks = %d, completed tasks = %d]",
		e.name, strings.TrimPrefix(fmt.Sprintf("%p", e), "0x"), st, size, active, e.workQueue.Len(), done)
}
