package executors_test

import (
	"errors"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/loomgo/loom/executors"
	"github.com/loomgo/loom/queue"
	"github.com/loomgo/loom/thread"
)

// blockingTasks gives tasks that wait (in loom, unmounted) until release is called.
type gate struct {
	mu      sync.Mutex
	open    bool
	waiters []*thread.Thread
}

func (g *gate) wait() error {
	me := thread.Current()
	for {
		g.mu.Lock()
		if g.open {
			g.mu.Unlock()
			return nil
		}
		g.waiters = append(g.waiters, me)
		g.mu.Unlock()
		thread.Park()
		if thread.Interrupted() {
			return thread.ErrInterrupted
		}
	}
}

func (g *gate) release() {
	g.mu.Lock()
	g.open = true
	ws := g.waiters
	g.mu.Unlock()
	for _, w := range ws {
		thread.Unpark(w)
	}
}

// linkedQ is a FIFO work queue of the given capacity (0: unbounded).
func linkedQ(capacity int) queue.BlockingQueue[func()] {
	return queue.NewLinkedBlockingQueue[func()](capacity)
}

// syncQ is a hand-off work queue.
func syncQ() queue.BlockingQueue[func()] { return queue.NewSynchronousQueue[func()](false) }

func newPool(core, max int, keep time.Duration, q queue.BlockingQueue[func()], opts ...executors.PoolOption) *executors.ThreadPoolExecutor {
	opts = append([]executors.PoolOption{executors.WithThreadFactory(thread.OfVirtual().Factory())}, opts...)
	return executors.NewThreadPoolExecutor(core, max, keep, q, opts...)
}

func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

func TestThreadPoolConstructorIllegalArguments(t *testing.T) {
	q := linkedQ(0)
	for _, c := range []struct {
		core, max int
		keep      time.Duration
	}{{-1, 1, 0}, {1, 0, 0}, {0, -1, 0}, {2, 1, 0}, {1, 1, -1}} {
		mustPanicWith(t, thread.ErrIllegalArgument, func() { executors.NewThreadPoolExecutor(c.core, c.max, c.keep, q) })
	}
	mustPanicWith(t, thread.ErrNilArgument, func() { executors.NewThreadPoolExecutor(1, 1, 0, nil) })
	mustPanicWith(t, thread.ErrNilArgument, func() { executors.WithThreadFactory(nil) })
	mustPanicWith(t, thread.ErrNilArgument, func() { executors.WithRejectionHandler(nil) })
}

func TestThreadPoolExecuteRunsTask(t *testing.T) {
	p := newPool(1, 1, 0, linkedQ(0))
	defer p.Close()
	f, err := executors.Submit(p, func() (int, error) { return 3, nil })
	if err != nil {
		t.Fatal(err)
	}
	if v, err := f.Get(); v != 3 || err != nil {
		t.Fatalf("%v, %v", v, err)
	}
}

func TestThreadPoolGetters(t *testing.T) {
	p := newPool(1, 2, 10*time.Second, linkedQ(10))
	if p.CorePoolSize() != 1 || p.MaximumPoolSize() != 2 || p.KeepAliveTime() != 10*time.Second {
		t.Fatalf("core %d max %d keep %v", p.CorePoolSize(), p.MaximumPoolSize(), p.KeepAliveTime())
	}
	if p.PoolSize() != 0 || p.LargestPoolSize() != 0 || p.TaskCount() != 0 || p.CompletedTaskCount() != 0 {
		t.Fatal("fresh pool has counts")
	}
	var g gate
	started := make(chan struct{}, 1)
	p.Execute(func() { started <- struct{}{}; g.wait() })
	<-started
	if p.ActiveCount() != 1 || p.PoolSize() != 1 || p.LargestPoolSize() != 1 {
		t.Fatalf("active %d size %d largest %d", p.ActiveCount(), p.PoolSize(), p.LargestPoolSize())
	}
	p.Execute(func() {})
	if p.TaskCount() != 2 || p.Queue().Len() != 1 {
		t.Fatalf("task count %d, queued %d", p.TaskCount(), p.Queue().Len())
	}
	g.release()
	eventually(t, "2 completed tasks", func() bool { return p.CompletedTaskCount() == 2 })
	if p.IsShutdown() || p.IsTerminating() || p.IsTerminated() {
		t.Fatal("running pool reports shutdown")
	}
	p.Shutdown()
	p.AwaitTermination(5 * time.Second)
	if !p.IsShutdown() || p.IsTerminating() || !p.IsTerminated() || p.PoolSize() != 0 {
		t.Fatal("terminated pool")
	}
}

func TestThreadPoolPrestart(t *testing.T) {
	p := newPool(2, 4, time.Second, linkedQ(0))
	defer p.Close()
	if !p.PrestartCoreThread() || p.PoolSize() != 1 {
		t.Fatal("PrestartCoreThread")
	}
	if n := p.PrestartAllCoreThreads(); n != 1 || p.PoolSize() != 2 {
		t.Fatalf("PrestartAllCoreThreads = %d, size %d", n, p.PoolSize())
	}
	if p.PrestartCoreThread() {
		t.Fatal("prestarted past core")
	}
}

func TestThreadPoolGrowsPastCoreOnlyWhenQueueFull(t *testing.T) {
	p := newPool(1, 3, time.Second, linkedQ(1))
	defer p.Close()
	var g gate
	defer g.release()
	for range 4 { // 1 core worker, 1 queued, 2 extra workers
		if err := p.Execute(func() { g.wait() }); err != nil {
			t.Fatal(err)
		}
	}
	if p.PoolSize() != 3 || p.Queue().Len() != 1 {
		t.Fatalf("size %d queued %d", p.PoolSize(), p.Queue().Len())
	}
	if err := p.Execute(func() {}); !errors.Is(err, executors.ErrRejected) {
		t.Fatalf("saturated Execute = %v", err)
	}
}

func TestSaturatedExecuteAbortPolicyMessage(t *testing.T) {
	p := newPool(1, 1, 0, linkedQ(1))
	defer p.Close()
	var g gate
	defer g.release()
	p.Execute(func() { g.wait() })
	p.Execute(func() {})
	err := p.Execute(func() {})
	if !errors.Is(err, executors.ErrRejected) || !strings.Contains(err.Error(), "ThreadPoolExecutor@") {
		t.Fatalf("err = %v", err)
	}
}

func TestSaturatedExecuteCallerRunsPolicy(t *testing.T) {
	p := newPool(1, 1, 0, linkedQ(1), executors.WithRejectionHandler(executors.CallerRunsPolicy))
	defer p.Close()
	var g gate
	defer g.release()
	p.Execute(func() { g.wait() })
	p.Execute(func() {})
	me := thread.Current()
	var ranOn *thread.Thread
	if err := p.Execute(func() { ranOn = thread.Current() }); err != nil {
		t.Fatal(err)
	}
	if ranOn != me {
		t.Fatalf("ran on %v, want the caller %v", ranOn, me)
	}
}

func TestSaturatedExecuteDiscardPolicy(t *testing.T) {
	p := newPool(1, 1, 0, linkedQ(1), executors.WithRejectionHandler(executors.DiscardPolicy))
	var g gate
	p.Execute(func() { g.wait() })
	var ran atomic.Int32
	p.Execute(func() { ran.Add(1) })
	if err := p.Execute(func() { ran.Add(10) }); err != nil {
		t.Fatal(err)
	}
	g.release()
	p.Close()
	if ran.Load() != 1 {
		t.Fatalf("ran = %d, want only the queued task", ran.Load())
	}
}

func TestSaturatedExecuteDiscardOldestPolicy(t *testing.T) {
	p := newPool(1, 1, 0, linkedQ(2), executors.WithRejectionHandler(executors.DiscardOldestPolicy))
	var g gate
	p.Execute(func() { g.wait() })
	var mu sync.Mutex
	var order []int
	for i := 1; i <= 3; i++ {
		if err := p.Execute(func() { mu.Lock(); order = append(order, i); mu.Unlock() }); err != nil {
			t.Fatal(err)
		}
	}
	g.release()
	p.Close()
	if len(order) != 2 || order[0] != 2 || order[1] != 3 {
		t.Fatalf("order = %v, want [2 3] (the oldest, 1, dropped)", order)
	}
}

func TestRejectionPoliciesOnShutdown(t *testing.T) {
	for name, h := range map[string]executors.RejectedExecutionHandler{
		"CallerRuns": executors.CallerRunsPolicy, "Discard": executors.DiscardPolicy, "DiscardOldest": executors.DiscardOldestPolicy,
	} {
		p := newPool(1, 1, 0, linkedQ(1), executors.WithRejectionHandler(h))
		p.Shutdown()
		ran := false
		if err := p.Execute(func() { ran = true }); err != nil || ran {
			t.Errorf("%s on shutdown: err=%v ran=%v, want dropped", name, err, ran)
		}
		p.Close()
	}
	p := newPool(1, 1, 0, linkedQ(1))
	p.Shutdown()
	if err := p.Execute(func() {}); !errors.Is(err, executors.ErrRejected) {
		t.Errorf("Abort on shutdown: %v", err)
	}
}

func TestThreadPoolShutdownRunsQueuedTasks(t *testing.T) {
	p := newPool(1, 1, 0, linkedQ(0))
	var g gate
	var n atomic.Int32
	p.Execute(func() { g.wait(); n.Add(1) })
	for range 5 {
		p.Execute(func() { n.Add(1) })
	}
	p.Shutdown()
	if p.IsTerminated() || !p.IsTerminating() {
		t.Fatal("terminated with queued tasks")
	}
	g.release()
	if ok, _ := p.AwaitTermination(5 * time.Second); !ok || n.Load() != 6 {
		t.Fatalf("terminated=%v ran %d of 6", ok, n.Load())
	}
}

func TestThreadPoolShutdownNowReturnsQueuedAndInterruptsRunning(t *testing.T) {
	p := newPool(1, 1, 0, linkedQ(0))
	started := make(chan struct{})
	var got error
	p.Execute(func() { close(started); got = thread.Sleep(time.Hour) })
	<-started
	for range 3 {
		p.Execute(func() {})
	}
	left := p.ShutdownNow()
	if len(left) != 3 {
		t.Fatalf("ShutdownNow returned %d tasks, want 3", len(left))
	}
	if ok, _ := p.AwaitTermination(5 * time.Second); !ok {
		t.Fatal("not terminated")
	}
	if !errors.Is(got, thread.ErrInterrupted) {
		t.Fatalf("running task: %v", got)
	}
	if err := p.Execute(func() {}); !errors.Is(err, executors.ErrRejected) {
		t.Fatalf("after ShutdownNow: %v", err)
	}
}

func TestThreadPoolHooksBeforeAfterTerminated(t *testing.T) {
	var before, after, terminated atomic.Int32
	var afterErr atomic.Value
	p := newPool(1, 1, 0, linkedQ(0),
		executors.WithBeforeExecute(func(*thread.Thread, func()) { before.Add(1) }),
		executors.WithAfterExecute(func(_ func(), err error) {
			after.Add(1)
			if err != nil {
				afterErr.Store(err)
			}
		}),
		executors.WithTerminated(func() { terminated.Add(1) }),
	)
	p.Execute(func() {})
	f, _ := executors.Submit(p, func() (int, error) { panic("in future") })
	f.Get()
	p.Close()
	p.Close()
	if before.Load() != 2 || after.Load() != 2 || terminated.Load() != 1 {
		t.Fatalf("before %d after %d terminated %d", before.Load(), after.Load(), terminated.Load())
	}
	if afterErr.Load() != nil {
		t.Fatalf("afterExecute saw %v for a submitted task (its failure belongs to the future)", afterErr.Load())
	}
}

func TestAfterExecuteSeesPanicAndWorkerIsReplaced(t *testing.T) {
	handled := make(chan any, 1)
	f := thread.OfVirtual().UncaughtExceptionHandler(func(_ *thread.Thread, v any) { handled <- v }).Factory()
	var seen atomic.Value
	p := executors.NewThreadPoolExecutor(1, 1, 0, linkedQ(0), executors.WithThreadFactory(f),
		executors.WithAfterExecute(func(_ func(), err error) {
			if err != nil {
				seen.Store(err)
			}
		}))
	defer p.Close()
	p.Execute(func() { panic("boom") })
	if v := <-handled; v != "boom" {
		t.Fatalf("uncaught handler got %v", v)
	}
	var pe *executors.PanicError
	if err, _ := seen.Load().(error); !errors.As(err, &pe) || pe.Value != "boom" {
		t.Fatalf("afterExecute got %v", seen.Load())
	}
	fut, _ := executors.Submit(p, func() (int, error) { return 1, nil })
	if v, err := fut.Get(); v != 1 || err != nil {
		t.Fatalf("pool does not run tasks after a worker died: %v %v", v, err)
	}
}

func TestInterruptLeftByTaskIsClearedBeforeNextTask(t *testing.T) {
	p := newPool(1, 1, 0, linkedQ(0))
	defer p.Close()
	p.Execute(func() { thread.Current().Interrupt() })
	f, _ := executors.Submit(p, func() (bool, error) { return thread.Current().IsInterrupted(), nil })
	if v, _ := f.Get(); v {
		t.Fatal("next task started interrupted")
	}
}

func TestKeepAliveNonCoreThreadsTimeOut(t *testing.T) {
	p := newPool(1, 4, 50*time.Millisecond, syncQ())
	defer p.Close()
	var g gate
	for range 4 {
		if err := p.Execute(func() { g.wait() }); err != nil {
			t.Fatal(err)
		}
	}
	if p.PoolSize() != 4 {
		t.Fatalf("size %d", p.PoolSize())
	}
	g.release()
	eventually(t, "pool to shrink to core", func() bool { return p.PoolSize() == 1 })
}

func TestAllowCoreThreadTimeOut(t *testing.T) {
	p := newPool(2, 2, 30*time.Millisecond, linkedQ(0))
	defer p.Close()
	mustPanicWith(t, thread.ErrIllegalArgument, func() {
		q := newPool(1, 1, 0, linkedQ(0))
		defer q.Close()
		q.AllowCoreThreadTimeOut(true)
	})
	p.AllowCoreThreadTimeOut(true)
	if !p.AllowsCoreThreadTimeOut() {
		t.Fatal("not set")
	}
	p.PrestartAllCoreThreads()
	eventually(t, "core threads to time out", func() bool { return p.PoolSize() == 0 })
	f, _ := executors.Submit(p, func() (int, error) { return 1, nil })
	if v, _ := f.Get(); v != 1 {
		t.Fatal("pool did not restart workers")
	}
}

func TestSetterIllegalArguments(t *testing.T) {
	p := newPool(2, 4, time.Second, linkedQ(0))
	defer p.Close()
	mustPanicWith(t, thread.ErrIllegalArgument, func() { p.SetCorePoolSize(-1) })
	mustPanicWith(t, thread.ErrIllegalArgument, func() { p.SetCorePoolSize(5) })
	mustPanicWith(t, thread.ErrIllegalArgument, func() { p.SetMaximumPoolSize(0) })
	mustPanicWith(t, thread.ErrIllegalArgument, func() { p.SetMaximumPoolSize(1) })
	mustPanicWith(t, thread.ErrIllegalArgument, func() { p.SetKeepAliveTime(-1) })
	mustPanicWith(t, thread.ErrNilArgument, func() { p.SetThreadFactory(nil) })
	mustPanicWith(t, thread.ErrNilArgument, func() { p.SetRejectedExecutionHandler(nil) })
	p.SetMaximumPoolSize(6)
	p.SetCorePoolSize(3)
	p.SetKeepAliveTime(2 * time.Second)
	if p.CorePoolSize() != 3 || p.MaximumPoolSize() != 6 || p.KeepAliveTime() != 2*time.Second {
		t.Fatal("setters did not take")
	}
}

func TestSetCorePoolSizeStartsWorkersForQueuedTasks(t *testing.T) {
	p := newPool(1, 3, time.Second, linkedQ(0))
	defer p.Close()
	var g gate
	defer g.release()
	started := make(chan struct{}, 3)
	for range 3 {
		p.Execute(func() { started <- struct{}{}; g.wait() })
	}
	<-started
	p.SetCorePoolSize(3)
	<-started
	<-started
	if p.PoolSize() != 3 {
		t.Fatalf("size %d", p.PoolSize())
	}
}

func TestThreadPoolString(t *testing.T) {
	p := newPool(1, 1, 0, linkedQ(0))
	re := regexp.MustCompile(`^ThreadPoolExecutor@[0-9a-f]+\[Running, pool size = 0, active threads = 0, queued tasks = 0, completed tasks = 0\]$`)
	if s := p.String(); !re.MatchString(s) {
		t.Fatalf("String = %q", s)
	}
	p.Execute(func() {})
	p.Close()
	if s := p.String(); !strings.Contains(s, "[Terminated, pool size = 0, active threads = 0, queued tasks = 0, completed tasks = 1]") {
		t.Fatalf("String = %q", s)
	}
}

func TestThreadPoolCloseInterruptedShutsDownNow(t *testing.T) {
	p := newPool(1, 1, 0, linkedQ(0))
	f, _ := executors.Submit(p, func() (int, error) { return 0, thread.Sleep(time.Hour) })
	var re bool
	thread.OfVirtual().Start(func() {
		thread.Current().Interrupt()
		p.Close()
		re = thread.Interrupted()
	}).Join()
	if !re || !p.IsTerminated() {
		t.Fatalf("reasserted=%v terminated=%v", re, p.IsTerminated())
	}
	if _, err := f.Get(); !errors.Is(err, thread.ErrInterrupted) {
		t.Fatalf("task %v", err)
	}
}

func TestThreadPoolWithArrayBlockingQueueSaturates(t *testing.T) {
	p := newPool(1, 2, time.Second, queue.NewArrayBlockingQueue[func()](2, false))
	defer p.Close()
	var g gate
	defer g.release()
	for range 4 {
		if err := p.Execute(func() { g.wait() }); err != nil {
			t.Fatal(err)
		}
	}
	if p.PoolSize() != 2 || p.Queue().Len() != 2 || p.Queue().RemainingCapacity() != 0 {
		t.Fatalf("size %d queued %d", p.PoolSize(), p.Queue().Len())
	}
	if err := p.Execute(func() {}); !errors.Is(err, executors.ErrRejected) {
		t.Fatalf("Execute = %v", err)
	}
}

// failingFactory returns nil for every other thread (TCK's FailingThreadFactory).
type failingFactory struct {
	n     atomic.Int32
	inner thread.Factory
}

func (f *failingFactory) NewThread(task func()) *thread.Thread {
	if f.n.Add(1)%2 == 0 {
		return nil
	}
	return f.inner.NewThread(task)
}

func TestFailingThreadFactoryPoolKeepsWorking(t *testing.T) {
	p := executors.NewThreadPoolExecutor(10, 10, time.Second, linkedQ(0),
		executors.WithThreadFactory(&failingFactory{inner: thread.OfVirtual().Factory()}))
	var n atomic.Int32
	for range 100 {
		if err := p.Execute(func() { n.Add(1) }); err != nil {
			t.Fatal(err)
		}
	}
	p.Close()
	if n.Load() != 100 {
		t.Fatalf("ran %d of 100", n.Load())
	}
}

type panickingFactory struct{}

func (panickingFactory) NewThread(func()) *thread.Thread { panic("factory broke") }

func TestPanickingThreadFactoryReleasesWorkerSlot(t *testing.T) {
	p := executors.NewThreadPoolExecutor(1, 1, 0, linkedQ(0), executors.WithThreadFactory(panickingFactory{}))
	func() {
		defer func() { recover() }()
		p.Execute(func() {})
	}()
	p.SetThreadFactory(thread.OfVirtual().Factory())
	f, err := executors.Submit(p, func() (int, error) { return 1, nil })
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := f.Get(); v != 1 {
		t.Fatal("pool did not recover from the factory's panic")
	}
	p.Close()
}

func TestGoexitInExecutedTaskReplacesWorker(t *testing.T) {
	var afterErr atomic.Value
	p := newPool(1, 1, 0, linkedQ(0), executors.WithAfterExecute(func(_ func(), err error) {
		if err != nil {
			afterErr.Store(err)
		}
	}))
	defer p.Close()
	p.Execute(runtimeGoexit)
	f, _ := executors.Submit(p, func() (int, error) { return 2, nil })
	if v, err := f.Get(); v != 2 || err != nil {
		t.Fatalf("%v %v", v, err)
	}
	if err, _ := afterErr.Load().(error); !errors.Is(err, executors.ErrGoexit) {
		t.Fatalf("afterExecute saw %v", afterErr.Load())
	}
}
