package oracle_test

import (
	"sync/atomic"
	"time"

	"github.com/loomgo/loom/executors"
	"github.com/loomgo/loom/thread"
)

// CompletableFuture: the twins of java/FutureScenarios.java.
func futureScenarios() []scenario {
	const suite = "FutureScenarios"
	return []scenario{
		{suite, "cf_complete_once", cfCompleteOnce},
		{suite, "cf_then_apply_chain", cfThenApplyChain},
		{suite, "cf_failure_propagation", cfFailurePropagation},
		{suite, "cf_cancel", cfCancel},
		{suite, "cf_when_complete", cfWhenComplete},
		{suite, "cf_combine_compose", cfCombineCompose},
		{suite, "cf_all_of_any_of", cfAllOfAnyOf},
		{suite, "cf_dependents_order", cfDependentsOrder},
		{suite, "cf_dependent_runs_where", cfDependentRunsWhere},
		{suite, "cf_async_and_waiting", cfAsyncAndWaiting},
	}
}

func cfCompleteOnce(lg *Log) {
	f := executors.NewCompletableFuture[string]()
	lg.P("new: done %s state %s getNow %s %s", f.IsDone(), f.State(), valOf(valErr(func() (string, error) { return f.GetNow("absent") })), status(f))
	a, b, c, d := f.Complete("a"), f.Complete("b"), f.CompleteExceptionally(boom("late")), f.Cancel(true)
	lg.P("complete a %s, complete b %s, completeExceptionally %s, cancel %s", a, b, c, d)
	j, _ := f.Join()
	lg.P("done %s state %s join %s getNow %s resultNow %s exceptionally %s %s", f.IsDone(), f.State(), j,
		valOf(valErr(func() (string, error) { return f.GetNow("absent") })), f.ResultNow(), f.IsCompletedExceptionally(), status(f))
	lg.Val("exceptionNow of a completed future", func() (any, error) { return f.ExceptionNow(), nil })
	failed := executors.FailedFuture[string](boom("failed"))
	lg.P("failedFuture: state %s exceptionNow %s exceptionally %s %s", failed.State(), failed.ExceptionNow(), failed.IsCompletedExceptionally(), status(failed))
	lg.Val("getNow of a failed future", valErr(func() (string, error) { return failed.GetNow("absent") }))
	lg.Val("join of a failed future", valErr(failed.Join))
	lg.Val("get of a failed future", valErr(failed.Get))
	v, _ := executors.CompletedFuture("c").Join()
	lg.P("completedFuture: %s", v)
}

func cfThenApplyChain(lg *Log) {
	var seen list
	src := executors.NewCompletableFuture[int]()
	chain := executors.ThenApply(executors.ThenApply(src, func(x int) (int, error) { return x * 10, nil }),
		func(x int) (int, error) { return x + 1, nil })
	accepted := chain.ThenAccept(func(x int) { seen.add("accepted %s", x) })
	ran := accepted.ThenRun(func() { seen.add("ran") })
	lg.P("before: chain done %s, source done %s", chain.IsDone(), src.IsDone())
	src.Complete(2)
	v, _ := chain.Join()
	lg.P("chain %s, seen %s, thenRun's result %s, done %s", v, &seen, null{}, ran.IsDone())
	ex := executors.CompletedFuture("v").Exceptionally(func(error) (string, error) { return "recovered", nil })
	r, _ := ex.Join()
	lg.P("exceptionally on success: %s", r)
}

func cfFailurePropagation(lg *Log) {
	src := executors.NewCompletableFuture[int]()
	dep := executors.ThenApply(src, func(x int) (int, error) { return x + 1, nil })
	var handled atomic.Value
	h := executors.Handle(dep, func(v int, err error) (string, error) {
		handled.Store("handle saw value " + str(opt(v, err == nil)) + " and " + exName(err))
		return "handled", nil
	})
	rec := dep.Exceptionally(func(err error) (int, error) {
		handled.Store(handled.Load().(string) + "; exceptionally saw " + exName(err))
		return -1, nil
	})
	var applied atomic.Bool
	skipped := executors.ThenApply(dep, func(x int) (int, error) { applied.Store(true); return x, nil })
	src.CompleteExceptionally(boom("source"))
	lg.P("dependent: exceptionally %s cancelled %s state %s exceptionNow %s", dep.IsCompletedExceptionally(), dep.IsCancelled(), dep.State(), dep.ExceptionNow())
	lg.Val("dependent get", valErr(dep.Get))
	lg.Val("dependent join", valErr(dep.Join))
	hv, _ := h.Join()
	rv, _ := rec.Join()
	lg.P("%s; handle -> %s, exceptionally -> %s", handled.Load(), hv, rv)
	lg.P("a stage after the failure: ran %s, %s", applied.Load(), of(func() error { _, err := skipped.Get(); return err }))
	thrown := executors.ThenApply(executors.CompletedFuture(1), func(int) (int, error) { panic(boom("in thenApply")) })
	lg.Val("a stage whose function throws: get", valErr(thrown.Get))
	lg.P("its exceptionNow %s", thrown.ExceptionNow())
}

func cfCancel(lg *Log) {
	f := executors.NewCompletableFuture[string]()
	dep := executors.ThenApply(f, func(s string) (string, error) { return s + "!", nil })
	lg.Val("cancel(true)", func() (any, error) { return f.Cancel(true), nil })
	lg.P("cancelled %s done %s exceptionally %s state %s %s", f.IsCancelled(), f.IsDone(), f.IsCompletedExceptionally(), f.State(), status(f))
	lg.Val("get", valErr(f.Get))
	lg.Val("join", valErr(f.Join))
	lg.Val("getNow", valErr(func() (string, error) { return f.GetNow("absent") }))
	lg.Val("exceptionNow", func() (any, error) { return f.ExceptionNow(), nil })
	lg.Val("complete after cancel", func() (any, error) { return f.Complete("late"), nil })
	lg.P("dependent: cancelled %s exceptionally %s state %s", dep.IsCancelled(), dep.IsCompletedExceptionally(), dep.State())
	lg.Val("dependent get", valErr(dep.Get))
	lg.Val("cancel a completed future", func() (any, error) { return executors.CompletedFuture("x").Cancel(true), nil })
}

func cfWhenComplete(lg *Log) {
	var seen list
	okf := executors.CompletedFuture("v").WhenComplete(func(v string, err error) { seen.add("saw %s, %s", v, err) })
	r, _ := okf.Join()
	lg.P("%s; result %s", &seen, r)
	throwing := executors.CompletedFuture("v").WhenComplete(func(string, error) { panic(boom("in whenComplete")) })
	lg.Val("whenComplete whose action throws, on success: get", valErr(throwing.Get))
	failed := executors.FailedFuture[string](boom("original")).WhenComplete(func(string, error) { panic(boom("second")) })
	lg.Val("whenComplete whose action throws, on failure: get", valErr(failed.Get))
}

func cfCombineCompose(lg *Log) {
	a, b := executors.NewCompletableFuture[int](), executors.NewCompletableFuture[int]()
	sum := executors.ThenCombine(a, b, func(x, y int) (int, error) { return x + y, nil })
	a.Complete(1)
	lg.P("combine after one: done %s", sum.IsDone())
	b.Complete(2)
	s, _ := sum.Join()
	lg.P("combine: %s", s)
	inner := executors.NewCompletableFuture[int]()
	composed := executors.ThenCompose(executors.CompletedFuture(5), func(x int) *executors.CompletableFuture[int] {
		return executors.ThenApply(inner, func(y int) (int, error) { return x * y, nil })
	})
	lg.P("compose before the inner future: done %s", composed.IsDone())
	inner.Complete(3)
	c, _ := composed.Join()
	lg.P("compose: %s", c)
	failedInner := executors.ThenCompose(executors.CompletedFuture(1), func(int) *executors.CompletableFuture[int] {
		return executors.FailedFuture[int](boom("inner"))
	})
	lg.Val("compose of a failed inner future: get", valErr(failedInner.Get))
	failedSide := executors.ThenCombine(executors.CompletedFuture(1), executors.FailedFuture[int](boom("side")),
		func(x, y int) (int, error) { return x + y, nil })
	lg.Val("combine with a failed side: get", valErr(failedSide.Get))
}

func cfAllOfAnyOf(lg *Log) {
	a, b := executors.NewCompletableFuture[string](), executors.NewCompletableFuture[string]()
	all := executors.AllOf(a, b)
	anyf := executors.AnyOf(a, b)
	b.Complete("b")
	av, _ := anyf.Join()
	lg.P("after b: all done %s, any %s", all.IsDone(), av)
	a.Complete("a")
	lg.P("after a: all %s", valOf(func() (any, error) { _, err := all.Join(); return null{}, err }))
	c, d := executors.NewCompletableFuture[string](), executors.NewCompletableFuture[string]()
	allFail := executors.AllOf(c, d)
	c.CompleteExceptionally(boom("c"))
	lg.P("one failed, one pending: all done %s", allFail.IsDone())
	d.Complete("d")
	lg.Val("then all: get", func() (any, error) { _, err := allFail.Get(); return null{}, err })
	anyFail := executors.AnyOf(executors.FailedFuture[string](boom("first")), executors.NewCompletableFuture[string]())
	lg.Val("anyOf whose first completion is a failure: get", valErr(anyFail.Get))
	lg.P("allOf() done %s; anyOf() done %s", executors.AllOf().IsDone(), executors.AnyOf().IsDone())
}

func cfDependentsOrder(lg *Log) {
	f := executors.NewCompletableFuture[string]()
	var order list
	for _, name := range []string{"A", "B", "C"} {
		f.ThenRun(func() { order.add("%s", name) })
	}
	f.Complete("x")
	lg.P("dependents ran in order %s", &order)
}

func cfDependentRunsWhere(lg *Log) {
	f := executors.NewCompletableFuture[string]()
	var before, after atomic.Value
	f.ThenRun(func() { before.Store(thread.Current().Name()) })
	completer := thread.OfVirtual().Name("completer").Start(func() { f.Complete("x") })
	completer.Join()
	f.ThenRun(func() { after.Store(thread.Current().Name()) })
	lg.P("registered before completion, ran in %s; registered after, ran in %s", before.Load(), after.Load())
}

func cfAsyncAndWaiting(lg *Log) {
	failing := executors.SupplyAsync(func() (string, error) { panic(boom("async")) })
	lg.Val("supplyAsync that throws: get", valErr(failing.Get))
	okf := executors.SupplyAsync(func() (string, error) { return "async value", nil })
	lg.Val("supplyAsync: get", valErr(okf.Get))
	var ran atomic.Bool
	executors.RunAsync(func() { ran.Store(true) }).Join()
	lg.P("runAsync ran %s", ran.Load())
	pending := executors.NewCompletableFuture[string]()
	lg.Val("get(1 ms) of an incomplete future", valErr(func() (string, error) { return pending.GetTimeout(time.Millisecond) }))
	self := thread.Current()
	self.Interrupt()
	lg.Val("get with the status set", valErr(pending.Get))
	lg.P("interrupted after: %s", self.IsInterrupted())
	self.Interrupt()
	lg.Val("join of a completed future with the status set", valErr(executors.CompletedFuture("j").Join))
	lg.P("interrupted after: %s", thread.Interrupted())
	waiter := thread.StartVirtualThread(func() { lg.Val("join, interrupted while waiting, then completed", valErr(pending.Join)) })
	awaitState(lg, waiter, thread.Waiting)
	waiter.Interrupt()
	await(lg, "the interrupt to be seen", func() bool { return waiter.State() != thread.Runnable })
	pending.Complete("late")
	waiter.Join()
}
