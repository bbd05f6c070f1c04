package oracle_test

import (
	"slices"
	"sync/atomic"

	"github.com/loomgo/loom/executors"
	"github.com/loomgo/loom/thread"
	"github.com/loomgo/loom/threadlocal"
)

// ThreadLocal and InheritableThreadLocal: the twins of java/LocalScenarios.java. Java's null (no
// value) is loom's zero value; both sides log it as <none>.
func localScenarios() []scenario {
	const suite = "LocalScenarios"
	return []scenario{
		{suite, "tl_initial_per_thread", tlInitialPerThread},
		{suite, "tl_isolation", tlIsolation},
		{suite, "tl_inheritable", tlInheritable},
		{suite, "tl_pool_threads_keep_values", tlPoolThreadsKeepValues},
	}
}

func none(v string) string {
	if v == "" {
		return "<none>"
	}
	return v
}

func tlInitialPerThread(lg *Log) {
	var calls atomic.Int64
	tl := threadlocal.WithInitial(func() int64 { return calls.Add(1) })
	a, b := tl.Get(), tl.Get()
	lg.P("get %s, get %s", a, b)
	tl.Remove()
	lg.P("after remove: get %s", tl.Get())
	tl.Set(42)
	lg.P("after set: get %s", tl.Get())
	var other int64
	thread.StartVirtualThread(func() { other = tl.Get() }).Join()
	lg.P("another thread: %s; initial calls %s", other, calls.Load())
}

func tlIsolation(lg *Log) {
	tl := threadlocal.New[string]()
	lg.P("first: %s", none(tl.Get()))
	tl.Set("scenario")
	var seen list
	var ts []*thread.Thread
	for _, name := range []string{"v1", "v2"} {
		ts = append(ts, thread.StartVirtualThread(func() {
			before := none(tl.Get())
			tl.Set(name)
			thread.Sleep(1)
			seen.add("%s -> %s", before, tl.Get())
		}))
	}
	join(lg, ts...)
	slices.Sort(seen.xs)
	lg.P("threads saw %s; the scenario thread still %s", &seen, tl.Get())
}

func tlInheritable(lg *Log) {
	plain := threadlocal.NewInheritable[string](nil)
	derived := threadlocal.NewInheritable(func(parent string) string { return parent + "+child" })
	plain.Set("parent")
	derived.Set("parent")
	var r string
	unstarted := thread.OfVirtual().Unstarted(func() { r = plain.Get() + ", " + derived.Get() })
	plain.Set("changed after the child was created")
	unstarted.Start()
	unstarted.Join()
	lg.P("virtual child: %s", r)
	plain.Set("parent")
	thread.OfPlatform().Start(func() { r = plain.Get() + ", " + derived.Get() }).Join()
	lg.P("platform child: %s", r)
	thread.OfVirtual().InheritInheritableThreadLocals(false).Start(func() { r = none(plain.Get()) + ", " + none(derived.Get()) }).Join()
	lg.P("inheritInheritableThreadLocals(false): %s", r)
	thread.StartVirtualThread(func() {
		plain.Set("set by the child")
		thread.StartVirtualThread(func() { r = plain.Get() }).Join()
	}).Join()
	lg.P("grandchild: %s; the parent still %s", r, plain.Get())
	plain.Remove()
	lg.P("after remove: %s", none(plain.Get()))
}

func tlPoolThreadsKeepValues(lg *Log) {
	tl := threadlocal.New[string]()
	set := func() (struct{}, error) { tl.Set("left by task 1"); return struct{}{}, nil }
	get := func() (string, error) { return tl.Get(), nil }
	single := executors.NewSingleThreadExecutor()
	f1, _ := executors.Submit(single, set)
	f1.Get()
	f2, _ := executors.Submit(single, get)
	v, _ := f2.Get()
	lg.P("single-thread pool, task 2 sees: %s", none(v))
	single.Close()
	perTask := executors.NewVirtualThreadPerTaskExecutor()
	g1, _ := executors.Submit(perTask, set)
	g1.Get()
	g2, _ := executors.Submit(perTask, get)
	w, _ := g2.Get()
	lg.P("thread-per-task, task 2 sees: %s", none(w))
	perTask.Close()
}
