package executors_test

import (
	"errors"
	"runtime"
	"testing"
	"time"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// mustPanicWith runs fn and fails unless it panics with an error that errors.Is target.
func mustPanicWith(t *testing.T, target error, fn func()) {
	t.Helper()
	defer func() {
		t.Helper()
		r := recover()
		err, ok := r.(error)
		if !ok || !errors.Is(err, target) {
			t.Fatalf("panic = %v, want an error wrapping %v", r, target)
		}
	}()
	fn()
}

// within fails the test if fn does not return within d (a hang check).
func within(t *testing.T, d time.Duration, what string, fn func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); fn() }()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("%s did not return within %v", what, d)
	}
}
func runtimeGoexit() { runtime.Goexit() }
