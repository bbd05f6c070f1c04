package threadlocal_test

import (
	"fmt"
	"runtime"
	"slices"
	"testing"

	"github.com/loomgo/loom/thread"
	"github.com/loomgo/loom/threadlocal"
)

// User code run by a ThreadLocal (issue 15, defects 4 and 7): an initial-value supplier or a
// childValue function that panics or calls runtime.Goexit leaves nothing half-done, and the
// panic goes where Java's exception goes.

// Java: an exception from initialValue propagates out of get and no value is stored, so the
// next get calls initialValue again.
func TestInitialValuePanicPropagatesAndStoresNothing(t *testing.T) {
	run(t, func() {
		calls := 0
		tl := threadlocal.WithInitial(func() int {
			calls++
			if calls == 1 {
				panic("initial boom")
			}
			return 7
		})
		if r := recovered(func() { tl.Get() }); r != "initial boom" {
			t.Errorf("first Get panicked with %v", r)
		}
		if got := tl.Get(); got != 7 || calls != 2 {
			t.Errorf("Get = %d after %d calls, want 7 after 2", got, calls)
		}
	})
}

// A supplier that calls runtime.Goexit ends its thread only; nothing is stored for it, and
// other threads compute their own value.
func TestInitialValueGoexitEndsOnlyThatThread(t *testing.T) {
	tl := threadlocal.WithInitial(func() string {
		if thread.Current().Name() == "exiting" {
			runtime.Goexit()
		}
		return "v"
	})
	exiting := thread.OfVirtual().Name("exiting").Start(func() {
		tl.Get()
		t.Error("Get returned after a Goexit in the supplier")
	})
	if err := exiting.Join(); err != nil {
		t.Fatal(err)
	}
	run(t, func() {
		if got := tl.Get(); got != "v" {
			t.Errorf("another thread's Get = %q", got)
		}
	})
}

// Java: an exception from InheritableThreadLocal.childValue propagates out of the Thread
// constructor and no thread is made. Here Start (and a factory's NewThread) panics with it on
// the creating thread; the creator's own values are untouched, and the next thread is made.
func TestChildValuePanicFailsOnlyThatThreadsCreation(t *testing.T) {
	tl := threadlocal.NewInheritable(func(parent string) string {
		if parent == "bad" {
			panic("childValue boom")
		}
		return parent + "+child"
	})
	run(t, func() {
		live := thread.DefaultScheduler().Stats().Live
		tl.Set("bad")
		ran := false
		if r := recovered(func() { thread.OfVirtual().Start(func() { ran = true }) }); r != "childValue boom" {
			t.Errorf("Start panicked with %v", r)
		}
		if r := recovered(func() { thread.OfVirtual().Factory().NewThread(func() { ran = true }) }); r != "childValue boom" {
			t.Errorf("NewThread panicked with %v", r)
		}
		if ran {
			t.Error("a thread whose creation failed ran its task")
		}
		if got := tl.Get(); got != "bad" {
			t.Errorf("creator's value = %q", got)
		}
		if now := thread.DefaultScheduler().Stats().Live; now != live {
			t.Errorf("live virtual threads %d, was %d: the failed creation counts a thread", now, live)
		}
		tl.Set("good")
		var got string
		if err := thread.OfVirtual().Start(func() { got = tl.Get() }).Join(); err != nil {
			t.Fatal(err)
		}
		if got != "good+child" {
			t.Errorf("child saw %q", got)
		}
	})
}

// recovered runs fn and returns what it panicked with (nil if it returned).
func recovered(fn func()) (r any) {
	defer func() { r = recover() }()
	fn()
	return nil
}

// The reproducer of issue 14: a supplier that calls its own ThreadLocal's Get. Java recurses into
// initialValue until StackOverflowError, which the caller may catch; Go would grow the stack
// until the runtime killed the process. Get panics with ErrRecursiveInitialValue instead, stores
// nothing, and the thread (and its ThreadLocals) work on afterwards.
func TestInitialValueCallingItsOwnGetPanicsInsteadOfOverflowing(t *testing.T) {
	run(t, func() {
		calls := 0
		var tl *threadlocal.ThreadLocal[int]
		tl = threadlocal.WithInitial(func() int { calls++; return tl.Get() })
		mustPanic(t, threadlocal.ErrRecursiveInitialValue, func() { tl.Get() })
		if calls != threadlocal.MaxInitDepth {
			t.Errorf("supplier called %d times, want %d (Java calls it again on every nested get)", calls, threadlocal.MaxInitDepth)
		}
		// Nothing was stored: the next Get recurses again, from a depth of zero.
		calls = 0
		mustPanic(t, threadlocal.ErrRecursiveInitialValue, func() { tl.Get() })
		if calls != threadlocal.MaxInitDepth {
			t.Errorf("second time: supplier called %d times", calls)
		}
		other := threadlocal.WithInitial(func() string { return "fine" })
		if got := other.Get(); got != "fine" {
			t.Errorf("another ThreadLocal afterwards: Get = %q", got)
		}
		tl.Set(3)
		if got := tl.Get(); got != 3 {
			t.Errorf("Get after Set = %d", got)
		}
	})
}

// Java (probed on JDK 25): a nested get of the same ThreadLocal inside initialValue calls
// initialValue again; each level stores its value on the way out, so the outermost one's is
// kept. A supplier that sets the value first and then reads it gets what it set.
func TestNestedGetInSupplierCallsItAgainOutermostWins(t *testing.T) {
	run(t, func() {
		depth := 0
		var inner []string
		var tl *threadlocal.ThreadLocal[int]
		tl = threadlocal.WithInitial(func() int {
			depth++
			d := depth
			if d < 3 {
				inner = append(inner, fmt.Sprintf("inner at %d got %d", d, tl.Get()))
			}
			return d
		})
		first := tl.Get()
		second := tl.Get()
		want := []string{"inner at 2 got 3", "inner at 1 got 2"}
		if first != 1 || second != 1 || !slices.Equal(inner, want) {
			t.Errorf("outer got %d then %d, inner %q; Java: 1 then 1, %q", first, second, inner, want)
		}

		var s *threadlocal.ThreadLocal[int]
		s = threadlocal.WithInitial(func() int { s.Set(5); return s.Get() + 1 })
		if a, b := s.Get(), s.Get(); a != 6 || b != 6 {
			t.Errorf("set-in-supplier: %d then %d, Java: 6 then 6", a, b)
		}
	})
}

// Recursion through two ThreadLocals (a's supplier reads b, b's reads a) is caught the same way.
func TestMutuallyRecursiveSuppliersPanic(t *testing.T) {
	run(t, func() {
		var a, b *threadlocal.ThreadLocal[int]
		a = threadlocal.WithInitial(func() int { return b.Get() })
		b = threadlocal.WithInitial(func() int { return a.Get() })
		mustPanic(t, threadlocal.ErrRecursiveInitialValue, func() { a.Get() })
		a.Set(1)
		if got := b.Get(); got != 1 {
			t.Errorf("b.Get = %d once a has a value", got)
		}
	})
}
