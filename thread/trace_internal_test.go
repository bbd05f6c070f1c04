package thread

import "testing"

// BenchmarkTraceHooksOff is what the hooks of one unmounting park (traceUnmount, traceMount)
// and of a start and end (traceStarted, traceRunning, traceEnded) cost with tracing off: a load
// and a branch each, against a benchmark loop of the same shape without them ("none").
func BenchmarkTraceHooksOff(b *testing.B) {
	t := newThread(kindVirtual, nil)
	b.Run("none", func(b *testing.B) {
		for b.Loop() {
		}
	})
	b.Run("park", func(b *testing.B) {
		for b.Loop() {
			t.traceUnmount("", 0, nil, -1)
			t.traceMount()
		}
	})
	b.Run("start-end", func(b *testing.B) {
		for b.Loop() {
			t.traceStarted()
			t.traceRunning()
			t.traceEnded()
		}
	})
}
