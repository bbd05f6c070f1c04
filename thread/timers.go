package thread

import (
	"sync"
	"time"
)

// timerQueue is a scheduler's queue of timed parks, the JDK 21 "VirtualThread-unparker": a
// min-heap of deadlines served by one goroutine, which sleeps until the earliest deadline and
// then resumes every thread whose deadline has passed (through resumeIf, like Unpark, so a
// timeout races unparks and interrupts on the park word and exactly one of them wins).
//
// Why not a time.Timer per thread: a timer and its channel cost ~200 bytes and an allocation per
// virtual thread that ever sleeps, and the garbage of 100,000 sleepers made the collector the
// largest cost of a sleep; AfterFunc would also start a goroutine per firing. The heap costs no
// allocation per park (entries are values; a thread knows its own index), and a thread woken
// before its deadline removes its entry at once, so the heap holds only threads still waiting.
//
// The goroutine runs while the heap is not empty and ends when it is; it is started by the first
// timed park after that, so an idle scheduler holds no goroutine. It is started by a thread of the
// scheduler, so a scheduler made inside a testing/synctest bubble keeps it (and its timer) in the
// bubble.
type timerQueue struct {
	mu      sync.Mutex
	heap    []timerEntry
	running bool
	poke    chan struct{} // an earlier deadline than the one the goroutine sleeps for
}

type timerEntry struct {
	when   int64 // nanotime deadline
	t      *Thread
	parked uint64 // the park word the deadline belongs to
}

// add queues t's timed park with word parked until deadline.
func (q *timerQueue) add(t *Thread, deadline int64, parked uint64) {
	q.mu.Lock()
	q.heap = append(q.heap, timerEntry{when: deadline, t: t, parked: parked})
	i := len(q.heap) - 1
	t.tqIndex = i + 1
	q.up(i)
	first := t.tqIndex == 1
	start := !q.running
	if start {
		q.running = true
		if q.poke == nil {
			q.poke = make(chan struct{}, 1)
		}
	}
	q.mu.Unlock()
	switch {
	case start:
		go q.run()
	case first:
		q.wakeRunner()
	}
}

// remove drops t's entry, if it is still queued. Removing the earliest entry pokes the goroutine,
// so that it sleeps for the new earliest deadline, or ends if none is left, instead of sleeping
// on for a deadline nobody waits for.
func (q *timerQueue) remove(t *Thread) {
	q.mu.Lock()
	i := t.tqIndex - 1
	if i >= 0 {
		q.removeAt(i)
	}
	q.mu.Unlock()
	if i == 0 {
		q.wakeRunner()
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
	for {
		q.mu.Lock()
		now := nanotime()
		var due []timerEntry
		for len(q.heap) > 0 && q.heap[0].when <= now {
			due = append(due, q.heap[0])
			q.removeAt(0)
		}
		empty := len(q.heap) == 0
		var next int64
		if empty {
			q.running = false
		} else {
			next = q.heap[0].when
		}
		q.mu.Unlock()
		for _, e := range due {
			e.t.resumeIf(e.parked, false)
		}
		if empty {
			return
		}
		timer.Reset(time.Duration(next - nanotime()))
		select {
		case <-timer.C:
		case <-q.poke:
		}
	}
}

func (q *timerQueue) len() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.heap)
}

// removeAt removes the entry at index i, keeping the heap ordered.
func (q *timerQueue) removeAt(i int) {
	h := q.heap
	last := len(h) - 1
	h[i].t.tqIndex = 0
	if i != last {
		h[i] = h[last]
		h[i].t.tqIndex = i + 1
	}
	h[last] = timerEntry{}
	q.heap = h[:last]
	if i != last {
		if !q.up(i) {
			q.down(i)
		}
	}
	if cap(q.heap) > 1024 && len(q.heap) < cap(q.heap)/4 {
		q.heap = append([]timerEntry(nil), q.heap...) // give back the memory of a burst
	}
}

func (q *timerQueue) swap(i, j int) {
	h := q.heap
	h[i], h[j] = h[j], h[i]
	h[i].t.tqIndex = i + 1
	h[j].t.tqIndex = j + 1
}

// up moves entry i towards the root and reports whether it moved.
func (q *timerQueue) up(i int) bool {
	moved := false
	for i > 0 {
		p := (i - 1) / 2
		if q.heap[p].when <= q.heap[i].when {
			break
		}
		q.swap(i, p)
		i = p
		moved = true
	}
	return moved
}

func (q *timerQueue) down(i int) {
	n := len(q.heap)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		m := l
		if r := l + 1; r < n && q.heap[r].when < q.heap[l].when {
			m = r
		}
		if q.heap[i].when <= q.heap[m].when {
			return
		}
		q.swap(i, m)
		i = m
	}
}
