package forkjoin

import "sync/atomic"

// deque is a worker's work-stealing queue: the Chase-Lev deque with a growable circular array.
// Its owner pushes and pops at the top (LIFO); any thread steals at the base (FIFO), and so
// does the owner in async mode. Every access to the indices and slots is a sync/atomic
// operation, and Go's atomics are sequentially consistent, which is the memory model the
// original algorithm assumes; no fences are needed.
//
// Races that matter: an owner popping the last task and a thief stealing it both CAS the base,
// so exactly one gets it. A thief that read a slot whose task was then taken fails its base CAS
// and retries. A thief clears the slot it took with a CAS from its task to nil, so a slot the
// owner has reused for a new task is never cleared by a late thief.
type deque struct {
	top  atomic.Int64 // next index the owner pushes at; written by the owner only
	base atomic.Int64 // next index to steal
	arr  atomic.Pointer[ring]
}

type ring struct {
	slots []atomic.Pointer[task]
	mask  int64
}

const initialDequeCapacity = 64 // as Java's INITIAL_QUEUE_CAPACITY

func newRing(n int64) *ring { return &ring{slots: make([]atomic.Pointer[task], n), mask: n - 1} }

func (r *ring) at(i int64) *atomic.Pointer[task] { return &r.slots[i&r.mask] }

// push adds t at the top. Owner only.
func (d *deque) push(t *task) {
	b := d.top.Load()
	a := d.arr.Load()
	if a == nil {
		a = newRing(initialDequeCapacity)
		d.arr.Store(a)
	} else if tp := d.base.Load(); b-tp >= int64(len(a.slots)) {
		a = d.grow(a, tp, b)
	}
	a.at(b).Store(t)
	d.top.Store(b + 1)
}

// grow doubles the array, copying the tasks in [tp, b). Thieves holding the old array still
// find the tasks they may take in it. Owner only.
func (d *deque) grow(old *ring, tp, b int64) *ring {
	a := newRing(2 * int64(len(old.slots)))
	for i := tp; i < b; i++ {
		a.at(i).Store(old.at(i).Load())
	}
	d.arr.Store(a)
	return a
}

// pop removes and returns the task at the top, or nil. Owner only.
func (d *deque) pop() *task {
	a := d.arr.Load()
	if a == nil {
		return nil
	}
	b := d.top.Load() - 1
	d.top.Store(b)
	tp := d.base.Load()
	if tp > b { // empty
		d.top.Store(b + 1)
		return nil
	}
	slot := a.at(b)
	t := slot.Load()
	if tp == b { // the last task: race thieves for it
		if !d.base.CompareAndSwap(tp, tp+1) {
			t = nil
		}
		d.top.Store(b + 1)
	}
	if t != nil {
		slot.CompareAndSwap(t, nil)
	}
	return t
}

// steal removes and returns the task at the base. retry reports a lost race: the deque may
// still hold tasks. Any thread.
func (d *deque) steal() (t *task, retry bool) {
	tp := d.base.Load()
	b := d.top.Load()
	if tp >= b {
		return nil, false
	}
	a := d.arr.Load()
	slot := a.at(tp)
	if t = slot.Load(); t == nil {
		return nil, true // taken meanwhile; the base is moving
	}
	if !d.base.CompareAndSwap(tp, tp+1) {
		return nil, true
	}
	slot.CompareAndSwap(t, nil)
	return t, false
}

// poll steals until it gets a task or finds the deque empty.
func (d *deque) poll() *task {
	for {
		if t, retry := d.steal(); t != nil || !retry {
			return t
		}
	}
}

// tryUnpush pops t if it is the task at the top. Owner only.
func (d *deque) tryUnpush(t *task) bool {
	a := d.arr.Load()
	if a == nil {
		return false
	}
	b := d.top.Load() - 1
	if b < d.base.Load() || a.at(b).Load() != t {
		return false
	}
	return d.pop() == t
}

// peekTop returns the task at the top without removing it. Owner only.
func (d *deque) peekTop() *task {
	a := d.arr.Load()
	if b := d.top.Load() - 1; a != nil && b >= d.base.Load() {
		return a.at(b).Load()
	}
	return nil
}

// peekBase returns the task at the base without removing it.
func (d *deque) peekBase() *task {
	a := d.arr.Load()
	if tp := d.base.Load(); a != nil && tp < d.top.Load() {
		return a.at(tp).Load()
	}
	return nil
}

// size returns the number of queued tasks (a snapshot).
func (d *deque) size() int {
	return max(int(d.top.Load()-d.base.Load()), 0)
}
