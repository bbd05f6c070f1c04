package executors_test

import (
	"github.com/loomgo/loom/internal/testutil"
	"runtime"
	"testing"
	"time"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

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

var mustPanicWith = testutil.MustPanic
