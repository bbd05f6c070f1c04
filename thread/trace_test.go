package thread_test

import (
	"runtime/trace"
	"sync/atomic"
	"testing"

	"github.com/loomgo/loom/thread"
)

// With the execution tracer off, the hooks of trace.go cost no allocation: a park/unpark round
// trip between the test goroutine and a virtual thread (which unmounts each time) allocates
// nothing, and a start and join of a virtual thread allocates what it did before the hooks
// existed (3 allocations, 168 bytes, in BenchmarkStartJoin/virtual).
func TestTraceOffAllocatesNothingMore(t *testing.T) {
	if trace.IsEnabled() {
		t.Skip("the execution tracer is on (go test -trace): this test is about it being off")
	}
	s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 1})
	defer s.Close()
	var turn atomic.Int64 // odd: pong's turn
	var stop atomic.Bool
	me := thread.Current()
	pong := thread.OfVirtual().Scheduler(s).Start(func() {
		for !stop.Load() {
			if turn.Load()%2 == 1 {
				turn.Add(1)
				thread.Unpark(me)
			}
			thread.Park()
		}
	})
	roundTrip := func() {
		want := turn.Add(1) + 1
		thread.Unpark(pong)
		for turn.Load() != want {
			thread.Park()
		}
	}
	roundTrip()
	if n := testing.AllocsPerRun(200, roundTrip); n != 0 {
		t.Errorf("park/unpark round trip: %v allocations, want 0", n)
	}
	stop.Store(true)
	thread.Unpark(pong)
	pong.Join()

	startJoin := func() { thread.OfVirtual().Scheduler(s).Start(func() {}).Join() }
	startJoin()
	if n := testing.AllocsPerRun(200, startJoin); n > 3 {
		t.Errorf("start and join: %v allocations, want at most 3", n)
	}
}
