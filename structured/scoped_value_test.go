package structured_test

import (
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/loomgo/loom/scoped"
	"github.com/loomgo/loom/structured"
	"github.com/loomgo/loom/thread"
	"github.com/loomgo/loom/threadlocal"
)

func factories() map[string]thread.Factory {
	return map[string]thread.Factory{
		"platform": thread.OfPlatform().Factory(),
		"virtual":  thread.OfVirtual().Factory(),
	}
}

// jtreg WithScopedValue.testForkInheritsScopedValue1
func TestForkInheritsScopedValue(t *testing.T) {
	for name, f := range factories() {
		v := scoped.NewInstance[string]()
		got, err := scoped.Call(scoped.Where(v, "x"), func() (string, error) {
			s := structured.OpenWith(structured.AwaitAllSuccessfulOrThrow[any](), structured.WithThreadFactory(f))
			defer s.Close()
			sub := structured.Fork(s, func() (string, error) { return v.Get(), nil })
			if _, err := s.Join(); err != nil {
				return "", err
			}
			return sub.Get(), nil
		})
		if got != "x" || err != nil {
			t.Errorf("%s: child read %q, %v", name, got, err)
		}
	}
}

// jtreg WithScopedValue.testForkInheritsScopedValue2/3: grandchildren inherit, rebinding in a
// child is seen by its own forks.
func TestForkInheritsScopedValueIntoGrandchildAndRebinding(t *testing.T) {
	for name, f := range factories() {
		v := scoped.NewInstance[string]()
		got, _ := scoped.Call(scoped.Where(v, "x"), func() ([2]string, error) {
			s := structured.OpenWith(structured.AwaitAllSuccessfulOrThrow[any](), structured.WithThreadFactory(f))
			defer s.Close()
			sub := structured.Fork(s, func() ([2]string, error) {
				grandchild := func() (string, error) {
					inner := structured.OpenWith(structured.AwaitAllSuccessfulOrThrow[any](), structured.WithThreadFactory(f))
					defer inner.Close()
					g := structured.Fork(inner, func() (string, error) { return v.Get(), nil })
					_, err := inner.Join()
					return g.Get(), err
				}
				plain, _ := grandchild()
				rebound, _ := scoped.Call(scoped.Where(v, "y"), grandchild)
				if v.Get() != "x" {
					t.Errorf("%s: child reads %q after the rebinding", name, v.Get())
				}
				return [2]string{plain, rebound}, nil
			})
			_, err := s.Join()
			return sub.Get(), err
		})
		if got != [2]string{"x", "y"} {
			t.Errorf("%s: grandchildren read %q, want x y", name, got)
		}
	}
}

// jtreg WithScopedValue.testStructureViolation2: Close inside a Run that started after Open.
func TestCloseUnderOtherBindingsIsStructureViolation(t *testing.T) {
	v := scoped.NewInstance[string]()
	s := structured.Open()
	scoped.Where(v, "x").Run(func() {
		mustPanic(t, structured.ErrStructureViolation, s.Close)
	})
	s.Close() // closed already: no-op
}

// jtreg WithScopedValue.testStructureViolation3/4: Fork after binding or rebinding.
func TestForkUnderOtherBindingsIsStructureViolation(t *testing.T) {
	name1 := scoped.NewInstance[string]()
	name2 := scoped.NewInstance[string]()
	fork := func(s *structured.Scope[any, struct{}]) {
		structured.Fork(s, func() (string, error) { return "foo", nil })
	}
	s := structured.Open()
	scoped.Where(name1, "x").Run(func() { mustPanic(t, structured.ErrStructureViolation, func() { fork(s) }) })
	s.Close()
	scoped.Where(name1, "x").Run(func() {
		s := structured.Open()
		defer s.Close()
		scoped.Where(name1, "y").Run(func() { mustPanic(t, structured.ErrStructureViolation, func() { fork(s) }) })
		scoped.Where(name2, "y").Run(func() { mustPanic(t, structured.ErrStructureViolation, func() { fork(s) }) })
	})
}

// jtreg WithScopedValue.testStructureViolation1 (issue 15, defect 9): a scope opened inside a
// Run and left open has its thread flock closed when the operation returns, and Run panics with
// ErrStructureViolation; the scope is not closed: a fork fails to start a thread (its subtask is
// Unavailable and never runs), Join works, and Close closes it. The enclosing scope then closes
// normally.
func TestWithScopedValue_testStructureViolation1(t *testing.T) {
	v := scoped.NewInstance[string]()
	outer := structured.Open()
	var leaked *structured.Scope[any, struct{}]
	mustPanic(t, structured.ErrStructureViolation, func() {
		scoped.Where(v, "x").Run(func() { leaked = structured.Open() })
	})
	var ran atomic.Bool
	sub := structured.Fork(leaked, func() (int, error) { ran.Store(true); return 1, nil })
	if _, err := leaked.Join(); err != nil {
		t.Errorf("Join = %v", err)
	}
	if sub.State() != structured.Unavailable || ran.Load() {
		t.Errorf("fork into the leaked scope: %v, ran %v", sub.State(), ran.Load())
	}
	leaked.Close()
	outer.Close()
}

// Bindings made inside a subtask do not leak to the owner, and plain threads started by a
// subtask do not inherit the scope's bindings; inheritable thread-locals are inherited by forks.
func TestOnlyForksInheritBindings(t *testing.T) {
	v := scoped.NewInstance[string]()
	tl := threadlocal.NewInheritable[string](nil)
	tl.Set("itl")
	defer tl.Remove()
	scoped.Where(v, "x").Run(func() {
		s := structured.Open()
		defer s.Close()
		sub := structured.Fork(s, func() ([3]any, error) {
			var plainBound bool
			thread.OfVirtual().Start(func() { plainBound = v.IsBound() }).Join()
			return [3]any{v.Get(), plainBound, tl.Get()}, nil
		})
		s.Join()
		if got := sub.Get(); got != [3]any{"x", false, "itl"} {
			t.Errorf("subtask saw %v", got)
		}
	})
}

// A Run whose operation panics or calls runtime.Goexit with a scope left open closes that
// scope's flock on the way out (waiting for its subtask, which completes) and lets the panic go
// on unchanged, as Java's ScopedValue.run rethrows the operation's exception (with the
// StructureViolationException only suppressed); a Goexit ends the thread (issue 15, defects 4
// and 7).
func TestScopeLeftOpenWhenRunPanicsOrGoexits(t *testing.T) {
	v := scoped.NewInstance[string]()
	for _, how := range []string{"panic", "goexit"} {
		t.Run(how, func(t *testing.T) {
			var sub structured.Subtask[string]
			var leaked *structured.Scope[any, struct{}]
			var r any
			th := thread.OfVirtual().Start(func() {
				defer func() {
					if how == "panic" {
						r = recover()
					}
					if v.IsBound() {
						t.Error("binding still in force after Run unwound")
					}
				}()
				scoped.Where(v, "x").Run(func() {
					leaked = structured.Open()
					sub = structured.Fork(leaked, sleeper(50*time.Millisecond, "done", nil))
					if how == "panic" {
						panic("op boom")
					}
					runtime.Goexit()
				})
			})
			if err := th.Join(); err != nil {
				t.Fatal(err)
			}
			if how == "panic" && r != "op boom" {
				t.Errorf("Run panicked with %v, want the operation's panic", r)
			}
			if sub.State() != structured.Success || leaked.IsCancelled() {
				t.Errorf("subtask %v, scope cancelled %v: want it waited for and completed", sub.State(), leaked.IsCancelled())
			}
		})
	}
}
