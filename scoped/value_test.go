package scoped_test

import (
	"context"
	"errors"
	"fmt"
	"github.com/loomgo/loom/internal/testutil"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/loomgo/loom/scoped"
	"github.com/loomgo/loom/thread"
)

// onVirtual runs fn on a new virtual thread and waits for it.
func onVirtual(fn func()) { thread.OfVirtual().Start(fn).Join() }

// jtreg ScopedValueAPI.testRunWhere
func TestRunWhereBindsForTheExtentOfRun(t *testing.T) {
	name := scoped.NewInstance[string]()
	ran := false
	scoped.Where(name, "duke").Run(func() {
		ran = true
		if !name.IsBound() || name.Get() != "duke" {
			t.Errorf("inside Run: bound=%v", name.IsBound())
		}
	})
	if !ran {
		t.Fatal("op not run")
	}
	if name.IsBound() {
		t.Error("still bound after Run")
	}
}

// jtreg ScopedValueAPI.testRunWhereThrows: the panic propagates unchanged and the binding is gone.
func TestRunWherePanicsPropagateAndUnbind(t *testing.T) {
	name := scoped.NewInstance[string]()
	boom := errors.New("boom")
	func() {
		defer func() {
			if r := recover(); r != boom {
				t.Errorf("recovered %v, want the op's own panic value", r)
			}
		}()
		scoped.Where(name, "duke").Run(func() { panic(boom) })
	}()
	if name.IsBound() {
		t.Error("bound after a panicking Run")
	}
}

// jtreg ScopedValueAPI.testCallWhere / testCallWhereThrows
func TestCallWhereReturnsResultAndError(t *testing.T) {
	name := scoped.NewInstance[string]()
	got, err := scoped.Call(scoped.Where(name, "duke"), func() (string, error) { return name.Get() + "!", nil })
	if got != "duke!" || err != nil {
		t.Errorf("Call = %q, %v", got, err)
	}
	failure := errors.New("failed")
	_, err = scoped.Call(scoped.Where(name, "duke"), func() (int, error) { return 0, failure })
	if err != failure {
		t.Errorf("Call error = %v, want the op's error unchanged", err)
	}
	if name.IsBound() {
		t.Error("bound after Call")
	}
}

// jtreg ScopedValueAPI.testGet / testIsBound / UnboundValueTest
func TestGetUnboundPanicsErrNotBound(t *testing.T) {
	v := scoped.NewInstance[int]()
	if v.IsBound() {
		t.Error("new value is bound")
	}
	mustPanic(t, scoped.ErrNotBound, func() { v.Get() })
	onVirtual(func() { mustPanic(t, scoped.ErrNotBound, func() { v.Get() }) })
}

// jtreg ScopedValueAPI.testOrElse
func TestOrElse(t *testing.T) {
	v := scoped.NewInstance[string]()
	if got := v.OrElse("other"); got != "other" {
		t.Errorf("unbound OrElse = %q", got)
	}
	scoped.Where(v, "x").Run(func() {
		if got := v.OrElse("other"); got != "x" {
			t.Errorf("bound OrElse = %q", got)
		}
	})
}

// jtreg ScopedValueAPI.testOrElseThrow
func TestOrElseThrow(t *testing.T) {
	v := scoped.NewInstance[string]()
	want := errors.New("not here")
	if _, err := v.OrElseThrow(func() error { return want }); err != want {
		t.Errorf("unbound OrElseThrow error = %v", err)
	}
	scoped.Where(v, "x").Run(func() {
		got, err := v.OrElseThrow(func() error { return want })
		if got != "x" || err != nil {
			t.Errorf("bound OrElseThrow = %q, %v", got, err)
		}
	})
}

// jtreg ScopedValueAPI.testTwoBindings
func TestTwoBindingsInOneCarrier(t *testing.T) {
	name := scoped.NewInstance[string]()
	age := scoped.NewInstance[int]()
	scoped.Where(name, "duke").And(scoped.Where(age, 100)).Run(func() {
		if name.Get() != "duke" || age.Get() != 100 {
			t.Errorf("got %q %d", name.Get(), age.Get())
		}
	})
	if name.IsBound() || age.IsBound() {
		t.Error("bound after Run")
	}
}

// A later mapping for the same key in a chained carrier wins.
func TestChainedCarrierLaterBindingWins(t *testing.T) {
	v := scoped.NewInstance[int]()
	c := scoped.Where(v, 1).And(scoped.Where(v, 2))
	c.Run(func() {
		if v.Get() != 2 {
			t.Errorf("Get = %d, want 2", v.Get())
		}
	})
	if got := c.Get(v); got != 2 {
		t.Errorf("carrier Get = %v, want 2", got)
	}
}

// jtreg ScopedValueAPI.testRebinding: a nested binding shadows the outer one and reverts after,
// even when the nested operation panics.
func TestRebindingRestoresOuterValue(t *testing.T) {
	v := scoped.NewInstance[string]()
	scoped.Where(v, "outer").Run(func() {
		scoped.Where(v, "inner").Run(func() {
			if v.Get() != "inner" {
				t.Errorf("nested Get = %q", v.Get())
			}
		})
		if v.Get() != "outer" {
			t.Errorf("after nested Run Get = %q", v.Get())
		}
		func() {
			defer func() { recover() }()
			scoped.Where(v, "inner").Run(func() { panic("x") })
		}()
		if v.Get() != "outer" {
			t.Errorf("after panicking nested Run Get = %q", v.Get())
		}
	})
}

// jtreg ScopedValueAPI.testRebindingFromNull / testRebindingToNull
func TestRebindingFromAndToNil(t *testing.T) {
	v := scoped.NewInstance[*string]()
	s := "x"
	scoped.Where(v, nil).Run(func() {
		if !v.IsBound() || v.Get() != nil {
			t.Error("nil binding not bound to nil")
		}
		scoped.Where(v, &s).Run(func() {
			if v.Get() != &s {
				t.Error("rebinding from nil")
			}
			scoped.Where(v, nil).Run(func() {
				if !v.IsBound() || v.Get() != nil {
					t.Error("rebinding to nil")
				}
			})
		})
	})
	e := scoped.NewInstance[error]()
	scoped.Where(e, nil).Run(func() {
		if !e.IsBound() || e.Get() != nil || e.OrElse(errors.New("y")) != nil {
			t.Error("interface-typed nil binding")
		}
	})
}

// jtreg ScopedValueAPI.testCarrierGet
func TestCarrierGet(t *testing.T) {
	name := scoped.NewInstance[string]()
	age := scoped.NewInstance[int]()
	other := scoped.NewInstance[int]()
	c := scoped.Where(name, "duke").And(scoped.Where(age, 100))
	if c.Get(name) != "duke" || c.Get(age) != 100 {
		t.Errorf("Get = %v %v", c.Get(name), c.Get(age))
	}
	mustPanic(t, scoped.ErrNotBound, func() { c.Get(other) })
	// the carrier's own mappings, not the thread's
	scoped.Where(other, 1).Run(func() { mustPanic(t, scoped.ErrNotBound, func() { c.Get(other) }) })
}

// jtreg ScopedValueAPI.testNullPointerException
func TestNilArgumentsPanic(t *testing.T) {
	v := scoped.NewInstance[int]()
	c := scoped.Where(v, 1)
	mustPanic(t, thread.ErrNilArgument, func() { scoped.Where[int](nil, 1) })
	mustPanic(t, thread.ErrNilArgument, func() { c.And(nil) })
	mustPanic(t, thread.ErrNilArgument, func() { c.Run(nil) })
	mustPanic(t, thread.ErrNilArgument, func() { scoped.Call[int](c, nil) })
	mustPanic(t, thread.ErrNilArgument, func() { c.Get(nil) })
	mustPanic(t, thread.ErrNilArgument, func() { c.Get((*scoped.Value[int])(nil)) })
	mustPanic(t, thread.ErrNilArgument, func() { v.OrElseThrow(nil) })
}

func TestZeroValueIsUsable(t *testing.T) {
	var a, b scoped.Value[int]
	scoped.Where(&a, 1).Run(func() {
		if a.Get() != 1 || b.IsBound() {
			t.Errorf("a=%d b bound=%v", a.Get(), b.IsBound())
		}
	})
}

// Bindings are not inherited by threads made with the builders (only structured forks inherit).
func TestBindingsNotInheritedByThreads(t *testing.T) {
	v := scoped.NewInstance[string]()
	scoped.Where(v, "parent").Run(func() {
		for name, start := range map[string]func(func()) *thread.Thread{
			"virtual":  thread.OfVirtual().Start,
			"platform": thread.OfPlatform().Start,
			"startVT":  thread.StartVirtualThread,
		} {
			bound := true
			start(func() { bound = v.IsBound() }).Join()
			if bound {
				t.Errorf("%s thread sees the parent's binding", name)
			}
		}
	})
}

// Carriers are immutable and shareable: many threads run the same carrier concurrently.
func TestCarrierSharedAcrossThreads(t *testing.T) {
	v := scoped.NewInstance[int]()
	c := scoped.Where(v, 42)
	var bad atomic.Int64
	var ths []*thread.Thread
	for range 32 {
		ths = append(ths, thread.OfVirtual().Start(func() {
			c.Run(func() {
				thread.Yield()
				if v.Get() != 42 {
					bad.Add(1)
				}
			})
			if v.IsBound() {
				bad.Add(1)
			}
		}))
	}
	for _, th := range ths {
		th.Join()
	}
	if bad.Load() != 0 {
		t.Errorf("%d bad reads", bad.Load())
	}
}

// jtreg ManyBindings: many values bound at once, in one carrier and nested.
func TestManyBindings(t *testing.T) {
	const n = 64
	vs := make([]*scoped.Value[int], n)
	for i := range vs {
		vs[i] = scoped.NewInstance[int]()
	}
	c := scoped.Where(vs[0], 0)
	for i := 1; i < n/2; i++ {
		c = c.And(scoped.Where(vs[i], i))
	}
	var nest func(i int)
	nest = func(i int) {
		if i == n {
			for j, v := range vs {
				if v.Get() != j {
					t.Errorf("vs[%d] = %d", j, v.Get())
				}
			}
			return
		}
		scoped.Where(vs[i], i).Run(func() { nest(i + 1) })
		if vs[i].IsBound() {
			t.Errorf("vs[%d] still bound", i)
		}
	}
	c.Run(func() { nest(n / 2) })
	for i, v := range vs {
		if v.IsBound() {
			t.Errorf("vs[%d] bound after all Runs", i)
		}
	}
}

func TestContextBridgeCarriesBindingsToAGoroutine(t *testing.T) {
	user := scoped.NewInstance[string]()
	level := scoped.NewInstance[int]()
	var ctx context.Context
	scoped.Where(user, "outer").And(scoped.Where(level, 1)).Run(func() {
		scoped.Where(user, "inner").Run(func() {
			ctx = scoped.Context(context.Background())
		})
	})
	if user.IsBound() {
		t.Fatal("bound on main after Run")
	}
	var got []any
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer thread.Detach()
		c := scoped.FromContext(ctx)
		got = append(got, c.Get(user), c.Get(level))
		c.Run(func() { got = append(got, user.Get(), level.Get()) })
		got = append(got, user.IsBound())
	}()
	wg.Wait()
	if diff := cmp.Diff([]any{"inner", 1, "inner", 1, false}, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	empty := scoped.FromContext(context.Background())
	mustPanic(t, scoped.ErrNotBound, func() { empty.Get(user) })
	empty.Run(func() {
		if user.IsBound() {
			t.Error("empty carrier bound something")
		}
	})
}

// Stress: random nesting of bindings, panics included, on many threads; every read sees the
// innermost binding of a shadow stack, and everything is unbound at the end.
func TestStressRandomNestedBindings(t *testing.T) {
	vs := []*scoped.Value[int]{scoped.NewInstance[int](), scoped.NewInstance[int](), scoped.NewInstance[int]()}
	var bad atomic.Int64
	var ths []*thread.Thread
	for seed := range 32 {
		ths = append(ths, thread.OfVirtual().Start(func() {
			r := rand.New(rand.NewPCG(uint64(seed), 7))
			shadow := make([][]int, len(vs))
			check := func() {
				for i, v := range vs {
					s := shadow[i]
					if len(s) == 0 {
						if v.IsBound() {
							bad.Add(1)
						}
					} else if v.Get() != s[len(s)-1] {
						bad.Add(1)
					}
				}
			}
			var step func(depth int)
			step = func(depth int) {
				check()
				if depth > 8 {
					return
				}
				for range r.IntN(3) {
					i, x := r.IntN(len(vs)), r.Int()
					shadow[i] = append(shadow[i], x)
					func() {
						defer func() {
							shadow[i] = shadow[i][:len(shadow[i])-1]
							if rec := recover(); rec != nil && rec != "unwind" {
								panic(rec)
							}
						}()
						scoped.Where(vs[i], x).Run(func() {
							step(depth + 1)
							if r.IntN(10) == 0 {
								panic("unwind")
							}
						})
					}()
					check()
				}
			}
			for range 20 {
				step(0)
			}
		}))
	}
	for _, th := range ths {
		th.Join()
	}
	if bad.Load() != 0 {
		t.Errorf("%d reads disagreed with the shadow stack", bad.Load())
	}
}

func ExampleWhere() {
	user := scoped.NewInstance[string]()
	level := scoped.NewInstance[int]()
	scoped.Where(user, "duke").And(scoped.Where(level, 3)).Run(func() {
		fmt.Println(user.Get(), level.Get())
		scoped.Where(user, "guest").Run(func() { fmt.Println(user.Get(), level.Get()) })
		fmt.Println(user.Get())
	})
	fmt.Println(user.IsBound(), user.OrElse("nobody"))
	// Output:
	// duke 3
	// guest 3
	// duke
	// false nobody
}

func ExampleCall() {
	user := scoped.NewInstance[string]()
	greeting, err := scoped.Call(scoped.Where(user, "duke"), func() (string, error) {
		return "hello " + user.Get(), nil
	})
	fmt.Println(greeting, err)
	// Output: hello duke <nil>
}

func ExampleValue_Get() {
	user := scoped.NewInstance[string]()
	defer func() { fmt.Println("recovered:", recover()) }()
	user.Get()
	// Output: recovered: scoped: value not bound
}

func ExampleFromContext() {
	user := scoped.NewInstance[string]()
	var ctx context.Context
	scoped.Where(user, "duke").Run(func() { ctx = scoped.Context(context.Background()) })
	done := make(chan struct{})
	go func() { // a goroutine that only gets the context
		defer close(done)
		defer thread.Detach()
		scoped.FromContext(ctx).Run(func() { fmt.Println(user.Get()) })
	}()
	<-done
	// Output: duke
}

var mustPanic = testutil.MustPanic
