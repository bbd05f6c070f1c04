package forkjoin_test

import (
	"errors"
	"math/rand/v2"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/loomgo/loom/executors"
	"github.com/loomgo/loom/forkjoin"
	"github.com/loomgo/loom/internal/testutil"
	"github.com/loomgo/loom/thread"
)

// Ports of the JSR-166 TCK's RecursiveTaskTest and RecursiveActionTest, on the main and
// singleton pools, invoked from a virtual and from a platform thread. The methods they share
// with ForkJoinTaskTest are here run on RecursiveTask (fib) and RecursiveAction (fibAction).

// failingFib is the TCK's FailingFibTask: it fails in its base case.
func failingFib(n int) *forkjoin.Task[int] {
	return forkjoin.NewRecursiveTask(func() (int, error) {
		if n <= 1 {
			return 0, errFJ
		}
		f1 := failingFib(n - 1).Fork()
		r2, err := fib(n - 2).Invoke()
		if err != nil {
			return 0, err
		}
		r1, err := f1.Join()
		return r1 + r2, err
	})
}

// fibAction is the TCK's FibAction (RecursiveActionTest): it stores its result in a field.
type fibAction struct {
	t      *forkjoin.Task[struct{}]
	result atomic.Int64
}

func newFibAction(n int, failing bool) *fibAction {
	f := &fibAction{}
	f.t = forkjoin.NewRecursiveAction(func() error {
		if n <= 1 {
			if failing {
				return errFJ
			}
			f.result.Store(int64(n))
			return nil
		}
		f1, f2 := newFibAction(n-1, failing), newFibAction(n-2, failing)
		if err := forkjoin.InvokeAll(f1.t, f2.t); err != nil {
			return err
		}
		f.result.Store(f1.result.Load() + f2.result.Load())
		return nil
	})
	return f
}

func TestRecursiveTask_testInvoke(t *testing.T) {
	forPools(t, func(t *testing.T) {
		f := fib(8)
		if v, err := f.Invoke(); v != 21 || err != nil {
			t.Fatalf("Invoke = %d, %v", v, err)
		}
		checkCompletedNormally(t, f, 21)
		f = fib(8)
		f.QuietlyInvoke() // testQuietlyInvoke
		checkCompletedNormally(t, f, 21)
	})
}

func TestRecursiveTask_testForkJoin(t *testing.T) {
	forPools(t, func(t *testing.T) {
		f := fib(8).Fork()
		if v, err := f.Join(); v != 21 || err != nil {
			t.Fatalf("Join = %d, %v", v, err)
		}
		checkCompletedNormally(t, f, 21)
		f = fib(8).Fork() // testForkGet
		if v, err := f.Get(); v != 21 || err != nil {
			t.Fatalf("Get = %d, %v", v, err)
		}
		f = fib(8).Fork() // testForkTimedGet
		if v, err := f.GetTimeout(longWait); v != 21 || err != nil {
			t.Fatalf("GetTimeout = %d, %v", v, err)
		}
		f = fib(8).Fork() // testForkQuietlyJoin
		f.QuietlyJoin()
		checkCompletedNormally(t, f, 21)
	})
}

func TestRecursiveTask_testForkHelpQuiesce(t *testing.T) {
	forPools(t, func(t *testing.T) {
		f := fib(8).Fork()
		forkjoin.HelpQuiesce()
		if forkjoin.QueuedTaskCount() != 0 {
			t.Fatalf("QueuedTaskCount = %d", forkjoin.QueuedTaskCount())
		}
		checkCompletedNormally(t, f, 21)
	})
}

func TestRecursiveTask_testAbnormal(t *testing.T) {
	forPools(t, func(t *testing.T) {
		f := failingFib(8)
		if _, err := f.Invoke(); !errors.Is(err, errFJ) { // testAbnormalInvoke
			t.Fatalf("Invoke = %v", err)
		}
		checkCompletedAbnormally(t, f, errFJ)
		f = failingFib(8)
		f.QuietlyInvoke() // testAbnormalQuietlyInvoke
		checkCompletedAbnormally(t, f, errFJ)
		f = failingFib(8).Fork() // testAbnormalForkJoin
		if _, err := f.Join(); !errors.Is(err, errFJ) {
			t.Fatalf("Join = %v", err)
		}
		checkCompletedAbnormally(t, f, errFJ)
		f = failingFib(8).Fork() // testAbnormalForkGet
		var ee *executors.ExecutionError
		if _, err := f.Get(); !errors.As(err, &ee) || !errors.Is(ee.Cause, errFJ) {
			t.Fatalf("Get = %v", err)
		}
		f = failingFib(8).Fork() // testAbnormalForkTimedGet
		if _, err := f.GetTimeout(longWait); !errors.As(err, &ee) || !errors.Is(ee.Cause, errFJ) {
			t.Fatalf("GetTimeout = %v", err)
		}
		f = failingFib(8).Fork() // testAbnormalForkQuietlyJoin
		f.QuietlyJoin()
		checkCompletedAbnormally(t, f, errFJ)
	})
}

func TestRecursiveTask_testCancelled(t *testing.T) {
	forPools(t, func(t *testing.T) {
		f := fib(8)
		if !f.Cancel(true) {
			t.Fatal("Cancel")
		}
		if _, err := f.Invoke(); !errors.Is(err, executors.ErrCancelled) { // testCancelledInvoke
			t.Fatalf("Invoke = %v", err)
		}
		checkCancelled(t, f)
		for _, wait := range []func(*forkjoin.Task[int]) error{
			func(f *forkjoin.Task[int]) error { _, err := f.Join(); return err },                 // testCancelledForkJoin
			func(f *forkjoin.Task[int]) error { _, err := f.Get(); return err },                  // testCancelledForkGet
			func(f *forkjoin.Task[int]) error { _, err := f.GetTimeout(longWait); return err },   // testCancelledForkTimedGet
			func(f *forkjoin.Task[int]) error { f.QuietlyJoin(); return executors.ErrCancelled }, // testCancelledForkQuietlyJoin
		} {
			f := fib(8)
			f.Cancel(true)
			if err := wait(f.Fork()); !errors.Is(err, executors.ErrCancelled) {
				t.Fatalf("wait = %v", err)
			}
			checkCancelled(t, f)
		}
	})
}

func TestRecursiveTask_testSetRawResult(t *testing.T) {
	f := forkjoin.NewTask(func(f *forkjoin.Task[int]) bool {
		f.SetRawResult(42) // publicSetRawResult
		return true
	})
	if v, err := f.Invoke(); v != 42 || err != nil {
		t.Fatal(v, err)
	}
	f.SetRawResult(7) // after completion: ignored
	checkCompletedNormally(t, f, 42)
}

func TestRecursiveTask_testCompleteExceptionally(t *testing.T) {
	forPools(t, func(t *testing.T) {
		f := fib(8)
		f.CompleteExceptionally(errFJ)
		if _, err := f.Invoke(); !errors.Is(err, errFJ) {
			t.Fatalf("Invoke = %v", err)
		}
		checkCompletedAbnormally(t, f, errFJ)
	})
}

// testComplete: a task completed before it runs keeps the value it was completed with.
func TestRecursiveTask_testComplete(t *testing.T) {
	forPools(t, func(t *testing.T) {
		f := fib(8)
		f.Complete(-17)
		if v, err := f.Invoke(); v != -17 || err != nil {
			t.Fatalf("Invoke = %d, %v", v, err)
		}
		checkCompletedNormally(t, f, -17)
	})
}

func TestRecursiveTask_testInvokeAll(t *testing.T) {
	forPools(t, func(t *testing.T) {
		f, g, h := fib(8), fib(9), fib(7)
		if err := forkjoin.InvokeAll(f, g, h); err != nil {
			t.Fatal(err)
		}
		checkCompletedNormally(t, f, 21)
		checkCompletedNormally(t, g, 34)
		checkCompletedNormally(t, h, 13)
		g = failingFib(9)
		if err := forkjoin.InvokeAll(shuffled(fib(8), g, fib(7))...); !errors.Is(err, errFJ) { // testAbnormalInvokeAll3
			t.Fatalf("InvokeAll = %v", err)
		}
		checkCompletedAbnormally(t, g, errFJ)
		testutil.MustPanic(t, thread.ErrNilArgument, func() { _ = forkjoin.InvokeAll(fib(8), nil) }) // testInvokeAllNPE
	})
}

func TestRecursiveTask_testTryUnfork(t *testing.T) {
	testInvokeOnPool(t, singletonPool(), checkedAction(func() {
		g := fib(9).Fork()
		f := fib(8).Fork()
		if !f.TryUnfork() {
			t.Error("TryUnfork")
		}
		forkjoin.HelpQuiesce()
		checkNotDone(t, f)
		checkCompletedNormally(t, g, 34)
	}))
}

func TestRecursiveTask_testPollAndPeek(t *testing.T) {
	for _, async := range []bool{false, true} {
		p := forkjoin.NewPoolWithOptions(forkjoin.PoolOptions{Parallelism: 1, AsyncMode: async})
		testInvokeOnPool(t, p, checkedAction(func() {
			g := fib(9).Fork()
			f := fib(8).Fork()
			next, other := f, g // LIFO: the newest first
			if async {
				next, other = g, f // FIFO
			}
			if forkjoin.PeekNextLocalTask() != forkjoin.AnyTask(next) {
				t.Errorf("async %v: PeekNextLocalTask", async)
			}
			if forkjoin.PollTask() != forkjoin.AnyTask(next) {
				t.Errorf("async %v: PollTask", async)
			}
			forkjoin.HelpQuiesce()
			checkNotDone(t, next)
			checkCompletedNormally(t, other, other.ResultNow())
		}))
	}
}

func TestRecursiveAction_testInvoke(t *testing.T) {
	forPools(t, func(t *testing.T) {
		f := newFibAction(8, false)
		if _, err := f.t.Invoke(); err != nil || f.result.Load() != 21 {
			t.Fatalf("Invoke = %v, result %d", err, f.result.Load())
		}
		checkCompletedNormally(t, f.t, struct{}{})
		f = newFibAction(8, false)
		f.t.QuietlyInvoke() // testQuietlyInvoke
		if f.result.Load() != 21 {
			t.Fatalf("QuietlyInvoke: result %d", f.result.Load())
		}
	})
}

func TestRecursiveAction_testAbnormal(t *testing.T) {
	forPools(t, func(t *testing.T) {
		f := newFibAction(8, true)
		if _, err := f.t.Fork().Join(); !errors.Is(err, errFJ) {
			t.Fatalf("Join = %v", err)
		}
		checkCompletedAbnormally(t, f.t, errFJ)
	})
}

// testJoinIgnoresInterrupts: Join and QuietlyJoin complete, in a pool, with the interrupt status
// set, and leave it set.
func TestRecursiveAction_testJoinIgnoresInterrupts(t *testing.T) {
	forPools(t, func(t *testing.T) {
		me := thread.Current()
		f := newFibAction(8, false)
		f.t.Fork()
		me.Interrupt()
		if _, err := f.t.Join(); err != nil || f.result.Load() != 21 {
			t.Fatalf("Join = %v", err)
		}
		if !thread.Interrupted() {
			t.Fatal("status lost")
		}
		f.t.Reinitialize()
		f.t.Cancel(true)
		f.t.Fork()
		me.Interrupt()
		if _, err := f.t.Join(); !errors.Is(err, executors.ErrCancelled) {
			t.Fatalf("Join = %v", err)
		}
		thread.Interrupted()
		checkCancelled(t, f.t)
		f.t.Reinitialize()
		f.t.CompleteExceptionally(errFJ)
		f.t.Fork()
		me.Interrupt()
		if _, err := f.t.Join(); !errors.Is(err, errFJ) {
			t.Fatalf("Join = %v", err)
		}
		thread.Interrupted()
		checkCompletedAbnormally(t, f.t, errFJ)
		f = newFibAction(8, false) // quietlyJoin
		f.t.Fork()
		me.Interrupt()
		f.t.QuietlyJoin()
		if !thread.Interrupted() || f.result.Load() != 21 {
			t.Fatal("QuietlyJoin")
		}
	})
}

// testJoinIgnoresInterruptsOutsideForkJoinPool: Join from a thread outside the pool is not
// interruptible either; the status is kept.
func TestRecursiveAction_testJoinIgnoresInterruptsOutsideForkJoinPool(t *testing.T) {
	onKinds(t, func(t *testing.T) {
		f := newFibAction(16, false)
		f.t.Fork() // the common pool
		thread.Current().Interrupt()
		if _, err := f.t.Join(); err != nil || f.result.Load() != 987 {
			t.Fatalf("Join = %v, %d", err, f.result.Load())
		}
		if !thread.Interrupted() {
			t.Fatal("status lost")
		}
	})
}

// testReinitialize, testReinitializeAbnormal: a reinitialized task runs again.
func TestRecursiveAction_testReinitialize(t *testing.T) {
	forPools(t, func(t *testing.T) {
		f := newFibAction(8, false)
		checkNotDone(t, f.t)
		for range 3 {
			if _, err := f.t.Invoke(); err != nil || f.result.Load() != 21 {
				t.Fatalf("Invoke = %v", err)
			}
			checkCompletedNormally(t, f.t, struct{}{})
			f.t.Reinitialize()
			checkNotDone(t, f.t)
		}
		g := newFibAction(8, true)
		for range 3 {
			if _, err := g.t.Invoke(); !errors.Is(err, errFJ) {
				t.Fatalf("Invoke = %v", err)
			}
			checkCompletedAbnormally(t, g.t, errFJ)
			g.t.Reinitialize()
			checkNotDone(t, g.t)
		}
	})
}

// testSortTaskDemo: the RecursiveAction javadoc's merge sort.
func TestRecursiveAction_testSortTaskDemo(t *testing.T) {
	const threshold = 100
	var sortTask func(a, buf []int64) *forkjoin.Task[struct{}]
	sortTask = func(a, buf []int64) *forkjoin.Task[struct{}] {
		return forkjoin.NewRecursiveAction(func() error {
			if len(a) < threshold {
				slices.Sort(a)
				return nil
			}
			mid := len(a) / 2
			if err := forkjoin.InvokeAll(sortTask(a[:mid], buf[:mid]), sortTask(a[mid:], buf[mid:])); err != nil {
				return err
			}
			copy(buf, a[:mid]) // merge
			i, j, k := 0, mid, 0
			for i < mid && j < len(a) {
				if buf[i] <= a[j] {
					a[k] = buf[i]
					i++
				} else {
					a[k] = a[j]
					j++
				}
				k++
			}
			copy(a[k:], buf[i:mid])
			return nil
		})
	}
	r := rand.New(rand.NewPCG(1, 2))
	a := make([]int64, 10000)
	for i := range a {
		a[i] = r.Int64N(1 << 20)
	}
	want := slices.Clone(a)
	slices.Sort(want)
	p := mainPool()
	defer closePool(t, p)
	if _, err := forkjoin.Invoke(p, sortTask(a, make([]int64, len(a)))); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(a, want) {
		t.Fatal("not sorted")
	}
}
