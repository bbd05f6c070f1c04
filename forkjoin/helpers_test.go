package forkjoin_test

import (
	"errors"
	"runtime"
	"testing"
	"time"

	"github.com/loomgo/loom/executors"
	"github.com/loomgo/loom/forkjoin"
	"github.com/loomgo/loom/internal/testutil"
	"github.com/loomgo/loom/thread"
)

// kinds runs a test body once with virtual and once with platform threads.
var kinds = []struct {
	name  string
	start func(func()) *thread.Thread
}{
	{"virtual", func(f func()) *thread.Thread { return thread.OfVirtual().Start(f) }},
	{"platform", func(f func()) *thread.Thread { return thread.OfPlatform().Start(f) }},
}

const longWait = 10 * time.Second

// onKinds runs f on a virtual and on a platform thread, one after the other.
func onKinds(t *testing.T, f func(t *testing.T)) {
	for _, k := range kinds {
		t.Run(k.name, func(t *testing.T) { testutil.Join(t, k.start(func() { f(t) })) })
	}
}

// mainPool is the TCK's pool of max(2, NumCPU) workers; singletonPool has one.
func mainPool() *forkjoin.Pool      { return forkjoin.NewPool(max(2, runtime.NumCPU())) }
func singletonPool() *forkjoin.Pool { return forkjoin.NewPool(1) }
func asyncSingletonPool() *forkjoin.Pool {
	return forkjoin.NewPoolWithOptions(forkjoin.PoolOptions{Parallelism: 1, AsyncMode: true})
}

// closePool closes p and checks that it terminated and its workers ended.
func closePool(t *testing.T, p *forkjoin.Pool) {
	t.Helper()
	p.Close()
	if !p.IsTerminated() || p.PoolSize() != 0 {
		t.Errorf("after Close: %v", p)
	}
}

var errFJ = errors.New("FJException")

// checkNotDone is the TCK's checkNotDone.
func checkNotDone[T any](t *testing.T, a *forkjoin.Task[T]) {
	t.Helper()
	if a.IsDone() || a.IsCompletedNormally() || a.IsCompletedAbnormally() || a.IsCancelled() || a.Exception() != nil ||
		a.State() != executors.Running {
		t.Fatalf("%v: done", a)
	}
	if _, err := a.GetTimeout(-time.Second); !errors.Is(err, executors.ErrTimeout) {
		t.Fatalf("GetTimeout(expired) = %v, want ErrTimeout", err)
	}
	if !forkjoin.InPool() { // RecursiveTaskTest: outside a pool, Get honours a pending interrupt
		thread.Current().Interrupt()
		if _, err := a.Get(); !errors.Is(err, thread.ErrInterrupted) {
			t.Fatalf("interrupted Get = %v", err)
		}
		thread.Current().Interrupt()
		if _, err := a.GetTimeout(time.Second); !errors.Is(err, thread.ErrInterrupted) {
			t.Fatalf("interrupted GetTimeout = %v", err)
		}
	}
}

// checkCompletedNormally is the TCK's checkCompletedNormally for a task with result want.
func checkCompletedNormally[T comparable](t *testing.T, a *forkjoin.Task[T], want T) {
	t.Helper()
	if !a.IsDone() || a.IsCancelled() || !a.IsCompletedNormally() || a.IsCompletedAbnormally() || a.Exception() != nil {
		t.Fatalf("%v: not completed normally", a)
	}
	if a.RawResult() != want || a.ResultNow() != want || a.State() != executors.Success {
		t.Fatalf("%v: raw result %v, want %v", a, a.RawResult(), want)
	}
	thread.Current().Interrupt()
	if v, err := a.Join(); v != want || err != nil {
		t.Fatalf("Join = %v, %v", v, err)
	}
	a.QuietlyJoin()
	if !thread.Interrupted() {
		t.Fatal("Join cleared the interrupt status")
	}
	if a.Cancel(false) || a.Cancel(true) {
		t.Fatal("cancelled a completed task")
	}
	v1, err1 := a.Get()
	v2, err2 := a.GetTimeout(time.Second)
	if v1 != want || v2 != want || err1 != nil || err2 != nil {
		t.Fatalf("Get = %v %v, %v %v", v1, err1, v2, err2)
	}
}

// checkCancelled is the TCK's checkCancelled.
func checkCancelled[T any](t *testing.T, a *forkjoin.Task[T]) {
	t.Helper()
	if !a.IsDone() || !a.IsCancelled() || a.IsCompletedNormally() || !a.IsCompletedAbnormally() ||
		!errors.Is(a.Exception(), executors.ErrCancelled) || a.State() != executors.Cancelled {
		t.Fatalf("%v: not cancelled", a)
	}
	if !a.Cancel(false) || !a.Cancel(true) {
		t.Fatal("Cancel of a cancelled task must report true, as Java's ForkJoinTask.cancel")
	}
	thread.Current().Interrupt()
	if _, err := a.Join(); !errors.Is(err, executors.ErrCancelled) {
		t.Fatalf("Join = %v", err)
	}
	thread.Interrupted()
	a.QuietlyJoin()
	if _, err := a.Get(); !errors.Is(err, executors.ErrCancelled) {
		t.Fatalf("Get = %v", err)
	}
	if _, err := a.GetTimeout(time.Second); !errors.Is(err, executors.ErrCancelled) {
		t.Fatalf("GetTimeout = %v", err)
	}
}

// checkCompletedAbnormally is the TCK's checkCompletedAbnormally with cause want.
func checkCompletedAbnormally[T any](t *testing.T, a *forkjoin.Task[T], want error) {
	t.Helper()
	if !a.IsDone() || a.IsCancelled() || a.IsCompletedNormally() || !a.IsCompletedAbnormally() ||
		!errors.Is(a.Exception(), want) || a.State() != executors.Failed || !errors.Is(a.ExceptionNow(), want) {
		t.Fatalf("%v: not completed abnormally with %v", a, want)
	}
	if a.Cancel(false) || a.Cancel(true) {
		t.Fatal("cancelled a failed task")
	}
	thread.Current().Interrupt()
	if _, err := a.Join(); !errors.Is(err, want) {
		t.Fatalf("Join = %v, want %v", err, want)
	}
	thread.Interrupted()
	a.QuietlyJoin()
	var ee *executors.ExecutionError
	if _, err := a.Get(); !errors.As(err, &ee) || !errors.Is(ee.Cause, want) {
		t.Fatalf("Get = %v, want an ExecutionError of %v", err, want)
	}
	if _, err := a.GetTimeout(time.Second); !errors.As(err, &ee) || !errors.Is(ee.Cause, want) {
		t.Fatalf("GetTimeout = %v", err)
	}
}

// testInvokeOnPool is the TCK's testInvokeOnPool: invoke a on p (closing p after), checking
// the states before and after.
func testInvokeOnPool(t *testing.T, p *forkjoin.Pool, a *forkjoin.Task[struct{}]) {
	t.Helper()
	defer closePool(t, p)
	if a.IsDone() || a.IsCompletedNormally() || a.IsCompletedAbnormally() || a.IsCancelled() || a.Exception() != nil {
		t.Fatalf("%v: done before invoke", a)
	}
	if _, err := forkjoin.Invoke(p, a); err != nil {
		t.Fatalf("invoke: %v", err)
	}
	checkCompletedNormally(t, a, struct{}{})
}

// checkedAction is the TCK's CheckedRecursiveAction: a failed test assertion inside it is
// reported by t.Fatal, which calls runtime.Goexit on the worker; the action then fails and the
// test sees it.
func checkedAction(body func()) *forkjoin.Task[struct{}] {
	return forkjoin.NewRecursiveAction(func() error { body(); return nil })
}

// fib is the TCK's FibTask: Java's Fibonacci RecursiveTask.
func fib(n int) *forkjoin.Task[int] {
	return forkjoin.NewRecursiveTask(func() (int, error) {
		if n <= 1 {
			return n, nil
		}
		f1 := fib(n - 1).Fork()
		r2, err := fib(n - 2).Invoke()
		if err != nil {
			return 0, err
		}
		r1, err := f1.Join()
		return r1 + r2, err
	})
}
