package bench

import (
	"testing"

	"github.com/loomgo/loom/threadlocal"
)

func localCases() []Case {
	return []Case{
		// A plain map lookup is what a hand-made per-goroutine store costs once it has found its
		// map (issue 14's baseline for this row).
		{Group: "thread-local read", Name: "map lookup", F: func(b *testing.B) {
			m := map[uint64]any{1: 42}
			sum := 0
			for b.Loop() {
				sum += m[1].(int)
			}
			checkSum(b, sum)
		}},
		{Group: "thread-local read", Name: "threadlocal.ThreadLocal.Get", Java: "threadlocal-get", Goal: 2, F: func(b *testing.B) {
			tl := threadlocal.New[int]()
			tl.Set(42)
			defer tl.Remove()
			sum := 0
			for b.Loop() {
				sum += tl.Get()
			}
			checkSum(b, sum)
		}},
	}
}

// checkSum fails b unless sum adds up reads of 42, the value every thread-local row reads.
func checkSum(b *testing.B, sum int) {
	if sum <= 0 || sum%42 != 0 {
		b.Fatalf("the reads add up to %d, not a positive multiple of 42", sum)
	}
}
