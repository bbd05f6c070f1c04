package executors

import (
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
// thread.ErrIllegalArgument. It ports Executors.newFixedThreadPool.
func NewFixedThreadPool(n int) *ThreadPoolExecutor {
	return NewFixedThreadPoolWithFactory(n, DefaultThreadFactory())
}

// NewFixedThreadPoolWithFactory is NewFixedThreadPool with threads made by f.
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
// process's platform-thread limit, Execute fails with an error wrapping ErrRejected and
// thread.ErrThreadLimit (Java's "OutOfMemoryError: unable to create native thread"). It ports
// Executors.newCachedThreadPool.
func NewCachedThreadPool() *ThreadPoolExecutor {
	return NewCachedThreadPoolWithFactory(DefaultThreadFactory())
}

// NewCachedThreadPoolWithFactory is NewCachedThreadPool with threads made by f.
func NewCachedThreadPoolWithFactory(f thread.Factory) *ThreadPoolExecutor {
	return NewThreadPoolExecutor(0, math.MaxInt32, CachedKeepAlive, queue.NewSynchronousQueue[func()](false), WithThreadFactory(f))
}

// NewSingleThreadExecutor returns an executor that runs tasks one at a time, in submission
// order, on one platform thread (replaced if a task panics). Unlike NewFixedThreadPool(1) it
// does not expose the pool, so it cannot be resized. It ports Executors.newSingleThreadExecutor.
func NewSingleThreadExecutor() ExecutorService {
	return NewSingleThreadExecutorWithFactory(DefaultThreadFactory())
}

// NewSingleThreadExecutorWithFactory is NewSingleThreadExecutor with its thread made by f.
func NewSingleThreadExecutorWithFactory(f thread.Factory) ExecutorService {
	return &delegatedExecutorService{NewFixedThreadPoolWithFactory(1, f)}
}

// NewSingleThreadScheduledExecutor returns a scheduled executor with one platform thread. It
// ports Executors.newSingleThreadScheduledExecutor.
func NewSingleThreadScheduledExecutor() ScheduledExecutorService { return NewScheduledThreadPool(1) }

// NewSingleThreadScheduledExecutorWithFactory is NewSingleThreadScheduledExecutor with its thread
// made by f.
func NewSingleThreadScheduledExecutorWithFactory(f thread.Factory) ScheduledExecutorService {
	return NewScheduledThreadPoolWithFactory(1, f)
}

// delegatedExecutorService exposes only the ExecutorService methods of a pool, as Java's
// Executors.DelegatedExecutorService (so a single-thread executor cannot be reconfigured).
type delegatedExecutorService struct{ e *ThreadPoolExecutor }

func (d *delegatedExecutorService) Execute(task func()) error { return d.e.Execute(task) }
func (d *delegatedExecutorService) Shutdown()                 { d.e.Shutdown() }
func (d *delegatedExecutorService) ShutdownNow() []func()     { return d.e.ShutdownNow() }
func (d *delegatedExecutorService) IsShutdown() bool          { return d.e.IsShutdown() }
func (d *delegatedExecutorService) IsTerminated() bool        { return d.e.IsTerminated() }
func (d *delegatedExecutorService) AwaitTermination(t time.Duration) (bool, error) {
	return d.e.AwaitTermination(t)
}
func (d *delegatedExecutorService) Close() error   { return d.e.Close() }
func (d *delegatedExecutorService) String() string { return d.e.String() }
