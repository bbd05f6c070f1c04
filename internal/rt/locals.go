package rt

import (
	"math"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/petermattis/goid"
)

// Thread-local storage: the values of package threadlocal's ThreadLocals, kept in each thread's
// Data.
//
// # Terms
//
// Every ThreadLocal has a key: an index and a generation, key = generation<<32 | index. A
// thread keeps its values in a slice indexed by the key's index (dense); each slot holds the
// whole key of the ThreadLocal it belongs to. Get is a bounds check and one compare: the slot is
// the ThreadLocal's if slot.Key == key, and anything else is a miss. An empty slot has key 0,
// which no ThreadLocal has (generations start at 1).
//
// # Invariants
//
//   - At any moment an index belongs to at most one live ThreadLocal: owners holds its key (0 if
//     the index is free).
//   - No key is ever issued twice: an index's generation grows by one each time it is issued,
//     and an index whose generation would wrap is retired for good instead of being issued
//     again (costing one index per four billion reuses).
//
// So a slot left behind by a dead ThreadLocal (its key no longer in owners) never matches a later
// ThreadLocal that is given the same index: the newcomer's generation is higher. A new ThreadLocal
// cannot see a dead one's value; the stale slot is simply a miss for it, overwritten when it first
// sets a value in that thread.
//
// # Bounds
//
// An index is freed when its ThreadLocal has been garbage-collected (package threadlocal attaches
// a cleanup calling FreeLocalKey), and the smallest free index is issued first. Indices therefore
// stay below the peak number of ThreadLocals alive at once, not the number ever made: a million
// ThreadLocals made, used and dropped one after another all get index 0 or 1, and every
// thread's slice stays a slot or two long. A thread's slice grows only up to the highest index it
// has used, and never past denseSlots: values of ThreadLocals with larger indices (a program
// with more than denseSlots ThreadLocals alive at once) go to a map in that thread, which is what
// Java's ThreadLocalMap is for every ThreadLocal.
//
// A stale slot keeps its value reachable until it is overwritten, its thread ends, or the thread
// sweeps: after any ThreadLocal has been freed (frees changes), a thread's next slow path (the
// first value set for some ThreadLocal in that thread) clears its stale slots, and shrinks its
// slice when most of it is empty. Java's ThreadLocalMap likewise expunges the entries of
// collected ThreadLocals lazily, on later accesses. Inheritance (InheritFrom) skips stale slots,
// so a dead ThreadLocal's childValue is never called.
//
// # Designs not taken
//
//   - A map[uint64]value per thread (loom's first version): a hash and a probe on every Get,
//     3.7x a plain map lookup end to end, against about 2x for the slice.
//   - Never reusing indices (a plain counter): every thread's slice would grow with every
//     ThreadLocal ever made, so a program making them per request would leak without bound.
//   - Reusing indices without generations: a new ThreadLocal would see the value a dead one left
//     in a thread.
//   - LocalValue taking the ThreadLocal's key field alone (its miss found through a hook and an
//     unsafe cast back to the ThreadLocal), so that Get inlines with one argument fewer: no
//     better than the interface argument within the noise of cmd/loom bench (1.4-1.7x either
//     way).
//   - Weak pointers to the ThreadLocal in each slot (Java's WeakReference keys): a weak.Pointer
//     made on every first Set and dereferenced on every Get, to learn what owners tells the slow
//     path for free.

// CurrentLocals returns the current thread's Data, as [CurrentData] does, for a ThreadLocal's Get,
// Set and Remove: through a cache of its own, indexed by goroutine id, that takes a goroutine
// id, one load and two compares when it hits, instead of thread.Current's look-up (an indirect
// call for the goroutine id, its own cache, the thread's state) and the dependent loads that lead
// from a Thread to its Data, behind a hook's indirect call. Measured with threadlocal's
// BenchmarkGetVsMapLookup: Get went from 3.5x a plain map lookup to 2.0x with this cache, and
// to 1.8x with [LocalValue] (one call, no frame between Get's caller and the look-up).
//
// Why a hit can be trusted: an entry is made for one Data on one goroutine (gid) and never
// changes; the Data points back at it (entry) until its thread terminates, which resets the
// whole Data, entry included, on the thread's own goroutine (or on none: a swept foreign
// goroutine has ended, and goroutine ids are never reused). A goroutine runs one thread at a
// time and a thread never changes goroutine, so an entry whose gid is the caller's and whose
// Data still points back at it is the caller's thread's. Only that goroutine reads the Data's
// back pointer (the gid compare comes first), so the entries need no more synchronisation than
// the atomic load of the slot.
func CurrentLocals() *Data {
	g := Checked(goid.Get())
	if e := localsCache[g&(localsCacheSize-1)].Load(); e != nil && e.gid == g && e.d.entry == e {
		return e.d
	}
	return currentLocalsSlow(g)
}

// LocalValue returns the current thread's value of the ThreadLocal whose key is k, or, if the
// thread has none (or k is 0: the ThreadLocal has no key yet), what miss.MissLocal(k) returns:
// ThreadLocal.Get in one call, small enough to be inlined into Get and with no frame between
// Get's caller and the look-up.
func LocalValue(k uint64, miss LocalMisser) any {
	g := Checked(goid.Get())
	if e := localsCache[g&(localsCacheSize-1)].Load(); e != nil && e.gid == g && e.d.entry == e && k != 0 {
		if l := e.d.Local(k); l != nil {
			return l.Value
		}
	}
	return miss.MissLocal(k)
}

// A LocalMisser computes the value [LocalValue] returns when the thread has none (a ThreadLocal,
// which stores its initial value and returns it).
type LocalMisser interface{ MissLocal(k uint64) any }

//go:noinline
func currentLocalsSlow(g int64) *Data {
	d := CurrentData()
	e := d.entry
	if e == nil || e.gid != g {
		e = &localsEntry{gid: g, d: d}
		d.entry = e
	}
	localsCache[g&(localsCacheSize-1)].Store(e)
	return d
}

// localsCache is a direct-mapped cache of the Data of the threads that use thread-locals,
// indexed by goroutine id (see [CurrentLocals]). A thread whose entry another goroutine took
// misses, and puts its entry (kept in its Data) back without allocating.
const localsCacheSize = 4096

var localsCache [localsCacheSize]atomic.Pointer[localsEntry]

// localsEntry is a thread's entry in localsCache: the Data of the thread running on goroutine
// gid. It never changes once made.
type localsEntry struct {
	gid int64
	d   *Data
}

// Local is one thread-local value: the value in one thread of the ThreadLocal whose key is Key.
type Local struct {
	Key     uint64               // the ThreadLocal's key; 0 in an empty slot
	Value   any                  // the value; nil until set or initialized
	Inherit func(parent any) any // computes a new thread's value; nil for a plain ThreadLocal
}

const (
	indexMask  = 1<<32 - 1
	denseSlots = 1024 // the most slots a thread's slice has; larger indices use the map
)

// Local returns the thread's value slot for the ThreadLocal whose key is k, or nil if it has no
// value. k must not be 0. The slot may be written through (SetLocal does) until the next
// SetLocal or RemoveLocal of another key.
func (l *Data) Local(k uint64) *Local {
	if i := k & indexMask; i < uint64(len(l.dense)) {
		if e := &l.dense[i]; e.Key == k {
			return e
		}
		return nil
	}
	if l.more == nil {
		return nil
	}
	return l.more[k]
}

// HasLocals reports whether the thread has any ThreadLocal value (stale ones included).
func (l *Data) HasLocals() bool { return len(l.dense) > 0 || len(l.more) > 0 }

// SetLocal sets the thread's value for the ThreadLocal whose key is k (which must be live).
func (l *Data) SetLocal(k uint64, v any, inherit func(parent any) any) {
	if e := l.Local(k); e != nil {
		e.Value, e.Inherit = v, inherit
		return
	}
	l.add(Local{Key: k, Value: v, Inherit: inherit})
}

// RemoveLocal removes the thread's value for the ThreadLocal whose key is k, if it has one.
func (l *Data) RemoveLocal(k uint64) {
	if i := k & indexMask; i < uint64(len(l.dense)) {
		if l.dense[i].Key == k {
			l.dense[i] = Local{}
		}
		return
	}
	delete(l.more, k)
}

// add stores e, for which the thread has no value yet: the slow path of SetLocal.
func (l *Data) add(e Local) {
	l.sweep()
	i := e.Key & indexMask
	if i >= denseSlots {
		if l.more == nil {
			l.more = make(map[uint64]*Local)
		}
		l.more[e.Key] = &e
		return
	}
	if i >= uint64(len(l.dense)) {
		n := min(max(int(i)+1, 2*len(l.dense), 4), denseSlots)
		l.dense = append(l.dense, make([]Local, n-len(l.dense))...)
	}
	// A slot here with another key is stale: only e's ThreadLocal owns the index now.
	l.dense[i] = e
}

// sweep drops the thread's stale slots if any ThreadLocal has been freed since it last looked,
// and shrinks its slice when three quarters of it are empty.
func (l *Data) sweep() {
	f := frees.Load()
	if f == l.swept {
		return
	}
	l.swept = f
	used := 0
	for i := range l.dense {
		if k := l.dense[i].Key; k != 0 {
			if liveKey(k) {
				used = i + 1
			} else {
				l.dense[i] = Local{}
			}
		}
	}
	if len(l.dense) > 16 && used < len(l.dense)/4 {
		l.dense = slices.Clone(l.dense[:used])
	}
	for k := range l.more {
		if !liveKey(k) {
			delete(l.more, k)
		}
	}
}

// InheritFrom gives d, the Data of a thread being created by parent's thread, a value for each
// inheritable ThreadLocal that has one in parent, computed by its Inherit function (on the
// creating thread).
func (d *Data) InheritFrom(parent *Data) {
	// Index, not range: Inherit is user code and may set values in parent, growing its slice.
	for i := 0; i < len(parent.dense); i++ {
		if e := parent.dense[i]; e.Inherit != nil && liveKey(e.Key) {
			d.SetLocal(e.Key, e.Inherit(e.Value), e.Inherit)
		}
	}
	for k, e := range parent.more {
		if e.Inherit != nil && liveKey(k) {
			d.SetLocal(k, e.Inherit(e.Value), e.Inherit)
		}
	}
}

// The key allocator.
var (
	keys struct {
		mu   sync.Mutex
		free []uint32 // free indices, a min-heap: the smallest is issued first
		gen  []uint32 // the generation each issued index was last issued with
	}
	owners atomic.Pointer[[]*ownerChunk] // owners[i>>chunkBits][i&chunkMask]: index i's live key, or 0
	frees  atomic.Uint64                 // keys freed so far
)

const (
	chunkBits = 10
	chunkMask = 1<<chunkBits - 1
)

type ownerChunk [1 << chunkBits]atomic.Uint64

// NewLocalKey issues a key for a new ThreadLocal: the smallest free index, with a generation
// it has never had.
func NewLocalKey() uint64 {
	keys.mu.Lock()
	defer keys.mu.Unlock()
	var i uint32
	if len(keys.free) > 0 {
		i = popMin(&keys.free)
	} else {
		if uint64(len(keys.gen)) > indexMask {
			panic("threadlocal: more than 4,294,967,295 ThreadLocals alive at once")
		}
		i = uint32(len(keys.gen))
		keys.gen = append(keys.gen, 0)
	}
	keys.gen[i]++
	k := uint64(keys.gen[i])<<32 | uint64(i)
	ownerOf(i).Store(k)
	return k
}

// FreeLocalKey frees k, whose ThreadLocal has been garbage-collected: its index may be issued
// again (with a higher generation), and threads drop their stale values on their next sweep. A
// key already freed is ignored.
func FreeLocalKey(k uint64) {
	i := uint32(k & indexMask)
	keys.mu.Lock()
	defer keys.mu.Unlock()
	if int(i) >= len(keys.gen) || ownerOf(i).Load() != k {
		return
	}
	ownerOf(i).Store(0)
	if keys.gen[i] < math.MaxUint32 {
		pushMin(&keys.free, i)
	} // else retired: issuing it again would repeat a key
	frees.Add(1)
}

// LiveKey reports whether k is the key of a ThreadLocal that has not been freed (for tests).
func LiveKey(k uint64) bool { return liveKey(k) }

// Slots returns the length of d's dense slice and the number of values in its map (for tests).
func (d *Data) Slots() (dense, more int) { return len(d.dense), len(d.more) }

// liveKey reports whether k is the key of a ThreadLocal that has not been freed.
func liveKey(k uint64) bool {
	i := k & indexMask
	t := owners.Load()
	return t != nil && i>>chunkBits < uint64(len(*t)) && (*t)[i>>chunkBits][i&chunkMask].Load() == k
}

// ownerOf returns index i's entry in owners, adding chunks as needed; keys.mu must be held.
func ownerOf(i uint32) *atomic.Uint64 {
	c := int(i >> chunkBits)
	var t []*ownerChunk
	if p := owners.Load(); p != nil {
		t = *p
	}
	if c >= len(t) {
		// Readers may hold the old table: it shares every chunk with the new one.
		nt := slices.Grow(slices.Clone(t), c+1-len(t))
		for len(nt) <= c {
			nt = append(nt, new(ownerChunk))
		}
		owners.Store(&nt)
		t = nt
	}
	return &t[c][i&chunkMask]
}

// pushMin and popMin keep h a binary min-heap.
func pushMin(h *[]uint32, x uint32) {
	s := append(*h, x)
	for j := len(s) - 1; j > 0; {
		p := (j - 1) / 2
		if s[p] <= s[j] {
			break
		}
		s[p], s[j] = s[j], s[p]
		j = p
	}
	*h = s
}

func popMin(h *[]uint32) uint32 {
	s := *h
	x := s[0]
	n := len(s) - 1
	s[0] = s[n]
	s = s[:n]
	for j := 0; ; {
		c := 2*j + 1
		if c >= n {
			break
		}
		if c+1 < n && s[c+1] < s[c] {
			c++
		}
		if s[j] <= s[c] {
			break
		}
		s[j], s[c] = s[c], s[j]
		j = c
	}
	*h = s
	return x
}
