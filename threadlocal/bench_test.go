package threadlocal_test

import (
	"testing"

	"github.com/loomgo/loom/internal/testutil"
	"github.com/loomgo/loom/thread"
	"github.com/loomgo/loom/threadlocal"
)

var sinkInt int

// mapLookup is the baseline of issue 14's ThreadLocal row: a plain map lookup by a ThreadLocal
// id, as a hand-made per-goroutine store would do once it has found its map.
func mapLookup(n int) {
	m := map[uint64]any{1: 42}
	for range n {
		sinkInt += m[1].(int)
	}
}

func tlGet(tl *threadlocal.ThreadLocal[int]) func(int) {
	return func(n int) {
		for range n {
			sinkInt += tl.Get()
		}
	}
}

// ThreadLocal.Get against a plain map lookup, alternating rounds (see testutil.Pair); target
// ratio <= 2. On a goroutine loom did not start (an attached platform thread) and on a virtual
// thread.
func BenchmarkGetVsMapLookup(b *testing.B) {
	b.Run("goroutine", func(b *testing.B) {
		tl := threadlocal.New[int]()
		tl.Set(42)
		defer tl.Remove()
		testutil.Pair(b, mapLookup, tlGet(tl))
	})
	b.Run("virtual", func(b *testing.B) {
		tl := threadlocal.New[int]()
		thread.StartVirtualThread(func() {
			tl.Set(42)
			testutil.Pair(b, mapLookup, tlGet(tl))
		}).Join()
	})
}

func BenchmarkGet(b *testing.B) {
	tl := threadlocal.WithInitial(func() int { return 42 })
	for b.Loop() {
		sinkInt += tl.Get()
	}
}

func BenchmarkSet(b *testing.B) {
	tl := threadlocal.New[*int]()
	p := new(int)
	for b.Loop() {
		tl.Set(p)
	}
}

var sinkT *thread.Thread

func BenchmarkZZCurrentVsMapLookup(b *testing.B) {
	testutil.Pair(b, mapLookup, func(n int) {
		for range n {
			sinkT = thread.Current()
		}
	})
}

func BenchmarkZZGetVsCurrent(b *testing.B) {
	tl := threadlocal.New[int]()
	tl.Set(42)
	defer tl.Remove()
	testutil.Pair(b, func(n int) {
		for range n {
			sinkT = thread.Current()
		}
	}, tlGet(tl))
}
