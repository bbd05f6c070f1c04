package oracle_test

import (
	"github.com/loomgo/loom/executors"
	"github.com/loomgo/loom/scoped"
	"github.com/loomgo/loom/thread"
)

// ScopedValue: the twins of java/ScopedValueScenarios.java.
func scopedValueScenarios() []scenario {
	const suite = "ScopedValueScenarios"
	return []scenario{
		{suite, "sv_unbound_and_bound", svUnboundAndBound},
		{suite, "sv_rebinding_nested", svRebindingNested},
		{suite, "sv_call_returns_and_throws", svCallReturnsAndThrows},
		{suite, "sv_two_bindings_and_carrier_get", svTwoBindings},
		{suite, "sv_not_inherited_by_threads", svNotInherited},
	}
}

var (
	svK    = scoped.NewInstance[string]()
	svA    = scoped.NewInstance[int]()
	svB    = scoped.NewInstance[int]()
	orBoom = func() error { return boom("unbound") }
)

func svUnboundAndBound(lg *Log) {
	lg.P("unbound: isBound %s orElse %s", svK.IsBound(), svK.OrElse("other"))
	lg.Val("get unbound", func() (any, error) { return svK.Get(), nil })
	lg.Val("orElseThrow unbound", valErr(func() (string, error) { return svK.OrElseThrow(orBoom) }))
	scoped.Where(svK, "v").Run(func() {
		lg.P("inside run: get %s isBound %s orElse %s orElseThrow %s", svK.Get(), svK.IsBound(), svK.OrElse("other"),
			valOf(valErr(func() (string, error) { return svK.OrElseThrow(orBoom) })))
	})
	lg.P("after run: isBound %s", svK.IsBound())
}

func svRebindingNested(lg *Log) {
	scoped.Where(svK, "outer").Run(func() {
		scoped.Where(svK, "inner").Run(func() { lg.P("nested: %s", svK.Get()) })
		lg.P("back in the outer run: %s", svK.Get())
	})
}

func svCallReturnsAndThrows(lg *Log) {
	v, _ := scoped.Call(scoped.Where(svK, "called"), func() (string, error) { return svK.Get() + "!", nil })
	lg.P("call returned %s", v)
	lg.Val("call whose op throws", valErr(func() (string, error) {
		return scoped.Call(scoped.Where(svK, "throwing"), func() (string, error) { return "", boom("in call") })
	}))
	lg.P("after the throw: isBound %s", svK.IsBound())
	lg.Val("run whose op throws", func() (any, error) {
		scoped.Where(svK, "throwing").Run(func() { panic(boom("in run")) })
		return "ok", nil
	})
	lg.P("after the throw: isBound %s", svK.IsBound())
}

func svTwoBindings(lg *Log) {
	c := scoped.Where(svA, 1).And(scoped.Where(svB, 2))
	c.Run(func() { lg.P("both: %s %s", svA.Get(), svB.Get()) })
	scoped.Where(svA, 1).And(scoped.Where(svA, 3)).Run(func() { lg.P("a later mapping of the same key wins: %s", svA.Get()) })
	lg.P("carrier.get(A) %s carrier.get(B) %s", c.Get(svA), c.Get(svB))
	lg.Val("carrier.get of a key it does not bind", func() (any, error) { return c.Get(svK), nil })
}

func svNotInherited(lg *Log) {
	scoped.Where(svK, "bound").Run(func() {
		var v, p string
		thread.StartVirtualThread(func() { v = "virtual thread: isBound " + str(svK.IsBound()) }).Join()
		thread.OfPlatform().Start(func() { p = "platform thread: isBound " + str(svK.IsBound()) }).Join()
		es := executors.NewVirtualThreadPerTaskExecutor()
		f, _ := executors.Submit(es, func() (string, error) { return "executor task: isBound " + str(svK.IsBound()), nil })
		e, _ := f.Get()
		es.Close()
		lg.P("%s; %s; %s; the binding thread: %s", v, p, e, svK.Get())
	})
}
