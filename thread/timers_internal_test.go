package thread

import (
	"math"
	"math/rand/v2"
	"slices"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"
)

// The timer queue against a model: random adds, early wake-ups (the entry goes stale) and
// firings keep the heap ordered, the live entries exactly the model's, the stale ones counted,
// and the goroutine ends once nothing but stale entries is left.
func TestTimerQueueHeapMatchesModel(t *testing.T) {
	for seed := range uint64(50) {
		r := rand.New(rand.NewPCG(seed, 1))
		var q timerQueue
		q.init()
		model := map[*Thread]int64{}
		far := nanotime() + int64(time.Hour)
		for range 500 {
			if len(model) > 0 && r.IntN(3) == 0 {
				for th := range model { // an early wake-up of an arbitrary one
					if !th.resumeIf(th.park.Load(), false, false, nil) {
						t.Fatalf("seed %d: could not resume a parked thread", seed)
					}
					q.dropped()
					delete(model, th)
					break
				}
			} else {
				th, parked := parkedForTimer()
				when := far + r.Int64N(int64(time.Hour))
				q.add(th, when, parked)
				model[th] = when
			}
			q.mu.Lock()
			live := 0
			check := func(i int, e timerEntry) {
				if e.t.park.Load() == e.parked {
					live++
					if model[e.t] != e.when {
						t.Fatalf("seed %d: entry %d: when %d, model %d", seed, i, e.when, model[e.t])
					}
				} else if _, ok := model[e.t]; ok {
					t.Fatalf("seed %d: entry %d stale but in the model", seed, i)
				}
			}
			for i := range q.heap.n {
				e := *q.heap.at(i)
				check(i, e)
				if i > 0 && q.heap.at((i-1)/4).when > e.when {
					t.Fatalf("seed %d: heap order broken at %d", seed, i)
				}
			}
			for i := range q.fifo.n {
				e := *q.fifo.at(i)
				check(-1-i, e)
				if i > 0 && q.fifo.at(i-1).when > e.when {
					t.Fatalf("seed %d: fifo order broken at %d", seed, i)
				}
			}
			n, stale, counted := q.size(), q.size()-live, q.stale.Load()
			q.mu.Unlock()
			if live != len(model) {
				t.Fatalf("seed %d: %d live entries, model %d", seed, live, len(model))
			}
			// nothing is due, so the goroutine only compacts, under the lock: the count is exact
			if counted != int64(stale) {
				t.Fatalf("seed %d: %d stale entries of %d, counted %d", seed, stale, n, counted)
			}
		}
		for th := range model {
			th.resumeIf(th.park.Load(), false, false, nil)
			q.dropped()
		}
		if n, ok := awaitTimerGoroutineEnd(&q); !ok {
			t.Fatalf("seed %d: the timer goroutine did not end with only stale entries left (%d)", seed, n)
		}
		if n := q.stale.Load(); n != 0 {
			t.Fatalf("seed %d: stale count %d with an empty queue", seed, n)
		}
	}
}

// Firings: entries whose deadline passes resume their threads in deadline order, each once.
func TestTimerQueueFiresDueEntries(t *testing.T) {
	var q timerQueue
	q.init()
	const n = 200
	ths := make([]*Thread, n)
	now := nanotime()
	for i := range ths {
		th, parked := parkedForTimer()
		ths[i] = th
		q.add(th, now+int64(time.Duration(i%20)*time.Millisecond), parked)
	}
	for _, th := range ths {
		th.awaitWake()
		if th.park.Load()&flagTimeout == 0 {
			t.Fatalf("resumed without the timeout flag: %b", th.park.Load())
		}
	}
	deadline := time.Now().Add(10 * time.Second)
	for q.len() != 0 || q.stale.Load() != 0 {
		if time.Now().After(deadline) {
			t.Fatalf("%d entries left, stale %d", q.len(), q.stale.Load())
		}
		time.Sleep(time.Millisecond)
	}
}

// A timed park resumed by its deadline leaves the queue empty; one resumed early leaves a stale
// entry, dropped soon after.
func TestTimedParksLeaveNoTimerEntries(t *testing.T) {
	s := NewScheduler(SchedulerOptions{Parallelism: 1})
	defer s.Close()
	var second atomic.Bool
	th := OfVirtual().Scheduler(s).Start(func() {
		ParkNanos(5 * time.Millisecond) // times out
		second.Store(true)
		ParkNanos(time.Hour) // unparked below
	})
	deadline := time.Now().Add(10 * time.Second)
	for !second.Load() || s.timers.len() != 1 || th.park.Load()&phaseMask != phaseParked {
		if time.Now().After(deadline) {
			t.Fatalf("the second park never queued its deadline: %d entries", s.timers.len())
		}
		time.Sleep(time.Millisecond)
	}
	Unpark(th)
	th.Join()
	// the early wake-up left a stale entry, which the queue's goroutine drops
	for s.timers.len() != 0 || s.timers.stale.Load() != 0 {
		if time.Now().After(deadline) {
			t.Fatalf("%d timer entries left, %d stale", s.timers.len(), s.timers.stale.Load())
		}
		time.Sleep(time.Millisecond)
	}
}

// The chunked heap across chunk boundaries: random pushes and pops come out in deadline order,
// and the chunks grow and shrink with it.
func TestTimerHeapOrderAcrossChunks(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var h timerHeap
	h.chunks = []*timerChunk{new(timerChunk)}
	var model []int64
	for round := range 6 {
		for range 3 * chunkLen {
			if len(model) > 0 && r.IntN(3) == 0 {
				min := slices.Min(model)
				if got := h.at(0).when; got != min {
					t.Fatalf("round %d: earliest %d, want %d", round, got, min)
				}
				h.pop()
				model = slices.Delete(model, slices.Index(model, min), slices.Index(model, min)+1)
			} else {
				w := r.Int64N(1 << 40)
				h.push(timerEntry{when: w})
				model = append(model, w)
			}
			h.grow()
			if h.n != len(model) || h.cap() < h.n || h.cap() > h.n+3*chunkLen {
				t.Fatalf("round %d: %d entries in %d chunks, model %d", round, h.n, len(h.chunks), len(model))
			}
		}
	}
	slices.Sort(model)
	for i, want := range model {
		if got := h.at(0).when; got != want {
			t.Fatalf("pop %d: %d, want %d", i, got, want)
		}
		h.pop()
		h.grow()
	}
	if h.n != 0 || len(h.chunks) != 1 {
		t.Fatalf("empty heap keeps %d entries in %d chunks", h.n, len(h.chunks))
	}
}

// Deadlines that mostly come in order (the fifo) with some earlier ones among them (the heap),
// over several chunks, with entries going stale and compactions between: they come out in
// deadline order, every live one once, and the chunks the fifo empties are reused.
func TestTimerQueueFIFOAndHeapPopInDeadlineOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	var q timerQueue
	q.init()
	q.running = true // no goroutine: the test pops (popDueLocked) and compacts itself
	var model []int64
	live := 0
	when := int64(1 << 40)
	var got []int64
	for round := range 8 {
		for range chunkLen + chunkLen/3 {
			when += r.Int64N(1000)
			w := when
			if r.IntN(8) == 0 {
				w -= r.Int64N(50_000) // computed before another thread's, added after it
			}
			th, parked := parkedForTimer()
			q.add(th, w, parked)
			model = append(model, w)
			live++
			if r.IntN(10) == 0 { // an early wake-up: stale from now on
				th.park.Store(uint64(2) << seqShift)
				model = model[:len(model)-1]
				live--
			}
		}
		q.mu.Lock()
		if q.fifo.n == 0 {
			t.Fatalf("round %d: a burst of %d in-order deadlines, none in the fifo", round, q.size())
		}
		if round%3 == 1 {
			q.compactLocked()
		}
		// pop what is due up to the median deadline so far, a batch at a time
		sorted := slices.Sorted(slices.Values(model))
		upTo := sorted[len(sorted)/2]
		for {
			due := q.popDueLocked(upTo, nil)
			for _, e := range due {
				if e.t.park.Load() == e.parked {
					got = append(got, e.when)
				}
			}
			if len(due) < maxBatch {
				break
			}
		}
		q.growLocked()
		if len(q.spare) > 2*spareChunks {
			t.Fatalf("round %d: %d spare chunks", round, len(q.spare))
		}
		q.mu.Unlock()
		model = slices.DeleteFunc(model, func(w int64) bool { return w <= upTo })
	}
	q.mu.Lock()
	for {
		due := q.popDueLocked(math.MaxInt64, nil)
		for _, e := range due {
			if e.t.park.Load() == e.parked {
				got = append(got, e.when)
			}
		}
		if len(due) == 0 {
			break
		}
	}
	n := q.size()
	q.mu.Unlock()
	if n != 0 {
		t.Fatalf("%d entries left", n)
	}
	if !slices.IsSorted(got) {
		for i := 1; i < len(got); i++ {
			if got[i] < got[i-1] {
				t.Fatalf("popped out of order at %d: %d after %d", i, got[i], got[i-1])
			}
		}
	}
	if len(got) != live || len(q.fifo.chunks) > 1 {
		t.Fatalf("popped %d live entries of %d; the empty fifo keeps %d chunks", len(got), live, len(q.fifo.chunks))
	}
}

// A queue of a few timed parks does not begin the fifo (nor take a chunk for it).
func TestTimerQueueFewEntriesStayInTheHeap(t *testing.T) {
	var q timerQueue
	q.init()
	q.running = true // no goroutine
	parked := uint64(1)<<seqShift | phaseParked
	for i := range smallHeap {
		th := &Thread{kind: kindPlatform}
		th.park.Store(parked)
		q.add(th, int64(1+i), parked)
	}
	if q.heap.n != smallHeap || len(q.fifo.chunks) != 0 || len(q.spare) != 0 {
		t.Fatalf("%d in order: heap %d, fifo %d in %d chunks, %d spare", smallHeap, q.heap.n, q.fifo.n, len(q.fifo.chunks), len(q.spare))
	}
	th := &Thread{kind: kindPlatform}
	th.park.Store(parked)
	q.add(th, smallHeap+1, parked)
	if q.fifo.n != 1 {
		t.Fatalf("the entry after %d in the heap: fifo %d", smallHeap, q.fifo.n)
	}
}

// A small heap whose entries all went stale ends its goroutine at the first early wake-up that
// is counted, even when the others have not counted themselves yet (threads still on their way
// out of the park): the goroutine must not sleep an hour for deadlines nobody waits for.
func TestTimerQueueSmallStaleHeapEndsItsGoroutine(t *testing.T) {
	var q timerQueue
	q.init()
	far := nanotime() + int64(time.Hour)
	var threads []*Thread
	for range 3 {
		th, parked := parkedForTimer()
		q.add(th, far, parked)
		threads = append(threads, th)
	}
	for _, th := range threads {
		if !th.resumeIf(th.park.Load(), false, false, nil) {
			t.Fatal("could not resume a parked thread")
		}
	}
	q.dropped() // only the first counts itself; 2 × 1 < 3, so the count alone would not compact
	if n, ok := awaitTimerGoroutineEnd(&q); !ok {
		t.Fatalf("the timer goroutine still sleeps with %d stale entries", n)
	}
	q.dropped() // the two late counts
	q.dropped()
	if n := q.stale.Load(); n != 0 {
		t.Fatalf("stale count %d with an empty queue", n)
	}
}

// awaitTimerGoroutineEnd waits up to 10 s for q's goroutine to end with an empty heap, and
// reports whether it did, with the entries left if not.
func awaitTimerGoroutineEnd(q *timerQueue) (left int, ended bool) {
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		q.mu.Lock()
		running, n := q.running, q.size()
		q.mu.Unlock()
		if !running && n == 0 {
			return 0, true
		}
		if time.Now().After(deadline) {
			return n, false
		}
	}
}

// BenchmarkTimerQueueInOrder: what the queue costs a burst of threads that sleep for the same
// duration, per thread: the add of a deadline later than every one before it, and its pop.
func BenchmarkTimerQueueInOrder(b *testing.B) {
	const n = 100_000
	ths := make([]Thread, n)
	parked := uint64(1)<<seqShift | phaseParked
	for i := range ths {
		ths[i].park.Store(parked)
	}
	var q timerQueue
	q.init()
	q.running = true // no goroutine: the benchmark pops itself
	var due []timerEntry
	b.ResetTimer()
	for i := 0; i < b.N; i += n {
		for j := range ths {
			q.add(&ths[j], int64(i+j), parked)
		}
		q.mu.Lock()
		for q.size() > 0 {
			due = q.popDueLocked(math.MaxInt64, due[:0])
			q.growLocked()
		}
		q.mu.Unlock()
	}
}

// A burst of deadlines close together (a burst of sleepers started at once) is served in batches:
// after a round that resumed threads the goroutine sleeps for burstWindow at least, instead of
// waking for each deadline (it took 2-2.5 threads a round in a burst of 100,000 sleepers).
func TestTimerQueueServesABurstInBatches(t *testing.T) {
	var q timerQueue
	q.init()
	const n = 2000
	const spacing = 500 * time.Nanosecond // n deadlines over 1 ms: 20 windows
	ths := make([]*Thread, n)
	start := nanotime() + int64(100*time.Millisecond) // after every add, also on a loaded machine
	for i := range ths {
		th, parked := parkedForTimer()
		ths[i] = th
		q.add(th, start+int64(i)*int64(spacing), parked)
	}
	for _, th := range ths {
		th.awaitWake()
	}
	if left, ended := awaitTimerGoroutineEnd(&q); !ended {
		t.Fatalf("the goroutine did not end: %d entries left", left)
	}
	// 20 windows, and a round or two more for the adds (the first entry, the chunks of a
	// growing queue); without the window, a round every few microseconds
	if max := int(time.Duration(n)*spacing/time.Duration(burstWindow)) * 2; q.rounds > max {
		t.Errorf("%d rounds for %d deadlines %v apart, want at most %d", q.rounds, n, spacing, max)
	}
}

// parkedForTimer returns a platform thread parked (as far as a timer queue can tell) in the
// first park of its sequence, and that park's word, for q.add.
func parkedForTimer() (*Thread, uint64) {
	th := &Thread{kind: kindPlatform}
	th.wait = unsafe.Pointer(newParker())
	parked := uint64(1)<<seqShift | phaseParked
	th.park.Store(parked)
	return th, parked
}
