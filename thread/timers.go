package thread

import (
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
	heap    []timerEntry
	running bool
	poke    chan struct{} // an earlier deadline than the one the goroutine sleeps for, or stale entries to drop (made with the queue: see init)

	n     atomic.Int64 // len(heap), for dropped
	stale atomic.Int64 // entries whose park ended before their deadline (see above)
}

const maxBatch = 256

type timerEntry struct {
	when   int64 // nanotime deadline
	t      *Thread
	parked uint64 // the park word the deadline belongs to
}

// init makes the queue ready. (Not in add, which runs deep in a parking thread's stack and must
// not allocate there: see park.go.)
func (q *timerQueue) init() {
	q.poke = make(chan struct{}, 1)
	q.heap = make([]timerEntry, 0, 64)
}

// add queues t's timed park with word parked until deadline.
func (q *timerQueue) add(t *Thread, deadline int64, parked uint64) {
	q.mu.Lock()
	// The goroutine grows the heap ahead of need (grow): an append that has to grow it here, deep
	// in a parking thread's stack, would take the runtime's malloc deep with it.
	tight := len(q.heap) >= cap(q.heap)-cap(q.heap)/4
	q.heap = append(q.heap, timerEntry{when: deadline, t: t, parked: parked})
	first := q.up(len(q.heap)-1) == 0
	q.n.Store(int64(len(q.heap)))
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
	if s := q.stale.Add(1); 2*s >= q.n.Load() {
		q.wakeRunner() // half the heap or more is stale: compact it
	}
}

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
		if s := q.stale.Load(); s > 0 && 2*s >= int64(len(q.heap)) {
			q.compactLocked()
		}
		if n := len(q.heap); n >= cap(q.heap)-cap(q.heap)/4 {
			h := make([]timerEntry, n, max(2*n, 64))
			copy(h, q.heap)
			q.heap = h
		}
		now := nanotime()
		due = due[:0]
		// at most a batch per lock hold: the threads adding entries wait for this lock
		for len(q.heap) > 0 && q.heap[0].when <= now && len(due) < maxBatch {
			due = append(due, q.heap[0])
			q.popLocked()
		}
		q.n.Store(int64(len(q.heap)))
		empty := len(q.heap) == 0
		var next int64
		if empty {
			q.running = false
		} else {
			next = q.heap[0].when
		}
		q.mu.Unlock()
		lost := int64(0)
		for i := range due {
			if !due[i].t.resumeIf(due[i].parked, false, true) {
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
		timer.Reset(time.Duration(next - nanotime()))
		select {
		case <-timer.C:
		case <-q.poke:
		}
	}
}

// compactLocked drops the stale entries (whose thread's park word has moved on) and rebuilds
// the heap.
func (q *timerQueue) compactLocked() {
	h := q.heap
	k := 0
	for _, e := range h {
		if e.t.park.Load() == e.parked {
			h[k] = e
			k++
		}
	}
	clear(h[k:])
	q.stale.Add(-int64(len(h) - k))
	h = h[:k]
	if cap(h) > 1024 && k < cap(h)/4 {
		h = append(make([]timerEntry, 0, 2*k), h...) // give back the memory of a burst
	}
	q.heap = h
	if k > 1 {
		for i := (k - 2) / 4; i >= 0; i-- {
			q.down(i)
		}
	}
}

func (q *timerQueue) len() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.heap)
}

// popLocked removes the earliest entry.
func (q *timerQueue) popLocked() {
	h := q.heap
	last := len(h) - 1
	h[0] = h[last]
	h[last] = timerEntry{}
	q.heap = h[:last]
	if last > 0 {
		q.down(0)
	}
	if cap(q.heap) > 1024 && len(q.heap) < cap(q.heap)/4 {
		q.heap = append(make([]timerEntry, 0, 2*len(q.heap)), q.heap...) // give back the memory of a burst
	}
}

// up moves entry i towards the root and returns where it ends.
func (q *timerQueue) up(i int) int {
	h := q.heap
	e := h[i]
	for i > 0 {
		p := (i - 1) / 4
		if h[p].when <= e.when {
			break
		}
		h[i] = h[p]
		i = p
	}
	h[i] = e
	return i
}

// down moves entry i towards the leaves.
func (q *timerQueue) down(i int) {
	h := q.heap
	n := len(h)
	e := h[i]
	for {
		c := 4*i + 1
		if c >= n {
			break
		}
		m := c
		for j := c + 1; j < c+4 && j < n; j++ {
			if h[j].when < h[m].when {
				m = j
			}
		}
		if e.when <= h[m].when {
			break
		}
		h[i] = h[m]
		i = m
	}
	h[i] = e
}
