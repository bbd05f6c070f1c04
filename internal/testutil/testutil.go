// Package testutil holds the helpers loom's tests share: asserting Java's unchecked exceptions
// (panics with a recognisable error), waiting for a thread state, and joining threads.
package testutil

import (
	"errors"
	"testing"
	"time"

	"github.com/loomgo/loom/thread"
)

// MustPanic runs fn and fails the test unless fn panics with an error that [errors.Is]
// recognises as want. It reports with Errorf, so it may run on any thread.
func MustPanic(t testing.TB, want error, fn func()) {
	t.Helper()
	defer func() {
		t.Helper()
		r := recover()
		err, ok := r.(error)
		if !ok || !errors.Is(err, want) {
			t.Errorf("panic %v, want an error wrapping %v", r, want)
		}
	}()
	fn()
}

// WaitState waits (generously, for slow shared machines) until th is in state st.
func WaitState(t testing.TB, th *thread.Thread, st thread.State) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for th.State() != st {
		if time.Now().After(deadline) {
			t.Fatalf("%v: state %v, want %v", th, th.State(), st)
		}
		time.Sleep(time.Millisecond)
	}
}

// Join joins each thread, failing the test if one does not end within a minute.
func Join(t testing.TB, ths ...*thread.Thread) {
	t.Helper()
	for _, th := range ths {
		if ok, err := th.JoinTimeout(time.Minute); err != nil || !ok {
			t.Fatalf("thread %v did not end: %v %v", th, ok, err)
		}
	}
}
