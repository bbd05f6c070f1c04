package thread_test

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/loomgo/loom/thread"
)

// traceBuffer is a bytes.Buffer safe for the watchdog's goroutine and the test.
type traceBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *traceBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *traceBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// With -Dloom.watchdog and -Djdk.tracePinnedThreads, a virtual thread stuck in Go-native blocking
// on its carrier is printed like a pinned park: the thread, reason:NATIVE_BLOCKING and (full) its
// stack, once per stack; the event carries the stack too.
func TestWatchdogNativeBlockingIsTracedLikeAPinnedPark(t *testing.T) {
	for _, mode := range []string{"short", "full"} {
		t.Run(mode, func(t *testing.T) {
			var out traceBuffer
			events := make(chan thread.PinnedEvent, 4)
			s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 2, WatchdogThreshold: 30 * time.Millisecond,
				TracePinned: mode, TraceOutput: &out, OnPinned: func(e thread.PinnedEvent) { events <- e }})
			defer s.Close()
			release := make(chan struct{})
			stuck := thread.OfVirtual().Scheduler(s).Start(func() { <-release })
			var e thread.PinnedEvent
			select {
			case e = <-events:
			case <-time.After(10 * time.Second):
				t.Fatal("no NATIVE_BLOCKING event")
			}
			close(release)
			stuck.Join()
			if e.Reason != "NATIVE_BLOCKING" || !strings.Contains(string(e.Stack), "TestWatchdogNativeBlockingIsTracedLikeAPinnedPark") {
				t.Errorf("event %s/%s with stack:\n%s", e.Reason, e.BlockingOperation, e.Stack)
			}
			got := out.String()
			for deadline := time.Now().Add(10 * time.Second); got == "" && time.Now().Before(deadline); got = out.String() {
				time.Sleep(time.Millisecond) // the event is passed to OnPinned before it is printed
			}
			first, rest, _ := strings.Cut(got, "\n")
			if !strings.HasPrefix(first, "VirtualThread[#") || !strings.HasSuffix(first, " reason:NATIVE_BLOCKING") {
				t.Errorf("trace's first line %q, want the thread and reason:NATIVE_BLOCKING", first)
			}
			hasFrame := strings.Contains(rest, "    ") && strings.Contains(rest, "TestWatchdogNativeBlockingIsTracedLikeAPinnedPark")
			if hasFrame != (mode == "full") {
				t.Errorf("%s trace:\n%s", mode, got)
			}
		})
	}
}
