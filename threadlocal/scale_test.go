//go:build !race

package threadlocal_test

import (
	"runtime"
	"sync/atomic"
	"testing"

	"github.com/loomgo/loom/thread"
	"github.com/loomgo/loom/threadlocal"
)

func heapInUse() uint64 {
	var ms runtime.MemStats
	for range 3 {
		runtime.GC()
	}
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// A million short-lived virtual threads that each set a thread-local leave nothing behind: the
// heap after they have all ended is about what it was before.
func TestMillionShortLivedThreadsLeaveNothingBehind(t *testing.T) {
	if testing.Short() {
		t.Skip("scale test")
	}
	type payload struct{ buf [64]byte }
	tl := threadlocal.New[*payload]()
	inh := threadlocal.NewInheritable[int](nil)
	inh.Set(1) // every child inherits a value too
	defer inh.Remove()
	before := heapInUse()
	const n = 1_000_000
	var sum atomic.Int64
	const batch = 10_000
	ths := make([]*thread.Thread, 0, batch)
	for i := 0; i < n; i += batch {
		ths = ths[:0]
		for j := range batch {
			ths = append(ths, thread.OfVirtual().Start(func() {
				tl.Set(&payload{buf: [64]byte{byte(j)}})
				sum.Add(int64(inh.Get()))
			}))
		}
		for _, th := range ths {
			th.Join()
		}
	}
	clear(ths)
	if sum.Load() != n {
		t.Fatalf("inherited sum %d, want %d", sum.Load(), n)
	}
	after := heapInUse()
	grew := int64(after) - int64(before)
	t.Logf("heap before %d KiB, after %d KiB (%+d KiB) for %d threads", before>>10, after>>10, grew>>10, n)
	// 1M threads x (64-byte payload + map + entry) would be well over 100 MiB if kept.
	if grew > 8<<20 {
		t.Errorf("heap grew by %d KiB after %d threads ended, want ~0", grew>>10, n)
	}
}
