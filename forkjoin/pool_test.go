package forkjoin_test

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/loomgo/loom/executors"
	"github.com/loomgo/loom/forkjoin"
	"github.com/loomgo/loom/internal/testutil"
	"github.com/loomgo/loom/locks"
	"github.com/loomgo/loom/thread"
)

// Ports of the JSR-166 TCK's ForkJoinPoolTest, and loom's own checks of the pool: worker
// threads and names, compensation, keep-alive, shutdown, and failures of tasks.

func TestForkJoinPool_testDefaultInitialState(t *testing.T) {
	p := forkjoin.NewPool(1)
	defer closePool(t, p)
	if p.AsyncMode() || p.ActiveThreadCount() != 0 || p.StealCount() != 0 || p.QueuedTaskCount() != 0 ||
		p.QueuedSubmissionCount() != 0 || p.HasQueuedSubmissions() || p.IsShutdown() || p.IsTerminating() ||
		p.IsTerminated() || p.UncaughtExceptionHandler() != nil || p.PoolSize() != 0 || !p.IsQuiescent() {
		t.Fatalf("initial state: %v", p)
	}
}

func TestForkJoinPool_testConstructor1(t *testing.T) {
	for _, n := range []int{-1, 0, forkjoin.MaxParallelism + 1} {
		testutil.MustPanic(t, thread.ErrIllegalArgument, func() { forkjoin.NewPool(n) })
		testutil.MustPanic(t, thread.ErrIllegalArgument, func() { forkjoin.NewWorkStealingPool(n) })
	}
	testutil.MustPanic(t, thread.ErrIllegalArgument, func() {
		forkjoin.NewPoolWithOptions(forkjoin.PoolOptions{Parallelism: 4, MaximumPoolSize: 3})
	})
	testutil.MustPanic(t, thread.ErrIllegalArgument, func() {
		forkjoin.NewPoolWithOptions(forkjoin.PoolOptions{Parallelism: -1})
	})
}

func TestForkJoinPool_testGetParallelism(t *testing.T) {
	p := forkjoin.NewPool(1)
	defer closePool(t, p)
	if p.Parallelism() != 1 {
		t.Fatal(p.Parallelism())
	}
	q := forkjoin.NewPoolWithOptions(forkjoin.PoolOptions{})
	defer closePool(t, q)
	if q.Parallelism() != runtime.GOMAXPROCS(0) {
		t.Fatalf("default parallelism %d, want GOMAXPROCS", q.Parallelism())
	}
	w := forkjoin.NewWorkStealingPool(3)
	defer closePool(t, w)
	if w.Parallelism() != 3 || !w.AsyncMode() {
		t.Fatalf("work-stealing pool: %v async %v", w, w.AsyncMode())
	}
}

func TestForkJoinPool_testGetPoolSize(t *testing.T) {
	onKinds(t, func(t *testing.T) {
		p := forkjoin.NewPool(1)
		taskStarted := locks.NewCountDownLatch(1)
		done := locks.NewCountDownLatch(1)
		if p.ActiveThreadCount() != 0 {
			t.Fatal("active before any task")
		}
		f, err := executors.SubmitRunnable(p, func() {
			taskStarted.CountDown()
			if p.PoolSize() != 1 || p.ActiveThreadCount() != 1 {
				t.Errorf("inside the task: %v", p)
			}
			_ = done.Await()
		})
		if err != nil {
			t.Fatal(err)
		}
		mustNot(t, taskStarted.Await())
		if p.PoolSize() != 1 || p.ActiveThreadCount() != 1 {
			t.Errorf("while the task runs: %v", p)
		}
		done.CountDown()
		if _, err := f.Get(); err != nil {
			t.Fatal(err)
		}
		closePool(t, p)
		if p.ActiveThreadCount() != 0 {
			t.Fatalf("after close: %v", p)
		}
	})
}

func mustNot(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestForkJoinPool_testAwaitTermination_timesOut(t *testing.T) {
	onKinds(t, func(t *testing.T) {
		p := forkjoin.NewPool(1)
		for _, d := range []time.Duration{math.MinInt64, -1, 0} {
			if ok, err := p.AwaitTermination(d); ok || err != nil {
				t.Fatalf("AwaitTermination(%v) = %v, %v", d, ok, err)
			}
		}
		const d = 20 * time.Millisecond
		start := time.Now()
		if ok, err := p.AwaitTermination(d); ok || err != nil {
			t.Fatalf("AwaitTermination = %v, %v", ok, err)
		}
		if el := time.Since(start); el < d {
			t.Fatalf("returned after %v", el)
		}
		if p.IsTerminated() {
			t.Fatal("terminated without shutdown")
		}
		p.Shutdown()
		if ok, err := p.AwaitTermination(longWait); !ok || err != nil {
			t.Fatalf("AwaitTermination after Shutdown = %v, %v", ok, err)
		}
		if !p.IsTerminated() || p.IsTerminating() {
			t.Fatal("not terminated")
		}
	})
}

// A panic in a function given to Execute goes to the pool's uncaught-exception handler, with
// the worker thread, and the pool goes on running tasks.
func TestForkJoinPool_testSetUncaughtExceptionHandler(t *testing.T) {
	var mu sync.Mutex
	var got []string
	invoked := locks.NewCountDownLatch(1)
	ueh := func(th *thread.Thread, v any) {
		mu.Lock()
		got = append(got, fmt.Sprintf("%s: %v", th.Name(), v))
		mu.Unlock()
		invoked.CountDown()
	}
	p := forkjoin.NewPoolWithOptions(forkjoin.PoolOptions{Parallelism: 1, UncaughtExceptionHandler: ueh})
	defer closePool(t, p)
	if p.UncaughtExceptionHandler() == nil {
		t.Fatal("handler not kept")
	}
	mustNot(t, p.Execute(func() { panic("MyError") }))
	mustNot(t, invoked.Await())
	if v, err := forkjoin.Invoke(p, fib(8)); v != 21 || err != nil {
		t.Fatalf("pool after a panic: %v, %v", v, err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(got) != 1 || !regexp.MustCompile(`^ForkJoinPool-\d+-worker-\d+: MyError$`).MatchString(got[0]) {
		t.Fatalf("handler got %q", got)
	}
}

func TestForkJoinPool_testIsQuiescent(t *testing.T) {
	p := forkjoin.NewPool(2)
	defer closePool(t, p)
	if !p.IsQuiescent() {
		t.Fatal("new pool not quiescent")
	}
	f := fib(20)
	if v, err := forkjoin.Invoke(p, f); v != 6765 || err != nil {
		t.Fatal(v, err)
	}
	if !p.AwaitQuiescence(longWait) || !p.IsQuiescent() {
		t.Fatalf("not quiescent: %v", p)
	}
	if p.QueuedTaskCount() != 0 || p.QueuedSubmissionCount() != 0 || p.HasQueuedSubmissions() ||
		p.IsShutdown() || p.IsTerminating() || p.IsTerminated() || p.ActiveThreadCount() != 0 {
		t.Fatalf("quiescent: %v", p)
	}
	if v, err := f.Get(); v != 6765 || err != nil {
		t.Fatal(v, err)
	}
}

func TestForkJoinPool_testSubmitForkJoinTask(t *testing.T) {
	onKinds(t, func(t *testing.T) {
		p := forkjoin.NewPool(1)
		defer closePool(t, p)
		f := fib(8)
		mustNot(t, p.ExecuteTask(f))
		if v, err := f.Get(); v != 21 || err != nil {
			t.Fatal(v, err)
		}
	})
}

func TestForkJoinPool_testSubmitAfterShutdown(t *testing.T) {
	p := forkjoin.NewPool(1)
	defer closePool(t, p)
	p.Shutdown()
	if !p.IsShutdown() {
		t.Fatal("IsShutdown")
	}
	if err := p.ExecuteTask(fib(8)); !errors.Is(err, executors.ErrRejected) {
		t.Fatalf("ExecuteTask after Shutdown = %v", err)
	}
	if err := p.Execute(func() {}); !errors.Is(err, executors.ErrRejected) {
		t.Fatalf("Execute after Shutdown = %v", err)
	}
	if _, err := forkjoin.Invoke(p, fib(8)); !errors.Is(err, executors.ErrRejected) {
		t.Fatalf("Invoke after Shutdown = %v", err)
	}
}

// managedLocker is the TCK's ManagedLocker: a ReentrantLock taken through ManagedBlock.
type managedLocker struct {
	lock    *locks.ReentrantLock
	hasLock bool
}

func (m *managedLocker) Block() (bool, error) {
	if !m.hasLock {
		m.lock.Lock()
	}
	return true, nil
}

func (m *managedLocker) IsReleasable() bool {
	if !m.hasLock {
		m.hasLock = m.lock.TryLock()
	}
	return m.hasLock
}

// lockingFib is the TCK's LockingFibTask: fib that needlessly takes a lock through ManagedBlock.
func lockingFib(n int, lock *locks.ReentrantLock) *forkjoin.Task[int] {
	return forkjoin.NewRecursiveTask(func() (int, error) {
		if err := forkjoin.ManagedBlock(&managedLocker{lock: lock}); err != nil {
			return 0, err
		}
		lock.Unlock()
		if n <= 1 {
			return n, nil
		}
		f1 := lockingFib(n-1, lock).Fork()
		r2, err := lockingFib(n-2, lock).Invoke()
		if err != nil {
			return 0, err
		}
		r1, err := f1.Join()
		return r1 + r2, err
	})
}

func TestForkJoinPool_testBlockingForkJoinTask(t *testing.T) {
	p := forkjoin.NewPool(4)
	defer p.ShutdownNow()
	f := lockingFib(20, new(locks.ReentrantLock))
	mustNot(t, p.ExecuteTask(f))
	if v, err := f.Get(); v != 6765 || err != nil {
		t.Fatal(v, err)
	}
}

// awaiter is the TCK's awaiter(latch): a task that waits for latch.
func awaiter(latch *locks.CountDownLatch) *forkjoin.Task[struct{}] {
	return forkjoin.NewRecursiveAction(func() error { return latch.Await() })
}

// submitAwaiters submits three awaiters of done to p.
func submitAwaiters(t *testing.T, p *forkjoin.Pool, done *locks.CountDownLatch) (a, b, c *forkjoin.Task[struct{}]) {
	a, b, c = awaiter(done), awaiter(done), awaiter(done)
	for _, x := range []forkjoin.AnyTask{a, b, c} {
		mustNot(t, p.ExecuteTask(x))
	}
	return a, b, c
}

func TestForkJoinPool_testPollSubmission(t *testing.T) {
	done := locks.NewCountDownLatch(1)
	p := forkjoin.NewPool(1)
	defer closePool(t, p)
	a, b, c := submitAwaiters(t, p, done)
	r := p.PollSubmission()
	if r != forkjoin.AnyTask(b) && r != forkjoin.AnyTask(c) && !(r == forkjoin.AnyTask(a) && !a.IsDone()) {
		t.Errorf("PollSubmission = %v", r)
	}
	if r != nil && r.IsDone() {
		t.Error("polled a done task")
	}
	done.CountDown()
}

func TestForkJoinPool_testDrainTasksTo(t *testing.T) {
	done := locks.NewCountDownLatch(1)
	p := forkjoin.NewPool(1)
	defer closePool(t, p)
	a, b, c := submitAwaiters(t, p, done)
	drained := p.DrainTasksTo(nil)
	if len(drained) == 0 {
		t.Fatal("nothing drained")
	}
	for _, r := range drained {
		if r != forkjoin.AnyTask(a) && r != forkjoin.AnyTask(b) && r != forkjoin.AnyTask(c) || r.IsDone() {
			t.Errorf("drained %v", r)
		}
	}
	done.CountDown()
}

// The TCK's AbstractExecutorService tests on a ForkJoinPool, through package executors.
func TestForkJoinPool_testExecuteRunnable(t *testing.T) {
	onKinds(t, func(t *testing.T) {
		p := forkjoin.NewPool(1)
		defer closePool(t, p)
		var done atomic.Bool
		f, err := executors.SubmitRunnable(p, func() { done.Store(true) })
		mustNot(t, err)
		if _, err := f.Get(); err != nil || !done.Load() || !f.IsDone() || f.IsCancelled() {
			t.Fatalf("Get = %v, done %v", err, done.Load())
		}
		if _, err := f.GetTimeout(-1); err != nil {
			t.Fatal(err)
		}
		// testSubmitCallable, testSubmitRunnable
		s, err := executors.Submit(p, func() (string, error) { return "test", nil })
		mustNot(t, err)
		if v, err := s.Get(); v != "test" || err != nil {
			t.Fatal(v, err)
		}
	})
}

func TestForkJoinPool_testExecuteNullRunnable(t *testing.T) {
	p := forkjoin.NewPool(1)
	defer closePool(t, p)
	testutil.MustPanic(t, thread.ErrNilArgument, func() { _ = p.Execute(nil) })
	testutil.MustPanic(t, thread.ErrNilArgument, func() { _ = p.ExecuteTask(nil) })
	testutil.MustPanic(t, thread.ErrNilArgument, func() { _, _ = executors.Submit[int](p, nil) }) // testSubmitNullCallable
}

// testCancellationExceptionInGet: cancelling a submitted task that waits makes Get fail with
// ErrCancelled, and cancel(true) interrupts it (Java 19's interruptible submit).
func TestForkJoinPool_testCancellationExceptionInGet(t *testing.T) {
	p := forkjoin.NewPool(1)
	defer closePool(t, p)
	latch := locks.NewCountDownLatch(1)
	var taskThread atomic.Pointer[thread.Thread]
	var interrupted atomic.Bool
	f, err := executors.SubmitRunnable(p, func() {
		taskThread.Store(thread.Current())
		if latch.Await() != nil {
			interrupted.Store(true)
		}
	})
	mustNot(t, err)
	eventually(t, "task waits", func() bool { th := taskThread.Load(); return th != nil && th.State() == thread.Waiting })
	f.Cancel(true)
	if _, err := f.GetTimeout(time.Second); !errors.Is(err, executors.ErrCancelled) {
		t.Fatalf("GetTimeout = %v", err)
	}
	if _, err := f.Get(); !errors.Is(err, executors.ErrCancelled) {
		t.Fatalf("Get = %v", err)
	}
	eventually(t, "task interrupted", interrupted.Load)
}

func TestForkJoinPool_testInterruptedSubmit(t *testing.T) {
	for _, k := range kinds {
		t.Run(k.name, func(t *testing.T) {
			p := forkjoin.NewPool(1)
			quittingTime := locks.NewCountDownLatch(1)
			submitted := locks.NewCountDownLatch(1)
			th := k.start(func() {
				f, err := executors.Submit(p, func() (int, error) {
					_, err := quittingTime.AwaitTimeout(2 * longWait)
					return 0, err
				})
				if err != nil {
					t.Error(err)
					return
				}
				submitted.CountDown()
				if _, err := f.Get(); !errors.Is(err, thread.ErrInterrupted) {
					t.Errorf("Get = %v, want ErrInterrupted", err)
				}
			})
			mustNot(t, submitted.Await())
			testutil.WaitState(t, th, thread.Waiting)
			th.Interrupt()
			testutil.Join(t, th)
			quittingTime.CountDown()
			closePool(t, p)
		})
	}
}

func TestForkJoinPool_testSubmitEE(t *testing.T) {
	p := forkjoin.NewPool(1)
	defer closePool(t, p)
	f, err := executors.Submit(p, func() (int, error) { panic("ArithmeticException") })
	mustNot(t, err)
	var pe *executors.PanicError
	if _, err := f.Get(); !errors.As(err, &pe) || pe.Value != "ArithmeticException" {
		t.Fatalf("Get = %v", err)
	}
}

func TestForkJoinPool_testInvokeUncheckedException(t *testing.T) {
	p := forkjoin.NewPool(1)
	defer closePool(t, p)
	var pe *executors.PanicError
	if _, err := forkjoin.Invoke(p, forkjoin.Adapt(func() (int, error) { panic("ArithmeticException") })); !errors.As(err, &pe) {
		t.Fatalf("Invoke = %v, want a PanicError", err)
	}
	boom := errors.New("boom")
	if _, err := forkjoin.Invoke(p, forkjoin.Adapt(func() (int, error) { return 0, boom })); err != boom {
		t.Fatalf("Invoke = %v, want the task's own error", err)
	}
}

func TestForkJoinPool_testInvokeAnyAll(t *testing.T) {
	onKinds(t, func(t *testing.T) {
		p := forkjoin.NewPool(1)
		defer closePool(t, p)
		str := func() (string, error) { return "test", nil }
		npe := func() (string, error) { return "", thread.ErrNilArgument }
		if v, err := executors.InvokeAny(p, []func() (string, error){str, str}); v != "test" || err != nil { // 6
			t.Fatalf("InvokeAny = %q, %v", v, err)
		}
		if _, err := executors.InvokeAny(p, []func() (string, error){npe}); !errors.Is(err, thread.ErrNilArgument) { // 5
			t.Fatalf("InvokeAny = %v", err)
		}
		if v, err := executors.InvokeAnyTimeout(p, []func() (string, error){str, str}, longWait); v != "test" || err != nil {
			t.Fatalf("InvokeAnyTimeout = %q, %v", v, err)
		}
		fs, err := executors.InvokeAll(p, []func() (string, error){str, str}) // 5
		if err != nil || len(fs) != 2 {
			t.Fatal(err)
		}
		for _, f := range fs {
			if v, err := f.Get(); v != "test" || err != nil {
				t.Fatal(v, err)
			}
		}
		fs, _ = executors.InvokeAllTimeout(p, []func() (string, error){npe}, longWait) // testTimedInvokeAll4
		if _, err := fs[0].Get(); !errors.Is(err, thread.ErrNilArgument) {
			t.Fatalf("failed task's Get = %v", err)
		}
		if fs, err := executors.InvokeAll(p, []func() (string, error){}); len(fs) != 0 || err != nil { // 2
			t.Fatal(fs, err)
		}
	})
}

// Workers are daemon platform threads named ForkJoinPool-N-worker-K; the common pool's are
// named ForkJoinPool.commonPool-worker-K.
func TestForkJoinPoolWorkerThreads(t *testing.T) {
	p := forkjoin.NewPool(2)
	defer closePool(t, p)
	th, err := forkjoin.Invoke(p, forkjoin.NewRecursiveTask(func() (*thread.Thread, error) { return thread.Current(), nil }))
	mustNot(t, err)
	if th.IsVirtual() || !th.IsDaemon() || !regexp.MustCompile(`^ForkJoinPool-\d+-worker-1$`).MatchString(th.Name()) {
		t.Fatalf("worker %v: virtual %v daemon %v", th, th.IsVirtual(), th.IsDaemon())
	}
	idx, err := forkjoin.Invoke(p, forkjoin.NewRecursiveTask(func() (int, error) { return forkjoin.PoolIndex(), nil }))
	if idx < 0 || idx >= 2 || err != nil || forkjoin.PoolIndex() != -1 { // testWorkerGetPoolIndex
		t.Fatalf("PoolIndex = %d in the pool, %d outside", idx, forkjoin.PoolIndex())
	}
	c := forkjoin.NewRecursiveTask(func() (string, error) { return thread.Current().Name(), nil })
	name, err := c.Fork().Join() // forked outside a pool: the common pool
	if err != nil || !strings.HasPrefix(name, "ForkJoinPool.commonPool-worker-") {
		t.Fatalf("common pool worker %q, %v", name, err)
	}
}

// Two pools made one after the other take consecutive numbers from the sequence the
// virtual-thread scheduler's carriers use, as Java's ForkJoinPools do.
func TestForkJoinPoolNumbersFollowEachOther(t *testing.T) {
	number := func(p *forkjoin.Pool) int {
		defer closePool(t, p)
		name, err := forkjoin.Invoke(p, forkjoin.NewRecursiveTask(func() (string, error) { return thread.Current().Name(), nil }))
		mustNot(t, err)
		var n int
		if _, err := fmt.Sscanf(name, "ForkJoinPool-%d-worker-1", &n); err != nil {
			t.Fatalf("worker name %q", name)
		}
		return n
	}
	a, b := number(forkjoin.NewPool(1)), number(forkjoin.NewPool(1))
	if b <= a {
		t.Fatalf("pool numbers %d then %d", a, b)
	}
}

func TestCommonPool(t *testing.T) {
	c := forkjoin.CommonPool()
	if c != forkjoin.CommonPool() || c.Parallelism() != forkjoin.CommonPoolParallelism() ||
		c.Parallelism() != max(runtime.GOMAXPROCS(0)-1, 1) {
		t.Fatalf("common pool: %v", c)
	}
	c.Shutdown()
	c.ShutdownNow()
	mustNot(t, c.Close())
	if c.IsShutdown() || c.IsTerminated() {
		t.Fatal("the common pool was shut down")
	}
	if v, err := forkjoin.Invoke(c, fib(15)); v != 610 || err != nil {
		t.Fatal(v, err)
	}
	if ok, err := c.AwaitTermination(time.Second); ok || err != nil {
		t.Fatalf("common AwaitTermination = %v, %v; want false as Java", ok, err)
	}
	if !c.IsQuiescent() {
		t.Fatal("AwaitTermination on the common pool awaits quiescence")
	}
}

func TestCommonPoolParallelismFromLoomOpts(t *testing.T) {
	t.Setenv("LOOM_OPTS", "-Djdk.virtualThreadScheduler.parallelism=1 -Djava.util.concurrent.ForkJoinPool.common.parallelism=7")
	if n := forkjoin.CommonPoolParallelism(); n != 7 {
		t.Fatalf("CommonPoolParallelism = %d, want 7", n)
	}
}

// Idle workers end after the keep-alive, so an idle pool holds no thread.
func TestForkJoinPoolWorkersEndAfterKeepAlive(t *testing.T) {
	p := forkjoin.NewPoolWithOptions(forkjoin.PoolOptions{Parallelism: 2, KeepAlive: 20 * time.Millisecond})
	defer closePool(t, p)
	if v, err := forkjoin.Invoke(p, fib(18)); v != 2584 || err != nil {
		t.Fatal(v, err)
	}
	if p.PoolSize() == 0 {
		t.Fatal("no worker ran the task")
	}
	eventually(t, "workers end", func() bool { return p.PoolSize() == 0 })
	if v, err := forkjoin.Invoke(p, fib(10)); v != 55 || err != nil { // and new ones start
		t.Fatal(v, err)
	}
}

// Deep recursion on a pool of one worker: every level joins a child, which the worker runs
// itself (helping) instead of blocking, so no thread is added.
func TestForkJoinPoolDeepRecursionDoesNotExhaustThePool(t *testing.T) {
	p := forkjoin.NewPool(1)
	defer closePool(t, p)
	var depth func(n int) *forkjoin.Task[int]
	depth = func(n int) *forkjoin.Task[int] {
		return forkjoin.NewRecursiveTask(func() (int, error) {
			if n == 0 {
				return 0, nil
			}
			child := depth(n - 1).Fork()
			v, err := child.Join()
			return v + 1, err
		})
	}
	if v, err := forkjoin.Invoke(p, depth(20000)); v != 20000 || err != nil {
		t.Fatal(v, err)
	}
	if n := p.PoolSize(); n != 1 {
		t.Fatalf("pool size %d, want 1", n)
	}
	// A wide and deep tree on two workers steals, and still needs no spare.
	q := forkjoin.NewPool(2)
	defer closePool(t, q)
	if v, err := forkjoin.Invoke(q, fib(24)); v != 46368 || err != nil {
		t.Fatal(v, err)
	}
	if n := q.PoolSize(); n > 2+1 {
		t.Fatalf("pool size %d for parallelism 2", n)
	}
}

// A worker blocked in ManagedBlock is compensated: with parallelism 1, a task that waits in a
// ManagedBlock for another task of the same pool still sees it run (a spare worker runs it).
func TestForkJoinPoolManagedBlockCompensates(t *testing.T) {
	p := forkjoin.NewPool(1)
	defer closePool(t, p)
	latch := locks.NewCountDownLatch(1)
	waiter := forkjoin.NewRecursiveAction(func() error {
		opener := forkjoin.NewRecursiveAction(func() error { latch.CountDown(); return nil })
		mustNot(t, forkjoin.CurrentPool().ExecuteTask(opener))
		return forkjoin.ManagedBlock(latchBlocker{latch})
	})
	mustNot(t, p.ExecuteTask(waiter))
	if _, err := waiter.GetTimeout(longWait); err != nil { // without a spare, it would never end
		t.Fatal(err)
	}
}

type latchBlocker struct{ l *locks.CountDownLatch }

func (b latchBlocker) Block() (bool, error) { return true, b.l.Await() }
func (b latchBlocker) IsReleasable() bool   { return b.l.Count() == 0 }

// ManagedBlock on a virtual thread runs the blocker unmounted (thread.Blocking): a Go-native
// wait in it does not hold the only carrier.
func TestManagedBlockOnVirtualThreadUnmounts(t *testing.T) {
	s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 1})
	defer s.Close()
	ch := make(chan struct{})
	blocked := thread.OfVirtual().Scheduler(s).Start(func() {
		mustNot(t, forkjoin.ManagedBlock(chanBlocker(ch)))
	})
	eventually(t, "blocker parked", func() bool { return s.Stats().Mounted == 0 && blocked.IsAlive() })
	other := thread.OfVirtual().Scheduler(s).Start(func() { close(ch) }) // needs the carrier
	testutil.Join(t, other, blocked)
}

type chanBlocker chan struct{}

func (c chanBlocker) Block() (bool, error) { <-c; return true, nil }
func (c chanBlocker) IsReleasable() bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}

// A task that calls runtime.Goexit ends its worker; the task, and the tasks that worker was
// running (here the one joining it), complete with ErrGoexit, tasks left on the worker's deque
// still run elsewhere, and the pool goes on.
func TestForkJoinPoolGoexitInTaskEndsOnlyItsWorker(t *testing.T) {
	p := forkjoin.NewPool(2)
	defer closePool(t, p)
	var sideRan atomic.Bool
	outer := forkjoin.NewRecursiveTask(func() (int, error) {
		side := forkjoin.NewRecursiveAction(func() error { sideRan.Store(true); return nil }).Fork()
		_ = side
		exit := forkjoin.NewRecursiveTask(func() (int, error) { runtime.Goexit(); return 0, nil })
		return exit.Invoke()
	})
	if _, err := forkjoin.Invoke(p, outer); !errors.Is(err, executors.ErrGoexit) {
		t.Fatalf("Invoke = %v, want ErrGoexit", err)
	}
	eventually(t, "the side task ran", sideRan.Load)
	if v, err := forkjoin.Invoke(p, fib(12)); v != 144 || err != nil {
		t.Fatal(v, err)
	}
}

// A panic in a task completes it with a PanicError carrying the value and the stack; the
// worker survives.
func TestForkJoinTaskPanicBecomesPanicError(t *testing.T) {
	p := forkjoin.NewPool(1)
	defer closePool(t, p)
	f := forkjoin.NewRecursiveTask(func() (int, error) { panic("boom") })
	_, err := forkjoin.Invoke(p, f)
	var pe *executors.PanicError
	if !errors.As(err, &pe) || pe.Value != "boom" || !strings.Contains(string(pe.Stack), "pool_test.go") {
		t.Fatalf("Invoke = %v", err)
	}
	if p.PoolSize() != 1 {
		t.Fatalf("pool size %d", p.PoolSize())
	}
}

// ShutdownNow cancels queued tasks, interrupts running ones, and the pool terminates; it
// returns an empty list, as Java's.
func TestForkJoinPoolShutdownNowCancelsQueuedTasks(t *testing.T) {
	p := forkjoin.NewPool(1)
	started := locks.NewCountDownLatch(1)
	running := forkjoin.NewRecursiveAction(func() error {
		started.CountDown()
		return thread.Sleep(time.Hour)
	})
	mustNot(t, p.ExecuteTask(running))
	mustNot(t, started.Await())
	queued := fib(10)
	mustNot(t, p.ExecuteTask(queued))
	if got := p.ShutdownNow(); len(got) != 0 {
		t.Fatalf("ShutdownNow returned %d tasks", len(got))
	}
	if ok, err := p.AwaitTermination(longWait); !ok || err != nil {
		t.Fatalf("AwaitTermination = %v, %v", ok, err)
	}
	if _, err := running.Join(); !errors.Is(err, thread.ErrInterrupted) {
		t.Fatalf("running task: %v, want interrupted", err)
	}
	if !queued.IsCancelled() {
		t.Fatalf("queued task: %v", queued)
	}
}

// Shutdown lets queued and running tasks finish, including the subtasks they fork after it.
func TestForkJoinPoolShutdownRunsQueuedTasks(t *testing.T) {
	p := forkjoin.NewPool(2)
	gate := locks.NewCountDownLatch(1)
	first := forkjoin.NewRecursiveTask(func() (int, error) {
		_ = gate.Await()
		return fib(15).Invoke()
	})
	mustNot(t, p.ExecuteTask(first))
	queued := make([]*forkjoin.Task[int], 5)
	for i := range queued {
		queued[i] = fib(10 + i)
		mustNot(t, p.ExecuteTask(queued[i]))
	}
	p.Shutdown()
	if p.IsTerminated() || !p.IsTerminating() {
		t.Fatal("terminated with tasks queued")
	}
	gate.CountDown()
	if ok, err := p.AwaitTermination(longWait); !ok || err != nil {
		t.Fatalf("AwaitTermination = %v, %v: %v", ok, err, p)
	}
	if v, err := first.Get(); v != 610 || err != nil {
		t.Fatal(v, err)
	}
	for i, f := range queued {
		if v, err := f.Get(); err != nil || v != fibSeq(10+i) {
			t.Fatalf("queued %d: %v, %v", i, v, err)
		}
	}
}

func fibSeq(n int) int {
	if n <= 1 {
		return n
	}
	return fibSeq(n-1) + fibSeq(n-2)
}

// Java 19's CloseTest on a ForkJoinPool: Close waits for running tasks; an interrupt before or
// during Close turns it into ShutdownNow (tasks interrupted), Close still waits, and returns
// with the status set.
func TestForkJoinPoolClose(t *testing.T) {
	for _, when := range []string{"none", "before", "during"} {
		t.Run(when, func(t *testing.T) {
			onKinds(t, func(t *testing.T) {
				p := forkjoin.NewPool(2)
				started := locks.NewCountDownLatch(1)
				d := 50 * time.Millisecond
				if when != "none" {
					d = time.Hour
				}
				task := forkjoin.NewRecursiveTask(func() (string, error) {
					started.CountDown()
					if err := thread.Sleep(d); err != nil {
						return "", err
					}
					return "foo", nil
				})
				mustNot(t, p.ExecuteTask(task))
				mustNot(t, started.Await())
				switch when {
				case "before":
					thread.Current().Interrupt()
				case "during":
					me := thread.Current()
					go func() { time.Sleep(20 * time.Millisecond); me.Interrupt() }()
				}
				mustNot(t, p.Close())
				if !p.IsTerminated() || !p.IsShutdown() {
					t.Fatal("not terminated after Close")
				}
				v, err := task.Get()
				if when == "none" {
					if v != "foo" || err != nil || thread.Interrupted() {
						t.Fatalf("Get = %q, %v", v, err)
					}
					return
				}
				if !errors.Is(err, thread.ErrInterrupted) {
					t.Fatalf("task: %v, want interrupted", err)
				}
				if !thread.Interrupted() {
					t.Fatal("Close lost the interrupt status")
				}
				mustNot(t, p.Close()) // idempotent
			})
		})
	}
}

// Steals: tasks forked on one worker's deque are stolen by the others.
func TestForkJoinPoolStealCount(t *testing.T) {
	p := forkjoin.NewPool(4)
	defer closePool(t, p)
	var mu sync.Mutex
	ranOn := map[string]int{}
	root := forkjoin.NewRecursiveAction(func() error {
		var subs []*forkjoin.Task[struct{}]
		for range 200 {
			subs = append(subs, forkjoin.NewRecursiveAction(func() error {
				spin(100 * time.Microsecond)
				mu.Lock()
				ranOn[thread.Current().Name()]++
				mu.Unlock()
				return nil
			}).Fork())
		}
		for _, s := range subs {
			if _, err := s.Join(); err != nil {
				return err
			}
		}
		return nil
	})
	if _, err := forkjoin.Invoke(p, root); err != nil {
		t.Fatal(err)
	}
	if p.StealCount() < 1 || len(ranOn) < 2 {
		t.Fatalf("steals %d, ran on %v", p.StealCount(), ranOn)
	}
}

// spin busy-waits for d (a CPU-bound task body).
func spin(d time.Duration) {
	for start := time.Now(); time.Since(start) < d; {
	}
}

func TestForkJoinPoolString(t *testing.T) {
	p := forkjoin.NewPool(3)
	if s := p.String(); !regexp.MustCompile(`^ForkJoinPool@0x[0-9a-f]+\[Running, parallelism = 3, size = 0, active = 0, running = 0, steals = 0, tasks = 0, submissions = 0\]$`).MatchString(s) {
		t.Fatalf("String() = %q", s)
	}
	closePool(t, p)
	if s := p.String(); !strings.Contains(s, "[Terminated,") {
		t.Fatalf("String() = %q", s)
	}
}

// eventually polls cond until it holds, failing the test after longWait.
func eventually(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(longWait)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

// The panic of an Execute task that a worker runs while helping inside another task's join
// does not fail that other task: it goes to the uncaught-exception handler (the pool's, at
// once; else the thread's default one, once the worker's top-level task returns, ending that
// worker, which the pool replaces).
func TestForkJoinPoolExecutePanicWhileHelpingIsUncaughtNotTheJoinersFailure(t *testing.T) {
	for _, withHandler := range []bool{true, false} {
		t.Run(fmt.Sprint("pool handler ", withHandler), func(t *testing.T) {
			var got atomic.Value
			reported := locks.NewCountDownLatch(1)
			h := func(th *thread.Thread, v any) { got.Store(fmt.Sprintf("%s: %v", th.Name(), v)); reported.CountDown() }
			opts := forkjoin.PoolOptions{Parallelism: 1}
			if withHandler {
				opts.UncaughtExceptionHandler = h
			} else {
				thread.SetDefaultUncaughtExceptionHandler(h)
				defer thread.SetDefaultUncaughtExceptionHandler(nil)
			}
			p := forkjoin.NewPoolWithOptions(opts)
			defer closePool(t, p)
			x := forkjoin.NewRecursiveTask(func() (int, error) {
				y := fib(10).Fork()
				if err := forkjoin.CurrentPool().Execute(func() { panic("E") }); err != nil {
					return 0, err
				}
				return y.Join() // y is under the Execute task on the deque: the join helps with it first
			})
			if v, err := forkjoin.Invoke(p, x); v != 55 || err != nil {
				t.Fatalf("joiner: %v, %v", v, err)
			}
			mustNot(t, reported.Await())
			if s, _ := got.Load().(string); !regexp.MustCompile(`^ForkJoinPool-\d+-worker-1: E$`).MatchString(s) {
				t.Fatalf("handler got %q", s)
			}
			if v, err := forkjoin.Invoke(p, fib(12)); v != 144 || err != nil { // the pool goes on
				t.Fatal(v, err)
			}
		})
	}
}
