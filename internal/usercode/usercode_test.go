package usercode_test

import (
	"errors"
	"runtime"
	"testing"

	"go.uber.org/goleak"

	"github.com/loomgo/loom/internal/usercode"
	"github.com/loomgo/loom/thread"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestReturnPassesThrough(t *testing.T) {
	boom := errors.New("boom")
	v, err := usercode.Call(func() (int, error) { return 3, boom }, func() { t.Error("onGoexit called") })
	if v != 3 || err != boom {
		t.Errorf("Call = %v, %v", v, err)
	}
}

func TestPanicBecomesPanicErrorWithStack(t *testing.T) {
	boom := errors.New("boom")
	for _, value := range []any{"text", boom, nil} {
		v, err := usercode.Call(func() (int, error) { panic(value) }, func() { t.Error("onGoexit called") })
		var pe *thread.PanicError
		if v != 0 || !errors.As(err, &pe) || len(pe.Stack) == 0 {
			t.Fatalf("panic(%v): Call = %v, %v", value, v, err)
		}
		switch value {
		case nil: // Go 1.21+: panic(nil) is a *runtime.PanicNilError, not lost as a nil recover
			var pn *runtime.PanicNilError
			if !errors.As(err, &pn) {
				t.Errorf("panic(nil) recovered as %v", pe.Value)
			}
		case boom:
			if !errors.Is(err, boom) {
				t.Errorf("a panic with an error value does not unwrap to it: %v", err)
			}
		default:
			if pe.Value != value {
				t.Errorf("panic value %v", pe.Value)
			}
		}
	}
}

func TestGoexitCallsOnGoexitAndDoesNotReturn(t *testing.T) {
	var calledOnGoexit, returned bool
	done := make(chan struct{})
	go func() {
		defer close(done)
		usercode.Call(func() (int, error) { runtime.Goexit(); return 1, nil }, func() { calledOnGoexit = true })
		returned = true
	}()
	<-done
	if !calledOnGoexit || returned {
		t.Errorf("onGoexit called %v, Call returned %v", calledOnGoexit, returned)
	}
}
