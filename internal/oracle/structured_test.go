package oracle_test

import (
	"sync/atomic"
	"time"

	"github.com/loomgo/loom/locks"
	"github.com/loomgo/loom/scoped"
	"github.com/loomgo/loom/structured"
	"github.com/loomgo/loom/thread"
)

// StructuredTaskScope and its joiners: the twins of java/ScopeScenarios.java (JDK 25's API).
func scopeScenarios() []scenario {
	const suite = "ScopeScenarios"
	return []scenario{
		{suite, "scope_all_succeed", scopeAllSucceed},
		{suite, "scope_failure_cancels", scopeFailureCancels},
		{suite, "scope_any_successful_result", scopeAnySuccessful},
		{suite, "scope_all_successful_list", scopeAllSuccessfulList},
		{suite, "scope_await_all_keeps_going", scopeAwaitAll},
		{suite, "scope_all_until", scopeAllUntil},
		{suite, "scope_misuse", scopeMisuse},
		{suite, "scope_timeout", scopeTimeout},
		{suite, "scope_join_interrupted", scopeJoinInterrupted},
		{suite, "scope_scoped_values_in_forks", scopeScopedValuesInForks},
		{suite, "scope_custom_joiner", scopeCustomJoiner},
	}
}

// blocker is a subtask body that blocks until interrupted and records that it was.
func blocker(seen *atomic.Value) func() (string, error) {
	return func() (string, error) {
		if err := blockForever(); err != nil {
			seen.Store("interrupted")
			return "", err
		}
		return "never", nil
	}
}

func notInterrupted() *atomic.Value {
	var v atomic.Value
	v.Store("not interrupted")
	return &v
}

// joinVal is Join for Log.Val: Java's join of these joiners returns null.
func joinVal[T any](s *structured.Scope[T, struct{}]) func() (any, error) {
	return func() (any, error) { _, err := s.Join(); return null{}, err }
}

func scopeAllSucceed(lg *Log) {
	s := structured.Open()
	defer s.Close()
	a := structured.Fork(s, func() (string, error) { return "a", nil })
	b := structured.Fork(s, func() (int, error) { return 2, nil })
	lg.Val("join", joinVal(s))
	lg.P("states %s %s values %s %s cancelled %s", a.State(), b.State(), a.Get(), b.Get(), s.IsCancelled())
	lg.Val("exception() of a successful subtask", func() (any, error) { return a.Exception(), nil })
}

func scopeFailureCancels(lg *Log) {
	seen := notInterrupted()
	started := locks.NewCountDownLatch(1)
	func() {
		s := structured.Open()
		defer s.Close()
		slow := structured.Fork(s, func() (string, error) { started.CountDown(); return blocker(seen)() })
		failing := structured.Fork(s, func() (string, error) { started.Await(); return "", boom("fork failed") })
		lg.Val("join", joinVal(s))
		lg.P("failing: %s %s; slow: %s; cancelled %s", failing.State(), failing.Exception(), slow.State(), s.IsCancelled())
		lg.Val("get of the failed subtask", func() (any, error) { return failing.Get(), nil })
		lg.Val("get of the cancelled subtask", func() (any, error) { return slow.Get(), nil })
		lg.Val("exception of the cancelled subtask", func() (any, error) { return slow.Exception(), nil })
	}()
	lg.P("after close the slow fork was %s", seen.Load())
}

func scopeAnySuccessful(lg *Log) {
	seen := notInterrupted()
	started, failed := locks.NewCountDownLatch(1), locks.NewCountDownLatch(1)
	func() {
		s := structured.OpenWith(structured.AnySuccessfulResultOrThrow[string]())
		defer s.Close()
		structured.Fork(s, func() (string, error) { started.CountDown(); return blocker(seen)() })
		structured.Fork(s, func() (string, error) { failed.CountDown(); return "", boom("one fails") })
		structured.Fork(s, func() (string, error) { started.Await(); failed.Await(); return "winner", nil })
		lg.Val("join", valErr(s.Join))
		lg.P("cancelled %s", s.IsCancelled())
	}()
	lg.P("after close the blocked fork was %s", seen.Load())
	func() {
		s := structured.OpenWith(structured.AnySuccessfulResultOrThrow[string]())
		defer s.Close()
		structured.Fork(s, func() (string, error) { return "", boom("all fail") })
		structured.Fork(s, func() (string, error) { return "", boom("all fail") })
		lg.Val("join when all fail", valErr(s.Join))
	}()
	func() {
		s := structured.OpenWith(structured.AnySuccessfulResultOrThrow[string]())
		defer s.Close()
		lg.Val("join with no fork", valErr(s.Join))
	}()
}

func scopeAllSuccessfulList(lg *Log) {
	func() {
		s := structured.OpenWith(structured.AllSuccessfulOrThrow[string]())
		defer s.Close()
		first := locks.NewCountDownLatch(1)
		structured.Fork(s, func() (string, error) { first.Await(); return "first forked", nil })
		structured.Fork(s, func() (string, error) { first.CountDown(); return "second forked", nil })
		subtasks, _ := s.Join()
		var got []string
		for _, st := range subtasks {
			got = append(got, st.State().String()+" "+st.Get())
		}
		lg.P("join: %s", got)
	}()
	func() {
		s := structured.OpenWith(structured.AllSuccessfulOrThrow[string]())
		defer s.Close()
		structured.Fork(s, func() (string, error) { return "ok", nil })
		structured.Fork(s, func() (string, error) { return "", boom("one of all") })
		lg.Val("join with a failure", func() (any, error) { _, err := s.Join(); return null{}, err })
	}()
}

func scopeAwaitAll(lg *Log) {
	s := structured.OpenWith(structured.AwaitAll[string]())
	defer s.Close()
	failed := locks.NewCountDownLatch(1)
	f := structured.Fork(s, func() (string, error) { failed.CountDown(); return "", boom("does not cancel") })
	st := structured.Fork(s, func() (string, error) { failed.Await(); return "still ran", nil })
	lg.Val("join", joinVal(s))
	lg.P("%s %s; %s %s; cancelled %s", f.State(), f.Exception(), st.State(), st.Get(), s.IsCancelled())
}

func scopeAllUntil(lg *Log) {
	seen := notInterrupted()
	started := locks.NewCountDownLatch(1)
	defer func() { lg.P("after close the blocked fork was %s", seen.Load()) }()
	s := structured.OpenWith(structured.AllUntil(func(st structured.Subtask[string]) bool {
		return st.State() == structured.Success && st.Get() == "stop"
	}))
	defer s.Close()
	structured.Fork(s, func() (string, error) { started.CountDown(); return blocker(seen)() })
	goOn := structured.Fork(s, func() (string, error) { started.Await(); return "go on", nil })
	structured.Fork(s, func() (string, error) {
		for goOn.State() != structured.Success {
			thread.Sleep(time.Millisecond)
		}
		return "stop", nil
	})
	subtasks, _ := s.Join()
	var got []string
	for _, st := range subtasks {
		got = append(got, st.State().String())
	}
	lg.P("join: %s; cancelled %s", got, s.IsCancelled())
}

func scopeMisuse(lg *Log) {
	func() {
		s := structured.Open()
		defer s.Close()
		a := structured.Fork(s, func() (string, error) { return "a", nil })
		lg.Val("get before join", func() (any, error) { return a.Get(), nil })
		var other atomic.Value
		t := thread.StartVirtualThread(func() {
			other.Store("fork from another thread -> " + of(ok(func() { structured.Fork(s, func() (string, error) { return "x", nil }) })) +
				"; join from another thread -> " + of(func() error { _, err := s.Join(); return err }))
		})
		t.Join()
		lg.P("%s", other.Load())
		s.Join()
		lg.Call("fork after join", ok(func() { structured.Fork(s, func() (string, error) { return "late", nil }) }))
		lg.Call("join again", func() error { _, err := s.Join(); return err })
	}()
	s := structured.Open()
	structured.Fork(s, func() (string, error) { return "never joined", nil })
	lg.Call("close without join", ok(s.Close))
	fresh := structured.Open()
	lg.Call("close of a scope that forked nothing", ok(fresh.Close))
	lg.Call("fork after close", ok(func() { structured.Fork(fresh, func() (string, error) { return "x", nil }) }))
	lg.Call("join after close", func() error { _, err := fresh.Join(); return err })
}

// scopeTimeout: whether the fork starts before the timeout cancels the scope depends on time (a
// second makes it all but certain), so the log says that a fork that started was interrupted.
func scopeTimeout(lg *Log) {
	seen := notInterrupted()
	var started atomic.Bool
	defer func() {
		lg.P("after close, the fork had not started or was interrupted: %s", !started.Load() || seen.Load() == "interrupted")
	}()
	s := structured.OpenWith(structured.AwaitAllSuccessfulOrThrow[string](), structured.WithTimeout(time.Second))
	defer s.Close()
	st := structured.Fork(s, func() (string, error) { started.Store(true); return blocker(seen)() })
	lg.Val("join", joinVal(s))
	lg.P("the fork's state %s; cancelled %s", st.State(), s.IsCancelled())
}

func scopeJoinInterrupted(lg *Log) {
	seen := notInterrupted()
	func() {
		s := structured.Open()
		defer s.Close()
		started := locks.NewCountDownLatch(1)
		structured.Fork(s, func() (string, error) { started.CountDown(); return blocker(seen)() })
		started.Await()
		thread.Current().Interrupt()
		lg.Val("join with the status set", joinVal(s))
		lg.P("interrupted after: %s; cancelled %s", thread.Current().IsInterrupted(), s.IsCancelled())
	}()
	lg.P("after close the fork was %s", seen.Load())
}

var user = scoped.NewInstance[string]()

func scopeScopedValuesInForks(lg *Log) {
	scoped.Where(user, "duke").Run(func() {
		s := structured.Open()
		defer s.Close()
		plain := structured.Fork(s, func() (string, error) { return user.Get(), nil })
		rebound := structured.Fork(s, func() (string, error) {
			v, err := scoped.Call(scoped.Where(user, "rebound"), func() (string, error) { return user.Get(), nil })
			return v + " then " + user.Get(), err
		})
		th := structured.Fork(s, func() (string, error) {
			var r string
			t := thread.StartVirtualThread(func() { r = "a thread started in a fork sees bound=" + str(user.IsBound()) })
			t.Join()
			return r, nil
		})
		s.Join()
		lg.P("fork sees %s; %s; %s", plain.Get(), rebound.Get(), th.Get())
	})
	lg.P("outside: bound %s", user.IsBound())
}

// countingJoiner counts completions and records the forks it sees (Java: an anonymous Joiner).
type countingJoiner struct {
	events    *list
	completed atomic.Int64
}

func (j *countingJoiner) OnFork(st structured.Subtask[string]) bool {
	j.events.add("onFork %s", st.State())
	return false
}

func (j *countingJoiner) OnComplete(structured.Subtask[string]) bool {
	j.completed.Add(1)
	return false
}

func (j *countingJoiner) Result() (int64, error) { return j.completed.Load(), nil }

func scopeCustomJoiner(lg *Log) {
	var events list
	func() {
		s := structured.OpenWith[string, int64](&countingJoiner{events: &events})
		defer s.Close()
		structured.Fork(s, func() (string, error) { return "a", nil })
		structured.Fork(s, func() (string, error) { return "", boom("b") })
		lg.Val("join", valErr(s.Join))
	}()
	lg.P("events %s", &events)
}
