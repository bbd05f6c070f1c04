package threadlocal_test

import (
	"runtime"
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
