package locks_test

import (
	"errors"
	"testing"
	"time"

	"github.com/loomgo/loom/thread"
)

// kinds runs a test body once with virtual and once with platform threads.
var kinds = []struct {
	name  string
	start func(func()) *thread.Thread
}{
	{"virtual", func(f func()) *thread.Thread { return thread.OfVirtual().Start(f) }},
	{"platform", func(f func()) *thread.Thread { return thread.OfPlatform().Start(f) }},
}

const longWait = 10 * time.Second

func startVirtual(f func()) *thread.Thread { return thread.OfVirtual().Start(f) }

// join waits for th, failing the test if it does not end in longWait.
func join(t testing.TB, th *thread.Thread) {
	t.Helper()
	ok, err := th.JoinTimeout(longWait)
	if err != nil || !ok {
		t.Fatalf("%v did not terminate: %v (state %v)", th, err, th.State())
	}
}

// eventually polls cond until it holds, failing the test after longWait.
func eventually(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(longWait)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

func waitState(t testing.TB, th *thread.Thread, st thread.State) {
	t.Helper()
	eventually(t, th.String()+" to be "+st.String(), func() bool { return th.State() == st })
}

// mustPanic runs f and checks it panics with an error that errors.Is target.
func mustPanic(t testing.TB, target error, f func()) {
	t.Helper()
	defer func() {
		t.Helper()
		r := recover()
		err, ok := r.(error)
		if !ok || !errors.Is(err, target) {
			t.Fatalf("panic %v, want %v", r, target)
		}
	}()
	f()
}

// ids returns the thread ids of ths, for comparisons.
func ids(ths []*thread.Thread) []int64 {
	var r []int64
	for _, th := range ths {
		r = append(r, th.ThreadID())
	}
	return r
}
