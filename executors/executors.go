package executors

import (
	"fmt"
	"math"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/loomgo/loom/queue"
	"github.com/loomgo/loom/thread"
)

var poolSeq atomic.Int64

// DefaultThreadFactory returns a factory of platform threads named "pool-N-thread-M", N counting
// the factories made (from 1) and M the threads of this one (from 1), non-daemon and of normal
// priority, as Java's Executors.defaultThreadFactory(). The pools of this package use it unless
// given another.
func DefaultThreadFactory() thread.Factory {
	prefix := "pool-" + strconv.FormatInt(poolSeq.Add(1), 10) + "-thread-"
	return thread.OfPlatform().NameCounter(prefix, 1).Daemon(false).Priority(thread.NormPriority).Factory()
}

// NewFixedThreadPool returns a pool of n platform threads (started as tasks arrive, never timing
// out) sharing an unbounded queue. n <= 0 panics with an error wrapping
// [thread.ErrIllegalArgument]. It ports Executors.newFixedThreadPool.
func NewFixedThreadPool(n int) *ThreadPoolExecutor {
	return NewFixedThreadPoolWithFactory(n, DefaultThreadFactory())
}

// NewFixedThreadPoolWithFactory is [NewFixedThreadPool] with threads made by f.
func NewFixedThreadPoolWithFactory(n int, f thread.Factory) *ThreadPoolExecutor {
	if n <= 0 {
		panic(illegalArg("pool size %d", n))
	}
	return NewThreadPoolExecutor(n, n, 0, queue.NewLinkedBlockingQueue[func()](0), WithThreadFactory(f))
}

// CachedKeepAlive is how long an idle thread of a cached pool lives (60 s, as in Java).
const CachedKeepAlive = 60 * time.Second

// NewCachedThreadPool returns a pool that hands each task to an idle thread if there is one and
// otherwise starts a new platform thread, without bound; idle threads end after 60 s. Past the
// process's platform-thread limit, Execute fails with an error wrapping [ErrRejected] and
// [thread.ErrThreadLimit] (Java's "OutOfMemoryError: unable to create native thread"). It ports
// Executors.newCachedThreadPool.
func NewCachedThreadPool() *ThreadPoolExecutor {
	return NewCachedThreadPoolWithFactory(DefaultThreadFactory())
}

// NewCachedThreadPoolWithFactory is [NewCachedThreadPool] with threads made by f.
func NewCachedThreadPoolWithFactory(f thread.Factory) *ThreadPoolExecutor {
	return NewThreadPoolExecutor(0, math.MaxInt32, CachedKeepAlive, queue.NewSynchronousQueue[func()](false), WithThreadFactory(f))
}

// NewSingleThreadExecutor returns an executor that runs tasks one at a time, in submission
// order, on one platform thread (replaced if a task panics). Unlike [NewFixedThreadPool](1) it
// does not expose the pool, so it cannot be resized. It ports Executors.newSingleThreadExecutor.
func NewSingleThreadExecutor() *SingleThreadExecutor {
	return NewSingleThreadExecutorWithFactory(DefaultThreadFactory())
}

// NewSingleThreadExecutorWithFactory is [NewSingleThreadExecutor] with its thread made by f.
func NewSingleThreadExecutorWithFactory(f thread.Factory) *SingleThreadExecutor {
	return &SingleThreadExecutor{delegated{NewFixedThreadPoolWithFactory(1, f)}}
}

// NewSingleThreadScheduledExecutor returns a scheduled executor with one platform thread. Unlike
// [NewScheduledThreadPool](1) it does not expose the pool, so it cannot be given more threads. It
// ports Executors.newSingleThreadScheduledExecutor.
func NewSingleThreadScheduledExecutor() *SingleThreadScheduledExecutor {
	return NewSingleThreadScheduledExecutorWithFactory(DefaultThreadFactory())
}

// NewSingleThreadScheduledExecutorWithFactory is [NewSingleThreadScheduledExecutor] with its
// thread made by f.
func NewSingleThreadScheduledExecutorWithFactory(f thread.Factory) *SingleThreadScheduledExecutor {
	p := NewScheduledThreadPoolWithFactory(1, f)
	return &SingleThreadScheduledExecutor{delegated{p}, p}
}

// SingleThreadExecutor is the executor of [NewSingleThreadExecutor]: one platform thread running
// tasks in submission order. It has the methods of [ExecutorService] and no others, so it cannot
// be resized or otherwise reconfigured, and a type assertion to [*ThreadPoolExecutor] fails, as
// a cast of Java's Executors.DelegatedExecutorService to Java ThreadPoolExecutor does. Each method is
// the pool's; [ThreadPoolExecutor] documents when they block and what interrupts them.
type SingleThreadExecutor struct{ delegated }

// SingleThreadScheduledExecutor is the executor of [NewSingleThreadScheduledExecutor]: one
// platform thread running delayed and periodic tasks. It has the methods of
// [ScheduledExecutorService] and no others, so it cannot be given more threads or otherwise
// reconfigured, and a type assertion to [*ScheduledThreadPoolExecutor] fails, as a cast of Java's
// Executors.DelegatedScheduledExecutorService does. Each method is the pool's;
// [ScheduledThreadPoolExecutor] documents when they block and what interrupts them.
type SingleThreadScheduledExecutor struct {
	delegated
	e *ScheduledThreadPoolExecutor
}

// scheduledPool lets [Submit] and [ScheduleCallable] schedule on the pool itself.
func (d *SingleThreadScheduledExecutor) scheduledPool() *ScheduledThreadPoolExecutor { return d.e }

// Schedule runs task once after delay, as [ScheduledThreadPoolExecutor.Schedule]. It ports
// ScheduledExecutorService.schedule(Runnable).
func (d *SingleThreadScheduledExecutor) Schedule(task func(), delay time.Duration) (ScheduledFuture[struct{}], error) {
	return d.e.Schedule(task, delay)
}

// ScheduleAtFixedRate runs task periodically at a fixed rate, as
// [ScheduledThreadPoolExecutor.ScheduleAtFixedRate]. It ports
// ScheduledExecutorService.scheduleAtFixedRate.
func (d *SingleThreadScheduledExecutor) ScheduleAtFixedRate(task func(), initialDelay, period time.Duration) (ScheduledFuture[struct{}], error) {
	return d.e.ScheduleAtFixedRate(task, initialDelay, period)
}

// ScheduleWithFixedDelay runs task periodically with a fixed delay between runs, as
// [ScheduledThreadPoolExecutor.ScheduleWithFixedDelay]. It ports
// ScheduledExecutorService.scheduleWithFixedDelay.
func (d *SingleThreadScheduledExecutor) ScheduleWithFixedDelay(task func(), initialDelay, delay time.Duration) (ScheduledFuture[struct{}], error) {
	return d.e.ScheduleWithFixedDelay(task, initialDelay, delay)
}

// delegated has the [ExecutorService] methods of a pool and no others: what Java's
// Executors.DelegatedExecutorService and DelegatedScheduledExecutorService share. The
// single-thread executors embed it, so that no type assertion reaches their pool.
type delegated struct{ pool ExecutorService }

// Execute runs task on the executor's thread after the tasks submitted before it. It ports
// Executor.execute.
func (d delegated) Execute(task func()) error { return d.pool.Execute(task) }

// Shutdown starts an orderly shutdown: tasks already submitted run, new ones are rejected (a
// scheduled executor's periodic tasks stop). It ports ExecutorService.shutdown.
func (d delegated) Shutdown() { d.pool.Shutdown() }

// ShutdownNow interrupts the running task and returns the tasks that never started. It ports
// ExecutorService.shutdownNow.
func (d delegated) ShutdownNow() []func() { return d.pool.ShutdownNow() }

// IsShutdown reports whether Shutdown or ShutdownNow was called. It ports
// ExecutorService.isShutdown.
func (d delegated) IsShutdown() bool { return d.pool.IsShutdown() }

// IsTerminated reports whether the executor is shut down and its thread has ended. It ports
// ExecutorService.isTerminated.
func (d delegated) IsTerminated() bool { return d.pool.IsTerminated() }

// AwaitTermination blocks until the executor terminates or t passes, reporting whether it did;
// an interrupt of the calling thread ends it with [thread.ErrInterrupted]. It ports
// ExecutorService.awaitTermination.
func (d delegated) AwaitTermination(t time.Duration) (bool, error) { return d.pool.AwaitTermination(t) }

// Close shuts the executor down and waits for it to terminate. An interrupt while it waits
// makes it call ShutdownNow and wait on; it returns with the interrupt status set, as in Java.
// It ports ExecutorService.close.
func (d delegated) Close() error { return d.pool.Close() }

// String describes the executor's pool.
func (d delegated) String() string { return fmt.Sprint(d.pool) }
