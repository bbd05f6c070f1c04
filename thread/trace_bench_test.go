package thread_test

import (
	"sync/atomic"
	"testing"

	"github.com/loomgo/loom/thread"
)

// BenchmarkTraceOff measures the paths that carry the execution-tracer hooks (trace.go) with
// tracing off: a park/unpark hand-off between two virtual threads on one carrier, a start and
// join, and a sleep. Compared with the same benchmark before the hooks, they must cost the same
// time and allocations (one trace.IsEnabled load per hook).
func BenchmarkTraceOff(b *testing.B) {
	b.Run("park-unpark", func(b *testing.B) {
		b.ReportAllocs()
		s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 1})
		defer s.Close()
		var turn atomic.Int64
		var ping, pong *thread.Thread
		n := int64(b.N)
		vb := thread.OfVirtual().Scheduler(s)
		pong = vb.Unstarted(func() {
			for i := int64(1); i < 2*n; i += 2 {
				for turn.Load() != i {
					thread.Park()
				}
				turn.Store(i + 1)
				thread.Unpark(ping)
			}
		})
		b.ResetTimer()
		ping = vb.Start(func() {
			for i := int64(0); i < 2*n; i += 2 {
				for turn.Load() != i {
					thread.Park()
				}
				turn.Store(i + 1)
				thread.Unpark(pong)
			}
		})
		pong.Start()
		ping.Join()
		pong.Join()
	})
	b.Run("start-join", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			thread.StartVirtualThread(func() {}).Join()
		}
	})
	b.Run("start-park-join", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			thread.StartVirtualThread(func() { thread.Sleep(1) }).Join()
		}
	})
}
