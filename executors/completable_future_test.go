package executors_test

import (
	"errors"
	"strconv"
	"testing"
	"time"

	"github.com/loomgo/loom/executors"
	"github.com/loomgo/loom/thread"
)

func TestSupplyAsyncThenApplyJoin(t *testing.T) {
	f := executors.SupplyAsync(func() (int, error) { thread.Sleep(10 * time.Millisecond); return 20, nil })
	g := executors.ThenApply(f, func(v int) (string, error) { return strconv.Itoa(v + 1), nil })
	if v, err := g.Join(); v != "21" || err != nil {
		t.Fatalf("%q %v", v, err)
	}
	if f.State() != executors.Success || g.ResultNow() != "21" {
		t.Fatal("states")
	}
}

func TestCompleteOnlyOnce(t *testing.T) {
	f := executors.NewCompletableFuture[int]()
	if f.IsDone() || f.String() != "CompletableFuture[Not completed]" {
		t.Fatal("new future done")
	}
	if v, _ := f.GetNow(-1); v != -1 {
		t.Fatalf("GetNow = %d", v)
	}
	if !f.Complete(1) || f.Complete(2) || f.CompleteExceptionally(errors.New("x")) || f.Cancel(true) {
		t.Fatal("completed twice")
	}
	if v, err := f.Get(); v != 1 || err != nil {
		t.Fatalf("%v %v", v, err)
	}
}

func TestFailurePropagatesThroughStages(t *testing.T) {
	boom := errors.New("boom")
	f := executors.SupplyAsync(func() (int, error) { return 0, boom })
	applied := false
	g := executors.ThenApply(f, func(v int) (int, error) { applied = true; return v, nil })
	_, err := g.Join()
	var ee *executors.ExecutionError
	if !errors.As(err, &ee) || ee.Cause != boom || applied {
		t.Fatalf("Join = %v, applied=%v", err, applied)
	}
	if !g.IsCompletedExceptionally() || g.ExceptionNow() != boom {
		t.Fatal("dependent not failed with the cause")
	}
	h := g.Exceptionally(func(err error) (int, error) { return -1, nil })
	if v, err := h.Join(); v != -1 || err != nil {
		t.Fatalf("Exceptionally = %v %v", v, err)
	}
}

func TestPanicInStageFailsWithPanicError(t *testing.T) {
	g := executors.ThenApply(executors.CompletedFuture(1), func(int) (int, error) { panic("stage") })
	var pe *executors.PanicError
	if _, err := g.Join(); !errors.As(err, &pe) || pe.Value != "stage" {
		t.Fatalf("Join = %v", err)
	}
}

func TestThenComposeAndCombine(t *testing.T) {
	user := executors.SupplyAsync(func() (string, error) { return "ada", nil })
	orders := executors.ThenCompose(user, func(u string) *executors.CompletableFuture[int] {
		return executors.SupplyAsync(func() (int, error) { return len(u), nil })
	})
	price := executors.SupplyAsync(func() (int, error) { return 10, nil })
	total := executors.ThenCombine(orders, price, func(n, p int) (int, error) { return n * p, nil })
	if v, err := total.Join(); v != 30 || err != nil {
		t.Fatalf("%v %v", v, err)
	}
}

func TestAllOfWaitsForAllAndFailsIfOneFails(t *testing.T) {
	a := executors.SupplyAsync(func() (int, error) { thread.Sleep(30 * time.Millisecond); return 1, nil })
	b := executors.SupplyAsync(func() (string, error) { return "b", nil })
	all := executors.AllOf(a, b)
	if _, err := all.Join(); err != nil || !a.IsDone() || !b.IsDone() {
		t.Fatalf("AllOf: %v", err)
	}
	boom := errors.New("boom")
	c := executors.FailedFuture[int](boom)
	if _, err := executors.AllOf(a, c).Join(); !errors.Is(err, boom) {
		t.Fatalf("AllOf with failure: %v", err)
	}
	if _, err := executors.AllOf().Join(); err != nil {
		t.Fatal("AllOf() not complete")
	}
}

func TestAnyOfCompletesWithFirst(t *testing.T) {
	slow := executors.SupplyAsync(func() (string, error) { thread.Sleep(300 * time.Millisecond); return "slow", nil })
	fast := executors.SupplyAsync(func() (string, error) { return "fast", nil })
	v, err := executors.AnyOf(slow, fast).Join()
	if v != "fast" || err != nil {
		t.Fatalf("%v %v", v, err)
	}
	slow.Join()
}

func TestCancelCompletableFuture(t *testing.T) {
	f := executors.NewCompletableFuture[int]()
	g := executors.ThenApply(f, func(v int) (int, error) { return v, nil })
	if !f.Cancel(true) || !f.IsCancelled() || f.State() != executors.Cancelled {
		t.Fatal("not cancelled")
	}
	if _, err := f.Get(); !errors.Is(err, executors.ErrCancelled) {
		t.Fatalf("Get = %v", err)
	}
	// a dependent of a cancelled stage fails (with the cancellation as cause), as in Java
	if _, err := g.Get(); !errors.Is(err, executors.ErrCancelled) || g.IsCancelled() || g.State() != executors.Failed {
		t.Fatalf("dependent: %v cancelled=%v state=%v", err, g.IsCancelled(), g.State())
	}
}

func TestCompletableGetInterruptibleJoinNot(t *testing.T) {
	f := executors.NewCompletableFuture[int]()
	var getErr error
	th := thread.OfVirtual().Start(func() { _, getErr = f.Get() })
	for th.State() != thread.Waiting {
		time.Sleep(time.Millisecond)
	}
	th.Interrupt()
	th.Join()
	if !errors.Is(getErr, thread.ErrInterrupted) {
		t.Fatalf("Get = %v", getErr)
	}
	var joined int
	var stillInterrupted bool
	th = thread.OfVirtual().Start(func() {
		joined, _ = f.Join()
		stillInterrupted = thread.Interrupted()
	})
	for th.State() != thread.Waiting {
		time.Sleep(time.Millisecond)
	}
	th.Interrupt()
	time.Sleep(20 * time.Millisecond)
	if !th.IsAlive() {
		t.Fatal("Join returned on interrupt")
	}
	f.Complete(5)
	th.Join()
	if joined != 5 || !stillInterrupted {
		t.Fatalf("Join = %d, interrupt kept = %v", joined, stillInterrupted)
	}
}

func TestCompletableGetTimeout(t *testing.T) {
	f := executors.NewCompletableFuture[int]()
	if _, err := f.GetTimeout(20 * time.Millisecond); !errors.Is(err, executors.ErrTimeout) {
		t.Fatalf("%v", err)
	}
}

func TestSupplyAsyncOnExecutor(t *testing.T) {
	p := executors.NewFixedThreadPool(1)
	f := executors.SupplyAsyncOn(p, func() (bool, error) { return thread.Current().IsVirtual(), nil })
	if v, err := f.Join(); v || err != nil {
		t.Fatalf("%v %v", v, err)
	}
	p.Close()
	g := executors.SupplyAsyncOn(p, func() (int, error) { return 1, nil })
	if _, err := g.Join(); !errors.Is(err, executors.ErrRejected) {
		t.Fatalf("on closed pool: %v", err)
	}
}

func TestCompletableNilArguments(t *testing.T) {
	mustPanicWith(t, thread.ErrNilArgument, func() { executors.SupplyAsync[int](nil) })
	mustPanicWith(t, thread.ErrNilArgument, func() { executors.RunAsync(nil) })
	mustPanicWith(t, thread.ErrNilArgument, func() { executors.ThenApply[int, int](executors.CompletedFuture(1), nil) })
	mustPanicWith(t, thread.ErrNilArgument, func() { executors.NewCompletableFuture[int]().CompleteExceptionally(nil) })
	mustPanicWith(t, thread.ErrNilArgument, func() { executors.AllOf(nil) })
}
