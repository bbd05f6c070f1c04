package forkjoin_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/loomgo/loom/executors"
	"github.com/loomgo/loom/forkjoin"
	"github.com/loomgo/loom/internal/testutil"
	"github.com/loomgo/loom/thread"
)

// Ports of the JSR-166 TCK's ForkJoinTaskTest. Most of its tests use BinaryAsyncAction, a
// ForkJoinTask subclass with its own completion protocol (exec returns false; subtasks
// complete their parents); asyncFib below ports it on NewTask. Each test runs on the TCK's
// main pool and on its singleton pool (the ...Singleton variants), invoked from a virtual and
// from a platform thread.

// asyncFib is the TCK's AsyncFib (and FailingAsyncFib when failing) on BinaryAsyncAction.
type asyncFib struct {
	t               *forkjoin.Task[struct{}]
	number          atomic.Int64
	parent, sibling atomic.Pointer[asyncFib]
	controlState    atomic.Int32
	failing         bool
}

func newAsyncFib(n int, failing bool) *asyncFib {
	f := &asyncFib{failing: failing}
	f.number.Store(int64(n))
	f.t = forkjoin.NewTask(func(*forkjoin.Task[struct{}]) bool { f.exec(); return false })
	return f
}

func (a *asyncFib) exec() {
	f := a
	n := f.number.Load()
	for n > 1 {
		p := f
		r := newAsyncFib(int(n-2), a.failing)
		n--
		f = newAsyncFib(int(n), a.failing)
		p.linkSubtasks(r, f)
		r.t.Fork()
	}
	f.complete()
}

func (a *asyncFib) linkSubtasks(x, y *asyncFib) {
	x.parent.Store(a)
	y.parent.Store(a)
	x.sibling.Store(y)
	y.sibling.Store(x)
}

func (a *asyncFib) onComplete(x, y *asyncFib) {
	if a.failing {
		a.completeExceptionally(errFJ)
		return
	}
	a.number.Store(x.number.Load() + y.number.Load())
}

// complete is BinaryAsyncAction.complete: complete this task, and the parent once both of its
// subtasks are complete.
func (a *asyncFib) complete() {
	for {
		s, p := a.sibling.Swap(nil), a.parent.Swap(nil)
		a.t.Complete(struct{}{})
		if p == nil || p.controlState.CompareAndSwap(0, 1) {
			return
		}
		p.onComplete(a, s)
		a = p
	}
}

func (a *asyncFib) completeExceptionally(err error) {
	for x := a; x != nil; x = x.parent.Load() {
		x.t.CompleteExceptionally(err)
		if s := x.sibling.Load(); s != nil && !s.t.IsDone() {
			s.completeExceptionally(err)
		}
	}
}

// cancel is BinaryAsyncAction.cancel: a cancelled task also fails its relatives.
func (a *asyncFib) cancel() bool {
	if a.t.Cancel(true) {
		a.completeExceptionally(errFJ)
		return true
	}
	return false
}

// forPools runs body (the realCompute of a CheckedRecursiveAction) invoked on the main pool and
// on the singleton pool, from a virtual and from a platform thread.
func forPools(t *testing.T, body func(t *testing.T)) {
	for _, pool := range []struct {
		name string
		make func() *forkjoin.Pool
	}{{"main", mainPool}, {"singleton", singletonPool}} {
		t.Run(pool.name, func(t *testing.T) {
			onKinds(t, func(t *testing.T) { testInvokeOnPool(t, pool.make(), checkedAction(func() { body(t) })) })
		})
	}
}

func checkFib(t *testing.T, f *asyncFib, want int64) {
	t.Helper()
	if got := f.number.Load(); got != want {
		t.Fatalf("fib = %d, want %d", got, want)
	}
	checkCompletedNormally(t, f.t, struct{}{})
}

func TestForkJoinTask_testInvoke(t *testing.T) {
	forPools(t, func(t *testing.T) {
		f := newAsyncFib(8, false)
		if _, err := f.t.Invoke(); err != nil {
			t.Fatal(err)
		}
		checkFib(t, f, 21)
	})
}

func TestForkJoinTask_testQuietlyInvoke(t *testing.T) {
	forPools(t, func(t *testing.T) {
		f := newAsyncFib(8, false)
		f.t.QuietlyInvoke()
		checkFib(t, f, 21)
	})
}

func TestForkJoinTask_testForkJoin(t *testing.T) {
	forPools(t, func(t *testing.T) {
		f := newAsyncFib(8, false)
		if f.t.Fork() != f.t {
			t.Fatal("Fork must return the task")
		}
		if _, err := f.t.Join(); err != nil {
			t.Fatal(err)
		}
		checkFib(t, f, 21)
	})
}

func TestForkJoinTask_testForkGet(t *testing.T) {
	forPools(t, func(t *testing.T) {
		f := newAsyncFib(8, false)
		f.t.Fork()
		if _, err := f.t.Get(); err != nil {
			t.Fatal(err)
		}
		checkFib(t, f, 21)
	})
}

func TestForkJoinTask_testForkTimedGet(t *testing.T) {
	forPools(t, func(t *testing.T) {
		f := newAsyncFib(8, false)
		f.t.Fork()
		if _, err := f.t.GetTimeout(longWait); err != nil {
			t.Fatal(err)
		}
		checkFib(t, f, 21)
	})
}

func TestForkJoinTask_testForkQuietlyJoin(t *testing.T) {
	forPools(t, func(t *testing.T) {
		f := newAsyncFib(8, false)
		f.t.Fork()
		f.t.QuietlyJoin()
		checkFib(t, f, 21)
	})
}

func TestForkJoinTask_testForkHelpQuiesce(t *testing.T) {
	forPools(t, func(t *testing.T) {
		f := newAsyncFib(8, false)
		f.t.Fork()
		forkjoin.HelpQuiesce()
		if forkjoin.QueuedTaskCount() != 0 {
			t.Fatalf("QueuedTaskCount = %d after HelpQuiesce", forkjoin.QueuedTaskCount())
		}
		checkFib(t, f, 21)
	})
}

func TestForkJoinTask_testAbnormalInvoke(t *testing.T) {
	forPools(t, func(t *testing.T) {
		f := newAsyncFib(8, true)
		if _, err := f.t.Invoke(); !errors.Is(err, errFJ) {
			t.Fatalf("Invoke = %v", err)
		}
		checkCompletedAbnormally(t, f.t, errFJ)
	})
}

func TestForkJoinTask_testAbnormalQuietlyInvoke(t *testing.T) {
	forPools(t, func(t *testing.T) {
		f := newAsyncFib(8, true)
		f.t.QuietlyInvoke()
		checkCompletedAbnormally(t, f.t, errFJ)
	})
}

func TestForkJoinTask_testAbnormalForkJoin(t *testing.T) {
	forPools(t, func(t *testing.T) {
		f := newAsyncFib(8, true)
		f.t.Fork()
		if _, err := f.t.Join(); !errors.Is(err, errFJ) {
			t.Fatalf("Join = %v", err)
		}
		checkCompletedAbnormally(t, f.t, errFJ)
	})
}

func TestForkJoinTask_testAbnormalForkGet(t *testing.T) {
	forPools(t, func(t *testing.T) {
		f := newAsyncFib(8, true)
		f.t.Fork()
		var ee *executors.ExecutionError
		if _, err := f.t.Get(); !errors.As(err, &ee) || !errors.Is(ee.Cause, errFJ) {
			t.Fatalf("Get = %v", err)
		}
		checkCompletedAbnormally(t, f.t, errFJ)
	})
}

func TestForkJoinTask_testAbnormalForkTimedGet(t *testing.T) {
	forPools(t, func(t *testing.T) {
		f := newAsyncFib(8, true)
		f.t.Fork()
		var ee *executors.ExecutionError
		if _, err := f.t.GetTimeout(longWait); !errors.As(err, &ee) || !errors.Is(ee.Cause, errFJ) {
			t.Fatalf("GetTimeout = %v", err)
		}
		checkCompletedAbnormally(t, f.t, errFJ)
	})
}

func TestForkJoinTask_testAbnormalForkQuietlyJoin(t *testing.T) {
	forPools(t, func(t *testing.T) {
		f := newAsyncFib(8, true)
		f.t.Fork()
		f.t.QuietlyJoin()
		checkCompletedAbnormally(t, f.t, errFJ)
	})
}

func TestForkJoinTask_testCancelledInvoke(t *testing.T) {
	forPools(t, func(t *testing.T) {
		f := newAsyncFib(8, false)
		if !f.cancel() {
			t.Fatal("cancel")
		}
		if _, err := f.t.Invoke(); !errors.Is(err, executors.ErrCancelled) {
			t.Fatalf("Invoke = %v", err)
		}
		checkCancelled(t, f.t)
	})
}

func TestForkJoinTask_testCancelledForkJoin(t *testing.T) {
	forPools(t, func(t *testing.T) {
		f := newAsyncFib(8, false)
		f.cancel()
		f.t.Fork()
		if _, err := f.t.Join(); !errors.Is(err, executors.ErrCancelled) {
			t.Fatalf("Join = %v", err)
		}
		checkCancelled(t, f.t)
	})
}

func TestForkJoinTask_testCancelledForkGet(t *testing.T) {
	forPools(t, func(t *testing.T) {
		f := newAsyncFib(8, false)
		f.cancel()
		f.t.Fork()
		if _, err := f.t.Get(); !errors.Is(err, executors.ErrCancelled) {
			t.Fatalf("Get = %v", err)
		}
		if _, err := f.t.GetTimeout(longWait); !errors.Is(err, executors.ErrCancelled) { // testCancelledForkTimedGet
			t.Fatalf("GetTimeout = %v", err)
		}
		checkCancelled(t, f.t)
	})
}

func TestForkJoinTask_testCancelledForkQuietlyJoin(t *testing.T) {
	forPools(t, func(t *testing.T) {
		f := newAsyncFib(8, false)
		f.cancel()
		f.t.Fork()
		f.t.QuietlyJoin()
		checkCancelled(t, f.t)
	})
}

func TestForkJoinTask_testGetPool(t *testing.T) {
	p := mainPool()
	testInvokeOnPool(t, p, checkedAction(func() {
		if forkjoin.CurrentPool() != p || !forkjoin.InPool() { // testInForkJoinPool
			t.Error("CurrentPool in a task of p")
		}
	}))
}

func TestForkJoinTask_testGetPool2(t *testing.T) {
	onKinds(t, func(t *testing.T) {
		a := checkedAction(func() {
			if forkjoin.CurrentPool() != nil || forkjoin.InPool() { // testInForkJoinPool2
				t.Error("CurrentPool outside a pool")
			}
		})
		if _, err := a.Invoke(); err != nil {
			t.Fatal(err)
		}
	})
}

func TestForkJoinTask_testSetRawResult(t *testing.T) {
	a := forkjoin.NewTask(func(a *forkjoin.Task[string]) bool {
		a.SetRawResult("set")
		return true
	})
	if v, err := a.Invoke(); v != "set" || err != nil {
		t.Fatalf("Invoke = %q, %v", v, err)
	}
	if a.RawResult() != "set" {
		t.Fatalf("RawResult = %q", a.RawResult())
	}
}

func TestForkJoinTask_testCompleteExceptionally(t *testing.T) {
	forPools(t, func(t *testing.T) {
		f := newAsyncFib(8, false)
		f.completeExceptionally(errFJ)
		if _, err := f.t.Invoke(); !errors.Is(err, errFJ) {
			t.Fatalf("Invoke = %v", err)
		}
		checkCompletedAbnormally(t, f.t, errFJ)
	})
}

// CompleteExceptionally(nil) records a generic error, as Java's records a RuntimeException.
func TestForkJoinTask_testCompleteExceptionally_null(t *testing.T) {
	forPools(t, func(t *testing.T) {
		f := newAsyncFib(8, false)
		f.t.CompleteExceptionally(nil)
		_, err := f.t.Invoke()
		if err == nil {
			t.Fatal("Invoke succeeded")
		}
		checkCompletedAbnormally(t, f.t, err)
	})
}

func shuffled(ts ...forkjoin.AnyTask) []forkjoin.AnyTask {
	rand.Shuffle(len(ts), func(i, j int) { ts[i], ts[j] = ts[j], ts[i] })
	return ts
}

func TestForkJoinTask_testInvokeAll(t *testing.T) {
	forPools(t, func(t *testing.T) {
		f, g, h := newAsyncFib(8, false), newAsyncFib(9, false), newAsyncFib(7, false)
		if err := forkjoin.InvokeAll(f.t); err != nil { // testInvokeAll1
			t.Fatal(err)
		}
		checkFib(t, f, 21)
		f = newAsyncFib(8, false)
		if err := forkjoin.InvokeAll(f.t, g.t); err != nil { // testInvokeAll2
			t.Fatal(err)
		}
		checkFib(t, f, 21)
		checkFib(t, g, 34)
		f, g = newAsyncFib(8, false), newAsyncFib(9, false)
		if err := forkjoin.InvokeAll(f.t, g.t, h.t); err != nil { // testInvokeAll3
			t.Fatal(err)
		}
		checkFib(t, f, 21)
		checkFib(t, g, 34)
		checkFib(t, h, 13)
		f, g, h = newAsyncFib(8, false), newAsyncFib(9, false), newAsyncFib(7, false)
		if err := forkjoin.InvokeAllTasks([]*forkjoin.Task[struct{}]{f.t, g.t, h.t}); err != nil { // testInvokeAllCollection
			t.Fatal(err)
		}
		checkFib(t, f, 21)
		checkFib(t, g, 34)
		checkFib(t, h, 13)
		if err := forkjoin.InvokeAll(); err != nil {
			t.Fatal(err)
		}
	})
}

func TestForkJoinTask_testInvokeAllNPE(t *testing.T) {
	forPools(t, func(t *testing.T) {
		f, g := newAsyncFib(8, false), newAsyncFib(9, false)
		testutil.MustPanic(t, thread.ErrNilArgument, func() { _ = forkjoin.InvokeAll(f.t, g.t, nil) })
	})
}

func TestForkJoinTask_testAbnormalInvokeAll(t *testing.T) {
	forPools(t, func(t *testing.T) {
		g := newAsyncFib(9, true)
		if err := forkjoin.InvokeAll(g.t); !errors.Is(err, errFJ) { // testAbnormalInvokeAll1
			t.Fatalf("InvokeAll = %v", err)
		}
		checkCompletedAbnormally(t, g.t, errFJ)
		g = newAsyncFib(9, true)
		if err := forkjoin.InvokeAll(shuffled(newAsyncFib(8, false).t, g.t)...); !errors.Is(err, errFJ) { // 2
			t.Fatalf("InvokeAll = %v", err)
		}
		checkCompletedAbnormally(t, g.t, errFJ)
		g = newAsyncFib(9, true)
		if err := forkjoin.InvokeAll(shuffled(newAsyncFib(8, false).t, g.t, newAsyncFib(7, false).t)...); !errors.Is(err, errFJ) { // 3
			t.Fatalf("InvokeAll = %v", err)
		}
		checkCompletedAbnormally(t, g.t, errFJ)
		f := newAsyncFib(8, true)
		all := []*forkjoin.Task[struct{}]{f.t, newAsyncFib(9, false).t, newAsyncFib(7, false).t}
		rand.Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })
		if err := forkjoin.InvokeAllTasks(all); !errors.Is(err, errFJ) { // testAbnormalInvokeAllCollection
			t.Fatalf("InvokeAllTasks = %v", err)
		}
		checkCompletedAbnormally(t, f.t, errFJ)
	})
}

func TestForkJoinTask_testTryUnfork(t *testing.T) {
	testInvokeOnPool(t, singletonPool(), checkedAction(func() {
		g := newAsyncFib(9, false)
		g.t.Fork()
		f := newAsyncFib(8, false)
		f.t.Fork()
		if !f.t.TryUnfork() {
			t.Error("TryUnfork of the newest task")
		}
		forkjoin.HelpQuiesce()
		checkNotDone(t, f.t)
		checkFib(t, g, 34)
	}))
}

func TestForkJoinTask_testGetSurplusQueuedTaskCount(t *testing.T) {
	testInvokeOnPool(t, singletonPool(), checkedAction(func() {
		h, g, f := newAsyncFib(7, false), newAsyncFib(9, false), newAsyncFib(8, false)
		h.t.Fork()
		g.t.Fork()
		f.t.Fork()
		if forkjoin.SurplusQueuedTaskCount() <= 0 {
			t.Error("SurplusQueuedTaskCount with 3 queued tasks and 1 worker")
		}
		forkjoin.HelpQuiesce()
		if n := forkjoin.SurplusQueuedTaskCount(); n != 0 {
			t.Errorf("SurplusQueuedTaskCount after HelpQuiesce = %d", n)
		}
		checkFib(t, f, 21)
		checkFib(t, g, 34)
		checkFib(t, h, 13)
	}))
}

func TestForkJoinTask_testPeekNextLocalTask(t *testing.T) {
	testInvokeOnPool(t, singletonPool(), checkedAction(func() {
		g, f := newAsyncFib(9, false), newAsyncFib(8, false)
		g.t.Fork()
		f.t.Fork()
		if forkjoin.PeekNextLocalTask() != forkjoin.AnyTask(f.t) {
			t.Error("PeekNextLocalTask is not the newest task")
		}
		if _, err := f.t.Join(); err != nil {
			t.Error(err)
		}
		checkFib(t, f, 21)
		forkjoin.HelpQuiesce()
		checkFib(t, g, 34)
	}))
}

func TestForkJoinTask_testPollNextLocalTask(t *testing.T) {
	testInvokeOnPool(t, singletonPool(), checkedAction(func() {
		g, f := newAsyncFib(9, false), newAsyncFib(8, false)
		g.t.Fork()
		f.t.Fork()
		if forkjoin.PollNextLocalTask() != forkjoin.AnyTask(f.t) {
			t.Error("PollNextLocalTask is not the newest task")
		}
		forkjoin.HelpQuiesce()
		checkNotDone(t, f.t)
		checkFib(t, g, 34)
	}))
}

func TestForkJoinTask_testPollTask(t *testing.T) {
	testInvokeOnPool(t, singletonPool(), checkedAction(func() {
		g, f := newAsyncFib(9, false), newAsyncFib(8, false)
		g.t.Fork()
		f.t.Fork()
		if forkjoin.PollTask() != forkjoin.AnyTask(f.t) {
			t.Error("PollTask is not the newest task")
		}
		forkjoin.HelpQuiesce()
		checkNotDone(t, f.t)
		checkFib(t, g, 34)
	}))
}

func TestForkJoinTask_testPeekNextLocalTaskAsync(t *testing.T) {
	testInvokeOnPool(t, asyncSingletonPool(), checkedAction(func() {
		g, f := newAsyncFib(9, false), newAsyncFib(8, false)
		g.t.Fork()
		f.t.Fork()
		if forkjoin.PeekNextLocalTask() != forkjoin.AnyTask(g.t) {
			t.Error("PeekNextLocalTask in async mode is not the oldest task")
		}
		if _, err := f.t.Join(); err != nil {
			t.Error(err)
		}
		forkjoin.HelpQuiesce()
		checkFib(t, f, 21)
		checkFib(t, g, 34)
	}))
}

func TestForkJoinTask_testPollNextLocalTaskAsync(t *testing.T) {
	testInvokeOnPool(t, asyncSingletonPool(), checkedAction(func() {
		g, f := newAsyncFib(9, false), newAsyncFib(8, false)
		g.t.Fork()
		f.t.Fork()
		if forkjoin.PollNextLocalTask() != forkjoin.AnyTask(g.t) {
			t.Error("PollNextLocalTask in async mode is not the oldest task")
		}
		forkjoin.HelpQuiesce()
		checkFib(t, f, 21)
		checkNotDone(t, g.t)
	}))
}

func TestForkJoinTask_testPollTaskAsync(t *testing.T) {
	testInvokeOnPool(t, asyncSingletonPool(), checkedAction(func() {
		g, f := newAsyncFib(9, false), newAsyncFib(8, false)
		g.t.Fork()
		f.t.Fork()
		if forkjoin.PollTask() != forkjoin.AnyTask(g.t) {
			t.Error("PollTask in async mode is not the oldest task")
		}
		forkjoin.HelpQuiesce()
		checkFib(t, f, 21)
		checkNotDone(t, g.t)
	}))
}

func TestForkJoinTask_testQuietlyComplete(t *testing.T) {
	forPools(t, func(t *testing.T) {
		f := newAsyncFib(8, false)
		f.t.QuietlyComplete()
		checkFib(t, f, 8)
	})
}

func TestForkJoinTask_testAdapt_toString(t *testing.T) {
	for _, task := range []interface{ String() string }{
		forkjoin.AdaptRunnable(func() {}),
		forkjoin.Adapt(func() (string, error) { return "", nil }),
	} {
		if s := task.String(); !strings.HasPrefix(s, "ForkJoinTask@") || !strings.Contains(s, "[Wrapped task = 0x") {
			t.Errorf("String() = %q", s)
		}
	}
	a := forkjoin.NewRecursiveTask(func() (int, error) { return 1, nil })
	if s := a.String(); !strings.HasSuffix(s, "[Not completed]") {
		t.Errorf("String() = %q", s)
	}
	_, _ = a.Invoke()
	if s := a.String(); !strings.HasSuffix(s, "[Completed normally]") {
		t.Errorf("String() = %q", s)
	}
}

// A task's outcome is visible to ResultNow and ExceptionNow with Java's IllegalStateException
// cases (executors.Future).
func TestForkJoinTaskResultNowExceptionNow(t *testing.T) {
	ok := forkjoin.NewRecursiveTask(func() (int, error) { return 7, nil })
	testutil.MustPanic(t, executors.ErrIllegalState, func() { ok.ResultNow() })
	testutil.MustPanic(t, executors.ErrIllegalState, func() { _ = ok.ExceptionNow() })
	_, _ = ok.Invoke()
	if ok.ResultNow() != 7 {
		t.Fatal("ResultNow")
	}
	testutil.MustPanic(t, executors.ErrIllegalState, func() { _ = ok.ExceptionNow() })
	bad := forkjoin.NewRecursiveTask(func() (int, error) { return 0, errFJ })
	_, _ = bad.Invoke()
	testutil.MustPanic(t, executors.ErrIllegalState, func() { bad.ResultNow() })
	if !errors.Is(bad.ExceptionNow(), errFJ) {
		t.Fatal("ExceptionNow")
	}
	c := forkjoin.NewRecursiveTask(func() (int, error) { return 0, nil })
	c.Cancel(false)
	testutil.MustPanic(t, executors.ErrIllegalState, func() { c.ResultNow() })
	testutil.MustPanic(t, executors.ErrIllegalState, func() { _ = c.ExceptionNow() })
}

// Get on a task that is not done honours a pending or a later interrupt (external threads).
func TestForkJoinTaskGetIsInterruptible(t *testing.T) {
	p := forkjoin.NewPool(1)
	defer closePool(t, p)
	release := make(chan struct{})
	blocker := forkjoin.NewRecursiveAction(func() error { <-release; return nil })
	if err := p.ExecuteTask(blocker); err != nil {
		t.Fatal(err)
	}
	for _, k := range kinds {
		for _, get := range []func() (struct{}, error){
			blocker.Get,
			func() (struct{}, error) { return blocker.GetTimeout(math.MaxInt64) }, // forever: no overflow
		} {
			th := k.start(func() {
				if _, err := get(); !errors.Is(err, thread.ErrInterrupted) {
					t.Errorf("Get = %v, want ErrInterrupted", err)
				}
				if thread.Interrupted() {
					t.Error("status left set")
				}
			})
			for th.State() != thread.Waiting && th.State() != thread.TimedWaiting {
				time.Sleep(time.Millisecond)
			}
			th.Interrupt()
			testutil.Join(t, th)
		}
	}
	close(release)
	if _, err := blocker.GetTimeout(longWait); err != nil {
		t.Fatal(err)
	}
}
