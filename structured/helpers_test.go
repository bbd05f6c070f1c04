package structured_test

import (
	"github.com/loomgo/loom/internal/testutil"
	"sync/atomic"
	"testing"
	"time"

	"github.com/loomgo/loom/thread"
)

// onVirtual runs fn as the owner on a new virtual thread and waits for it.
func onVirtual(t *testing.T, fn func()) {
	t.Helper()
	th := thread.OfVirtual().Start(fn)
	if err := th.Join(); err != nil {
		t.Fatal(err)
	}
}

// probe records what a sleeper task went through.
type probe struct{ started, interrupted, ended atomic.Bool }

// awaitStarted waits (bounded) until the task has started.
func (p *probe) awaitStarted() {
	deadline := time.Now().Add(5 * time.Second)
	for !p.started.Load() && time.Now().Before(deadline) {
		thread.Sleep(time.Millisecond)
	}
}

// sleeper returns a task that sleeps d and returns v, recording in p (if not nil) that it started,
// was interrupted, ended.
func sleeper[T any](d time.Duration, v T, p *probe) func() (T, error) {
	return func() (T, error) {
		if p != nil {
			p.started.Store(true)
			defer p.ended.Store(true)
		}
		if err := thread.Sleep(d); err != nil {
			if p != nil {
				p.interrupted.Store(true)
			}
			var zero T
			return zero, err
		}
		return v, nil
	}
}

// failer returns a task that sleeps d and fails with err.
func failer[T any](d time.Duration, err error) func() (T, error) {
	return func() (T, error) {
		thread.Sleep(d)
		var zero T
		return zero, err
	}
}

// awaitState waits (bounded) until th reaches one of the states.
func awaitState(t *testing.T, th *thread.Thread, states ...thread.State) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		s := th.State()
		for _, w := range states {
			if s == w {
				return
			}
		}
		time.Sleep(time.Millisecond)
	}
	t.Fatalf("%v did not reach %v", th, states)
}

var mustPanic = testutil.MustPanic
