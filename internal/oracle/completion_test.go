package oracle_test

import (
	"strings"
	"sync/atomic"
	"time"

	"github.com/loomgo/loom/executors"
	"github.com/loomgo/loom/thread"
)

// CompletableFuture's async stages, either and both stages, exceptionallyCompose, timeouts,
// copies and minimal stages, obtrude: the twins of java/CompletionScenarios.java.
func completionScenarios() []scenario {
	const suite = "CompletionScenarios"
	return []scenario{
		{suite, "cf_async_runs_where", cfAsyncRunsWhere},
		{suite, "cf_async_failure_propagation", cfAsyncFailurePropagation},
		{suite, "cf_either", cfEither},
		{suite, "cf_both", cfBoth},
		{suite, "cf_exceptionally_compose", cfExceptionallyCompose},
		{suite, "cf_timeouts", cfTimeouts},
		{suite, "cf_copy_minimal_obtrude", cfCopyMinimalObtrude},
	}
}

// where names the current thread for the log: by name if it is one the scenario named.
func where(scenario *thread.Thread) string {
	t := thread.Current()
	if t == scenario {
		return "the caller"
	}
	if n := t.Name(); n == "completer" || n == "exec" {
		return n
	}
	return "another thread"
}

// bracketed is LockScenarios.state: toString from its '['.
func bracketed(s interface{ String() string }) string {
	str := s.String()
	if i := strings.IndexByte(str, '['); i >= 0 {
		return str[i:]
	}
	return str
}

func cfAsyncRunsWhere(lg *Log) {
	me := thread.Current()
	exec := executors.NewSingleThreadExecutorWithFactory(thread.OfPlatform().Name("exec").Factory())
	at := func(string) (string, error) { return where(me), nil }
	src, plain := executors.NewCompletableFuture[string](), executors.NewCompletableFuture[string]()
	sync := executors.ThenApply(plain, at)
	onExec := executors.ThenApplyAsyncOn(src, exec, at)
	onDefault := executors.ThenApplyAsync(src, at)
	afterExec := executors.ThenApply(executors.ThenApplyAsyncOn(src, exec, func(x string) (string, error) { return x, nil }), at)
	completer := thread.OfPlatform().Name("completer").Start(func() { plain.Complete("x"); src.Complete("x") })
	completer.Join()
	j := func(f *executors.CompletableFuture[string]) string { v, _ := f.Join(); return v }
	lg.P("registered before completion: thenApply in %s, thenApplyAsync(exec) in %s, thenApplyAsync in %s, a thenApply after an async stage in %s",
		j(sync), j(onExec), j(onDefault), j(afterExec))
	lg.P("registered after completion: thenApply in %s, thenApplyAsync(exec) in %s, thenApplyAsync in %s",
		j(executors.ThenApply(src, at)), j(executors.ThenApplyAsyncOn(src, exec, at)), j(executors.ThenApplyAsync(src, at)))
	other := executors.NewCompletableFuture[string]()
	either := executors.ApplyToEitherAsyncOn(src, other, exec, at)
	both := executors.ThenCombineAsyncOn(src, executors.CompletedFuture("y"), exec, func(string, string) (string, error) { return where(me), nil })
	lg.P("applyToEitherAsync(exec) in %s, thenCombineAsync(exec) in %s", j(either), j(both))
	pending := executors.NewCompletableFuture[string]()
	cancelledDep := executors.ThenApplyAsyncOn(pending, exec, func(string) (string, error) { return "ran", nil })
	lg.P("cancel an async dependent: %s", cancelledDep.Cancel(false))
	pending.Complete("p")
	lg.Val("the cancelled dependent: get", valErr(cancelledDep.Get))
	exec.Shutdown()
	exec.AwaitTermination(time.Minute)
	lg.Val("thenApplyAsync on a shut-down executor: get", valErr(executors.ThenApplyAsyncOn(src, exec, func(x string) (string, error) { return x, nil }).Get))
	lg.Val("whenCompleteAsync on a shut-down executor: get", valErr(src.WhenCompleteAsyncOn(exec, func(string, error) {}).Get))
}

func cfAsyncFailurePropagation(lg *Log) {
	var applied atomic.Bool
	var saw atomic.Value
	s := executors.SupplyAsync(func() (int, error) { panic(boom("supplier")) })
	a := executors.ThenApplyAsync(s, func(x int) (int, error) { applied.Store(true); return x, nil })
	b := executors.HandleAsync(a, func(v int, err error) (int, error) {
		saw.Store("handle saw " + str(opt(v, err == nil)) + " and " + exName(err))
		return -1, nil
	})
	bv, _ := b.Join()
	lg.P("handle -> %s; %s; thenApplyAsync ran %s", bv, saw.Load(), applied.Load())
	lg.Val("the async dependent: get", valErr(a.Get))
	lg.P("its state %s, cancelled %s", a.State(), a.IsCancelled())
	w := s.WhenCompleteAsync(func(int, error) { panic(boom("action")) })
	lg.Val("whenCompleteAsync whose action throws, on a failed source: get", valErr(w.Get))
	ok := executors.CompletedFuture(1).WhenCompleteAsync(func(int, error) { panic(boom("action")) })
	lg.Val("whenCompleteAsync whose action throws, on success: get", valErr(ok.Get))
	c := executors.ThenComposeAsync(executors.CompletedFuture(1), func(int) *executors.CompletableFuture[int] {
		return executors.FailedFuture[int](boom("inner"))
	})
	lg.Val("thenComposeAsync to a failed future: get", valErr(c.Get))
	r := executors.ThenComposeAsync(executors.CompletedFuture(1), func(int) *executors.CompletableFuture[int] { panic(boom("fn")) })
	lg.Val("thenComposeAsync whose function throws: get", valErr(r.Get))
	cancelled := executors.NewCompletableFuture[int]()
	dep := executors.ThenApplyAsync(cancelled, func(x int) (int, error) { return x, nil })
	cancelled.Cancel(true)
	lg.Val("thenApplyAsync of a cancelled source: get", valErr(dep.Get))
	lg.P("its state %s, cancelled %s", dep.State(), dep.IsCancelled())
	ev, _ := executors.CompletedFuture("v").ExceptionallyAsync(func(error) (string, error) { return "x", nil }).Join()
	lg.P("exceptionallyAsync on success -> %s", ev)
}

func cfEither(lg *Log) {
	var seen list
	a, b := executors.NewCompletableFuture[string](), executors.NewCompletableFuture[string]()
	e1 := executors.ApplyToEither(a, b, func(x string) (string, error) { return "apply " + x, nil })
	e2 := a.AcceptEither(b, func(x string) { seen.add("accept %s", x) })
	e3 := a.RunAfterEither(b, func() { seen.add("run") })
	lg.P("before: %s, a has %s dependents, b %s", status(e1), a.NumberOfDependents(), b.NumberOfDependents())
	b.Complete("B")
	v1, _ := e1.Join()
	lg.P("after b: %s, seen %s, a has %s dependents", v1, &seen, a.NumberOfDependents())
	a.Complete("A")
	v1, _ = e1.Join()
	e2.Join()
	e3.Join()
	lg.P("after a: %s, seen %s, %s %s", v1, &seen, null{}, null{})
	c, d := executors.NewCompletableFuture[string](), executors.NewCompletableFuture[string]()
	f1 := executors.ApplyToEither(c, d, func(x string) (string, error) { return "from " + x, nil })
	c.CompleteExceptionally(boom("c"))
	d.Complete("d")
	lg.Val("either whose first source fails: get", valErr(f1.Get))
	lg.P("its state %s", f1.State())
	cancelledSource := executors.NewCompletableFuture[string]()
	r := cancelledSource.RunAfterEither(executors.NewCompletableFuture[int](), func() { seen.add("never") })
	cancelledSource.Cancel(false)
	lg.Val("runAfterEither of a cancelled source: get", func() (any, error) { _, err := r.Get(); return null{}, err })
	var runs atomic.Int32
	same := executors.NewCompletableFuture[string]()
	twice := executors.ApplyToEither(same, same, func(string) (int32, error) { return runs.Add(1), nil })
	same.Complete("s")
	tv, _ := twice.Join()
	lg.P("either of one future twice: %s, ran %s", tv, runs.Load())
	var order list
	x, y := executors.NewCompletableFuture[string](), executors.NewCompletableFuture[string]()
	x.ThenRun(func() { order.add("1") })
	x.AcceptEither(y, func(string) { order.add("either") })
	x.ThenRun(func() { order.add("2") })
	y.ThenRun(func() { order.add("y") })
	x.Complete("x")
	y.Complete("y")
	lg.P("dependents order %s", &order)
	ready := executors.CompletedFuture("ready")
	rv, _ := executors.ApplyToEither(ready, executors.NewCompletableFuture[string](), func(v string) (string, error) { return v + "!", nil }).Join()
	lg.P("either with a complete source: %s", rv)
	failed := executors.FailedFuture[string](boom("failed"))
	lg.Val("either with a failed complete source: get", valErr(executors.ApplyToEither(failed, executors.NewCompletableFuture[string](),
		func(v string) (string, error) { return v, nil }).Get))
}

func cfBoth(lg *Log) {
	sum := func(x, y int) (int, error) { return x + y, nil }
	a, b := executors.NewCompletableFuture[int](), executors.NewCompletableFuture[int]()
	s := executors.ThenCombine(a, b, sum)
	a.CompleteExceptionally(boom("a"))
	lg.P("one source failed, the other pending: done %s", s.IsDone())
	b.Complete(2)
	lg.Val("then: get", valErr(s.Get))
	p, q := executors.NewCompletableFuture[int](), executors.NewCompletableFuture[int]()
	pq := executors.ThenCombine(p, q, sum)
	q.CompleteExceptionally(boom("q"))
	p.CompleteExceptionally(boom("p"))
	lg.Val("both failed, the second first: get", valErr(pq.Get))
	var seen list
	left, right := executors.NewCompletableFuture[string](), executors.NewCompletableFuture[int]()
	accepted := executors.ThenAcceptBoth(left, right, func(l string, r int) { seen.add("%s%s", l, r) })
	ran := left.RunAfterBoth(right, func() { seen.add("run") })
	right.Complete(1)
	lg.P("after one: %s %s, seen %s", status(accepted), status(ran), &seen)
	left.Complete("l")
	accepted.Join()
	ran.Join()
	lg.P("after both: seen %s, %s %s", &seen, null{}, null{})
	var runs atomic.Int32
	same := executors.NewCompletableFuture[int]()
	sq := executors.ThenCombine(same, same, func(x, y int) (int, error) { runs.Add(1); return x * y, nil })
	same.Complete(3)
	sv, _ := sq.Join()
	lg.P("both of one future twice: %s, ran %s", sv, runs.Load())
	thrown := executors.ThenCombine(executors.CompletedFuture(1), executors.CompletedFuture(2), func(int, int) (int, error) { panic(boom("fn")) })
	lg.Val("thenCombine whose function throws: get", valErr(thrown.Get))
}

func cfExceptionallyCompose(lg *Log) {
	f := executors.FailedFuture[string](boom("primary"))
	rec, _ := f.ExceptionallyCompose(func(err error) *executors.CompletableFuture[string] {
		return executors.CompletedFuture("backup after " + exName(err))
	}).Join()
	lg.P("recovered: %s", rec)
	var ran atomic.Bool
	fine, _ := executors.CompletedFuture("fine").ExceptionallyCompose(func(error) *executors.CompletableFuture[string] { ran.Store(true); return nil }).Join()
	lg.P("on success: %s, function ran %s", fine, ran.Load())
	lg.Val("to a failed future: get", valErr(f.ExceptionallyCompose(func(error) *executors.CompletableFuture[string] {
		return executors.FailedFuture[string](boom("backup"))
	}).Get))
	lg.Val("whose function throws: get", valErr(f.ExceptionallyCompose(func(error) *executors.CompletableFuture[string] { panic(boom("fn")) }).Get))
	pending := executors.NewCompletableFuture[string]()
	g := f.ExceptionallyCompose(func(error) *executors.CompletableFuture[string] { return pending })
	lg.P("to a pending future: done %s", g.IsDone())
	pending.Complete("late")
	gv, _ := g.Join()
	lg.P("then: %s", gv)
	src := executors.NewCompletableFuture[string]()
	h := src.ExceptionallyComposeAsync(func(err error) *executors.CompletableFuture[string] {
		return executors.CompletedFuture("async " + exName(err))
	})
	src.Cancel(false)
	hv, _ := h.Join()
	lg.P("async, after a cancellation: %s", hv)
	xv, _ := f.Exceptionally(func(error) (string, error) { return "x", nil }).Join()
	hd, _ := executors.Handle(f, func(v string, err error) (string, error) { return str(opt(v, err == nil)) + " " + exName(err), nil }).Join()
	lg.P("exceptionally: %s, handle: %s", xv, hd)
}

// kind describes a thread as CompletionScenarios.kind does.
func kind(t *thread.Thread) string {
	k := "platform"
	if t.IsVirtual() {
		k = "virtual"
	}
	if t.IsDaemon() {
		k += " daemon"
	}
	return k + " thread"
}

func cfTimeouts(lg *Log) {
	f := executors.NewCompletableFuture[string]()
	// the dependent is registered before the timeout is armed, so it runs on the thread that
	// fires the timeout (registered after, it would race the timeout for the caller's thread)
	at := executors.Handle(f, func(_ string, err error) (string, error) {
		return exName(err) + " in a " + kind(thread.Current()), nil
	})
	f.OrTimeout(time.Millisecond)
	av, _ := at.Join()
	lg.P("orTimeout: %s", av)
	lg.Val("get", valErr(f.Get))
	lg.P("state %s, cancelled %s, %s", f.State(), f.IsCancelled(), status(f))
	fb, _ := executors.NewCompletableFuture[string]().CompleteOnTimeout("fallback", time.Millisecond).Join()
	lg.P("completeOnTimeout: %s", fb)
	dv, _ := executors.CompletedFuture("done").OrTimeout(time.Millisecond).Join()
	lg.P("orTimeout of a complete future: %s", dv)
	lg.Val("negative timeout: join", valErr(executors.NewCompletableFuture[string]().OrTimeout(-time.Millisecond).Join))
	k := executors.NewCompletableFuture[string]()
	k.OrTimeout(time.Hour)
	lg.P("an hour's timeout pending: %s dependents", k.NumberOfDependents())
	k.Complete("k")
	kv, _ := k.Join()
	lg.P("completed first: %s, %s dependents", kv, k.NumberOfDependents())
	late := executors.NewCompletableFuture[string]()
	late.CompleteOnTimeout("timeout", time.Millisecond)
	late.Join()
	again := late.Complete("mine")
	lv, _ := late.Join()
	lg.P("complete after the timeout: %s, value %s", again, lv)
	direct := executors.ExecutorFunc(func(task func()) error { task(); return nil })
	sv, _ := executors.SupplyAsyncOn(executors.DelayedExecutorOn(direct, time.Millisecond), func() (string, error) {
		return kind(thread.Current()), nil
	}).Join()
	lg.P("delayedExecutor's submission from a %s", sv)
	lv, _ = executors.SupplyAsyncOn(executors.DelayedExecutor(time.Millisecond), func() (string, error) { return "later", nil }).Join()
	lg.P("delayedExecutor: %s", lv)
}

func cfCopyMinimalObtrude(lg *Log) {
	f := executors.NewCompletableFuture[string]()
	c := f.Copy()
	lg.P("complete the copy: %s; source done %s", c.Complete("copy"), f.IsDone())
	f.Complete("f")
	cv, _ := c.Join()
	fv, _ := f.Join()
	lg.P("copy %s, source %s", cv, fv)
	g := executors.NewCompletableFuture[string]()
	gc := g.Copy()
	g.Cancel(false)
	lg.Val("copy of a cancelled future: get", valErr(gc.Get))
	lg.P("its state %s, cancelled %s", gc.State(), gc.IsCancelled())
	h := executors.NewCompletableFuture[string]()
	m := h.MinimalCompletionStage()
	lg.P("complete the view's future: %s; source done %s", m.ToCompletableFuture().Complete("mine"), h.IsDone())
	chained := executors.ThenApply(m, func(x string) (string, error) { return x + "!", nil })
	h.Complete("v")
	chv, _ := chained.ToCompletableFuture().Join()
	mv, _ := m.ToCompletableFuture().Join()
	lg.P("chained on the view: %s; view's future: %s", chv, mv)
	failing := executors.NewCompletableFuture[string]()
	fm := failing.MinimalCompletionStage()
	failing.CompleteExceptionally(boom("m"))
	lg.Val("view of a failed future: toCompletableFuture().get", valErr(fm.ToCompletableFuture().Get))
	sv, _ := executors.ThenApply(executors.CompletedStage("s"), func(x string) (string, error) { return x + "?", nil }).ToCompletableFuture().Join()
	lg.P("completedStage: %s", sv)
	lg.Val("failedStage: get", valErr(executors.FailedStage[string](boom("fs")).ToCompletableFuture().Get))
	o := executors.CompletedFuture("a")
	o.ObtrudeValue("b")
	ov, _ := o.Join()
	lg.P("obtrudeValue: %s", ov)
	o.ObtrudeException(boom("o"))
	lg.Val("obtrudeException: get", valErr(o.Get))
	lg.P("complete after: %s, %s, state %s", o.Complete("c"), status(o), o.State())
	o.ObtrudeException(executors.ErrCancelled)
	lg.P("obtrude a cancellation: cancelled %s, state %s", o.IsCancelled(), o.State())
	p := executors.NewCompletableFuture[string]()
	pd := executors.ThenApply(p, func(x string) (string, error) { return x + "+", nil })
	p.ObtrudeValue("forced")
	pv, _ := p.Join()
	pdv, _ := pd.Join()
	lg.P("obtrude an incomplete future: %s, dependent %s", pv, pdv)
	q := executors.NewCompletableFuture[string]()
	q.ThenRun(func() {})
	executors.ThenCombine(q, executors.NewCompletableFuture[string](), func(x, _ string) (string, error) { return x, nil })
	executors.ApplyToEither(q, executors.NewCompletableFuture[string](), func(x string) (string, error) { return x, nil })
	lg.P("dependents: %s, %s", q.NumberOfDependents(), bracketed(q))
	r, sp := executors.NewCompletableFuture[string](), executors.NewCompletableFuture[string]()
	executors.ApplyToEither(r, sp, func(x string) (string, error) { return x, nil })
	sp.Complete("sp")
	lg.P("after the other source won: %s dependents, %s", r.NumberOfDependents(), bracketed(r))
}
