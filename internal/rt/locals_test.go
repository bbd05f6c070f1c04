package rt_test

import (
	"math"
	"sync"
	"testing"

	"github.com/loomgo/loom/internal/rt"
)

// The key allocator hands out the smallest free index, with a generation it has never had; a
// key freed twice is freed once.
func TestLocalKeysReuseSmallestIndexWithNewGeneration(t *testing.T) {
	a, b, c := rt.NewLocalKey(), rt.NewLocalKey(), rt.NewLocalKey()
	defer rt.FreeLocalKey(a)
	defer rt.FreeLocalKey(c)
	rt.FreeLocalKey(b)
	rt.FreeLocalKey(b) // ignored
	if rt.LiveKey(b) {
		t.Fatal("freed key still live")
	}
	d := rt.NewLocalKey()
	defer rt.FreeLocalKey(d)
	if uint32(d) != uint32(b) || d>>32 != b>>32+1 {
		t.Errorf("after freeing %#x got %#x, want the same index with the next generation", b, d)
	}
	e := rt.NewLocalKey() // b was freed once: its index is taken, so e is new
	defer rt.FreeLocalKey(e)
	if uint32(e) == uint32(d) {
		t.Errorf("index %d issued to two live keys (%#x, %#x)", uint32(e), d, e)
	}
}

// An index whose generation would wrap is retired: issuing it again would repeat a key that a
// thread may still hold a stale value under.
func TestLocalKeyIndexRetiredBeforeGenerationWraps(t *testing.T) {
	k := rt.NewLocalKey()
	i := uint32(k)
	rt.SetGen(i, math.MaxUint32-1)
	rt.FreeLocalKey(k) // the owner is still k: freed, and reissued with generation MaxUint32
	k2 := rt.NewLocalKey()
	if uint32(k2) != i || k2>>32 != math.MaxUint32 {
		t.Fatalf("got %#x, want index %d at generation MaxUint32", k2, i)
	}
	rt.FreeLocalKey(k2)
	k3 := rt.NewLocalKey()
	defer rt.FreeLocalKey(k3)
	if uint32(k3) == i {
		t.Errorf("index %d reissued past generation MaxUint32: %#x", i, k3)
	}
	if rt.Gen(i) != math.MaxUint32 {
		t.Errorf("retired index's generation = %d", rt.Gen(i))
	}
}

// Concurrent issue and free never give one key to two ThreadLocals, nor one index to two live
// ones.
func TestLocalKeysConcurrentIssueAndFree(t *testing.T) {
	var mu sync.Mutex
	seen := map[uint64]bool{}
	live := map[uint32]uint64{}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			var mine []uint64
			for i := range 2000 {
				k := rt.NewLocalKey()
				mu.Lock()
				if seen[k] {
					t.Errorf("key %#x issued twice", k)
				}
				seen[k] = true
				if o, ok := live[uint32(k)]; ok {
					t.Errorf("index %d given to %#x while %#x is live", uint32(k), k, o)
				}
				live[uint32(k)] = k
				mu.Unlock()
				mine = append(mine, k)
				if i%3 != 0 {
					f := mine[0]
					mine = mine[1:]
					mu.Lock()
					delete(live, uint32(f))
					mu.Unlock()
					rt.FreeLocalKey(f)
				}
			}
			for _, f := range mine {
				mu.Lock()
				delete(live, uint32(f))
				mu.Unlock()
				rt.FreeLocalKey(f)
			}
		})
	}
	wg.Wait()
}

// A thread's values: set, overwrite, remove; a stale slot (its key freed) is a miss for the
// index's next owner, is swept on the next slow path, and is not inherited.
func TestDataLocals(t *testing.T) {
	var d rt.Data
	k1, k2 := rt.NewLocalKey(), rt.NewLocalKey()
	defer rt.FreeLocalKey(k2)
	inherit := func(p any) any { return p.(int) * 10 }
	d.SetLocal(k1, 1, inherit)
	d.SetLocal(k2, 2, nil)
	d.SetLocal(k1, 3, inherit)
	if e := d.Local(k1); e == nil || e.Value != 3 {
		t.Fatalf("Local(k1) = %+v", e)
	}
	var child rt.Data
	child.InheritFrom(&d)
	if e := child.Local(k1); e == nil || e.Value != 30 {
		t.Errorf("inherited k1 = %+v, want 30", e)
	}
	if e := child.Local(k2); e != nil {
		t.Errorf("non-inheritable k2 inherited: %+v", e)
	}
	d.RemoveLocal(k2)
	if e := d.Local(k2); e != nil {
		t.Errorf("Local(k2) after Remove = %+v", e)
	}

	rt.FreeLocalKey(k1)
	k3 := rt.NewLocalKey() // k1's index, next generation
	defer rt.FreeLocalKey(k3)
	if uint32(k3) != uint32(k1) {
		t.Fatalf("k3 %#x did not reuse k1's index %d", k3, uint32(k1))
	}
	if e := d.Local(k3); e != nil {
		t.Errorf("new key sees the stale slot: %+v", e)
	}
	var child2 rt.Data
	child2.InheritFrom(&d) // k1's slot is stale: not inherited
	if n, m := child2.Slots(); n+m != 0 {
		t.Errorf("stale slot inherited: %d dense, %d map", n, m)
	}
	d.SetLocal(k3, 4, nil)
	if e := d.Local(k3); e == nil || e.Value != 4 {
		t.Errorf("Local(k3) = %+v", e)
	}
}
