package executors_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"regexp"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/loomgo/loom/executors"
	"github.com/loomgo/loom/thread"
)

// Ports of the JSR-166 TCK's CompletableFutureTest (test/jdk/java/util/concurrent/tck), for the
// parts of CompletableFuture that loom has. Java's checked helpers are kept: checkIncomplete,
// checkCompletedNormally, checkCompletedExceptionally (the "raw" cause, as handle sees it) and
// checkCancelled. loom does not wrap a propagated failure in a CompletionException, so where
// the TCK checks a wrapped exception these check the cause itself.

var (
	reNotCompleted = regexp.MustCompile(`\[.*Not completed.*\]$`)
	reNormally     = regexp.MustCompile(`\[.*Completed normally.*\]$`)
	reExceptional  = regexp.MustCompile(`\[.*Completed exceptionally.*\]$`)
)

// cfException is the TCK's CFException: a distinct error value per test.
type cfException struct{ id int }

func (e *cfException) Error() string { return fmt.Sprintf("CFException#%d", e.id) }

var cfSeq atomic.Int64

func newCFException() error { return &cfException{int(cfSeq.Add(1))} }

func checkIncomplete[T any](t *testing.T, f *executors.CompletableFuture[T]) {
	t.Helper()
	if f.IsDone() || f.IsCancelled() {
		t.Errorf("IsDone %v, IsCancelled %v on an incomplete future", f.IsDone(), f.IsCancelled())
	}
	if s := f.String(); !reNotCompleted.MatchString(s) {
		t.Errorf("String = %q, want [Not completed]", s)
	}
	var zero T
	if v, err := f.GetNow(zero); err != nil || !cmp.Equal(v, zero) {
		t.Errorf("GetNow = %v, %v", v, err)
	}
	if _, err := f.GetTimeout(0); !errors.Is(err, executors.ErrTimeout) {
		t.Errorf("GetTimeout(0) = %v, want ErrTimeout", err)
	}
}

// getters are the TCK's four ways to read a completed future: timed get, join, getNow, get.
func getters[T any](f *executors.CompletableFuture[T]) map[string]func() (T, error) {
	return map[string]func() (T, error){
		"GetTimeout": func() (T, error) { return f.GetTimeout(10 * time.Second) },
		"Join":       f.Join,
		"GetNow":     func() (T, error) { var zero T; return f.GetNow(zero) },
		"Get":        f.Get,
	}
}

func checkCompletedNormally[T any](t *testing.T, f *executors.CompletableFuture[T], want T) {
	t.Helper()
	for name, get := range getters(f) {
		if v, err := get(); err != nil || !cmp.Equal(v, want) {
			t.Errorf("%s = %v, %v; want %v", name, v, err, want)
		}
	}
	if !f.IsDone() || f.IsCancelled() || f.IsCompletedExceptionally() || f.State() != executors.Success {
		t.Errorf("done %v cancelled %v exceptionally %v state %v", f.IsDone(), f.IsCancelled(), f.IsCompletedExceptionally(), f.State())
	}
	if s := f.String(); !reNormally.MatchString(s) {
		t.Errorf("String = %q", s)
	}
}

// exceptionalCompletion returns the raw failure of f, as Handle sees it.
func exceptionalCompletion[T any](f *executors.CompletableFuture[T]) error {
	err, _ := executors.Handle(f, func(_ T, err error) (error, error) { return err, nil }).Join()
	return err
}

func checkCompletedExceptionally[T any](t *testing.T, f *executors.CompletableFuture[T], ex error) {
	t.Helper()
	if got := exceptionalCompletion(f); got != ex {
		t.Errorf("Handle sees %v, want %v", got, ex)
	}
	for name, get := range getters(f) {
		_, err := get()
		var ee *executors.ExecutionError
		if !errors.As(err, &ee) || ee.Cause != ex {
			t.Errorf("%s = %v, want an ExecutionError caused by %v", name, err, ex)
		}
	}
	if f.IsCancelled() || !f.IsDone() || !f.IsCompletedExceptionally() || f.State() != executors.Failed {
		t.Errorf("done %v cancelled %v exceptionally %v state %v", f.IsDone(), f.IsCancelled(), f.IsCompletedExceptionally(), f.State())
	}
	if f.ExceptionNow() != ex {
		t.Errorf("ExceptionNow = %v, want %v", f.ExceptionNow(), ex)
	}
	if s := f.String(); !reExceptional.MatchString(s) {
		t.Errorf("String = %q", s)
	}
}

func checkCancelled[T any](t *testing.T, f *executors.CompletableFuture[T]) {
	t.Helper()
	for name, get := range getters(f) {
		if _, err := get(); !errors.Is(err, executors.ErrCancelled) {
			t.Errorf("%s = %v, want ErrCancelled", name, err)
		}
	}
	if got := exceptionalCompletion(f); !errors.Is(got, executors.ErrCancelled) {
		t.Errorf("Handle sees %v, want ErrCancelled", got)
	}
	if !f.IsDone() || !f.IsCompletedExceptionally() || !f.IsCancelled() || f.State() != executors.Cancelled {
		t.Errorf("done %v cancelled %v exceptionally %v state %v", f.IsDone(), f.IsCancelled(), f.IsCompletedExceptionally(), f.State())
	}
	if s := f.String(); !reExceptional.MatchString(s) {
		t.Errorf("String = %q", s)
	}
}

func TestCompletableFutureTest_testConstructor(t *testing.T) {
	checkIncomplete(t, executors.NewCompletableFuture[int]())
}

func TestCompletableFutureTest_testComplete(t *testing.T) {
	for _, v := range []int{1, 0} {
		f := executors.NewCompletableFuture[int]()
		checkIncomplete(t, f)
		if !f.Complete(v) || f.Complete(v) {
			t.Fatal("Complete did not report its first call only")
		}
		checkCompletedNormally(t, f, v)
	}
}

func TestCompletableFutureTest_testCompleteExceptionally(t *testing.T) {
	f := executors.NewCompletableFuture[int]()
	ex := newCFException()
	checkIncomplete(t, f)
	f.CompleteExceptionally(ex)
	checkCompletedExceptionally(t, f, ex)
}

// issue 15, defect 10: Cancel of a cancelled future reports true, as Java's
// "cancelled || isCancelled()".
func TestCompletableFutureTest_testCancel(t *testing.T) {
	for _, mayInterrupt := range []bool{true, false} {
		f := executors.NewCompletableFuture[int]()
		checkIncomplete(t, f)
		if !f.Cancel(mayInterrupt) {
			t.Error("first Cancel = false")
		}
		if !f.Cancel(mayInterrupt) {
			t.Error("second Cancel = false, want true (already cancelled)")
		}
		if !f.Cancel(!mayInterrupt) {
			t.Error("third Cancel = false, want true (already cancelled)")
		}
		checkCancelled(t, f)
	}
	// a future that completed otherwise is not cancelled by Cancel
	g := executors.CompletedFuture(1)
	if g.Cancel(true) || g.IsCancelled() {
		t.Error("Cancel of a completed future reported true")
	}
}

// completeExceptionally(new CancellationException()) cancels a CompletableFuture in Java, and
// failedFuture(new CancellationException()) is cancelled (probed on JDK 25).
func TestCompleteExceptionallyWithErrCancelledCancels(t *testing.T) {
	f := executors.NewCompletableFuture[int]()
	g := executors.ThenApply(f, func(v int) (int, error) { return v, nil })
	if !f.CompleteExceptionally(executors.ErrCancelled) {
		t.Fatal("CompleteExceptionally = false")
	}
	checkCancelled(t, f)
	if !f.Cancel(false) {
		t.Error("Cancel of a future failed with ErrCancelled = false")
	}
	// its dependent fails with the cancellation (Java: CompletionException(CancellationException))
	if _, err := g.Get(); !errors.Is(err, executors.ErrCancelled) || g.IsCancelled() || g.State() != executors.Failed {
		t.Errorf("dependent: %v, cancelled %v, state %v", err, g.IsCancelled(), g.State())
	}
	checkCancelled(t, executors.FailedFuture[int](executors.ErrCancelled))
	// a task that returns ErrCancelled fails its future, as a Java supplier that throws
	// CancellationException (wrapped in a CompletionException)
	h := executors.SupplyAsync(func() (int, error) { return 0, executors.ErrCancelled })
	if _, err := h.Join(); !errors.Is(err, executors.ErrCancelled) || h.IsCancelled() || h.State() != executors.Failed {
		t.Errorf("task returning ErrCancelled: %v, cancelled %v, state %v", err, h.IsCancelled(), h.State())
	}
}

func TestCompletableFutureTest_testGetNumberOfDependents(t *testing.T) {
	for _, v := range []int{1, 0} {
		f := executors.NewCompletableFuture[int]()
		if n := f.NumberOfDependents(); n != 0 {
			t.Fatalf("NumberOfDependents = %d", n)
		}
		g := f.ThenRun(func() {})
		if n := f.NumberOfDependents(); n != 1 || g.NumberOfDependents() != 0 {
			t.Fatalf("NumberOfDependents = %d, %d", n, g.NumberOfDependents())
		}
		h := f.ThenRun(func() {})
		if n := f.NumberOfDependents(); n != 2 || h.NumberOfDependents() != 0 {
			t.Fatalf("NumberOfDependents = %d, %d", n, h.NumberOfDependents())
		}
		f.Complete(v)
		checkCompletedNormally(t, g, struct{}{})
		checkCompletedNormally(t, h, struct{}{})
		if f.NumberOfDependents()+g.NumberOfDependents()+h.NumberOfDependents() != 0 {
			t.Fatal("dependents left after completion")
		}
	}
}

// issue 15, defect 17: an incomplete future says "[Not completed]", and counts its dependents,
// as JDK 25's toString.
func TestCompletableFutureTest_testToString(t *testing.T) {
	f := executors.NewCompletableFuture[string]()
	if got, want := f.String(), "CompletableFuture[Not completed]"; got != want {
		t.Errorf("incomplete: %q, want %q", got, want)
	}
	f.ThenRun(func() {})
	f.ThenRun(func() {})
	if got, want := f.String(), "CompletableFuture[Not completed, 2 dependents]"; got != want {
		t.Errorf("with dependents: %q, want %q", got, want)
	}
	f.Complete("foo")
	if got, want := f.String(), "CompletableFuture[Completed normally]"; got != want {
		t.Errorf("normal: %q, want %q", got, want)
	}
	g := executors.NewCompletableFuture[string]()
	g.CompleteExceptionally(errors.New("IndexOutOfBounds"))
	if got, want := g.String(), "CompletableFuture[Completed exceptionally: IndexOutOfBounds]"; got != want {
		t.Errorf("exceptional: %q, want %q", got, want)
	}
	for _, mayInterrupt := range []bool{true, false} {
		c := executors.NewCompletableFuture[string]()
		c.Cancel(mayInterrupt)
		if s := c.String(); !reExceptional.MatchString(s) {
			t.Errorf("cancelled: %q", s)
		}
	}
}

func TestCompletableFutureTest_testCompletedFuture(t *testing.T) {
	checkCompletedNormally(t, executors.CompletedFuture("test"), "test")
}

func TestCompletableFutureTest_testFailedFuture(t *testing.T) {
	ex := newCFException()
	checkCompletedExceptionally(t, executors.FailedFuture[int](ex), ex)
}

// createIncomplete runs a TCK scenario both ways: the source completed after the dependent is
// made (true) and before (false).
var createIncomplete = []bool{true, false}

// stage makes a fresh source, completes it with complete before or after (incomplete) making
// its dependent with mk, and returns both, as the TCK's createIncomplete loops do.
func stage[T, U any](incomplete bool, complete func(*executors.CompletableFuture[T]), mk func(*executors.CompletableFuture[T]) *executors.CompletableFuture[U]) (*executors.CompletableFuture[T], *executors.CompletableFuture[U]) {
	f := executors.NewCompletableFuture[T]()
	if !incomplete {
		complete(f)
	}
	g := mk(f)
	if incomplete {
		complete(f)
	}
	return f, g
}

func completeWith[T any](v T) func(*executors.CompletableFuture[T]) {
	return func(f *executors.CompletableFuture[T]) { f.Complete(v) }
}

func failWith[T any](err error) func(*executors.CompletableFuture[T]) {
	return func(f *executors.CompletableFuture[T]) { f.CompleteExceptionally(err) }
}

func cancel[T any](f *executors.CompletableFuture[T]) { f.Cancel(false) }

func TestCompletableFutureTest_testWhenComplete_normalCompletion(t *testing.T) {
	for _, incomplete := range createIncomplete {
		var ran atomic.Int32
		f, g := stage(incomplete, completeWith(1), func(f *executors.CompletableFuture[int]) *executors.CompletableFuture[int] {
			return f.WhenComplete(func(v int, err error) {
				if v != 1 || err != nil {
					t.Errorf("action saw %v, %v", v, err)
				}
				ran.Add(1)
			})
		})
		checkCompletedNormally(t, g, 1)
		checkCompletedNormally(t, f, 1)
		if ran.Load() != 1 {
			t.Errorf("action ran %d times", ran.Load())
		}
	}
}

func TestCompletableFutureTest_testWhenComplete_exceptionalCompletion(t *testing.T) {
	for _, incomplete := range createIncomplete {
		var ran atomic.Int32
		ex := newCFException()
		f, g := stage(incomplete, failWith[int](ex), func(f *executors.CompletableFuture[int]) *executors.CompletableFuture[int] {
			return f.WhenComplete(func(v int, err error) {
				if v != 0 || err != ex {
					t.Errorf("action saw %v, %v", v, err)
				}
				ran.Add(1)
			})
		})
		checkCompletedExceptionally(t, f, ex)
		checkCompletedExceptionally(t, g, ex)
		if ran.Load() != 1 || g.Suppressed() != nil {
			t.Errorf("action ran %d times, suppressed %v", ran.Load(), g.Suppressed())
		}
	}
}

func TestCompletableFutureTest_testWhenComplete_sourceCancelled(t *testing.T) {
	for _, incomplete := range createIncomplete {
		var ran atomic.Int32
		f, g := stage(incomplete, cancel[int], func(f *executors.CompletableFuture[int]) *executors.CompletableFuture[int] {
			return f.WhenComplete(func(v int, err error) {
				if !errors.Is(err, executors.ErrCancelled) {
					t.Errorf("action saw %v", err)
				}
				ran.Add(1)
			})
		})
		checkCancelled(t, f)
		// Java: g completes with CompletionException(CancellationException), not cancelled
		if _, err := g.Get(); !errors.Is(err, executors.ErrCancelled) || g.IsCancelled() || g.State() != executors.Failed {
			t.Errorf("dependent: %v, cancelled %v, state %v", err, g.IsCancelled(), g.State())
		}
		if ran.Load() != 1 {
			t.Errorf("action ran %d times", ran.Load())
		}
	}
}

// If a whenComplete action panics on a source that completed normally, the stage fails with
// the panic.
func TestCompletableFutureTest_testWhenComplete_actionFailed(t *testing.T) {
	for _, incomplete := range createIncomplete {
		ex := newCFException()
		f, g := stage(incomplete, completeWith(1), func(f *executors.CompletableFuture[int]) *executors.CompletableFuture[int] {
			return f.WhenComplete(func(int, error) { panic(ex) })
		})
		checkCompletedNormally(t, f, 1)
		var pe *executors.PanicError
		if err := g.ExceptionNow(); !errors.As(err, &pe) || pe.Value != ex {
			t.Errorf("stage failed with %v, want the action's panic", err)
		}
	}
}

// issue 15, defect 17: if a whenComplete action panics on a source that failed, the source's
// failure takes precedence (the same error value, as Java's assertSame), and the panic is kept
// as the suppressed error (Java's addSuppressed).
func TestCompletableFutureTest_testWhenComplete_actionFailedSourceFailed(t *testing.T) {
	for _, incomplete := range createIncomplete {
		var ran atomic.Int32
		ex1, ex2 := newCFException(), newCFException()
		f, g := stage(incomplete, failWith[int](ex1), func(f *executors.CompletableFuture[int]) *executors.CompletableFuture[int] {
			return f.WhenComplete(func(v int, err error) {
				if err != ex1 {
					t.Errorf("action saw %v", err)
				}
				ran.Add(1)
				panic(ex2)
			})
		})
		checkCompletedExceptionally(t, g, ex1)
		checkCompletedExceptionally(t, f, ex1)
		var pe *executors.PanicError
		if s := g.Suppressed(); !errors.As(s, &pe) || pe.Value != ex2 {
			t.Errorf("Suppressed = %v, want the action's panic", s)
		}
		if ran.Load() != 1 {
			t.Errorf("action ran %d times", ran.Load())
		}
	}
}

func TestCompletableFutureTest_testExceptionally(t *testing.T) {
	for _, incomplete := range createIncomplete {
		// normal completion: the function is not called
		_, g := stage(incomplete, completeWith(1), func(f *executors.CompletableFuture[int]) *executors.CompletableFuture[int] {
			return f.Exceptionally(func(error) (int, error) { t.Error("called on success"); return 0, nil })
		})
		checkCompletedNormally(t, g, 1)

		// exceptional completion: the function's value
		ex := newCFException()
		f, g := stage(incomplete, failWith[int](ex), func(f *executors.CompletableFuture[int]) *executors.CompletableFuture[int] {
			return f.Exceptionally(func(err error) (int, error) {
				if err != ex {
					t.Errorf("function saw %v", err)
				}
				return 2, nil
			})
		})
		checkCompletedNormally(t, g, 2)

		// the function fails: the stage fails with its error
		ex2 := newCFException()
		g = f.Exceptionally(func(error) (int, error) { return 0, ex2 })
		checkCompletedExceptionally(t, g, ex2)
	}
}

func TestCompletableFutureTest_testHandle(t *testing.T) {
	for _, incomplete := range createIncomplete {
		ex := newCFException()
		for _, fail := range []bool{false, true} {
			complete, want := completeWith(1), "1 <nil>"
			if fail {
				complete, want = failWith[int](ex), fmt.Sprint(0, ex)
			}
			var ran atomic.Int32
			f, g := stage(incomplete, complete, func(f *executors.CompletableFuture[int]) *executors.CompletableFuture[string] {
				return executors.Handle(f, func(v int, err error) (string, error) {
					ran.Add(1)
					return fmt.Sprint(v, err), nil
				})
			})
			checkCompletedNormally(t, g, want)
			if ran.Load() != 1 {
				t.Errorf("function ran %d times", ran.Load())
			}
			// an action that panics fails the stage with the panic, whatever the source did
			h := executors.Handle(f, func(int, error) (int, error) { panic("handle") })
			var pe *executors.PanicError
			if err := h.ExceptionNow(); !errors.As(err, &pe) || pe.Value != "handle" {
				t.Errorf("panicking handle: %v", err)
			}
		}
	}
}

func TestCompletableFutureTest_testThenApply(t *testing.T) {
	inc := func(v int) (int, error) { return v + 1, nil }
	notCalled := func(int) (int, error) { t.Error("function called"); return 0, nil }
	apply := func(fn func(int) (int, error)) func(*executors.CompletableFuture[int]) *executors.CompletableFuture[int] {
		return func(f *executors.CompletableFuture[int]) *executors.CompletableFuture[int] {
			return executors.ThenApply(f, fn)
		}
	}
	for _, incomplete := range createIncomplete {
		// normal completion
		_, g := stage(incomplete, completeWith(1), apply(inc))
		checkCompletedNormally(t, g, 2)

		// exceptional completion: the function is not called
		ex := newCFException()
		_, g = stage(incomplete, failWith[int](ex), apply(notCalled))
		checkCompletedExceptionally(t, g, ex)

		// source cancelled
		f, g := stage(incomplete, cancel[int], apply(notCalled))
		checkCancelled(t, f)
		if _, err := g.Get(); !errors.Is(err, executors.ErrCancelled) || g.IsCancelled() {
			t.Errorf("dependent of cancelled: %v, cancelled %v", err, g.IsCancelled())
		}

		// the function fails
		_, g = stage(incomplete, completeWith(1), apply(func(int) (int, error) { return 0, ex }))
		checkCompletedExceptionally(t, g, ex)
	}
	// a dependent of an incomplete source is incomplete
	checkIncomplete(t, executors.ThenApply(executors.NewCompletableFuture[int](), inc))
}

func TestCompletableFutureTest_testThenCompose(t *testing.T) {
	compose := func(fn func(int) *executors.CompletableFuture[int]) func(*executors.CompletableFuture[int]) *executors.CompletableFuture[int] {
		return func(f *executors.CompletableFuture[int]) *executors.CompletableFuture[int] {
			return executors.ThenCompose(f, fn)
		}
	}
	for _, incomplete := range createIncomplete {
		inner := executors.NewCompletableFuture[int]()
		f, g := stage(incomplete, completeWith(1), compose(func(int) *executors.CompletableFuture[int] { return inner }))
		checkIncomplete(t, g) // waits for inner
		inner.Complete(7)
		checkCompletedNormally(t, g, 7)

		ex := newCFException()
		g = executors.ThenCompose(f, func(int) *executors.CompletableFuture[int] { return executors.FailedFuture[int](ex) })
		checkCompletedExceptionally(t, g, ex)

		g = executors.ThenCompose(f, func(int) *executors.CompletableFuture[int] { panic(ex) })
		var pe *executors.PanicError
		if err := g.ExceptionNow(); !errors.As(err, &pe) || pe.Value != ex {
			t.Errorf("panicking compose: %v", err)
		}

		_, g = stage(incomplete, failWith[int](ex), compose(func(int) *executors.CompletableFuture[int] { t.Error("called on failure"); return nil }))
		checkCompletedExceptionally(t, g, ex)
	}
}

// newFutures returns k incomplete futures, typed and as Completions for AllOf and AnyOf.
func newFutures(k int) ([]*executors.CompletableFuture[int], []executors.Completion) {
	cs := make([]*executors.CompletableFuture[int], k)
	fs := make([]executors.Completion, k)
	for i := range k {
		cs[i] = executors.NewCompletableFuture[int]()
		fs[i] = cs[i]
	}
	return cs, fs
}

func TestCompletableFutureTest_testAllOf(t *testing.T) {
	for k := 1; k < 20; k++ {
		cs, fs := newFutures(k)
		f := executors.AllOf(fs...)
		for i := range k {
			checkIncomplete(t, f)
			checkIncomplete(t, executors.AllOf(fs...))
			cs[i].Complete(1)
		}
		checkCompletedNormally(t, f, struct{}{})
		checkCompletedNormally(t, executors.AllOf(fs...), struct{}{})
	}
}

func TestCompletableFutureTest_testAllOf_exceptional(t *testing.T) {
	for k := 1; k < 10; k++ {
		cs, fs := newFutures(k)
		ex := newCFException()
		f := executors.AllOf(fs...)
		for i := range k {
			checkIncomplete(t, f)
			if i != k/2 {
				cs[i].Complete(i)
			} else {
				cs[i].CompleteExceptionally(ex)
			}
		}
		checkCompletedExceptionally(t, f, ex)
		checkCompletedExceptionally(t, executors.AllOf(fs...), ex)
	}
}

func TestCompletableFutureTest_testAnyOf(t *testing.T) {
	checkIncomplete(t, executors.AnyOf())
	for k := 1; k < 20; k++ {
		cs, fs := newFutures(k)
		f := executors.AnyOf(fs...)
		checkIncomplete(t, f)
		for i := range k {
			cs[i].Complete(i)
			checkCompletedNormally(t, f, any(0))
			checkCompletedNormally(t, executors.AnyOf(fs...), any(0))
		}
	}
}

// issue 15, defect 17: the dependents of one future run last-registered first, as the JDK's
// stack of completions; the dependents of those stages follow each at once, in registration
// order (the order JDK 25 prints for the same program).
func TestDependentsRunInTheJDKsOrder(t *testing.T) {
	var order []string
	add := func(s string) { order = append(order, s) }
	step := func(s string) func(int) (int, error) { return func(v int) (int, error) { add(s); return v, nil } }

	f := executors.NewCompletableFuture[int]()
	for i := range 4 {
		f.ThenRun(func() { add(fmt.Sprint(i)) })
	}
	f.Complete(1)
	if diff := cmp.Diff([]string{"3", "2", "1", "0"}, order); diff != "" {
		t.Errorf("one level (-want +got):\n%s", diff)
	}

	order = nil
	g := executors.NewCompletableFuture[int]()
	x := executors.ThenApply(g, step("X"))
	y := executors.ThenApply(g, step("Y"))
	x1 := executors.ThenApply(x, step("X1"))
	x2 := executors.ThenApply(x, step("X2"))
	x1.ThenRun(func() { add("X1a") })
	x1.ThenRun(func() { add("X1b") })
	x2.ThenRun(func() { add("X2a") })
	x2.ThenRun(func() { add("X2b") })
	y.ThenRun(func() { add("Y1") })
	y.ThenRun(func() { add("Y2") })
	g.Complete(1)
	want := []string{"Y", "Y1", "Y2", "X", "X1", "X1a", "X1b", "X2", "X2a", "X2b"}
	if diff := cmp.Diff(want, order); diff != "" {
		t.Errorf("three levels (-want +got):\n%s", diff)
	}
}

// issue 15, defect 4: a SupplyAsync task that calls runtime.Goexit fails its future with
// ErrGoexit instead of leaving it incomplete for ever; its dependents run.
func TestGoexitInSupplyAsyncFailsFutureWithErrGoexit(t *testing.T) {
	f := executors.SupplyAsync(func() (int, error) { runtimeGoexit(); return 1, nil })
	g := executors.ThenApply(f, func(v int) (int, error) { return v, nil })
	within(t, 10*time.Second, "Get after a Goexit in SupplyAsync", func() {
		if _, err := f.Get(); !errors.Is(err, executors.ErrGoexit) {
			t.Errorf("Get = %v, want ErrGoexit", err)
		}
		if _, err := g.Get(); !errors.Is(err, executors.ErrGoexit) {
			t.Errorf("dependent Get = %v, want ErrGoexit", err)
		}
	})
	p := executors.NewFixedThreadPool(1)
	defer p.Close()
	h := executors.SupplyAsyncOn(p, func() (int, error) { runtimeGoexit(); return 1, nil })
	within(t, 10*time.Second, "Get after a Goexit in SupplyAsyncOn", func() {
		if _, err := h.Get(); !errors.Is(err, executors.ErrGoexit) {
			t.Errorf("Get = %v, want ErrGoexit", err)
		}
	})
	r := executors.RunAsync(runtimeGoexit)
	within(t, 10*time.Second, "Get after a Goexit in RunAsync", func() {
		if _, err := r.Get(); !errors.Is(err, executors.ErrGoexit) {
			t.Errorf("Get = %v, want ErrGoexit", err)
		}
	})
}

// issue 15, defect 4: an action that calls runtime.Goexit fails its own stage with ErrGoexit;
// the thread that completed the source exits, but every other dependent still runs, and the
// dependents of the failed stage see the failure.
func TestGoexitInDependentActionFailsItsStageAndTheRestRun(t *testing.T) {
	for _, kind := range []string{"ThenApply", "Handle", "ThenCompose", "WhenComplete", "ThenApplyNested"} {
		t.Run(kind, func(t *testing.T) {
			f := executors.NewCompletableFuture[int]()
			var ran sync.Map
			a := f.ThenRun(func() { ran.Store("a", true) })
			var exiting *executors.CompletableFuture[int]
			switch kind {
			case "ThenApply":
				exiting = executors.ThenApply(f, func(int) (int, error) { runtimeGoexit(); return 0, nil })
			case "Handle":
				exiting = executors.Handle(f, func(int, error) (int, error) { runtimeGoexit(); return 0, nil })
			case "ThenCompose":
				exiting = executors.ThenCompose(f, func(int) *executors.CompletableFuture[int] { runtimeGoexit(); return nil })
			case "WhenComplete":
				exiting = f.WhenComplete(func(int, error) { runtimeGoexit() })
			case "ThenApplyNested":
				mid := executors.ThenApply(f, func(v int) (int, error) { return v, nil })
				mid.ThenRun(func() { ran.Store("mid1", true) })
				exiting = executors.ThenApply(mid, func(int) (int, error) { runtimeGoexit(); return 0, nil })
				mid.ThenRun(func() { ran.Store("mid2", true) })
			}
			after := executors.ThenApply(exiting, func(v int) (int, error) { return v, nil })
			b := f.ThenRun(func() { ran.Store("b", true) })
			completerReturned := make(chan bool, 1)
			done := make(chan struct{})
			go func() {
				defer close(done)
				f.Complete(1)
				completerReturned <- true
			}()
			<-done
			if len(completerReturned) != 0 {
				t.Error("Complete returned although an action called Goexit on its goroutine")
			}
			within(t, 10*time.Second, "stages after a Goexit", func() {
				if _, err := exiting.Get(); !errors.Is(err, executors.ErrGoexit) {
					t.Errorf("exiting stage: %v, want ErrGoexit", err)
				}
				if _, err := after.Get(); !errors.Is(err, executors.ErrGoexit) {
					t.Errorf("its dependent: %v, want ErrGoexit", err)
				}
				for _, s := range []*executors.CompletableFuture[struct{}]{a, b} {
					if _, err := s.Get(); err != nil {
						t.Errorf("sibling stage: %v", err)
					}
				}
			})
			for _, k := range []string{"a", "b"} {
				if _, ok := ran.Load(k); !ok {
					t.Errorf("dependent %s did not run", k)
				}
			}
			if kind == "ThenApplyNested" {
				for _, k := range []string{"mid1", "mid2"} {
					if _, ok := ran.Load(k); !ok {
						t.Errorf("dependent %s did not run", k)
					}
				}
			}
		})
	}
}

// A Goexit in a WhenComplete action on a failed source is suppressed like a panic.
func TestGoexitInWhenCompleteOnFailedSourceIsSuppressed(t *testing.T) {
	ex := newCFException()
	f := executors.NewCompletableFuture[int]()
	g := f.WhenComplete(func(int, error) { runtimeGoexit() })
	done := make(chan struct{})
	go func() { defer close(done); f.CompleteExceptionally(ex) }()
	<-done
	checkCompletedExceptionally(t, g, ex)
	if !errors.Is(g.Suppressed(), executors.ErrGoexit) {
		t.Errorf("Suppressed = %v, want ErrGoexit", g.Suppressed())
	}
}

// Java's timed get with a zero timeout only looks: an incomplete future times out even for an
// interrupted caller, whose status stays set.
func TestCompletableGetTimeoutZeroKeepsInterrupt(t *testing.T) {
	f := executors.NewCompletableFuture[int]()
	th := thread.OfVirtual().Start(func() {
		thread.Current().Interrupt()
		if _, err := f.GetTimeout(0); !errors.Is(err, executors.ErrTimeout) {
			t.Errorf("GetTimeout(0) = %v, want ErrTimeout", err)
		}
		if !thread.Interrupted() {
			t.Error("interrupt status cleared")
		}
	})
	th.Join()
}

// Registrations race completion: every dependent runs exactly once, on one side or the other,
// and chains of stages all complete.
func TestStressDependentsRaceCompletion(t *testing.T) {
	for seed := range uint64(200) {
		r := rand.New(rand.NewPCG(seed, 99))
		f := executors.NewCompletableFuture[int]()
		n := 1 + r.IntN(40)
		var runs atomic.Int64
		stages := make([]*executors.CompletableFuture[int], n)
		var wg sync.WaitGroup
		start := make(chan struct{})
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				src := f
				if i > 0 && i%3 == 0 {
					src = executors.ThenApply(f, func(v int) (int, error) { return v + 1, nil })
				}
				stages[i] = executors.ThenApply(src, func(v int) (int, error) { runs.Add(1); return v, nil })
			}()
		}
		close(start)
		if r.IntN(2) == 0 {
			f.Complete(1)
		} else {
			go f.Complete(1)
		}
		wg.Wait()
		for i, s := range stages {
			if _, err := s.GetTimeout(10 * time.Second); err != nil {
				t.Fatalf("seed %d: stage %d: %v", seed, i, err)
			}
		}
		if got := runs.Load(); got != int64(n) {
			t.Fatalf("seed %d: %d actions ran, want %d", seed, got, n)
		}
	}
}
