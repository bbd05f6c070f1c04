package structured_test

import (
	"errors"
	"testing"
	"time"

	"github.com/loomgo/loom/executors"
	"github.com/loomgo/loom/locks"
	"github.com/loomgo/loom/structured"
	"github.com/loomgo/loom/thread"
)

// Java has one IllegalStateException and one java.util.concurrent.TimeoutException, whichever
// class throws them; loom has one value for each, whichever package returns it. Java 25's
// StructuredTaskScope.TimeoutException is another class, and structured.ErrTimeout another value.
func TestErrorSentinelsAreOneValuePerJavaException(t *testing.T) {
	for _, c := range []struct {
		name      string
		err, java error
	}{
		{"locks.ErrIllegalState", locks.ErrIllegalState, thread.ErrIllegalState},
		{"executors.ErrIllegalState", executors.ErrIllegalState, thread.ErrIllegalState},
		{"structured.ErrIllegalState", structured.ErrIllegalState, thread.ErrIllegalState},
		{"locks.ErrTimeout", locks.ErrTimeout, thread.ErrTimeout},
		{"executors.ErrTimeout", executors.ErrTimeout, thread.ErrTimeout},
	} {
		if c.err != c.java {
			t.Errorf("%s is not the one value of its Java exception (%v)", c.name, c.java)
		}
	}
	if errors.Is(structured.ErrTimeout, thread.ErrTimeout) {
		t.Error("structured.ErrTimeout matches thread.ErrTimeout; Java 25's StructuredTaskScope.TimeoutException is another class")
	}

	// The values as the packages raise them: a timed-out barrier and a timed-out future match
	// either package's ErrTimeout.
	_, barrierErr := locks.NewCyclicBarrier(2, nil).AwaitTimeout(time.Millisecond)
	_, futureErr := executors.NewCompletableFuture[int]().GetTimeout(time.Millisecond)
	for _, err := range []error{barrierErr, futureErr} {
		if !errors.Is(err, locks.ErrTimeout) || !errors.Is(err, executors.ErrTimeout) {
			t.Errorf("timed-out wait = %v, want both packages' ErrTimeout", err)
		}
	}
}
