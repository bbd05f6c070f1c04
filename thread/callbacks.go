package thread

import (
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"sync/atomic"
)

// User callbacks that loom calls from inside its own machinery: SchedulerOptions.OnPinned and
// TraceOutput, which a pinned thread reports from inside a park (that is, from inside the wait
// loop of a lock, a condition or a queue) and the watchdog from its own goroutine.
//
// Such a callback must not be able to unwind through loom. A panic that escaped from a park
// would leave the waiting thread's node in a lock's queue (the next fair Lock would wait behind
// it forever), and on the watchdog goroutine it would kill the process; runtime.Goexit would end
// the waiting thread in the middle of a wait, or end the watchdog with its compensations still
// in force. A recover cannot stop Goexit, so callUser runs the callback on a goroutine of its
// own and waits for it: whatever the callback does, the caller goes on from a known state. A
// panic is printed to stderr with its stack and otherwise ignored, as the JVM ignores an
// exception thrown by an uncaught-exception handler (there is no Java code to give it to: JFR
// events have no thrower).
//
// The caller keeps its carrier while it waits, exactly as if it ran the callback itself (a
// pinned thread holds its carrier anyway). Callbacks run only for pinned parks past the
// threshold (20 ms by default) and watchdog reports, so a goroutine per call costs nothing
// that matters.

// callUser runs fn, named what in a panic report, where its panic or runtime.Goexit cannot
// reach the caller.
func callUser(what string, fn func()) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer func() {
			if r := recover(); r != nil {
				fmt.Fprintf(*userPanicOutput.Load(), "loom: %s panicked (ignored): %v\n%s", what, r, debug.Stack())
			}
		}()
		fn()
	}()
	<-done
}

// userPanicOutput is where callUser reports a panic (os.Stderr; tests redirect it).
var userPanicOutput atomic.Pointer[io.Writer]

func init() {
	var w io.Writer = os.Stderr
	userPanicOutput.Store(&w)
}
