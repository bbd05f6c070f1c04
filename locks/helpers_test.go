package locks_test

import (
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

// ids returns the thread ids of ths, for comparisons.
func ids(ths []*thread.Thread) []int64 {
	var r []int64
	for _, th := range ths {
		r = append(r, th.ThreadID())
	}
	return r
}
