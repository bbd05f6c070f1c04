package structured_test

import (
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/loomgo/loom/structured"
	"github.com/loomgo/loom/thread"
)

func values[T any](subs []structured.Subtask[T]) []T {
	var out []T
	for _, s := range subs {
		out = append(out, s.Get())
	}
	return out
}

// jtreg testAllSuccessfulOrThrow1/2/3
func TestAllSuccessfulOrThrow(t *testing.T) {
	t.Run("AllSucceedInForkOrder", func(t *testing.T) {
		s := structured.OpenWith(structured.AllSuccessfulOrThrow[string]())
		defer s.Close()
		structured.Fork(s, sleeper(30*time.Millisecond, "a", nil))
		structured.Fork(s, sleeper(0, "b", nil))
		structured.Fork(s, sleeper(10*time.Millisecond, "c", nil))
		subs, err := s.Join()
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]string{"a", "b", "c"}, values(subs)); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	})
	t.Run("NoSubtasks", func(t *testing.T) {
		s := structured.OpenWith(structured.AllSuccessfulOrThrow[string]())
		defer s.Close()
		subs, err := s.Join()
		if len(subs) != 0 || err != nil {
			t.Errorf("Join = %v, %v", subs, err)
		}
	})
	t.Run("FirstFailureCancels", func(t *testing.T) {
		s := structured.OpenWith(structured.AllSuccessfulOrThrow[string]())
		defer s.Close()
		var p probe
		structured.Fork(s, sleeper(5*time.Second, "slow", &p))
		p.awaitStarted()
		structured.Fork(s, failer[string](10*time.Millisecond, errBoom))
		_, err := s.Join()
		var fe *structured.FailedError
		if !errors.As(err, &fe) || fe.Cause != errBoom {
			t.Errorf("Join = %v", err)
		}
		if !p.interrupted.Load() || !p.ended.Load() {
			t.Error("slow subtask not interrupted and ended")
		}
	})
}

// jtreg testAnySuccessfulOrThrow1..5
func TestAnySuccessfulResultOrThrow(t *testing.T) {
	t.Run("OneSuccessAmongFailures", func(t *testing.T) {
		s := structured.OpenWith(structured.AnySuccessfulResultOrThrow[string]())
		defer s.Close()
		structured.Fork(s, failer[string](0, errBoom))
		structured.Fork(s, sleeper(20*time.Millisecond, "ok", nil))
		structured.Fork(s, failer[string](0, errBoom))
		if got, err := s.Join(); got != "ok" || err != nil {
			t.Errorf("Join = %q, %v", got, err)
		}
	})
	t.Run("AllFail", func(t *testing.T) {
		s := structured.OpenWith(structured.AnySuccessfulResultOrThrow[string]())
		defer s.Close()
		first := errors.New("first")
		structured.Fork(s, failer[string](0, first))
		structured.Fork(s, failer[string](100*time.Millisecond, errBoom))
		_, err := s.Join()
		var fe *structured.FailedError
		if !errors.As(err, &fe) || fe.Cause != first {
			t.Errorf("Join = %v, want a FailedError caused by the first failure", err)
		}
	})
	t.Run("NoSubtasks", func(t *testing.T) {
		s := structured.OpenWith(structured.AnySuccessfulResultOrThrow[string]())
		defer s.Close()
		_, err := s.Join()
		var fe *structured.FailedError
		if !errors.As(err, &fe) || !errors.Is(err, structured.ErrNoSubtaskCompleted) {
			t.Errorf("Join = %v", err)
		}
	})
	t.Run("NilResultIsAResult", func(t *testing.T) {
		s := structured.OpenWith(structured.AnySuccessfulResultOrThrow[*int]())
		defer s.Close()
		structured.Fork(s, func() (*int, error) { return nil, nil })
		if got, err := s.Join(); got != nil || err != nil {
			t.Errorf("Join = %v, %v", got, err)
		}
	})
}

// jtreg testAwaitSuccessfulOrThrow1/2
func TestAwaitAllSuccessfulOrThrow(t *testing.T) {
	s := structured.OpenWith(structured.AwaitAllSuccessfulOrThrow[int]())
	a := structured.Fork(s, sleeper(10*time.Millisecond, 1, nil))
	b := structured.Fork(s, sleeper(0, 2, nil))
	if _, err := s.Join(); err != nil {
		t.Fatal(err)
	}
	if a.Get()+b.Get() != 3 {
		t.Error(a, b)
	}
	s.Close()

	f := structured.OpenWith(structured.AwaitAllSuccessfulOrThrow[int]())
	defer f.Close()
	structured.Fork(f, failer[int](0, errBoom))
	if _, err := f.Join(); !errors.Is(err, errBoom) {
		t.Errorf("Join = %v", err)
	}
}

// jtreg testAwaitAll: failures do not cancel.
func TestAwaitAllNeverCancels(t *testing.T) {
	s := structured.OpenWith(structured.AwaitAll[int]())
	defer s.Close()
	f := structured.Fork(s, failer[int](0, errBoom))
	ok := structured.Fork(s, sleeper(50*time.Millisecond, 1, nil))
	if _, err := s.Join(); err != nil {
		t.Fatal(err)
	}
	if s.IsCancelled() || f.State() != structured.Failed || ok.Get() != 1 {
		t.Errorf("cancelled=%v %v %v", s.IsCancelled(), f, ok)
	}
}

// jtreg testAllUntil1..7
func TestAllUntil(t *testing.T) {
	t.Run("PredicateNeverTrue", func(t *testing.T) {
		var calls atomic.Int64
		s := structured.OpenWith(structured.AllUntil(func(structured.Subtask[int]) bool { calls.Add(1); return false }))
		defer s.Close()
		structured.Fork(s, sleeper(0, 1, nil))
		structured.Fork(s, failer[int](0, errBoom))
		subs, err := s.Join()
		if err != nil || len(subs) != 2 || calls.Load() != 2 {
			t.Fatalf("Join = %v, %v; %d calls", subs, err, calls.Load())
		}
		if subs[0].Get() != 1 || subs[1].Exception() != errBoom {
			t.Error(subs)
		}
	})
	t.Run("PredicateCancelsOnFailure", func(t *testing.T) {
		s := structured.OpenWith(structured.AllUntil(func(st structured.Subtask[int]) bool { return st.State() == structured.Failed }))
		defer s.Close()
		var p probe
		structured.Fork(s, sleeper(5*time.Second, 1, &p))
		p.awaitStarted()
		structured.Fork(s, failer[int](0, errBoom))
		subs, err := s.Join()
		if err != nil || len(subs) != 2 {
			t.Fatal(subs, err)
		}
		if subs[0].State() != structured.Unavailable || subs[1].State() != structured.Failed || !p.interrupted.Load() {
			t.Error(subs, p.interrupted.Load())
		}
	})
	t.Run("PredicatePanicGoesToHandler", func(t *testing.T) {
		var got atomic.Value
		f := thread.OfVirtual().UncaughtExceptionHandler(func(_ *thread.Thread, v any) { got.Store(v) }).Factory()
		s := structured.OpenWith(structured.AllUntil(func(structured.Subtask[int]) bool { panic("predicate") }),
			structured.WithThreadFactory(f))
		defer s.Close()
		structured.Fork(s, sleeper(0, 1, nil))
		if _, err := s.Join(); err != nil {
			t.Fatal(err)
		}
		if got.Load() != "predicate" {
			t.Errorf("handler got %v", got.Load())
		}
	})
}

func TestCustomJoiner(t *testing.T) {
	s := structured.OpenWith[int, []int](&collectingJoiner[int]{})
	defer s.Close()
	for i := range 10 {
		if i%3 == 0 {
			structured.Fork(s, failer[int](0, errBoom))
		} else {
			structured.Fork(s, sleeper(time.Duration(i)*3*time.Millisecond, i, nil))
		}
	}
	got, err := s.Join()
	if err != nil {
		t.Fatal(err)
	}
	sum := 0
	for _, v := range got {
		sum += v
	}
	if len(got) != 6 || sum != 1+2+4+5+7+8 {
		t.Errorf("results %v", got)
	}
}
