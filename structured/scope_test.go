package structured_test

import (
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/loomgo/loom/internal/testutil"
	"github.com/loomgo/loom/scoped"
	"github.com/loomgo/loom/structured"
	"github.com/loomgo/loom/thread"
)

var errBoom = errors.New("boom")

// The classic experiment: one fork fails at 100 ms, another would take 2 s; the scope fails in
// about 100 ms and the slow fork is interrupted (and has ended) by the time Join returns.
func TestFailingForkCancelsSlowForkQuickly(t *testing.T) {
	onVirtual(t, func() {
		s := structured.Open()
		defer s.Close()
		var interrupted probe
		start := time.Now()
		slow := structured.Fork(s, sleeper(2*time.Second, "slow", &interrupted))
		interrupted.awaitStarted()
		fast := structured.Fork(s, failer[int](100*time.Millisecond, errBoom))
		_, err := s.Join()
		el := time.Since(start)
		var fe *structured.FailedError
		if !errors.As(err, &fe) || !errors.Is(err, errBoom) {
			t.Errorf("Join error = %v, want a *FailedError caused by boom", err)
		}
		if el > time.Second {
			t.Errorf("Join took %v, want ~100ms", el)
		}
		if !interrupted.interrupted.Load() {
			t.Error("slow fork was not interrupted before Join returned")
		}
		if slow.State() != structured.Unavailable || fast.State() != structured.Failed {
			t.Errorf("states slow=%v fast=%v, want UNAVAILABLE FAILED", slow.State(), fast.State())
		}
		if !s.IsCancelled() {
			t.Error("scope not cancelled")
		}
		t.Logf("failed after %v", el)
	})
}

// The classic experiment: a first-success scope over forks of 300/50/150 ms returns the 50 ms one.
func TestFirstSuccessReturnsFastestFork(t *testing.T) {
	onVirtual(t, func() {
		s := structured.OpenWith(structured.AnySuccessfulResultOrThrow[string]())
		defer s.Close()
		var interrupted [2]probe
		start := time.Now()
		structured.Fork(s, sleeper(300*time.Millisecond, "database", &interrupted[0]))
		structured.Fork(s, sleeper(50*time.Millisecond, "cache", nil))
		structured.Fork(s, sleeper(150*time.Millisecond, "replica", &interrupted[1]))
		got, err := s.Join()
		if got != "cache" || err != nil {
			t.Errorf("Join = %q, %v; want cache", got, err)
		}
		if el := time.Since(start); el > 280*time.Millisecond+500*time.Millisecond {
			t.Errorf("Join took %v, want ~50ms", el)
		}
		if !interrupted[0].interrupted.Load() || !interrupted[1].interrupted.Load() {
			t.Error("losing forks were not interrupted")
		}
	})
}

// jtreg testForkCreatesVirtualThread; forks run on the factory's threads otherwise.
func TestForkCreatesVirtualThreadByDefault(t *testing.T) {
	s := structured.Open()
	defer s.Close()
	virtual := structured.Fork(s, func() (bool, error) { return thread.Current().IsVirtual(), nil })
	s.Join()
	if !virtual.Get() {
		t.Error("default fork is not a virtual thread")
	}
	p := structured.OpenWith(structured.AwaitAll[any](),
		structured.WithThreadFactory(thread.OfPlatform().NameCounter("worker-", 0).Factory()))
	defer p.Close()
	name := structured.Fork(p, func() (string, error) {
		if thread.Current().IsVirtual() {
			return "", errors.New("virtual")
		}
		return thread.Current().Name(), nil
	})
	p.Join()
	if name.State() != structured.Success || name.Get() != "worker-0" {
		t.Errorf("factory fork: %v", name)
	}
}

func TestJoinWithNoSubtasks(t *testing.T) {
	s := structured.Open()
	defer s.Close()
	if _, err := s.Join(); err != nil {
		t.Errorf("Join = %v", err)
	}
}

func TestJoinWaitsForAllSubtasks(t *testing.T) {
	onVirtual(t, func() {
		s := structured.Open()
		defer s.Close()
		var subs []structured.Subtask[int]
		for i := range 10 {
			subs = append(subs, structured.Fork(s, sleeper(time.Duration(i)*5*time.Millisecond, i, nil)))
		}
		if _, err := s.Join(); err != nil {
			t.Fatal(err)
		}
		for i, st := range subs {
			if st.State() != structured.Success || st.Get() != i {
				t.Errorf("subtask %d: %v", i, st)
			}
		}
	})
}

// jtreg testForkConfined: only the owner forks, not even the scope's subtasks.
func TestForkConfinedToOwner(t *testing.T) {
	s := structured.Open()
	defer s.Close()
	other := thread.OfVirtual().Start(func() {
		mustPanic(t, structured.ErrWrongThread, func() { structured.Fork(s, func() (int, error) { return 1, nil }) })
	})
	other.Join()
	sub := structured.Fork(s, func() (bool, error) {
		defer func() {
			err, _ := recover().(error)
			if !errors.Is(err, structured.ErrWrongThread) || !errors.Is(err, structured.ErrStructureViolation) {
				t.Errorf("fork from a subtask: panic %v", err)
			}
		}()
		structured.Fork(s, func() (int, error) { return 1, nil })
		return true, nil
	})
	s.Join()
	if sub.State() != structured.Success {
		t.Errorf("subtask %v", sub)
	}
}

// jtreg testJoinConfined / testCloseConfined
func TestJoinAndCloseConfinedToOwner(t *testing.T) {
	s := structured.Open()
	defer s.Close()
	thread.OfVirtual().Start(func() {
		mustPanic(t, structured.ErrWrongThread, func() { s.Join() })
		mustPanic(t, structured.ErrWrongThread, func() { s.Close() })
	}).Join()
	s.Join()
}

// jtreg testForkAfterJoinCompleted1/2, testForkAfterClose
func TestForkAfterJoinOrClosePanicsIllegalState(t *testing.T) {
	s := structured.Open()
	structured.Fork(s, func() (int, error) { return 1, nil })
	s.Join()
	mustPanic(t, structured.ErrIllegalState, func() { structured.Fork(s, func() (int, error) { return 2, nil }) })
	s.Close()
	mustPanic(t, structured.ErrIllegalState, func() { structured.Fork(s, func() (int, error) { return 2, nil }) })

	f := structured.Open()
	structured.Fork(f, failer[int](0, errBoom))
	if _, err := f.Join(); err == nil {
		t.Error("want failure")
	}
	mustPanic(t, structured.ErrIllegalState, func() { structured.Fork(f, func() (int, error) { return 2, nil }) })
	f.Close()
}

// jtreg testForkAfterJoinInterrupted, testInterruptJoin1: interrupted before Join.
func TestInterruptBeforeJoinReturnsErrInterrupted(t *testing.T) {
	onVirtual(t, func() {
		s := structured.Open()
		var interrupted probe
		sub := structured.Fork(s, sleeper(5*time.Second, 1, &interrupted))
		interrupted.awaitStarted()
		thread.Current().Interrupt()
		if _, err := s.Join(); !errors.Is(err, thread.ErrInterrupted) {
			t.Errorf("Join = %v, want ErrInterrupted", err)
		}
		if thread.Current().IsInterrupted() {
			t.Error("interrupt status not cleared")
		}
		if s.IsCancelled() {
			t.Error("an interrupted Join cancelled the scope")
		}
		mustPanic(t, structured.ErrIllegalState, func() { structured.Fork(s, func() (int, error) { return 2, nil }) })
		mustPanic(t, structured.ErrIllegalState, func() { s.Join() })
		mustPanic(t, structured.ErrIllegalState, func() { sub.Get() })
		start := time.Now()
		s.Close() // an attempted Join counts: no ErrIllegalState; it cancels the running subtask
		if time.Since(start) > 2*time.Second || !interrupted.interrupted.Load() {
			t.Error("Close did not cancel the running subtask")
		}
	})
}

// jtreg testInterruptJoin2: interrupted while joining.
func TestInterruptDuringJoinReturnsErrInterrupted(t *testing.T) {
	var owner atomic.Pointer[thread.Thread]
	done := make(chan error, 1)
	th := thread.OfVirtual().Start(func() {
		owner.Store(thread.Current())
		s := structured.Open()
		defer s.Close()
		structured.Fork(s, sleeper(5*time.Second, 1, nil))
		_, err := s.Join()
		done <- err
	})
	for owner.Load() == nil {
		time.Sleep(time.Millisecond)
	}
	awaitState(t, th, thread.Waiting)
	if b, ok := th.Blocker().(interface{ IsCancelled() bool }); !ok || b == nil {
		t.Errorf("owner's blocker = %v, want the scope", th.Blocker())
	}
	th.Interrupt()
	th.Join()
	if err := <-done; !errors.Is(err, thread.ErrInterrupted) {
		t.Errorf("Join = %v, want ErrInterrupted", err)
	}
}

// jtreg testJoinAfterJoin1/2
func TestJoinTwicePanicsIllegalState(t *testing.T) {
	for _, fail := range []bool{false, true} {
		s := structured.Open()
		if fail {
			structured.Fork(s, failer[int](0, errBoom))
		} else {
			structured.Fork(s, func() (int, error) { return 1, nil })
		}
		s.Join()
		mustPanic(t, structured.ErrIllegalState, func() { s.Join() })
		s.Close()
		mustPanic(t, structured.ErrIllegalState, func() { s.Join() })
	}
}

// jtreg testJoinWithTimeout1/2/3
func TestTimeoutExpiresDuringJoin(t *testing.T) {
	onVirtual(t, func() {
		s := structured.OpenWith(structured.AwaitAll[any](), structured.WithTimeout(100*time.Millisecond))
		defer s.Close()
		var interrupted probe
		sub := structured.Fork(s, sleeper(5*time.Second, 1, &interrupted))
		interrupted.awaitStarted()
		start := time.Now()
		_, err := s.Join()
		if !errors.Is(err, structured.ErrTimeout) {
			t.Errorf("Join = %v, want ErrTimeout", err)
		}
		if el := time.Since(start); el > 2*time.Second {
			t.Errorf("Join took %v, want ~100ms", el)
		}
		if !interrupted.interrupted.Load() || !s.IsCancelled() || sub.State() != structured.Unavailable {
			t.Errorf("interrupted=%v cancelled=%v state=%v", interrupted.interrupted.Load(), s.IsCancelled(), sub.State())
		}
	})
}

func TestTimeoutExpiresBeforeJoin(t *testing.T) {
	s := structured.OpenWith(structured.AwaitAll[any](), structured.WithTimeout(10*time.Millisecond))
	defer s.Close()
	time.Sleep(100 * time.Millisecond)
	if !s.IsCancelled() {
		t.Error("scope not cancelled by its timeout")
	}
	sub := structured.Fork(s, func() (int, error) { return 1, nil })
	if sub.State() != structured.Unavailable {
		t.Errorf("fork after timeout: %v", sub)
	}
	if _, err := s.Join(); !errors.Is(err, structured.ErrTimeout) {
		t.Errorf("Join = %v, want ErrTimeout", err)
	}
}

func TestTimeoutNotExpired(t *testing.T) {
	s := structured.OpenWith(structured.AnySuccessfulResultOrThrow[int](), structured.WithTimeout(5*time.Second))
	defer s.Close()
	structured.Fork(s, func() (int, error) { return 7, nil })
	if got, err := s.Join(); got != 7 || err != nil {
		t.Errorf("Join = %d, %v", got, err)
	}
}

// jtreg testCloseWithoutJoin1/2: Close cancels, waits, then panics ErrIllegalState.
func TestCloseWithoutJoinPanicsIllegalState(t *testing.T) {
	onVirtual(t, func() {
		s := structured.Open()
		var interrupted probe
		sub := structured.Fork(s, sleeper(5*time.Second, 1, &interrupted))
		interrupted.awaitStarted()
		mustPanic(t, structured.ErrIllegalState, s.Close)
		if !interrupted.interrupted.Load() || !s.IsCancelled() || sub.State() != structured.Unavailable {
			t.Errorf("after Close: interrupted=%v cancelled=%v %v", interrupted.interrupted.Load(), s.IsCancelled(), sub)
		}
		s.Close() // the second Close is a no-op
	})
	// a scope that never forked can be closed without joining
	s := structured.Open()
	s.Close()
}

// jtreg testIsCancelledAfterClose
func TestIsCancelledAfterClose(t *testing.T) {
	s := structured.Open()
	if s.IsCancelled() {
		t.Error("new scope cancelled")
	}
	s.Close()
	if !s.IsCancelled() {
		t.Error("closed scope not cancelled")
	}
	j := structured.Open()
	j.Join()
	j.Close()
	if j.IsCancelled() {
		t.Error("a scope closed after Join completed was cancelled")
	}
}

// jtreg testInterruptClose1/2: Close waits for the subtasks even when interrupted, and
// re-asserts the interrupt.
func TestInterruptedCloseStillWaitsAndReassertsInterrupt(t *testing.T) {
	onVirtual(t, func() {
		s := structured.OpenWith(structured.AwaitAll[any]())
		var ended, started atomic.Bool
		structured.Fork(s, func() (int, error) {
			started.Store(true)
			// ignore interrupts for a while: Close must still wait
			deadline := time.Now().Add(150 * time.Millisecond)
			for time.Now().Before(deadline) {
				thread.Sleep(10 * time.Millisecond)
			}
			ended.Store(true)
			return 0, nil
		})
		for !started.Load() {
			thread.Sleep(time.Millisecond)
		}
		thread.Current().Interrupt()
		_, err := s.Join()
		if !errors.Is(err, thread.ErrInterrupted) {
			t.Errorf("Join = %v", err)
		}
		thread.Current().Interrupt()
		s.Close()
		if !ended.Load() {
			t.Error("Close returned before the subtask ended")
		}
		if !thread.Interrupted() {
			t.Error("interrupt status not re-asserted by Close")
		}
	})
}

// jtreg testCloseThrowsStructureViolation: closing out of order closes the nested scopes too.
// issue 15, defect 9 (jtreg testCloseThrowsStructureViolation, JDK 25): closing an enclosing
// scope out of order closes the nested scope's thread flock only. The nested scope is not
// cancelled: its running subtask is waited for, not interrupted, and completes; afterwards Fork
// returns an Unavailable subtask without running it, and Join and Close still work.
func TestStructuredTaskScopeTest_testCloseThrowsStructureViolation(t *testing.T) {
	onVirtual(t, func() {
		outer := structured.Open()
		inner := structured.Open()
		var running probe
		first := structured.Fork(inner, sleeper(100*time.Millisecond, 1, &running))
		running.awaitStarted()
		mustPanic(t, structured.ErrStructureViolation, outer.Close)
		if running.interrupted.Load() || !running.ended.Load() {
			t.Errorf("nested subtask interrupted %v, ended %v: want waited for, not interrupted", running.interrupted.Load(), running.ended.Load())
		}
		if inner.IsCancelled() {
			t.Error("the nested scope was cancelled")
		}
		var executed atomic.Bool
		sub := structured.Fork(inner, func() (int, error) { executed.Store(true); return 2, nil })
		if sub.State() != structured.Unavailable {
			t.Errorf("fork after the flock closed: %v", sub.State())
		}
		if _, err := inner.Join(); err != nil {
			t.Errorf("Join = %v", err)
		}
		if executed.Load() || sub.State() != structured.Unavailable {
			t.Errorf("a fork into the closed flock ran (%v, %v)", executed.Load(), sub.State())
		}
		if first.State() != structured.Success || first.Get() != 1 {
			t.Errorf("the running subtask: %v", first)
		}
		inner.Close()
		outer.Close() // closed: no-op
	})
	// a nested scope that forked and was never joined still reports it when closed
	onVirtual(t, func() {
		outer := structured.Open()
		inner := structured.Open()
		structured.Fork(inner, func() (int, error) { return 1, nil })
		mustPanic(t, structured.ErrStructureViolation, outer.Close)
		mustPanic(t, structured.ErrIllegalState, inner.Close)
	})
}

// jtreg testCancelInterruptsThreads2: cancelling (here by a custom joiner's OnComplete)
// interrupts the other subtasks' threads.
func TestCancelInterruptsThreads(t *testing.T) {
	onVirtual(t, func() {
		s := structured.OpenWith(structured.AllUntil(func(st structured.Subtask[int]) bool { return st.State() == structured.Success }))
		defer s.Close()
		var interrupted probe
		structured.Fork(s, sleeper(5*time.Second, 0, &interrupted))
		interrupted.awaitStarted()
		structured.Fork(s, sleeper(20*time.Millisecond, 1, nil))
		subs, err := s.Join()
		if err != nil || len(subs) != 2 {
			t.Fatalf("Join = %v, %v", subs, err)
		}
		if !interrupted.interrupted.Load() || subs[0].State() != structured.Unavailable || subs[1].Get() != 1 {
			t.Errorf("interrupted=%v %v %v", interrupted.interrupted.Load(), subs[0], subs[1])
		}
	})
}

// jtreg testSubtaskWhenSuccess
func TestSubtaskWhenSuccess(t *testing.T) {
	s := structured.Open()
	defer s.Close()
	sub := structured.Fork(s, func() (string, error) { return "foo", nil })
	for sub.State() != structured.Success {
		time.Sleep(time.Millisecond)
	}
	mustPanic(t, structured.ErrIllegalState, func() { sub.Get() }) // owner before join
	s.Join()
	if sub.Get() != "foo" {
		t.Errorf("Get = %q", sub.Get())
	}
	mustPanic(t, structured.ErrIllegalState, func() { sub.Exception() })
	if got := sub.String(); !strings.Contains(got, "Completed successfully") {
		t.Errorf("String = %q", got)
	}
}

// jtreg testSubtaskWhenFailed
func TestSubtaskWhenFailed(t *testing.T) {
	s := structured.OpenWith(structured.AwaitAll[any]())
	defer s.Close()
	sub := structured.Fork(s, failer[string](0, errBoom))
	mustPanic(t, structured.ErrIllegalState, func() { sub.Exception() }) // owner before join
	s.Join()
	if sub.State() != structured.Failed || sub.Exception() != errBoom {
		t.Errorf("%v", sub)
	}
	mustPanic(t, structured.ErrIllegalState, func() { sub.Get() })
	if got := sub.String(); !strings.Contains(got, "Failed") || !strings.Contains(got, "boom") {
		t.Errorf("String = %q", got)
	}
}

// jtreg testSubtaskWhenNotCompleted / testSubtaskWhenCancelled
func TestSubtaskUnavailable(t *testing.T) {
	s := structured.OpenWith(structured.AwaitAll[any]())
	sub := structured.Fork(s, sleeper(5*time.Second, "x", nil))
	thread.Current().Interrupt()
	s.Join()
	if sub.State() != structured.Unavailable {
		t.Errorf("state %v", sub.State())
	}
	mustPanic(t, structured.ErrIllegalState, func() { sub.Get() })
	mustPanic(t, structured.ErrIllegalState, func() { sub.Exception() })
	if !strings.Contains(sub.String(), "Unavailable") {
		t.Errorf("String = %q", sub.String())
	}
	s.Close()
}

func TestPanickingSubtaskFailsWithPanicError(t *testing.T) {
	s := structured.OpenWith(structured.AwaitAll[any]())
	defer s.Close()
	sub := structured.Fork(s, func() (int, error) { panic(errBoom) })
	s.Join()
	var pe *structured.PanicError
	if err := sub.Exception(); !errors.As(err, &pe) || !errors.Is(err, errBoom) || len(pe.Stack) == 0 {
		t.Errorf("Exception = %v, want a *PanicError around boom with a stack", err)
	}
}

// A non-owner may read a successful subtask before the owner joins (the joiner does, in
// OnComplete).
func TestNonOwnerGetBeforeJoin(t *testing.T) {
	var seen atomic.Value
	j := structured.AllUntil(func(st structured.Subtask[string]) bool {
		seen.Store(st.Get())
		return false
	})
	s := structured.OpenWith(j)
	defer s.Close()
	structured.Fork(s, func() (string, error) { return "x", nil })
	s.Join()
	if seen.Load() != "x" {
		t.Errorf("predicate saw %v", seen.Load())
	}
}

// jtreg testOnForkThrows: the panic propagates from Fork and no thread starts.
func TestOnForkPanicPropagatesAndStartsNoThread(t *testing.T) {
	s := structured.OpenWith(&customJoiner{onFork: func(structured.Subtask[any]) bool { panic(errBoom) }})
	defer s.Close()
	var ran atomic.Bool
	func() {
		defer func() {
			if r := recover(); r != errBoom {
				t.Errorf("panic %v", r)
			}
		}()
		structured.Fork(s, func() (int, error) { ran.Store(true); return 0, nil })
	}()
	s.Join()
	if ran.Load() {
		t.Error("task ran")
	}
}

// jtreg testOnForkCancelsExecution / testForkAfterCancel2
func TestOnForkCancelsExecution(t *testing.T) {
	s := structured.OpenWith(&customJoiner{onFork: func(structured.Subtask[any]) bool { return true }})
	defer s.Close()
	var ran atomic.Bool
	sub := structured.Fork(s, func() (int, error) { ran.Store(true); return 0, nil })
	if !s.IsCancelled() || sub.State() != structured.Unavailable {
		t.Errorf("cancelled=%v %v", s.IsCancelled(), sub)
	}
	sub2 := structured.Fork(s, func() (int, error) { ran.Store(true); return 0, nil })
	s.Join()
	if ran.Load() || sub2.State() != structured.Unavailable {
		t.Error("a task forked into a cancelled scope ran")
	}
}

// jtreg testOnCompleteThrows: the panic goes to the subtask thread's uncaught-exception handler.
func TestOnCompletePanicGoesToUncaughtExceptionHandler(t *testing.T) {
	var got atomic.Value
	f := thread.OfVirtual().UncaughtExceptionHandler(func(_ *thread.Thread, v any) { got.Store(v) }).Factory()
	s := structured.OpenWith(&customJoiner{onComplete: func(structured.Subtask[any]) bool { panic(errBoom) }},
		structured.WithThreadFactory(f))
	defer s.Close()
	sub := structured.Fork(s, func() (int, error) { return 1, nil })
	s.Join()
	if got.Load() != errBoom {
		t.Errorf("handler got %v", got.Load())
	}
	if sub.State() != structured.Success {
		t.Errorf("%v", sub)
	}
}

// jtreg testOnCompleteCancelsExecution
func TestOnCompleteCancelsExecution(t *testing.T) {
	onVirtual(t, func() {
		s := structured.OpenWith(&customJoiner{onComplete: func(structured.Subtask[any]) bool { return true }})
		defer s.Close()
		var interrupted probe
		structured.Fork(s, sleeper(5*time.Second, 1, &interrupted))
		interrupted.awaitStarted()
		structured.Fork(s, func() (int, error) { return 2, nil })
		s.Join()
		if !s.IsCancelled() || !interrupted.interrupted.Load() {
			t.Errorf("cancelled=%v interrupted=%v", s.IsCancelled(), interrupted.interrupted.Load())
		}
	})
}

// jtreg testForkRejectedExecutionException: a factory that returns nil.
func TestForkRejectedWhenFactoryReturnsNil(t *testing.T) {
	s := structured.OpenWith(structured.AwaitAll[any](), structured.WithThreadFactory(nilFactory{}))
	defer s.Close()
	mustPanic(t, thread.ErrRejected, func() { structured.Fork(s, func() (int, error) { return 1, nil }) })
	s.Join()
}

type nilFactory struct{}

func (nilFactory) NewThread(func()) *thread.Thread { return nil }

// jtreg testNulls
func TestNilArgumentsPanic(t *testing.T) {
	mustPanic(t, thread.ErrNilArgument, func() { structured.OpenWith[any, struct{}](nil) })
	mustPanic(t, thread.ErrNilArgument, func() { structured.OpenWith(structured.AwaitAll[any](), nil) })
	mustPanic(t, thread.ErrNilArgument, func() { structured.WithThreadFactory(nil) })
	mustPanic(t, thread.ErrNilArgument, func() { structured.AllUntil[int](nil) })
	s := structured.Open()
	defer s.Close()
	mustPanic(t, thread.ErrNilArgument, func() { structured.Fork[int](s, nil) })
}

func TestForkResultNotAssignableToScopeTypePanics(t *testing.T) {
	s := structured.OpenWith(structured.AwaitAll[error]())
	defer s.Close()
	mustPanic(t, thread.ErrIllegalArgument, func() { structured.Fork(s, func() (int, error) { return 1, nil }) })
	// a type that implements the scope's interface type is fine
	sub := structured.Fork(s, func() (*structured.FailedError, error) { return &structured.FailedError{Cause: errBoom}, nil })
	s.Join()
	if sub.Get().Cause != errBoom {
		t.Error(sub)
	}
}

// jtreg testToString
func TestScopeStringHasName(t *testing.T) {
	s := structured.OpenWith(structured.AwaitAll[any](), structured.WithName("duke"))
	defer s.Close()
	if got := s.String(); !strings.Contains(got, "duke") {
		t.Errorf("String = %q", got)
	}
}

// A subtask opens a scope of its own: nested structure over several threads.
func TestNestedScopesInSubtasks(t *testing.T) {
	s := structured.OpenWith(structured.AllSuccessfulOrThrow[int]())
	defer s.Close()
	for i := range 3 {
		structured.Fork(s, func() (int, error) {
			inner := structured.OpenWith(structured.AllSuccessfulOrThrow[int]())
			defer inner.Close()
			for j := range 3 {
				structured.Fork(inner, func() (int, error) { return i*10 + j, nil })
			}
			subs, err := inner.Join()
			sum := 0
			for _, st := range subs {
				sum += st.Get()
			}
			return sum, err
		})
	}
	subs, err := s.Join()
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, st := range subs {
		total += st.Get()
	}
	if total != 3*(0+1+2)+10*3*(0+1+2) { // sum of i*10+j
		t.Errorf("total %d", total)
	}
}

// Owner actions before Fork happen before the task; task actions happen before Get after Join
// (checked by the race detector).
func TestMemoryEffects(t *testing.T) {
	s := structured.Open()
	defer s.Close()
	var data []int
	data = append(data, 1)
	var out []int
	sub := structured.Fork(s, func() ([]int, error) {
		out = append(out, data...)
		return out, nil
	})
	s.Join()
	if len(sub.Get()) != 1 || len(out) != 1 {
		t.Error(out)
	}
}

// customJoiner is a Joiner with pluggable OnFork and OnComplete.
type customJoiner struct {
	onFork     func(structured.Subtask[any]) bool
	onComplete func(structured.Subtask[any]) bool
}

func (j *customJoiner) OnFork(s structured.Subtask[any]) bool {
	if j.onFork == nil {
		return false
	}
	return j.onFork(s)
}

func (j *customJoiner) OnComplete(s structured.Subtask[any]) bool {
	if j.onComplete == nil {
		return false
	}
	return j.onComplete(s)
}

func (j *customJoiner) Result() (struct{}, error) { return struct{}{}, nil }

// The owner and its subtasks share one carrier: the owner unmounts while it joins, and the
// subtasks' sleeps overlap (3 x 100 ms in ~100 ms, all on worker-1).
func TestJoinUnmountsOwnerOnOneCarrier(t *testing.T) {
	sch := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 1})
	defer sch.Close()
	var el time.Duration
	var carriers []string
	thread.OfVirtual().Scheduler(sch).Start(func() {
		s := structured.OpenWith(structured.AllSuccessfulOrThrow[string]())
		defer s.Close()
		start := time.Now()
		for range 3 {
			structured.Fork(s, func() (string, error) {
				if !thread.Current().IsVirtual() {
					return "", errors.New("not virtual")
				}
				err := thread.Sleep(100 * time.Millisecond)
				return thread.Current().Carrier(), err
			})
		}
		subs, err := s.Join()
		el = time.Since(start)
		if err != nil {
			t.Error(err)
			return
		}
		for _, st := range subs {
			carriers = append(carriers, st.Get())
		}
	}).Join()
	if el > 280*time.Millisecond { // ~100ms overlapped, 300ms in turn
		t.Errorf("3 x 100ms forks on one carrier took %v, want ~100ms", el)
	}
	for _, c := range carriers {
		if !strings.HasSuffix(c, "-worker-1") {
			t.Errorf("fork ran on %q, want the scheduler's only carrier", c)
		}
	}
}

func TestZeroTimeoutHasAlreadyExpired(t *testing.T) {
	s := structured.OpenWith(structured.AwaitAll[any](), structured.WithTimeout(0))
	defer s.Close()
	if !s.IsCancelled() {
		t.Error("scope with a zero timeout not cancelled")
	}
	if _, err := s.Join(); !errors.Is(err, structured.ErrTimeout) {
		t.Errorf("Join = %v", err)
	}
}

// Many subtasks in one scope (the race detector caps live goroutines; scale_test has more).
func TestThousandForks(t *testing.T) {
	s := structured.OpenWith(structured.AllSuccessfulOrThrow[int]())
	defer s.Close()
	const n = 1000
	for i := range n {
		structured.Fork(s, func() (int, error) { thread.Sleep(time.Millisecond); return i, nil })
	}
	subs, err := s.Join()
	if err != nil || len(subs) != n {
		t.Fatal(len(subs), err)
	}
	sum := 0
	for _, st := range subs {
		sum += st.Get()
	}
	if sum != n*(n-1)/2 {
		t.Errorf("sum %d", sum)
	}
}

// countingFactory records the threads it makes.
type countingFactory struct {
	delegate thread.Factory
	mu       sync.Mutex
	threads  map[*thread.Thread]bool
}

func (f *countingFactory) NewThread(task func()) *thread.Thread {
	t := f.delegate.NewThread(task)
	f.mu.Lock()
	f.threads[t] = true
	f.mu.Unlock()
	return t
}

func (f *countingFactory) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.threads)
}

// jtreg testForkUsesThreadFactory / testForkCreatesVirtualThread: every fork runs on a thread of
// its own, made by the configured factory (virtual threads by default).
func TestForkUsesThreadFactory(t *testing.T) {
	for name, delegate := range map[string]thread.Factory{
		"default":  nil,
		"platform": thread.OfPlatform().Factory(),
		"virtual":  thread.OfVirtual().Factory(),
	} {
		var opts []structured.Option
		f := &countingFactory{delegate: delegate, threads: map[*thread.Thread]bool{}}
		if delegate != nil {
			opts = append(opts, structured.WithThreadFactory(f))
		}
		var mu sync.Mutex
		seen := map[*thread.Thread]bool{}
		s := structured.OpenWith(structured.AwaitAllSuccessfulOrThrow[any](), opts...)
		for range 50 {
			structured.Fork(s, func() (bool, error) {
				mu.Lock()
				seen[thread.Current()] = true
				mu.Unlock()
				return true, nil
			})
		}
		if _, err := s.Join(); err != nil {
			t.Fatal(err)
		}
		s.Close()
		if len(seen) != 50 {
			t.Errorf("%s: %d distinct threads for 50 forks", name, len(seen))
		}
		for th := range seen {
			if delegate == nil && !th.IsVirtual() {
				t.Errorf("%s: fork on %v, want a virtual thread", name, th)
			}
			if delegate != nil && !f.threads[th] {
				t.Errorf("%s: fork on %v, not made by the factory", name, th)
			}
		}
	}
}

// cancelAfterOne cancels the scope when its first subtask completes, counting the calls.
type cancelAfterOne struct {
	onFork, onComplete atomic.Int64
}

func (j *cancelAfterOne) OnFork(structured.Subtask[string]) bool { j.onFork.Add(1); return false }
func (j *cancelAfterOne) OnComplete(structured.Subtask[string]) bool {
	j.onComplete.Add(1)
	return true
}
func (j *cancelAfterOne) Result() (struct{}, error) { return struct{}{}, nil }

// jtreg testForkAfterCancel2: after a joiner cancels, Fork still calls OnFork but starts no
// thread, and OnComplete is not called again.
func TestForkAfterCancelCallsOnForkButStartsNoThread(t *testing.T) {
	j := &cancelAfterOne{}
	f := &countingFactory{delegate: thread.OfVirtual().Factory(), threads: map[*thread.Thread]bool{}}
	s := structured.OpenWith[string, struct{}](j, structured.WithThreadFactory(f))
	defer s.Close()
	sub1 := structured.Fork(s, func() (string, error) { return "foo", nil })
	for !s.IsCancelled() {
		time.Sleep(time.Millisecond)
	}
	sub2 := structured.Fork(s, func() (string, error) { return "bar", nil })
	if _, err := s.Join(); err != nil {
		t.Fatal(err)
	}
	if f.count() != 1 || j.onFork.Load() != 2 || j.onComplete.Load() != 1 {
		t.Errorf("threads=%d onFork=%d onComplete=%d, want 1 2 1", f.count(), j.onFork.Load(), j.onComplete.Load())
	}
	if sub1.Get() != "foo" || sub2.State() != structured.Unavailable {
		t.Error(sub1, sub2)
	}
}

// A thread that cannot start (its scheduler is closed): Fork panics with the start error and the
// scope stays usable.
func TestForkThreadThatCannotStartPanics(t *testing.T) {
	sch := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 1})
	sch.Close()
	s := structured.OpenWith(structured.AwaitAll[any](), structured.WithThreadFactory(thread.OfVirtual().Scheduler(sch).Factory()))
	defer s.Close()
	mustPanic(t, thread.ErrRejected, func() { structured.Fork(s, func() (int, error) { return 1, nil }) })
	if _, err := s.Join(); err != nil {
		t.Errorf("Join = %v", err)
	}
}

func TestErrorMessages(t *testing.T) {
	fe := &structured.FailedError{Cause: errBoom}
	pe := &structured.PanicError{Value: "oops"}
	for _, tc := range []struct{ got, want string }{
		{fe.Error(), "structured: scope failed: boom"},
		{pe.Error(), "panic: oops"},
		{structured.Failed.String() + structured.State(9).String(), "FAILEDState(9)"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
	if pe.Unwrap() != nil {
		t.Error("PanicError of a non-error unwraps to non-nil")
	}
	s := structured.OpenWith(structured.AwaitAll[any](), structured.WithName("orders"))
	defer s.Close()
	thread.OfVirtual().Start(func() {
		defer func() {
			err, _ := recover().(error)
			if err == nil || err.Error() != "structured: wrong thread: join: current thread is not the owner of orders" {
				t.Errorf("panic %v", err)
			}
		}()
		s.Join()
	}).Join()
}

// jtreg StructuredTaskScopeTest.testStructureViolation: an operation run with scoped-value
// bindings that opens a scope and returns without closing it: the scope is closed (its subtasks
// interrupted and finished) and Run throws StructureViolationException.
func TestScopeLeftOpenInsideScopedRunIsClosedAndReported(t *testing.T) {
	v := scoped.NewInstance[string]()
	var sub structured.Subtask[string]
	var leaked *structured.Scope[any, struct{}]
	var interrupted atomic.Bool
	onVirtual(t, func() {
		testutil.MustPanic(t, structured.ErrStructureViolation, func() {
			scoped.Where(v, "x").Run(func() {
				leaked = structured.Open()
				sub = structured.Fork(leaked, func() (string, error) {
					if err := thread.Sleep(100 * time.Millisecond); err != nil {
						interrupted.Store(true)
						return "", err
					}
					return "slept", nil
				})
				// returns without Join or Close
			})
		})
		// As JDK 25's ScopedValueContainer: Run closed the forgotten scope's thread flock, waiting
		// for its subtask without interrupting it; the scope itself is usable and must be closed.
		if interrupted.Load() || sub.State() != structured.Success || leaked.IsCancelled() {
			t.Errorf("forgotten scope: interrupted=%v state=%v cancelled=%v", interrupted.Load(), sub.State(), leaked.IsCancelled())
		}
		if late := structured.Fork(leaked, func() (int, error) { return 1, nil }); late.State() != structured.Unavailable {
			t.Errorf("fork into the forgotten scope: %v", late.State())
		}
		if _, err := leaked.Join(); err != nil {
			t.Errorf("Join = %v", err)
		}
		if sub.Get() != "slept" {
			t.Errorf("Get = %q", sub.Get())
		}
		leaked.Close()
	})
}
