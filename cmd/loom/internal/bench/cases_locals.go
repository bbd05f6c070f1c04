package bench

import (
	"testing"

	"github.com/loomgo/loom/threadlocal"
)

var sinkInt int

func localCases() []Case {
	return []Case{
		// A plain map lookup is what a hand-made per-goroutine store costs once it has found its
		// map (issue 14's baseline for this row).
		{Group: "thread-local read", Name: "map lookup", F: func(b *testing.B) {
			m := map[uint64]any{1: 42}
			for b.Loop() {
				sinkInt += m[1].(int)
			}
		}},
		{Group: "thread-local read", Name: "threadlocal.ThreadLocal.Get", Java: "threadlocal-get", Goal: 2, F: func(b *testing.B) {
			tl := threadlocal.New[int]()
			tl.Set(42)
			defer tl.Remove()
			for b.Loop() {
				sinkInt += tl.Get()
			}
		}},
	}
}
