package thread

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/loomgo/loom/internal/carrier"
)

// timerQueue is a scheduler's queue of timed parks, the JDK 21 "VirtualThread-unparker": a
// min-heap of deadlines served by one goroutine, which sleeps until the earliest deadline and
// then resumes every thread whose deadline has passed (through resumeIf, like Unpark, so a
// timeout races unparks and interrupts on the park word and exactly one of them wins).
//
// Entries are values {deadline, thread, park word} in a 4-ary heap: a sift compares deadlines in
// the heap's own array and touches no Thread, so a heap of a million sleepers costs what sorting
// their deadlines costs, not a cache miss per level. A thread woken before its deadline leaves its
// entry behind (lazy deletion, as Go's runtime timers do): the entry is stale once the thread's
// park word has moved on, and its firing then loses the CAS and does nothing. The thread counts
// itself in stale (dropped); when stale entries are half the heap, the goroutine compacts it, so
// the heap never holds more than twice the threads still waiting, and a heap of nothing but stale
// entries is emptied at once (the goroutine then ends instead of sleeping for a deadline nobody
// waits for).
//
// Why the count is exact enough: each stale entry is counted in once, by its thread (woken by
// something else than the queue: the resumed word has no flagTimeout), and out once, by whoever
// removes it (the goroutine popping it with a failing CAS, or a compaction). The two may come in
// either order, so stale is off while they are in flight; it only decides when to compact, and a
// compaction decides what is stale by the park words themselves.
//
// Measured (engine17's round: this FIFO, the chunk pool, and park.go's one clock read per Sleep
// and parker pool; A/B of binaries alternating, loom bench's case, ratio to goroutines in the
// same process): 100,000 × Sleep(100ms), 10 pairs, 1.057 [0.95-1.25] -> 0.869 [0.77-0.97],
// loom's batch 444 -> 338 ms (better in 10 pairs of 10); an earlier build without the last
// commit, 12 pairs: 1.095 -> 1.018. 100,000 × Sleep(1s), 6 pairs: 0.96 -> 1.00, loom's batch
// 1318 -> 1307 ms: no change beyond noise (the goroutine side ranged 1.1-1.5 s).
// BenchmarkTimerQueueInOrder (add and pop of an in-order deadline, 100,000 a burst; A = the FIFO
// off): 179 [162-242] -> 43 [33-45] ns.
//
// Designs measured and not taken:
//   - A time.Timer per thread: a timer and its channel cost ~200 bytes and an allocation per
//     virtual thread that ever sleeps, and the garbage of 100,000 sleepers made the collector the
//     largest cost of a sleep; AfterFunc would also start a goroutine per firing.
//   - A binary heap whose entries' threads know their index (loom's first queue: removal at once
//     on an early wake): every swap wrote the index into the Thread, a cache miss per level, and
//     with a million sleepers the pops alone took seconds of CPU.
//
// The goroutine runs while the heap is not empty and ends when it is; it is started by the first
// timed park after that, so an idle scheduler holds no goroutine. It is started by a thread of the
// scheduler, so a scheduler made inside a testing/synctest bubble keeps it (and its timer) in the
// bubble.
type timerQueue struct {
	mu      carrier.Lock // taken deep in a parking thread's stack (add): see carrier.Lock
	heap    timerHeap
	fifo    timerFIFO     // the entries added in deadline order (see timerFIFO)
	spare   []*timerChunk // chunks for fifo, kept ahead by the goroutine so that add does not allocate
	running bool
	poke    chan struct{} // an earlier deadline than the one the goroutine sleeps for, or stale entries to drop (made with the queue: see init)

	n     atomic.Int64 // heap.n + fifo.n, for dropped
	stale atomic.Int64 // entries whose park ended before their deadline (see above)

	rounds int // times the goroutine went to sleep with entries left (written by it alone; for tests)
}

// burstWindow is the least the queue's goroutine sleeps after a round that resumed threads (it
// still wakes at once for an earlier deadline: poke). A burst of sleepers has deadlines as close
// together as their starts, ~1.5 µs apart for 100,000 started at once, and the goroutine woke for
// nearly each: 40,000-48,000 rounds (a timer reset, a park, a firing, a switch) for 100,000
// threads, 2-2.5 each, ~18% of the wake phase's CPU. With the window a round takes what fell due
// in the last 50 µs. A lone deadline, or one more than the window after the last round, is not
// delayed; a deadline inside a burst is delayed by less than the window, which is Linux's default
// timer slack for a thread (50 µs), and a sleep is never shortened.
//
// Measured (engine18; a probe of 100,000 × Sleep(1s) through an executor, 4 runs of 5 batches
// for each build, alternating, medians of 20): CPU of the wake phase 359 -> 325 ms (goroutines:
// 145), median lateness of a wake 10.7 -> 3.1 ms, p90 21.6 -> 11.9 ms. loom bench, 5 pairs of
// builds alternating: 100,000 × Sleep(1s) 1.12 [1.05-1.14] -> 1.11 [1.06-1.17], loom's batch 1250
// -> 1233 ms; 100,000 × Sleep(100ms) 1.65 [1.07-1.74] -> 1.46 [1.36-1.66], 334 -> 293 ms.
// TestTimerQueueServesABurstInBatches: 2,000 deadlines 500 ns apart took 1,324 rounds without it.
const burstWindow = int64(50 * time.Microsecond)

const maxBatch = 256

type timerEntry struct {
	when   int64 // nanotime deadline
	t      *Thread
	parked uint64 // the park word the deadline belongs to
}

// timerHeap is the queue's 4-ary heap, stored in chunks of chunkLen entries: it grows by a chunk
// and shrinks by one, and never copies (a slice grown by doubling leaves its old arrays as
// garbage, as much again as the heap over its growth; by a quarter, four times as much). The
// queue's goroutine adds a chunk before the heap is full (grow), so that add, deep in a parking
// thread's stack, does not allocate.
type timerHeap struct {
	chunks []*timerChunk
	n      int
}

const (
	chunkBits = 10
	chunkLen  = 1 << chunkBits
)

type timerChunk [chunkLen]timerEntry

func (h *timerHeap) at(i int) *timerEntry { return &h.chunks[i>>chunkBits][i&(chunkLen-1)] }

func (h *timerHeap) cap() int { return len(h.chunks) * chunkLen }

// tight reports whether the heap should get a chunk more before it fills up.
func (h *timerHeap) tight() bool { return h.n >= h.cap()-chunkLen/2 }

// grow adds a chunk if the heap is tight, and drops an empty chunk at the end if two are free.
func (h *timerHeap) grow() {
	switch {
	case h.tight():
		h.chunks = append(h.chunks, getChunk())
	case len(h.chunks) > 1 && h.n <= h.cap()-2*chunkLen:
		putChunks(h.chunks[len(h.chunks)-1:])
		h.chunks = h.chunks[:len(h.chunks)-1]
	}
}

// push appends e and moves it to its place; it reports whether e is now the earliest.
func (h *timerHeap) push(e timerEntry) bool {
	if h.n == h.cap() {
		h.chunks = append(h.chunks, new(timerChunk)) // the goroutine did not keep up: grow here
	}
	i := h.n
	h.n++
	for i > 0 {
		p := (i - 1) / 4
		pe := h.at(p)
		if pe.when <= e.when {
			break
		}
		*h.at(i) = *pe
		i = p
	}
	*h.at(i) = e
	return i == 0
}

// pop removes the earliest entry.
func (h *timerHeap) pop() {
	h.n--
	last := h.at(h.n)
	e := *last
	*last = timerEntry{}
	if h.n > 0 {
		h.down(0, e)
	}
}

// down puts e at i or below, keeping the heap ordered.
func (h *timerHeap) down(i int, e timerEntry) {
	n := h.n
	for {
		c := 4*i + 1
		if c >= n {
			break
		}
		m, me := c, h.at(c)
		for j := c + 1; j < c+4 && j < n; j++ {
			if je := h.at(j); je.when < me.when {
				m, me = j, je
			}
		}
		if e.when <= me.when {
			break
		}
		*h.at(i) = *me
		i = m
	}
	*h.at(i) = e
}

// timerFIFO is the queue's second store: entries whose deadlines come in order, each no earlier
// than the one before, kept in a FIFO of chunks. Threads that sleep or wait for the same
// duration add their deadlines in order (but for the few that compute theirs just before
// another thread takes the lock first: those go to the heap), and in the heap every pop of such
// a run moved the last entry, the latest deadline, from the root back down through every level:
// 100,000 sleepers × Sleep(100ms) spent 4% of their CPU in the heap's pops. Here an add is an
// append and a pop takes the head; the goroutine pops whichever of the two heads is earlier.
// Chunks emptied at the front go back to the queue's spares, for the tail. The fifo is for
// bursts: it is begun only when the heap holds smallHeap entries or more (a queue of a few timed
// parks keeps its one chunk, and its pops are cheap anyway), and kept spare chunks only near the
// end of its last one.
type timerFIFO struct {
	chunks []*timerChunk
	head   int // index of the first entry in chunks[0]
	n      int
}

func (f *timerFIFO) at(i int) *timerEntry {
	i += f.head
	return &f.chunks[i>>chunkBits][i&(chunkLen-1)]
}

// room is the number of entries the fifo can take without another chunk.
func (f *timerFIFO) room() int { return len(f.chunks)*chunkLen - f.head - f.n }

// push appends e, taking a chunk from spare if it needs one (or from the pool of chunks, if the
// goroutine did not keep up: it is started, and poked, as a goroutine made ready by a carrier,
// which a carrier's next dispatcher goroutine can keep waiting for as long as a time slice).
func (f *timerFIFO) push(e timerEntry, spare *[]*timerChunk) {
	if f.room() == 0 {
		var c *timerChunk
		if k := len(*spare); k > 0 {
			c = (*spare)[k-1]
			(*spare)[k-1] = nil
			*spare = (*spare)[:k-1]
		} else {
			c = getChunk()
		}
		f.chunks = append(f.chunks, c)
	}
	f.n++
	*f.at(f.n - 1) = e
}

// pop removes the first entry; a chunk it empties goes to spare.
func (f *timerFIFO) pop(spare *[]*timerChunk) {
	*f.at(0) = timerEntry{}
	f.head++
	f.n--
	if f.head == chunkLen || f.n == 0 {
		f.head = 0
		if f.n > 0 || len(f.chunks) > 1 {
			*spare = append(*spare, f.chunks[0])
			copy(f.chunks, f.chunks[1:])
			f.chunks[len(f.chunks)-1] = nil
			f.chunks = f.chunks[:len(f.chunks)-1]
		}
	}
}

// compact keeps the entries keep says to, in order, and gives the chunks it no longer needs to
// spare. It returns how many it dropped.
func (f *timerFIFO) compact(keep func(*timerEntry) bool, spare *[]*timerChunk) int {
	k := 0
	for i := range f.n {
		if e := f.at(i); keep(e) {
			*f.at(k) = *e
			k++
		}
	}
	for i := k; i < f.n; i++ {
		*f.at(i) = timerEntry{}
	}
	dropped := f.n - k
	f.n = k
	need := (f.head + f.n + chunkLen - 1) >> chunkBits
	for len(f.chunks) > need {
		*spare = append(*spare, f.chunks[len(f.chunks)-1])
		f.chunks[len(f.chunks)-1] = nil
		f.chunks = f.chunks[:len(f.chunks)-1]
	}
	if f.n == 0 {
		f.head = 0
	}
	return dropped
}

// earliest returns the entry due first and whether it is the fifo's; the queue must not be empty.
func (q *timerQueue) earliest() (*timerEntry, bool) {
	if q.fifo.n == 0 {
		return q.heap.at(0), false
	}
	if f := q.fifo.at(0); q.heap.n == 0 || f.when <= q.heap.at(0).when {
		return f, true
	}
	return q.heap.at(0), false
}

// size is the number of entries, live or stale.
func (q *timerQueue) size() int { return q.heap.n + q.fifo.n }

// tightLocked reports whether the goroutine should grow the heap or give the fifo spare chunks.
func (q *timerQueue) tightLocked() bool {
	return q.heap.tight() || len(q.spare) < spareChunks && q.fifoNearEnd()
}

// fifoNearEnd reports whether the fifo is in use and half a chunk or less from needing another.
func (q *timerQueue) fifoNearEnd() bool { return q.fifo.n > 0 && q.fifo.room() <= chunkLen/2 }

// spareChunks is how many chunks the goroutine keeps ahead of the fifo's tail while the fifo is
// in use: a burst of adds runs through one in a few hundred microseconds, which the goroutine,
// woken by a poke, may take longer than to get to run (with one kept, adds still made a third of
// the chunks a burst of 100,000 sleepers needed).
const spareChunks = 2

// growLocked is the goroutine's part in keeping add from allocating: the heap's chunks (grow),
// and spare chunks for the fifo near the end of its last (at most twice spareChunks kept).
func (q *timerQueue) growLocked() {
	q.heap.grow()
	for len(q.spare) < spareChunks && q.fifoNearEnd() {
		q.spare = append(q.spare, getChunk())
	}
	if len(q.spare) > 2*spareChunks {
		putChunks(q.spare[2*spareChunks:])
		q.spare = q.spare[:2*spareChunks]
	}
}

// chunks holds the chunks of emptied timer queues (every scheduler's), for the next burst of
// timed parks: the chunks a burst of 100,000 sleepers needs (2.4 MB) were otherwise garbage at
// its end, to be made again by the next burst. Only the queues' goroutines take chunks from it
// (add, deep in a parking thread's stack, makes one only when the goroutine fell behind), and
// what stays unused is collected after two collections.
var chunks sync.Pool

func getChunk() *timerChunk {
	if c, _ := chunks.Get().(*timerChunk); c != nil {
		return c
	}
	return new(timerChunk)
}

// putChunks gives cs, whose entries are all cleared, to the pool, and clears cs.
func putChunks(cs []*timerChunk) {
	for i, c := range cs {
		chunks.Put(c)
		cs[i] = nil
	}
}

// init makes the queue ready. (Not in add, which runs deep in a parking thread's stack and must
// not allocate there: see park.go.)
func (q *timerQueue) init() {
	q.poke = make(chan struct{}, 1)
	q.heap.chunks = []*timerChunk{new(timerChunk)}
}

// add queues t's timed park with word parked until deadline.
func (q *timerQueue) add(t *Thread, deadline int64, parked uint64) {
	q.mu.Lock()
	e := timerEntry{when: deadline, t: t, parked: parked}
	var first bool // e is the earliest now: the goroutine sleeps for a later one
	if f := &q.fifo; f.n > 0 && f.at(f.n-1).when <= deadline || f.n == 0 && q.heap.n >= smallHeap {
		f.push(e, &q.spare)
		first = f.n == 1 && (q.heap.n == 0 || deadline < q.heap.at(0).when)
	} else {
		first = q.heap.push(e) && (f.n == 0 || deadline < f.at(0).when)
	}
	tight := q.tightLocked()
	q.n.Store(int64(q.size()))
	start := !q.running
	if start {
		q.running = true
	}
	q.mu.Unlock()
	switch {
	case start:
		go q.run()
	case first, tight:
		q.wakeRunner()
	}
}

// dropped is called by a thread whose timed park ended before its deadline: its entry is stale.
func (q *timerQueue) dropped() {
	if s, n := q.stale.Add(1), q.n.Load(); 2*s >= n || n <= smallHeap {
		q.wakeRunner() // half the heap or more is stale, or the heap is small: compact it
	}
}

// smallHeap is the size up to which the goroutine compacts the heap whenever it wakes, whatever
// the stale count says: the count is exact only once every thread in flight has counted itself
// (see timerQueue), and a small heap costs little to check, so the last entries of a burst never
// keep the goroutine sleeping for a deadline nobody waits for.
const smallHeap = 64

func (q *timerQueue) wakeRunner() {
	select {
	case q.poke <- struct{}{}:
	default:
	}
}

func (q *timerQueue) run() {
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	var due []timerEntry // the batch due now, reused
	for {
		q.mu.Lock()
		if s, n := q.stale.Load(), q.size(); s > 0 && 2*s >= int64(n) || n > 0 && n <= smallHeap {
			q.compactLocked()
		}
		q.growLocked()
		now := nanotime()
		due = q.popDueLocked(now, due[:0])
		q.n.Store(int64(q.size()))
		empty := q.size() == 0
		var next int64
		if empty {
			q.running = false
			putChunks(q.spare) // an idle queue keeps only the heap's first chunk
			q.spare = q.spare[:0]
			putChunks(q.fifo.chunks)
			q.fifo.chunks, q.fifo.head = q.fifo.chunks[:0], 0
		} else {
			e, _ := q.earliest()
			next = e.when
		}
		q.mu.Unlock()
		lost := int64(0)
		for i := range due {
			if !due[i].t.resumeIf(due[i].parked, false, true, nil) {
				lost++ // its park had already ended: a stale entry
			}
			due[i] = timerEntry{}
		}
		if lost > 0 {
			q.stale.Add(-lost)
		}
		if empty {
			return
		}
		if len(due) == maxBatch {
			continue // more may be due
		}
		q.rounds++
		if len(due) > 0 && next < now+burstWindow {
			next = now + burstWindow // in a burst: wake for a batch, not for each deadline
		}
		timer.Reset(time.Duration(next - nanotime()))
		select {
		case <-timer.C:
		case <-q.poke:
		}
	}
}

// popDueLocked appends to due, in deadline order, the entries due at now, at most a batch
// (maxBatch) per lock hold: the threads adding entries wait for this lock.
func (q *timerQueue) popDueLocked(now int64, due []timerEntry) []timerEntry {
	for q.size() > 0 && len(due) < maxBatch {
		e, inFIFO := q.earliest()
		if e.when > now {
			break
		}
		due = append(due, *e)
		if inFIFO {
			q.fifo.pop(&q.spare)
		} else {
			q.heap.pop()
		}
	}
	return due
}

// compactLocked drops the stale entries (whose thread's park word has moved on) and rebuilds
// the heap.
func (q *timerQueue) compactLocked() {
	live := func(e *timerEntry) bool { return e.t.park.Load() == e.parked }
	q.stale.Add(-int64(q.fifo.compact(live, &q.spare)))
	h := &q.heap
	k := 0
	for i := range h.n {
		if e := *h.at(i); e.t.park.Load() == e.parked {
			*h.at(k) = e
			k++
		}
	}
	for i := k; i < h.n; i++ {
		*h.at(i) = timerEntry{}
	}
	q.stale.Add(-int64(h.n - k))
	h.n = k
	if k > 1 {
		for i := (k - 2) / 4; i >= 0; i-- {
			h.down(i, *h.at(i))
		}
	}
	for len(h.chunks) > 1 && h.n <= h.cap()-2*chunkLen {
		h.grow() // give back the memory of a burst
	}
}

func (q *timerQueue) len() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.size()
}
