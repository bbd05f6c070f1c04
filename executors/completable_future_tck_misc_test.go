package executors_test

import (
	"errors"
	"reflect"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/loomgo/loom/executors"
	"github.com/loomgo/loom/thread"
)

// Ports of the rest of CompletableFutureTest: allOf/anyOf, null arguments, rejecting executors,
// copy and minimal stages, completeAsync, orTimeout/completeOnTimeout, delayedExecutor, obtrude,
// and the implementation-detail tests (failure propagation, long chains, garbage retention).

func TestCompletableFutureTest_testAllOf_empty(t *testing.T) {
	checkCompletedNormally(t, executors.AllOf(), struct{}{})
}

func TestCompletableFutureTest_testAllOf_normal_backwards(t *testing.T) {
	for k := 1; k < 10; k++ {
		cs, fs := newFutures(k)
		f := executors.AllOf(fs...)
		for i := k - 1; i >= 0; i-- {
			checkIncomplete(t, f)
			checkIncomplete(t, executors.AllOf(fs...))
			cs[i].Complete(1)
		}
		checkCompletedNormally(t, f, struct{}{})
		checkCompletedNormally(t, executors.AllOf(fs...), struct{}{})
	}
}

func TestCompletableFutureTest_testAnyOf_empty(t *testing.T) {
	for _, v1 := range values {
		f := executors.AnyOf()
		checkIncomplete(t, f)
		f.Complete(v1)
		checkCompletedNormally(t, f, any(v1))
	}
}

func TestCompletableFutureTest_testAnyOf_normal_backwards(t *testing.T) {
	for k := 0; k < 10; k++ {
		cs, fs := newFutures(k)
		f := executors.AnyOf(fs...)
		checkIncomplete(t, f)
		for i := k - 1; i >= 0; i-- {
			cs[i].Complete(i)
			checkCompletedNormally(t, f, any(k-1))
			if x, _ := executors.AnyOf(fs...).Join(); x.(int) < i || x.(int) > k-1 {
				t.Errorf("anyOf = %v, want one of %d..%d", x, i, k-1)
			}
		}
	}
}

func TestCompletableFutureTest_testAnyOf_exceptional(t *testing.T) {
	for _, backwards := range []bool{false, true} {
		for k := 1; k < 10; k++ {
			cs, fs := newFutures(k)
			exs := make([]error, k)
			for i := range exs {
				exs[i] = newCFException()
			}
			f := executors.AnyOf(fs...)
			checkIncomplete(t, f)
			order := make([]int, k)
			for i := range order {
				order[i] = i
			}
			if backwards {
				slices.Reverse(order)
			}
			for _, i := range order {
				cs[i].CompleteExceptionally(exs[i])
				checkCompletedExceptionally(t, f, exs[order[0]])
				if _, err := executors.AnyOf(fs...).Join(); !errors.As(err, new(*cfException)) {
					t.Errorf("anyOf of failed futures = %v", err)
				}
			}
		}
	}
}

func TestCompletableFutureTest_testNPE(t *testing.T) {
	f, g := executors.NewCompletableFuture[*item](), executors.NewCompletableFuture[*item]()
	var nullFuture *cf
	exec := &threadExecutor{}
	id := func(x *item) (*item, error) { return x, nil }
	first := func(x, _ *item) (*item, error) { return x, nil }
	nop, consume, biConsume := func() {}, func(*item) {}, func(*item, *item) {}
	for i, fn := range []func(){
		func() { executors.SupplyAsync[*item](nil) },
		func() { executors.SupplyAsyncOn[*item](exec, nil) },
		func() { executors.SupplyAsyncOn(nil, func() (*item, error) { return fortytwo, nil }) },
		func() { executors.RunAsync(nil) },
		func() { executors.RunAsyncOn(exec, nil) },
		func() { executors.RunAsyncOn(nil, nop) },
		func() { f.CompleteExceptionally(nil) },
		func() { executors.ThenApply[*item, *item](f, nil) },
		func() { executors.ThenApplyAsync[*item, *item](f, nil) },
		func() { executors.ThenApplyAsyncOn(f, nil, id) },
		func() { executors.ThenApplyAsyncOn[*item, *item](f, exec, nil) },
		func() { f.ThenAccept(nil) },
		func() { f.ThenAcceptAsync(nil) },
		func() { f.ThenAcceptAsyncOn(nil, consume) },
		func() { f.ThenAcceptAsyncOn(exec, nil) },
		func() { f.ThenRun(nil) },
		func() { f.ThenRunAsync(nil) },
		func() { f.ThenRunAsyncOn(nil, nop) },
		func() { f.ThenRunAsyncOn(exec, nil) },
		func() { executors.ThenCombine[*item, *item, *item](f, g, nil) },
		func() { executors.ThenCombineAsync[*item, *item, *item](f, g, nil) },
		func() { executors.ThenCombineAsyncOn[*item, *item, *item](f, g, exec, nil) },
		func() { executors.ThenCombine(f, nullFuture, first) },
		func() { executors.ThenCombineAsync(f, nullFuture, first) },
		func() { executors.ThenCombineAsyncOn(f, nullFuture, exec, first) },
		func() { executors.ThenCombineAsyncOn(f, g, nil, first) },
		func() { executors.ThenAcceptBoth[*item, *item](f, g, nil) },
		func() { executors.ThenAcceptBothAsync[*item, *item](f, g, nil) },
		func() { executors.ThenAcceptBothAsyncOn[*item, *item](f, g, exec, nil) },
		func() { executors.ThenAcceptBoth(f, nullFuture, biConsume) },
		func() { executors.ThenAcceptBothAsync(f, nullFuture, biConsume) },
		func() { executors.ThenAcceptBothAsyncOn(f, nullFuture, exec, biConsume) },
		func() { executors.ThenAcceptBothAsyncOn(f, g, nil, biConsume) },
		func() { f.RunAfterBoth(g, nil) },
		func() { f.RunAfterBothAsync(g, nil) },
		func() { f.RunAfterBothAsyncOn(g, exec, nil) },
		func() { f.RunAfterBoth(nullFuture, nop) },
		func() { f.RunAfterBoth(nil, nop) },
		func() { f.RunAfterBothAsync(nullFuture, nop) },
		func() { f.RunAfterBothAsyncOn(nullFuture, exec, nop) },
		func() { f.RunAfterBothAsyncOn(g, nil, nop) },
		func() { executors.ApplyToEither[*item, *item](f, g, nil) },
		func() { executors.ApplyToEitherAsync[*item, *item](f, g, nil) },
		func() { executors.ApplyToEitherAsyncOn[*item, *item](f, g, exec, nil) },
		func() { executors.ApplyToEither(f, nullFuture, id) },
		func() { executors.ApplyToEitherAsync(f, nullFuture, id) },
		func() { executors.ApplyToEitherAsyncOn(f, nullFuture, exec, id) },
		func() { executors.ApplyToEitherAsyncOn(f, g, nil, id) },
		func() { f.AcceptEither(g, nil) },
		func() { f.AcceptEitherAsync(g, nil) },
		func() { f.AcceptEitherAsyncOn(g, exec, nil) },
		func() { f.AcceptEither(nullFuture, consume) },
		func() { f.AcceptEither(nil, consume) },
		func() { f.AcceptEitherAsync(nullFuture, consume) },
		func() { f.AcceptEitherAsyncOn(nullFuture, exec, consume) },
		func() { f.AcceptEitherAsyncOn(g, nil, consume) },
		func() { f.RunAfterEither(g, nil) },
		func() { f.RunAfterEitherAsync(g, nil) },
		func() { f.RunAfterEitherAsyncOn(g, exec, nil) },
		func() { f.RunAfterEither(nullFuture, nop) },
		func() { f.RunAfterEitherAsync(nullFuture, nop) },
		func() { f.RunAfterEitherAsyncOn(nullFuture, exec, nop) },
		func() { f.RunAfterEitherAsyncOn(g, nil, nop) },
		func() { executors.ThenCompose[*item, *item](f, nil) },
		func() { executors.ThenComposeAsync[*item, *item](f, nil) },
		func() { executors.ThenComposeAsyncOn(f, nil, func(*item) *cf { return nil }) },
		func() { executors.ThenComposeAsyncOn[*item, *item](f, exec, nil) },
		func() { executors.ThenApply(nullFuture, id) },
		func() { executors.ThenApply(nil, id) },
		func() { f.Exceptionally(nil) },
		func() { f.ExceptionallyAsync(nil) },
		func() { f.ExceptionallyAsyncOn(nil, func(error) (*item, error) { return nil, nil }) },
		func() { f.ExceptionallyCompose(nil) },
		func() { f.ExceptionallyComposeAsyncOn(exec, nil) },
		func() { executors.Handle[*item, *item](f, nil) },
		func() { executors.HandleAsyncOn[*item, *item](f, exec, nil) },
		func() { f.WhenComplete(nil) },
		func() { f.WhenCompleteAsyncOn(exec, nil) },
		func() { executors.AllOf(nil) },
		func() { executors.AllOf(nullFuture) },
		func() { executors.AllOf(f, nil) },
		func() { executors.AllOf(nil, f) },
		func() { executors.AnyOf(nil) },
		func() { executors.AnyOf(nullFuture) },
		func() { executors.AnyOf(f, nil) },
		func() { executors.AnyOf(nil, f) },
		func() { f.ObtrudeException(nil) },
		func() { f.CompleteAsync(nil) },
		func() { f.CompleteAsyncOn(nil, func() (*item, error) { return nil, nil }) },
		func() { executors.DelayedExecutorOn(nil, time.Second) },
		func() { executors.DelayedExecutor(time.Second).Execute(nil) },
		func() { executors.FailedFuture[*item](nil) },
		func() { executors.FailedStage[*item](nil) },
	} {
		t.Run("", func(t *testing.T) {
			mustPanicWith(t, thread.ErrNilArgument, fn)
			if t.Failed() {
				t.Logf("call %d", i)
			}
		})
	}
	if exec.count.Load() != 0 {
		t.Errorf("the executor was asked %d times", exec.count.Load())
	}
	if f.NumberOfDependents()+g.NumberOfDependents() != 0 {
		t.Errorf("a refused call left dependents: %d, %d", f.NumberOfDependents(), g.NumberOfDependents())
	}
}

// probe wraps a stage of any result type for the tests that handle a list of them.
type probe struct {
	incomplete func()
	failedWith func(ex error)
	complete   func() bool
	normalZero func()
}

func probeOf[T any](t *testing.T, f *executors.CompletableFuture[T]) probe {
	var zero T
	return probe{
		incomplete: func() { t.Helper(); checkIncomplete(t, f) },
		failedWith: func(ex error) { t.Helper(); checkCompletedExceptionally(t, f, ex) },
		complete:   func() bool { return f.Complete(zero) },
		normalZero: func() { t.Helper(); checkCompletedNormally(t, f, zero) },
	}
}

// asyncStagesOn makes the TCK's twelve async stages of src on e (for testRejectingExecutor and
// testRejectingExecutorNeverInvoked).
func asyncStagesOn(t *testing.T, src *cf, e executors.Executor) []probe {
	return []probe{
		probeOf(t, src.ThenRunAsyncOn(e, func() {})),
		probeOf(t, src.ThenAcceptAsyncOn(e, func(*item) {})),
		probeOf(t, executors.ThenApplyAsyncOn(src, e, func(z *item) (*item, error) { return z, nil })),
		probeOf(t, executors.ThenCombineAsyncOn(src, src, e, func(x, _ *item) (*item, error) { return x, nil })),
		probeOf(t, executors.ThenAcceptBothAsyncOn(src, src, e, func(_, _ *item) {})),
		probeOf(t, src.RunAfterBothAsyncOn(src, e, func() {})),
		probeOf(t, executors.ApplyToEitherAsyncOn(src, src, e, func(z *item) (*item, error) { return z, nil })),
		probeOf(t, src.AcceptEitherAsyncOn(src, e, func(*item) {})),
		probeOf(t, src.RunAfterEitherAsyncOn(src, e, func() {})),
		probeOf(t, executors.ThenComposeAsyncOn(src, e, func(*item) *cf { return nil })),
		probeOf(t, src.WhenCompleteAsyncOn(e, func(*item, error) {})),
		probeOf(t, executors.HandleAsyncOn(src, e, func(*item, error) (*item, error) { return nil, nil })),
	}
}

// asyncBothStagesOn makes the TCK's six async both stages of a complete and an incomplete
// source, each way round.
func asyncBothStagesOn(t *testing.T, complete, incomplete *cf, e executors.Executor) []probe {
	return []probe{
		probeOf(t, executors.ThenCombineAsyncOn(complete, incomplete, e, func(x, _ *item) (*item, error) { return x, nil })),
		probeOf(t, executors.ThenCombineAsyncOn(incomplete, complete, e, func(x, _ *item) (*item, error) { return x, nil })),
		probeOf(t, executors.ThenAcceptBothAsyncOn(complete, incomplete, e, func(_, _ *item) {})),
		probeOf(t, executors.ThenAcceptBothAsyncOn(incomplete, complete, e, func(_, _ *item) {})),
		probeOf(t, complete.RunAfterBothAsyncOn(incomplete, e, func() {})),
		probeOf(t, incomplete.RunAfterBothAsyncOn(complete, e, func() {})),
	}
}

// Submissions to an executor that rejects every task: a stage whose action would be handed to it
// fails with its error (once the stage's sources are complete); Java asks the executor once per
// stage.
func TestCompletableFutureTest_testRejectingExecutor(t *testing.T) {
	for _, v := range values {
		e := newCountingRejectingExecutor()
		complete, incomplete := executors.CompletedFuture(v), executors.NewCompletableFuture[*item]()
		var futures []probe
		for _, src := range []*cf{complete, incomplete} {
			fs := asyncStagesOn(t, src, e)
			for _, p := range fs {
				if src.IsDone() {
					p.failedWith(e.ex)
				} else {
					p.incomplete()
				}
			}
			futures = append(futures, fs...)
		}
		both := asyncBothStagesOn(t, complete, incomplete, e)
		for _, p := range both {
			p.incomplete()
		}
		futures = append(futures, both...)
		either := []probe{
			probeOf(t, executors.ApplyToEitherAsyncOn(complete, incomplete, e, func(z *item) (*item, error) { return z, nil })),
			probeOf(t, executors.ApplyToEitherAsyncOn(incomplete, complete, e, func(z *item) (*item, error) { return z, nil })),
			probeOf(t, complete.AcceptEitherAsyncOn(incomplete, e, func(*item) {})),
			probeOf(t, incomplete.AcceptEitherAsyncOn(complete, e, func(*item) {})),
			probeOf(t, complete.RunAfterEitherAsyncOn(incomplete, e, func() {})),
			probeOf(t, incomplete.RunAfterEitherAsyncOn(complete, e, func() {})),
		}
		for _, p := range either {
			p.failedWith(e.ex)
		}
		futures = append(futures, either...)
		incomplete.Complete(v)
		for _, p := range futures {
			p.failedWith(e.ex)
		}
		if got := e.count.Load(); got != int64(len(futures)) {
			t.Errorf("executor asked %d times, want %d", got, len(futures))
		}
	}
}

// The executor is never asked for a stage that was completed by hand first.
func TestCompletableFutureTest_testRejectingExecutorNeverInvoked(t *testing.T) {
	for _, v := range values {
		e := newCountingRejectingExecutor()
		complete, incomplete := executors.CompletedFuture(v), executors.NewCompletableFuture[*item]()
		fs := append(asyncStagesOn(t, incomplete, e), asyncBothStagesOn(t, complete, incomplete, e)...)
		for _, p := range fs {
			p.incomplete()
		}
		for _, p := range fs {
			p.complete()
		}
		incomplete.Complete(v)
		for _, p := range fs {
			p.normalZero()
		}
		if e.count.Load() != 0 {
			t.Errorf("executor asked %d times", e.count.Load())
		}
	}
}

func TestCompletableFutureTest_testToCompletableFuture(t *testing.T) {
	f := executors.NewCompletableFuture[*item]()
	if f.ToCompletableFuture() != f {
		t.Error("ToCompletableFuture of a CompletableFuture is not itself")
	}
}

func TestCompletableFutureTest_testCompletedStage(t *testing.T) {
	var x atomic.Int64
	var r atomic.Value
	f := executors.CompletedStage(one)
	f.WhenComplete(func(v *item, err error) {
		if err != nil {
			r.Store(err)
		} else {
			x.Store(int64(v.Value))
		}
	})
	if x.Load() != 1 || r.Load() != nil {
		t.Errorf("whenComplete saw %d, %v", x.Load(), r.Load())
	}
}

// Java's defaultExecutor is the common pool if it has more than one thread; loom's is a new
// virtual thread per task (see DefaultExecutor).
func TestCompletableFutureTest_testDefaultExecutor(t *testing.T) {
	f := executors.NewCompletableFuture[*item]()
	e := f.DefaultExecutor()
	if e != executors.NewCompletableFuture[int]().DefaultExecutor() {
		t.Error("futures have different default executors")
	}
	ran := make(chan *thread.Thread, 2)
	for range 2 {
		if err := e.Execute(func() { ran <- thread.Current() }); err != nil {
			t.Fatal(err)
		}
	}
	a, b := <-ran, <-ran
	if !a.IsVirtual() || !b.IsVirtual() || a == b || a == thread.Current() {
		t.Errorf("tasks ran on %v and %v, want two new virtual threads", a, b)
	}
}

func TestCompletableFutureTest_testFailedStage(t *testing.T) {
	ex := newCFException()
	f := executors.FailedStage[*item](ex)
	var x atomic.Int64
	var r atomic.Value
	f.WhenComplete(func(v *item, err error) {
		if err != nil {
			r.Store(err)
		} else {
			x.Store(int64(v.Value))
		}
	})
	if x.Load() != 0 || r.Load() != ex {
		t.Errorf("whenComplete saw %d, %v", x.Load(), r.Load())
	}
}

// relayNormal and relayExceptional are the TCK's copy tests, for Copy and for a minimal stage's
// ToCompletableFuture: copier is called when f is new, and its result once f is complete or not.
func relayNormal(t *testing.T, copier func(f *cf) func() *cf) {
	for _, incomplete := range createIncomplete {
		for _, v1 := range values {
			f := executors.NewCompletableFuture[*item]()
			copyOf := copier(f)
			if !incomplete {
				f.Complete(v1)
			}
			g := copyOf()
			if incomplete {
				checkIncomplete(t, f)
				checkIncomplete(t, g)
				f.Complete(v1)
			}
			checkCompletedNormally(t, f, v1)
			checkCompletedNormally(t, g, v1)
		}
	}
}

func relayExceptional(t *testing.T, copier func(f *cf) func() *cf) {
	for _, incomplete := range createIncomplete {
		ex := newCFException()
		f := executors.NewCompletableFuture[*item]()
		copyOf := copier(f)
		if !incomplete {
			f.CompleteExceptionally(ex)
		}
		g := copyOf()
		if incomplete {
			checkIncomplete(t, f)
			checkIncomplete(t, g)
			f.CompleteExceptionally(ex)
		}
		checkCompletedExceptionally(t, f, ex)
		checkCompletedExceptionally(t, g, ex)
	}
}

func copyOf(f *cf) func() *cf { return f.Copy }

func viewCopyOf(f *cf) func() *cf { return f.MinimalCompletionStage().ToCompletableFuture }

func TestCompletableFutureTest_testCopy_normalCompletion(t *testing.T) { relayNormal(t, copyOf) }

func TestCompletableFutureTest_testCopy_exceptionalCompletion(t *testing.T) {
	relayExceptional(t, copyOf)
}

func TestCompletableFutureTest_testCopy_oneWayPropagation(t *testing.T) {
	f := executors.NewCompletableFuture[*item]()
	if !f.Copy().Complete(one) || !f.Copy().Complete(nil) || !f.Copy().Cancel(true) || !f.Copy().Cancel(false) ||
		!f.Copy().CompleteExceptionally(newCFException()) {
		t.Error("a copy could not be completed")
	}
	checkIncomplete(t, f)
}

func TestCompletableFutureTest_testMinimalCompletionStage(t *testing.T) {
	f := executors.NewCompletableFuture[*item]()
	g := f.MinimalCompletionStage()
	var x atomic.Int64
	var r atomic.Value
	checkIncomplete(t, f)
	g.WhenComplete(func(v *item, err error) {
		if err != nil {
			r.Store(err)
		} else {
			x.Store(int64(v.Value))
		}
	})
	f.Complete(one)
	checkCompletedNormally(t, f, one)
	if x.Load() != 1 || r.Load() != nil {
		t.Errorf("whenComplete saw %d, %v", x.Load(), r.Load())
	}
}

func TestCompletableFutureTest_testMinimalCompletionStage2(t *testing.T) {
	f := executors.NewCompletableFuture[*item]()
	g := f.MinimalCompletionStage()
	var x atomic.Int64
	var r atomic.Value
	g.WhenComplete(func(v *item, err error) {
		if err != nil {
			r.Store(err)
		} else {
			x.Store(int64(v.Value))
		}
	})
	checkIncomplete(t, f)
	ex := newCFException()
	f.CompleteExceptionally(ex)
	checkCompletedExceptionally(t, f, ex)
	if x.Load() != 0 || r.Load() != ex {
		t.Errorf("whenComplete saw %d, %v", x.Load(), r.Load())
	}
}

// The TCK's reflective test, done on the view's method set: its exported methods are those of
// CompletionStage (and String), so no type assertion reaches Complete, Get, Cancel and the rest.
func TestCompletableFutureTest_testMinimalCompletionStage_minimality(t *testing.T) {
	allowed := map[string]bool{"String": true}
	st := reflect.TypeFor[executors.CompletionStage[*item]]()
	for i := range st.NumMethod() {
		allowed[st.Method(i).Name] = true
	}
	min := executors.NewCompletableFuture[*item]().MinimalCompletionStage()
	for _, s := range []executors.CompletionStage[*item]{
		min, executors.CompletedStage(one), executors.FailedStage[*item](newCFException()),
	} {
		vt := reflect.TypeOf(s)
		for i := range vt.NumMethod() {
			if name := vt.Method(i).Name; !allowed[name] {
				t.Errorf("the view %v has method %s", vt, name)
			}
		}
		for name, ok := range map[string]bool{
			"Complete":  implements[interface{ Complete(*item) bool }](s),
			"Get":       implements[interface{ Get() (*item, error) }](s),
			"Join":      implements[interface{ Join() (*item, error) }](s),
			"Cancel":    implements[interface{ Cancel(bool) bool }](s),
			"IsDone":    implements[interface{ IsDone() bool }](s),
			"Obtrude":   implements[interface{ ObtrudeValue(*item) }](s),
			"OrTimeout": implements[interface{ OrTimeout(time.Duration) *cf }](s),
		} {
			if ok {
				t.Errorf("the view %v has %s", vt, name)
			}
		}
	}
	// ThenApply on a view is a new, full stage; the view itself stays incomplete and uncompletable
	g := executors.ThenApply(min, func(x *item) (*item, error) { return x, nil })
	if !g.Complete(one) {
		t.Error("a dependent of a view cannot be completed")
	}
	checkIncomplete(t, min.ToCompletableFuture())
}

func implements[I any](v any) bool { _, ok := v.(I); return ok }

func TestCompletableFutureTest_testMinimalCompletionStage_toCompletableFuture_normalCompletion(t *testing.T) {
	relayNormal(t, viewCopyOf)
}

func TestCompletableFutureTest_testMinimalCompletionStage_toCompletableFuture_exceptionalCompletion(t *testing.T) {
	relayExceptional(t, viewCopyOf)
}

func TestCompletableFutureTest_testMinimalCompletionStage_toCompletableFuture_mutable(t *testing.T) {
	for _, v1 := range values {
		f := executors.NewCompletableFuture[*item]()
		minimal := f.MinimalCompletionStage()
		g := minimal.ToCompletableFuture()
		if !g.Complete(v1) {
			t.Error("Complete = false")
		}
		checkCompletedNormally(t, g, v1)
		checkIncomplete(t, f)
		checkIncomplete(t, minimal.ToCompletableFuture())
	}
}

func TestCompletableFutureTest_testMinimalCompletionStage_toCompletableFuture_join(t *testing.T) {
	for _, incomplete := range createIncomplete {
		for _, v1 := range values {
			f := executors.NewCompletableFuture[*item]()
			if !incomplete {
				f.Complete(v1)
			}
			minimal := f.MinimalCompletionStage()
			if incomplete {
				f.Complete(v1)
			}
			if v, err := minimal.ToCompletableFuture().Join(); v != v1 || err != nil {
				t.Errorf("Join = %v, %v", v, err)
			}
			if v, err := minimal.ToCompletableFuture().Get(); v != v1 || err != nil {
				t.Errorf("Get = %v, %v", v, err)
			}
			checkCompletedNormally(t, minimal.ToCompletableFuture(), v1)
		}
	}
}

func TestCompletableFutureTest_testMinimalCompletionStage_toCompletableFuture_oneWayPropagation(t *testing.T) {
	f := executors.NewCompletableFuture[*item]()
	g := f.MinimalCompletionStage()
	if !g.ToCompletableFuture().Complete(one) || !g.ToCompletableFuture().Complete(nil) ||
		!g.ToCompletableFuture().Cancel(true) || !g.ToCompletableFuture().Cancel(false) ||
		!g.ToCompletableFuture().CompleteExceptionally(newCFException()) {
		t.Error("a copy could not be completed")
	}
	checkIncomplete(t, g.ToCompletableFuture())
	f.Complete(one)
	checkCompletedNormally(t, g.ToCompletableFuture(), one)
}

func TestCompletableFutureTest_testMinimalCompletionStage_join_by_hand(t *testing.T) {
	for _, incomplete := range createIncomplete {
		for _, v1 := range values {
			f := executors.NewCompletableFuture[*item]()
			minimal := f.MinimalCompletionStage()
			g := executors.NewCompletableFuture[*item]()
			if !incomplete {
				f.Complete(v1)
			}
			minimal.ThenAccept(func(x *item) { g.Complete(x) })
			if incomplete {
				f.Complete(v1)
			}
			g.Join()
			checkCompletedNormally(t, g, v1)
			checkCompletedNormally(t, f, v1)
			// the TCK's join(stage): a future completed by handle
			h := executors.NewCompletableFuture[*item]()
			executors.Handle(minimal, func(v *item, err error) (struct{}, error) {
				if err != nil {
					h.CompleteExceptionally(err)
				} else {
					h.Complete(v)
				}
				return struct{}{}, nil
			})
			if v, err := h.Join(); v != v1 || err != nil {
				t.Errorf("join by hand = %v, %v", v, err)
			}
		}
	}
}

func TestCompletableFutureTest_testCompleteAsync(t *testing.T) {
	for _, v1 := range values {
		f := executors.NewCompletableFuture[*item]()
		if f.CompleteAsync(func() (*item, error) { return v1, nil }) != f {
			t.Error("CompleteAsync did not return its future")
		}
		f.Join()
		checkCompletedNormally(t, f, v1)
	}
}

func TestCompletableFutureTest_testCompleteAsync2(t *testing.T) {
	f := executors.NewCompletableFuture[*item]()
	ex := newCFException()
	f.CompleteAsync(func() (*item, error) { return nil, ex })
	if _, err := f.Join(); err == nil {
		t.Error("Join succeeded")
	}
	checkCompletedExceptionally(t, f, ex)
}

func TestCompletableFutureTest_testCompleteAsync3(t *testing.T) {
	runTCK(t, func(c *tck) {
		for _, v1 := range values {
			f := executors.NewCompletableFuture[*item]()
			e := c.newThreadExecutor()
			f.CompleteAsyncOn(e, func() (*item, error) {
				c.checkExecutionMode(executorMode)
				return v1, nil
			})
			if v, err := f.Join(); v != v1 || err != nil {
				c.Errorf("Join = %v, %v", v, err)
			}
			checkCompletedNormally(c.T, f, v1)
			if e.count.Load() != 1 {
				c.Errorf("executor asked %d times", e.count.Load())
			}
		}
	})
}

func TestCompletableFutureTest_testCompleteAsync4(t *testing.T) {
	runTCK(t, func(c *tck) {
		f := executors.NewCompletableFuture[*item]()
		ex := newCFException()
		e := c.newThreadExecutor()
		f.CompleteAsyncOn(e, func() (*item, error) { return nil, ex })
		if _, err := f.Join(); err == nil {
			c.Error("Join succeeded")
		}
		checkCompletedExceptionally(c.T, f, ex)
		if e.count.Load() != 1 {
			c.Errorf("executor asked %d times", e.count.Load())
		}
	})
}

// timeoutDelay is the TCK's timeoutMillis(): short, and only ever a lower bound.
const timeoutDelay = 12 * time.Millisecond

func TestCompletableFutureTest_testOrTimeout_timesOut(t *testing.T) {
	f := executors.NewCompletableFuture[*item]()
	start := time.Now()
	if f.OrTimeout(timeoutDelay) != f {
		t.Error("OrTimeout did not return its future")
	}
	checkCompletedExceptionally(t, f, executors.ErrTimeout)
	if elapsed := time.Since(start); elapsed < timeoutDelay {
		t.Errorf("timed out after %v, before %v", elapsed, timeoutDelay)
	}
}

func TestCompletableFutureTest_testOrTimeout_completed(t *testing.T) {
	for _, v1 := range values {
		f, g := executors.NewCompletableFuture[*item](), executors.NewCompletableFuture[*item]()
		start := time.Now()
		f.Complete(v1)
		if f.OrTimeout(tckLongDelay) != f || g.OrTimeout(tckLongDelay) != g {
			t.Error("OrTimeout did not return its future")
		}
		g.Complete(v1)
		checkCompletedNormally(t, f, v1)
		checkCompletedNormally(t, g, v1)
		if elapsed := time.Since(start); elapsed > tckLongDelay/2 {
			t.Errorf("took %v", elapsed)
		}
	}
	awaitDelaySchedulerIdle(t)
}

func TestCompletableFutureTest_testCompleteOnTimeout_timesOut(t *testing.T) {
	for _, v := range []*item{fortytwo, nil} {
		f := executors.NewCompletableFuture[*item]()
		start := time.Now()
		if f.CompleteOnTimeout(v, timeoutDelay) != f {
			t.Error("CompleteOnTimeout did not return its future")
		}
		if got, err := f.Join(); got != v || err != nil {
			t.Errorf("Join = %v, %v", got, err)
		}
		if elapsed := time.Since(start); elapsed < timeoutDelay {
			t.Errorf("completed after %v, before %v", elapsed, timeoutDelay)
		}
		f.Complete(ninetynine) // no effect
		checkCompletedNormally(t, f, v)
	}
}

func TestCompletableFutureTest_testCompleteOnTimeout_completed(t *testing.T) {
	for _, v1 := range values {
		f, g := executors.NewCompletableFuture[*item](), executors.NewCompletableFuture[*item]()
		start := time.Now()
		f.Complete(v1)
		if f.CompleteOnTimeout(minusOne, tckLongDelay) != f || g.CompleteOnTimeout(minusOne, tckLongDelay) != g {
			t.Error("CompleteOnTimeout did not return its future")
		}
		g.Complete(v1)
		checkCompletedNormally(t, f, v1)
		checkCompletedNormally(t, g, v1)
		if elapsed := time.Since(start); elapsed > tckLongDelay/2 {
			t.Errorf("took %v", elapsed)
		}
	}
	awaitDelaySchedulerIdle(t)
}

// testDelayedExecutor: a submission through a delayed executor runs after the delay, on the base
// executor; one with an "unreasonably long" delay is still pending, and cancelling its stage
// withdraws it, so that no thread lingers (the TCK's point, which goleak checks here).
func TestCompletableFutureTest_testDelayedExecutor(t *testing.T) {
	runTCK(t, func(c *tck) {
		for _, withExecutor := range []bool{false, true} {
			for _, v := range []*item{nil, one} {
				const long = 24 * time.Hour
				delayer, longDelayer := executors.DelayedExecutor(timeoutDelay), executors.DelayedExecutor(long)
				mode := asyncMode
				if withExecutor {
					delayer = executors.DelayedExecutorOn(c.newThreadExecutor(), timeoutDelay)
					longDelayer = executors.DelayedExecutorOn(c.newThreadExecutor(), long)
					mode = executorMode
				}
				start := time.Now()
				f := executors.SupplyAsyncOn(delayer, func() (*item, error) { c.checkExecutionMode(mode); return v, nil })
				g := executors.SupplyAsyncOn(longDelayer, func() (*item, error) { return v, nil })
				if x, err := g.GetNow(nil); x != nil || err != nil {
					c.Errorf("GetNow = %v, %v", x, err)
				}
				if x, err := f.GetTimeout(tckLongDelay); x != v || err != nil {
					c.Errorf("Get = %v, %v", x, err)
				}
				if elapsed := time.Since(start); elapsed < timeoutDelay || elapsed > tckLongDelay/2 {
					c.Errorf("the delayed task completed after %v, want at least %v", elapsed, timeoutDelay)
				}
				checkCompletedNormally(c.T, f, v)
				checkIncomplete(c.T, g)
				if !g.Cancel(true) {
					c.Error("Cancel = false")
				}
			}
		}
	})
	awaitDelaySchedulerIdle(t)
}

// awaitDelaySchedulerIdle waits until the delay scheduler's thread has ended: nothing is left
// scheduled, and it ends delayKeepAlive after its last task.
func awaitDelaySchedulerIdle(t *testing.T) {
	t.Helper()
	deadline := time.Now().Add(tckLongDelay)
	for !executors.DelaySchedulerIdle() {
		if time.Now().After(deadline) {
			t.Fatalf("the delay scheduler still runs, with %d tasks", executors.DelayQueueLen())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestCompletableFutureTest_testObtrudeValue(t *testing.T) {
	f := executors.NewCompletableFuture[*item]()
	checkIncomplete(t, f)
	f.Complete(one)
	checkCompletedNormally(t, f, one)
	f.ObtrudeValue(three)
	checkCompletedNormally(t, f, three)
	f.ObtrudeValue(two)
	checkCompletedNormally(t, f, two)
	f = executors.NewCompletableFuture[*item]()
	f.ObtrudeValue(three)
	checkCompletedNormally(t, f, three)
	f.ObtrudeValue(nil)
	checkCompletedNormally(t, f, nil)
	f = executors.NewCompletableFuture[*item]()
	f.CompleteExceptionally(newCFException())
	f.ObtrudeValue(four)
	checkCompletedNormally(t, f, four)
}

func TestCompletableFutureTest_testObtrudeException(t *testing.T) {
	for _, v1 := range values {
		f := executors.NewCompletableFuture[*item]()
		f.Complete(v1)
		for range 2 {
			ex := newCFException()
			f.ObtrudeException(ex)
			checkCompletedExceptionally(t, f, ex)
		}
		f = executors.NewCompletableFuture[*item]()
		for range 2 {
			ex := newCFException()
			f.ObtrudeException(ex)
			checkCompletedExceptionally(t, f, ex)
		}
		f = executors.NewCompletableFuture[*item]()
		f.CompleteExceptionally(newCFException())
		f.ObtrudeValue(v1)
		checkCompletedNormally(t, f, v1)
		ex := newCFException()
		f.ObtrudeException(ex)
		checkCompletedExceptionally(t, f, ex)
		f.CompleteExceptionally(newCFException())
		checkCompletedExceptionally(t, f, ex)
		if f.Complete(v1) {
			t.Error("Complete of an obtruded future = true")
		}
		checkCompletedExceptionally(t, f, ex)
	}
}

// Obtruding on an incomplete future completes it: its waiters wake and its dependents run.
func TestObtrudeCompletesAnIncompleteFuture(t *testing.T) {
	f := executors.NewCompletableFuture[*item]()
	g := executors.ThenApply(f, func(x *item) (*item, error) { return inc(x), nil })
	got := make(chan *item, 1)
	w := thread.StartVirtualThread(func() { v, _ := f.Get(); got <- v })
	for w.State() != thread.Waiting {
		time.Sleep(time.Millisecond)
	}
	f.ObtrudeValue(one)
	if v := <-got; v != one {
		t.Errorf("waiter got %v", v)
	}
	checkCompletedNormally(t, g, two)
	h := executors.NewCompletableFuture[*item]()
	hd := h.ThenRun(func() {})
	h.ObtrudeException(executors.ErrCancelled)
	checkCancelled(t, h)
	checkCompletedWithWrappedCancellation(t, hd)
}

// testExceptionPropagationReusesResultObject: Java checks that a dependent relays its source's
// result object; here, that it fails with the very same error value.
func TestCompletableFutureTest_testExceptionPropagationReusesResultObject(t *testing.T) {
	runTCK(t, func(c *tck) {
		for _, m := range executionModes {
			v42, incomplete := executors.CompletedFuture(fortytwo), executors.NewCompletableFuture[*item]()
			noop, consume, incr := func() {}, func(*item) {}, func(x *item) (*item, error) { return inc(x), nil }
			wait := func(f executors.CompletionStage[*item]) func() error {
				return func() error { return exceptionalCompletion(f.ToCompletableFuture()) }
			}
			waitVoid := func(f *cfVoid) func() error { return func() error { return exceptionalCompletion(f) } }
			funs := []func(y *cf) func() error{
				func(y *cf) func() error { return waitVoid(m.thenRun(c, y, noop)) },
				func(y *cf) func() error { return waitVoid(m.thenAccept(c, y, consume)) },
				func(y *cf) func() error { return wait(m.thenApply(c, y, incr)) },
				func(y *cf) func() error { return waitVoid(m.runAfterEither(c, y, incomplete, noop)) },
				func(y *cf) func() error { return waitVoid(m.acceptEither(c, y, incomplete, consume)) },
				func(y *cf) func() error { return wait(m.applyToEither(c, y, incomplete, incr)) },
				func(y *cf) func() error { return waitVoid(m.runAfterBoth(c, y, v42, noop)) },
				func(y *cf) func() error { return waitVoid(m.runAfterBoth(c, v42, y, noop)) },
				func(y *cf) func() error { return waitVoid(m.thenAcceptBoth(c, y, v42, func(_, _ *item) {})) },
				func(y *cf) func() error { return waitVoid(m.thenAcceptBoth(c, v42, y, func(_, _ *item) {})) },
				func(y *cf) func() error {
					return wait(m.thenCombine(c, y, v42, func(x, _ *item) (*item, error) { return x, nil }))
				},
				func(y *cf) func() error {
					return wait(m.thenCombine(c, v42, y, func(x, _ *item) (*item, error) { return x, nil }))
				},
				func(y *cf) func() error { return wait(m.whenComplete(c, y, func(*item, error) {})) },
				func(y *cf) func() error {
					return wait(m.thenCompose(c, y, func(x *item) *cf { return executors.CompletedFuture(x) }))
				},
				func(y *cf) func() error { return waitVoid(executors.AllOf(y)) },
				func(y *cf) func() error { return waitVoid(executors.AllOf(y, v42)) },
				func(y *cf) func() error { return waitVoid(executors.AllOf(v42, y)) },
				func(y *cf) func() error {
					f := executors.AnyOf(y)
					return func() error { return exceptionalCompletion(f) }
				},
				func(y *cf) func() error {
					f := executors.AnyOf(y, incomplete)
					return func() error { return exceptionalCompletion(f) }
				},
				func(y *cf) func() error {
					f := executors.AnyOf(incomplete, y)
					return func() error { return exceptionalCompletion(f) }
				},
			}
			for _, failBefore := range []bool{true, false} {
				for _, sf := range append(exceptionalFailure(), cancellation()...) {
					for i, fun := range funs {
						f := executors.NewCompletableFuture[*item]()
						if failBefore {
							sf.fail(f)
						}
						src := m.thenApply(c, f, incr)
						dep := fun(src)
						if !failBefore {
							sf.fail(f)
						}
						srcErr := exceptionalCompletion(src)
						if depErr := dep(); depErr != srcErr {
							c.Errorf("%v %s, fun %d: dependent failed with %v, source with %v", m, sf.name, i, depErr, srcErr)
						}
						sf.checkItem(c.T, src)
					}
				}
			}
		}
	})
}

// Long recursive chains of stages with cascading completions, with dead ends.
func TestCompletableFutureTest_testRecursiveChains(t *testing.T) {
	runTCK(t, func(c *tck) {
		for _, m := range executionModes {
			for _, addDeadEnds := range []bool{true, false} {
				const val, n = 42, 1_000
				head := executors.NewCompletableFuture[*item]()
				tail := head
				next := func(v *item) (*item, error) { return itemFor(v.Value + 1), nil }
				for range n {
					if addDeadEnds {
						m.thenApply(c, tail, next)
					}
					tail = m.thenApply(c, tail, next)
					if addDeadEnds {
						m.applyToEither(c, tail, tail, next)
					}
					tail = m.applyToEither(c, tail, tail, next)
					if addDeadEnds {
						m.thenCombine(c, tail, tail, func(v, _ *item) (*item, error) { return next(v) })
					}
					tail = m.thenCombine(c, tail, tail, func(v, _ *item) (*item, error) { return next(v) })
				}
				head.Complete(itemFor(val))
				if v, err := tail.GetTimeout(time.Minute); err != nil || !cmp.Equal(v, itemFor(val+3*n)) {
					c.Errorf("%v: chain ended with %v, %v", m, v, err)
				}
			}
		}
	})
}

// manyDependents is testManyDependents: one future with 15n dependents of every kind, which all
// run once it completes (O(n)).
func manyDependents(t *testing.T, n int) {
	head := executors.NewCompletableFuture[struct{}]()
	complete := executors.CompletedFuture(struct{}{})
	var count atomic.Int64
	inc := func() { count.Add(1) }
	for range n {
		head.ThenRun(inc)
		head.ThenAccept(func(struct{}) { inc() })
		executors.ThenApply(head, func(struct{}) (int, error) { inc(); return 0, nil })
		head.RunAfterBoth(complete, inc)
		executors.ThenAcceptBoth(head, complete, func(_, _ struct{}) { inc() })
		executors.ThenCombine(head, complete, func(_, _ struct{}) (int, error) { inc(); return 0, nil })
		complete.RunAfterBoth(head, inc)
		executors.ThenAcceptBoth(complete, head, func(_, _ struct{}) { inc() })
		executors.ThenCombine(complete, head, func(_, _ struct{}) (int, error) { inc(); return 0, nil })
		head.RunAfterEither(executors.NewCompletableFuture[struct{}](), inc)
		head.AcceptEither(executors.NewCompletableFuture[struct{}](), func(struct{}) { inc() })
		executors.ApplyToEither(head, executors.NewCompletableFuture[struct{}](), func(struct{}) (int, error) { inc(); return 0, nil })
		executors.NewCompletableFuture[struct{}]().RunAfterEither(head, inc)
		executors.NewCompletableFuture[struct{}]().AcceptEither(head, func(struct{}) { inc() })
		executors.ApplyToEither(executors.NewCompletableFuture[struct{}](), head, func(struct{}) (int, error) { inc(); return 0, nil })
	}
	head.Complete(struct{}{})
	if got := count.Load(); got != int64(15*n) {
		t.Errorf("%d actions ran, want %d", got, 15*n)
	}
}

func TestCompletableFutureTest_testManyDependents(t *testing.T) { manyDependents(t, 1_000) }

// The garbage-retention tests. Java runs them in an 8 MB heap; here each checks that the stack of
// the never-completed future stays short however many stale completions were pushed on it, which
// is what bounds the memory. Java keeps the completions of cancelled dependents until the source
// completes (a million thenRun(r).cancel(true) hold a million completions in JDK 25); loom sweeps
// them. The million-iteration runs are in completable_future_scale_test.go.

// maxStaleDepth bounds the stack of a future with no live dependent (see minSweep).
const maxStaleDepth = 64

func checkBoundedStack[T any](t *testing.T, name string, f *executors.CompletableFuture[T]) {
	t.Helper()
	if d := executors.StackDepth(f); d > maxStaleDepth {
		t.Errorf("%s: stack of %d completions, want at most %d", name, d, maxStaleDepth)
	}
	if n := f.NumberOfDependents(); n != 0 {
		t.Errorf("%s: %d dependents, want none", name, n)
	}
}

func coCompletionGarbageRetention(t *testing.T, n int) {
	incomplete := executors.NewCompletableFuture[*item]()
	for range n {
		f := executors.NewCompletableFuture[*item]()
		f.RunAfterEither(incomplete, func() {})
		f.Complete(nil)
		f = executors.NewCompletableFuture[*item]()
		f.AcceptEither(incomplete, func(*item) {})
		f.Complete(nil)
		f = executors.NewCompletableFuture[*item]()
		executors.ApplyToEither(f, incomplete, func(x *item) (*item, error) { return x, nil })
		f.Complete(nil)
		f = executors.NewCompletableFuture[*item]()
		executors.AnyOf(f, incomplete)
		f.Complete(nil)
	}
	for range n {
		f := executors.NewCompletableFuture[*item]()
		incomplete.RunAfterEither(f, func() {})
		f.Complete(nil)
		f = executors.NewCompletableFuture[*item]()
		incomplete.AcceptEither(f, func(*item) {})
		f.Complete(nil)
		f = executors.NewCompletableFuture[*item]()
		executors.ApplyToEither(incomplete, f, func(x *item) (*item, error) { return x, nil })
		f.Complete(nil)
		f = executors.NewCompletableFuture[*item]()
		executors.AnyOf(incomplete, f)
		f.Complete(nil)
	}
	checkIncomplete(t, incomplete)
	checkBoundedStack(t, "coCompletion", incomplete)
}

func TestCompletableFutureTest_testCoCompletionGarbageRetention(t *testing.T) {
	coCompletionGarbageRetention(t, 10_000)
}

func TestCompletableFutureTest_testAnyOfGarbageRetention(t *testing.T) {
	for _, v := range values {
		fs := make([]executors.Completion, 100)
		cs := make([]*cf, 100)
		for i := range fs {
			cs[i] = executors.NewCompletableFuture[*item]()
			fs[i] = cs[i]
		}
		cs[len(cs)-1].Complete(v)
		for range 10_000 {
			checkCompletedNormally(t, executors.AnyOf(fs...), any(v))
		}
		for _, c := range cs[:len(cs)-1] {
			checkBoundedStack(t, "anyOf", c)
		}
	}
}

func cancelledAllOfGarbageRetention(t *testing.T, n int) {
	fs := make([]executors.Completion, 100)
	cs := make([]*cf, 100)
	for i := range fs {
		cs[i] = executors.NewCompletableFuture[*item]()
		fs[i] = cs[i]
	}
	for range n {
		if !executors.AllOf(fs...).Cancel(false) {
			t.Fatal("Cancel = false")
		}
	}
	for _, c := range cs {
		checkBoundedStack(t, "allOf", c)
	}
}

func TestCompletableFutureTest_testCancelledAllOfGarbageRetention(t *testing.T) {
	cancelledAllOfGarbageRetention(t, 1_000)
}

// cancelledGarbageRetention is testCancelledGarbageRetention (thenRun) and the either
// case: a never-completed future whose dependents are cancelled.
func cancelledGarbageRetention(t *testing.T, n int) {
	neverCompleted := executors.NewCompletableFuture[*item]()
	for range n {
		if !neverCompleted.ThenRun(func() {}).Cancel(true) {
			t.Fatal("Cancel = false")
		}
	}
	checkBoundedStack(t, "thenRun", neverCompleted)
	never2 := executors.NewCompletableFuture[*item]()
	for range n {
		other := executors.NewCompletableFuture[*item]()
		if !executors.ApplyToEither(never2, other, func(x *item) (*item, error) { return x, nil }).Cancel(true) {
			t.Fatal("Cancel = false")
		}
	}
	checkBoundedStack(t, "applyToEither", never2)
}

func TestCompletableFutureTest_testCancelledGarbageRetention(t *testing.T) {
	cancelledGarbageRetention(t, 10_000)
}

func toCompletableFutureGarbageRetention(t *testing.T, n int) {
	neverCompleted := executors.NewCompletableFuture[*item]()
	minimal := neverCompleted.MinimalCompletionStage()
	for range n {
		if !minimal.ToCompletableFuture().Cancel(true) {
			t.Fatal("Cancel = false")
		}
	}
	// the view's own copy of neverCompleted holds the toCompletableFuture copies' completions
	checkBoundedStack(t, "toCompletableFuture", executors.StageOf(minimal))
	if d := executors.StackDepth(neverCompleted); d != 1 {
		t.Errorf("the source holds %d completions, want the view's one", d)
	}
}

func TestCompletableFutureTest_testToCompletableFutureGarbageRetention(t *testing.T) {
	toCompletableFutureGarbageRetention(t, 10_000)
}
