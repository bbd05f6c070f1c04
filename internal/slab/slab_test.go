package slab_test

import (
	"runtime"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"go.uber.org/goleak"

	"github.com/loomgo/loom/internal/slab"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func entries(l *slab.List[int]) []int {
	var got []int
	l.All(func(p *int) bool { got = append(got, *p); return true })
	slices.Sort(got)
	return got
}

// TestListAddRemove adds and removes entries across several chunks, checking the entries listed
// and that the indexes of live entries never change and are never handed out twice.
func TestListAddRemove(t *testing.T) {
	var l slab.List[int]
	const n = 3*slab.ChunkLen + 5
	vals := make([]int, n)
	at := make(map[int]int32) // value -> index
	for i := range vals {
		vals[i] = i
		at[i] = l.Add(&vals[i])
	}
	seen := map[int32]bool{}
	for _, i := range at {
		if seen[i] {
			t.Fatalf("index %d handed out twice", i)
		}
		seen[i] = true
	}
	// remove every odd value, then add them back: they take the freed slots
	var want []int
	for v := range n {
		if v%2 == 1 {
			l.Remove(at[v])
			delete(at, v)
		} else {
			want = append(want, v)
		}
	}
	if diff := cmp.Diff(want, entries(&l)); diff != "" {
		t.Fatalf("after removals (-want +got):\n%s", diff)
	}
	if l.Len() != len(want) {
		t.Fatalf("Len() = %d, want %d", l.Len(), len(want))
	}
	for v := 1; v < n; v += 2 {
		i := l.Add(&vals[v])
		for w, j := range at {
			if j == i {
				t.Fatalf("index %d of %d handed to %d", i, w, v)
			}
		}
		at[v] = i
	}
	want = nil
	for v := range n {
		want = append(want, v)
	}
	if diff := cmp.Diff(want, entries(&l)); diff != "" {
		t.Fatalf("after re-adding (-want +got):\n%s", diff)
	}
	// the re-added entries took freed slots: no slot past the first n
	for v, i := range at {
		if i < 0 || i >= n {
			t.Errorf("value %d at index %d, want < %d", v, i, n)
		}
	}
	for v, i := range at {
		l.Remove(i)
		delete(at, v)
	}
	if got := entries(&l); len(got) != 0 || l.Len() != 0 {
		t.Fatalf("empty list lists %v, Len %d", got, l.Len())
	}
	// empty: it starts again from the front
	if i := l.Add(&vals[7]); i != 0 {
		t.Errorf("first Add after emptying returned %d, want 0", i)
	}
	if diff := cmp.Diff([]int{7}, entries(&l)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestListAllStops checks that All stops when yield returns false.
func TestListAllStops(t *testing.T) {
	var l slab.List[int]
	vals := make([]int, 2*slab.ChunkLen)
	for i := range vals {
		l.Add(&vals[i])
	}
	calls := 0
	l.All(func(*int) bool { calls++; return calls < 3 })
	if calls != 3 {
		t.Errorf("yield called %d times, want 3", calls)
	}
}

// TestListBytes checks the point of the package: a burst of adds and then removes allocates a
// slot of 8 bytes and a free index of 4 per entry, a chunk at a time, and no garbage of outgrown
// arrays (a slice grown by append would allocate about twice as much).
func TestListBytes(t *testing.T) {
	const n = 64 * slab.ChunkLen
	vals := make([]int, n)
	idx := make([]int32, 0, n)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	var l slab.List[int]
	for i := range vals {
		idx = append(idx, l.Add(&vals[i]))
	}
	for _, i := range idx {
		l.Remove(i)
	}
	runtime.ReadMemStats(&after)
	// 12 bytes an entry, plus the first chunks' growth and the chunk tables: 14 (append: ~24)
	if got, want := after.TotalAlloc-before.TotalAlloc, uint64(15*n); got > want {
		t.Errorf("%d adds and removes allocated %d bytes, want <= %d", n, got, want)
	}
}
