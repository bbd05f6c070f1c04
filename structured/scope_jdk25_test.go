package structured_test

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/loomgo/loom/locks"
	"github.com/loomgo/loom/structured"
	"github.com/loomgo/loom/thread"
)

// More of JDK 25's StructuredTaskScopeTest (test/jdk/java/util/concurrent/StructuredTaskScope),
// and the user-code corners of issue 15: a task or a joiner method that panics or calls
// runtime.Goexit.

// issue 15, defect 4: a fork whose task calls runtime.Goexit fails with thread.ErrGoexit, so
// the default joiner's Join reports the failure instead of success.
func TestGoexitInForkFailsSubtaskWithErrGoexit(t *testing.T) {
	onVirtual(t, func() {
		s := structured.Open()
		defer s.Close()
		sub := structured.Fork(s, func() (int, error) { runtime.Goexit(); return 1, nil })
		_, err := s.Join()
		var fe *structured.FailedError
		if !errors.As(err, &fe) || !errors.Is(err, thread.ErrGoexit) {
			t.Errorf("Join = %v, want a FailedError caused by ErrGoexit", err)
		}
		if sub.State() != structured.Failed || sub.Exception() != thread.ErrGoexit {
			t.Errorf("subtask %v", sub)
		}
	})
	onVirtual(t, func() {
		var completed atomic.Int32
		s := structured.OpenWith(structured.AllUntil(func(st structured.Subtask[int]) bool {
			completed.Add(1)
			return false
		}))
		defer s.Close()
		structured.Fork(s, func() (int, error) { runtime.Goexit(); return 1, nil })
		structured.Fork(s, func() (int, error) { return 2, nil })
		subs, err := s.Join()
		if err != nil || len(subs) != 2 || completed.Load() != 2 {
			t.Fatalf("Join = %v, %v; OnComplete called %d times", subs, err, completed.Load())
		}
		if subs[0].State() != structured.Failed || !errors.Is(subs[0].Exception(), thread.ErrGoexit) || subs[1].Get() != 2 {
			t.Errorf("subtasks %v", subs)
		}
	})
}

// A joiner whose OnComplete calls runtime.Goexit ends that subtask's thread only; Join and
// Close still return.
func TestGoexitInOnCompleteDoesNotHangJoin(t *testing.T) {
	onVirtual(t, func() {
		s := structured.OpenWith(&customJoiner{onComplete: func(structured.Subtask[any]) bool { runtime.Goexit(); return false }})
		sub := structured.Fork(s, func() (int, error) { return 1, nil })
		done := make(chan struct{})
		go func() {
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				panic("Join or Close hung after a Goexit in OnComplete")
			}
		}()
		if _, err := s.Join(); err != nil {
			t.Errorf("Join = %v", err)
		}
		s.Close()
		close(done)
		if sub.State() != structured.Success {
			t.Errorf("subtask %v", sub)
		}
	})
}

// issue 15, defect 7: a joiner whose Result panics makes Join fail with a FailedError whose
// cause is the panic, as Java's join wraps what result throws in a FailedException (probed on
// JDK 25).
func TestJoinerResultPanicBecomesFailedError(t *testing.T) {
	onVirtual(t, func() {
		s := structured.OpenWith(&panickingResult{})
		defer s.Close()
		structured.Fork(s, func() (int, error) { return 1, nil })
		_, err := s.Join()
		var fe *structured.FailedError
		var pe *structured.PanicError
		if !errors.As(err, &fe) || !errors.As(err, &pe) || pe.Value != "result boom" {
			t.Errorf("Join = %v, want a FailedError caused by the panic", err)
		}
	})
}

type panickingResult struct{ structured.BaseJoiner[any] }

func (*panickingResult) Result() (string, error) { panic("result boom") }

// issue 15, defect 9: a subtask whose scope is cancelled between its thread's start and its run
// still runs, with the interrupt status set, as in Java (probed on JDK 25); its outcome is
// discarded.
func TestSubtaskCancelledAfterStartRunsWithInterruptSet(t *testing.T) {
	onVirtual(t, func() {
		gate := locks.NewCountDownLatch(1)
		// a factory whose first thread waits (uninterruptibly) at the gate before it runs its task
		var made atomic.Int32
		gated := factoryFunc(func(task func()) *thread.Thread {
			if made.Add(1) > 1 {
				return thread.OfVirtual().Unstarted(task)
			}
			return thread.OfVirtual().Unstarted(func() {
				interrupted := false
				for gate.Count() > 0 {
					if thread.Sleep(time.Millisecond) != nil {
						interrupted = true // keep it for the task, as the Java probe does
					}
				}
				if interrupted {
					thread.Current().Interrupt()
				}
				task()
			})
		})
		s := structured.OpenWith(structured.AllUntil(func(structured.Subtask[int]) bool { return true }),
			structured.WithThreadFactory(gated))
		defer s.Close()
		var ran, interrupted atomic.Bool
		late := structured.Fork(s, func() (int, error) {
			ran.Store(true)
			interrupted.Store(thread.Current().IsInterrupted())
			return 1, nil
		})
		// a second subtask completes at once, and the joiner's OnComplete cancels the scope
		// while the first one's thread waits at the gate
		structured.Fork(s, func() (int, error) { return 2, nil })
		for !s.IsCancelled() {
			thread.Sleep(time.Millisecond)
		}
		gate.CountDown()
		subs, err := s.Join()
		if err != nil || len(subs) != 2 {
			t.Fatalf("Join = %v, %v", subs, err)
		}
		if !ran.Load() || !interrupted.Load() {
			t.Errorf("subtask ran %v with interrupt status %v, want it run interrupted", ran.Load(), interrupted.Load())
		}
		if late.State() != structured.Unavailable {
			t.Errorf("a subtask that completed after the cancel is %v, want Unavailable", late.State())
		}
	})
}

type factoryFunc func(task func()) *thread.Thread

func (f factoryFunc) NewThread(task func()) *thread.Thread { return f(task) }

// jtreg testJoinerDefaultMethods: the default OnFork refuses a subtask that is not Unavailable,
// the default OnComplete one that is (IllegalArgumentException), and both a nil subtask (NPE).
func TestStructuredTaskScopeTest_testJoinerDefaultMethods(t *testing.T) {
	onVirtual(t, func() {
		s := structured.OpenWith(&customJoiner{onComplete: func(structured.Subtask[any]) bool { return true }})
		defer s.Close()
		subtask1 := structured.Fork(s, func() (any, error) { return "foo", nil })
		for !s.IsCancelled() {
			thread.Sleep(time.Millisecond)
		}
		subtask2 := structured.Fork(s, func() (any, error) { return "bar", nil })
		s.Join()
		if subtask1.State() != structured.Success || subtask2.State() != structured.Unavailable {
			t.Fatalf("states %v %v", subtask1.State(), subtask2.State())
		}
		var j structured.BaseJoiner[any]
		mustPanic(t, thread.ErrNilArgument, func() { j.OnFork(structured.Subtask[any]{}) })
		mustPanic(t, thread.ErrNilArgument, func() { j.OnComplete(structured.Subtask[any]{}) })
		mustPanic(t, thread.ErrIllegalArgument, func() { j.OnFork(subtask1) })
		if j.OnFork(subtask2) {
			t.Error("OnFork = true")
		}
		if j.OnComplete(subtask1) {
			t.Error("OnComplete = true")
		}
		mustPanic(t, thread.ErrIllegalArgument, func() { j.OnComplete(subtask2) })
	})
}

// jtreg testJoinersWithUnavailableResult: the built-in joiners check their subtask's state too.
func TestStructuredTaskScopeTest_testJoinersWithUnavailableResult(t *testing.T) {
	onVirtual(t, func() {
		s := structured.OpenWith(structured.AwaitAll[any]())
		defer s.Close()
		done := locks.NewCountDownLatch(1)
		sub := structured.Fork(s, func() (any, error) { done.Await(); return nil, nil })
		joiners := func() []structured.Joiner[any, any] {
			return []structured.Joiner[any, any]{
				anyJoiner(structured.AllSuccessfulOrThrow[any]()),
				anyJoiner(structured.AnySuccessfulResultOrThrow[any]()),
				anyJoiner(structured.AwaitAllSuccessfulOrThrow[any]()),
				anyJoiner(structured.AwaitAll[any]()),
				anyJoiner(structured.AllUntil(func(structured.Subtask[any]) bool { return false })),
			}
		}
		for _, j := range joiners() {
			mustPanic(t, thread.ErrIllegalArgument, func() { j.OnComplete(sub) })
			mustPanic(t, thread.ErrNilArgument, func() { j.OnFork(structured.Subtask[any]{}) })
			mustPanic(t, thread.ErrNilArgument, func() { j.OnComplete(structured.Subtask[any]{}) })
		}
		done.CountDown()
		s.Join()
		for _, j := range joiners() {
			mustPanic(t, thread.ErrIllegalArgument, func() { j.OnFork(sub) })
		}
	})
}

// anyJoiner shows a joiner of any result type as a Joiner[T, any], for tests that only call
// OnFork and OnComplete.
func anyJoiner[T, R any](j structured.Joiner[T, R]) structured.Joiner[T, any] { return erased[T, R]{j} }

type erased[T, R any] struct{ j structured.Joiner[T, R] }

func (e erased[T, R]) OnFork(s structured.Subtask[T]) bool     { return e.j.OnFork(s) }
func (e erased[T, R]) OnComplete(s structured.Subtask[T]) bool { return e.j.OnComplete(s) }
func (e erased[T, R]) Result() (any, error)                    { return e.j.Result() }

// jtreg testAllUntil4: cancel after two or more failures; every fork is in the result.
func TestStructuredTaskScopeTest_testAllUntil4(t *testing.T) {
	onVirtual(t, func() {
		var failed atomic.Int32
		s := structured.OpenWith(structured.AllUntil(func(st structured.Subtask[string]) bool {
			return st.State() == structured.Failed && failed.Add(1) >= 2
		}))
		defer s.Close()
		forks := 0
		for !s.IsCancelled() {
			structured.Fork(s, func() (string, error) { return "foo", nil })
			structured.Fork(s, func() (string, error) { return "", errBoom })
			forks += 2
			thread.Sleep(20 * time.Millisecond)
		}
		subs, err := s.Join()
		if err != nil || len(subs) != forks {
			t.Fatalf("Join = %d subtasks, %v; forked %d", len(subs), err, forks)
		}
		n := 0
		for _, st := range subs {
			if st.State() == structured.Failed {
				n++
			}
		}
		if n < 2 {
			t.Errorf("%d failed subtasks, want >= 2", n)
		}
	})
}

// jtreg testJoinAfterJoin1: a joiner's result, then every further Join panics.
func TestStructuredTaskScopeTest_testJoinAfterJoin1(t *testing.T) {
	onVirtual(t, func() {
		results := []string{"foo", "bar", "baz"}
		s := structured.OpenWith(&takingJoiner{results: results})
		defer s.Close()
		structured.Fork(s, func() (any, error) { return "foo", nil })
		if r, err := s.Join(); r != "foo" || err != nil {
			t.Fatalf("Join = %q, %v", r, err)
		}
		for range 3 {
			mustPanic(t, structured.ErrIllegalState, func() { s.Join() })
		}
	})
}

type takingJoiner struct {
	structured.BaseJoiner[any]
	results []string
}

func (j *takingJoiner) Result() (string, error) {
	if len(j.results) == 0 {
		return "", fmt.Errorf("no results")
	}
	r := j.results[0]
	j.results = j.results[1:]
	return r, nil
}

// jtreg testSubtaskWhenNotCompleted: an interrupted Join leaves the subtask Unavailable, and
// Get and Exception panic.
func TestStructuredTaskScopeTest_testSubtaskWhenNotCompleted(t *testing.T) {
	onVirtual(t, func() {
		s := structured.Open()
		defer s.Close()
		sub := structured.Fork(s, sleeper(time.Hour, 1, nil))
		if sub.State() != structured.Unavailable {
			t.Fatal(sub)
		}
		mustPanic(t, structured.ErrIllegalState, func() { sub.Get() })
		mustPanic(t, structured.ErrIllegalState, func() { sub.Exception() })
		thread.Current().Interrupt()
		if _, err := s.Join(); !errors.Is(err, thread.ErrInterrupted) {
			t.Fatalf("Join = %v", err)
		}
		if sub.State() != structured.Unavailable {
			t.Fatal(sub)
		}
		mustPanic(t, structured.ErrIllegalState, func() { sub.Get() })
		mustPanic(t, structured.ErrIllegalState, func() { sub.Exception() })
	})
}

// issue 15, defect 1: a timeout of math.MaxInt64 is "no timeout", not one that has expired.
func TestWithTimeoutOfMaxInt64NeverExpires(t *testing.T) {
	onVirtual(t, func() {
		s := structured.OpenWith(structured.AwaitAllSuccessfulOrThrow[any](), structured.WithTimeout(math.MaxInt64))
		defer s.Close()
		sub := structured.Fork(s, sleeper(50*time.Millisecond, 1, nil))
		if _, err := s.Join(); err != nil || s.IsCancelled() {
			t.Fatalf("Join = %v, cancelled %v", err, s.IsCancelled())
		}
		if sub.Get() != 1 {
			t.Errorf("subtask %v", sub)
		}
	})
}
