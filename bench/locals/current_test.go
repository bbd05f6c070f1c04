package locals

import (
	"testing"

	"github.com/loomgo/loom/thread"
	"github.com/petermattis/goid"
)

// The parts of a ThreadLocal.Get: finding the current thread (goroutine id, then the registry),
// then a map lookup.
func BenchmarkCurrentThread(b *testing.B) {
	b.Run("goid.Get", func(b *testing.B) {
		for range b.N {
			sinkInt += int(goid.Get())
		}
	})
	b.Run("thread.Current", func(b *testing.B) {
		for range b.N {
			sink = thread.Current()
		}
	})
	b.Run("thread.Current/parallel", func(b *testing.B) {
		b.RunParallel(func(pb *testing.PB) {
			defer thread.Detach()
			var t *thread.Thread
			for pb.Next() {
				t = thread.Current()
			}
			sink = t
		})
	})
}
