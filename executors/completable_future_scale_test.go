//go:build !race

package executors_test

import (
	"runtime"
	"testing"

	"github.com/loomgo/loom/executors"
)

// The TCK's "expensive" sizes of the garbage-retention tests: a million stale completions pushed
// on futures that never complete.

func TestMillionCoCompletionGarbageRetention(t *testing.T) {
	coCompletionGarbageRetention(t, 1_000_000)
}

func TestMillionCancelledGarbageRetention(t *testing.T) { cancelledGarbageRetention(t, 1_000_000) }

func TestMillionToCompletableFutureGarbageRetention(t *testing.T) {
	toCompletableFutureGarbageRetention(t, 1_000_000)
}

func TestHundredThousandCancelledAllOfGarbageRetention(t *testing.T) {
	cancelledAllOfGarbageRetention(t, 100_000)
}

func TestHundredThousandManyDependents(t *testing.T) { manyDependents(t, 100_000) }

// The case, measured in memory: a million applyToEither on a future that never completes,
// each dependent cancelled. Java keeps every completion (a million, some 100 MB); the heap here
// grows by no more than a few hundred stale completions.
func TestMillionCancelledEitherDependentsDoNotGrowTheHeap(t *testing.T) {
	never := executors.NewCompletableFuture[int]()
	id := func(v int) (int, error) { return v, nil }
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for range 1_000_000 {
		executors.ApplyToEither(never, executors.NewCompletableFuture[int](), id).Cancel(true)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	if grew := int64(after.HeapAlloc) - int64(before.HeapAlloc); grew > 16<<20 {
		t.Errorf("the heap grew by %d MB", grew>>20)
	}
	checkBoundedStack(t, "applyToEither", never)
	runtime.KeepAlive(never)
}
