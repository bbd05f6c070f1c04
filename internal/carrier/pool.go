// Package carrier is loom's carrier pool: the M:N machinery under virtual threads.
//
// # Terms
//
//   - A Slot is a carrier: the right to execute virtual-thread code. A pool has Parallelism slots
//     (plus temporary ones while it compensates), named like the JDK's ForkJoinPool workers,
//     "ForkJoinPool-1-worker-1". At most one goroutine executes under a slot at any moment.
//   - A Runnable is a queued unit of work: a virtual thread that has never run (a new task) or one
//     that was parked and has been unparked (a resumption).
//   - A goroutine that holds a slot runs the dispatch loop (the driver): it pops the next Runnable
//     in FIFO order and calls its Carry method, which runs it until it parks, yields, ends or
//     gives the slot away.
//
// # Who runs under a slot
//
// Package thread runs virtual threads as continuations ([iter.Pull] coroutines, its coro.go):
// Carry, on the driver, switches to the thread's continuation, and the continuation switches
// back when the thread parks; the driver then pops the next Runnable. A continuation runs the
// next new tasks inline itself (it calls Next), so a burst of tasks that never park costs no
// switch. A slot therefore stays with its driver goroutine, which is started when an idle slot is
// given work (startDispatcher) and ends when the slot goes idle, or when a thread under it gives the
// slot away (Blocking, an I/O park: Release, which starts another driver for it) or calls
// [runtime.Goexit].
//
// # The run queue
//
// Two FIFOs for the whole pool, one for new tasks and one for resumptions, popped alternately
// while both have work (queues.go: a resumption must not wait behind a burst of submissions, nor
// a submission behind a stream of resumptions). Each is lock-free (queue.go: a segmented queue,
// crossbeam's SegQueue): a push is a compare-and-swap on the tail, a pop one on the head, so
// submitters on any number of goroutines and the carriers never wait for each other behind a
// mutex, and a submitter that is preempted holds nothing anyone needs. The slots are managed under the pool's mutex, which the
// hot paths take only when a slot changes between idle and busy: Submit pushes and then looks at
// one atomic word (avail, the slots it could take); a carrier that finishes a task pops the next
// one without a lock while the queue is non-empty. The count of Runnables ever pushed is the
// tail's index, so no shared counter is written per task. (A Runnable submitted when nothing is
// queued and a slot is available skips the queue: counted under mu, which it takes anyway.)
//
// Beside the queues, each slot has a hand-off cell (handoff.go): a thread that wakes another
// while nothing is queued puts it there, and the next time its slot is let go of (the waker
// parks, ends or yields) the slot goes straight to the woken thread, without the mutex and
// without the queue; a carrier about to go idle takes from the cells first, and when a slot is
// idle a spinner (Wake) gives it what waits in a cell.
//
// # Invariants
//
//   - busy+len(idle) == size, size <= max, and avail == target-busy, excess == max(busy-target, 0)
//     (both written under mu); the goroutine holding a busy slot is the only one running virtual-thread
//     code under it.
//   - No Runnable stays queued while a slot is available: Submit pushes and then reads avail; a
//     carrier that finds the queue empty makes its slot idle (raising avail) and then looks at
//     the queue again. Go's atomics are sequentially consistent, so at least one of the two sees
//     the other, and whoever does takes a slot and dispatches (wake).
//   - Every Runnable queued is carried exactly once: a pop claims its cell with a CAS, and a key
//     leaves a hand-off cell by one CAS (or swap) of the cell.
//   - No resumption stays in a hand-off cell while a slot is available: PutNext places and then
//     reads avail (if it sees an idle slot, its caller starts a spinner, Wake, unless it is about
//     to let go of its own slot); a carrier going idle raises avail and then looks in the cells
//     (see handoff.go).
//
// # Designs not taken
//
//   - A goroutine per virtual thread gated by a counting semaphore: simple, but a started thread
//     that has not run yet would cost a goroutine, and a burst of a million tasks would be a
//     million goroutines.
//   - Keeping idle dispatcher goroutines alive for a keep-alive period (the JDK keeps idle carrier
//     OS threads for 30 s): the Go runtime already caches goroutine structures and stacks, so a
//     dispatcher that finds the queue empty simply exits and an idle pool holds no goroutine.
//     (Package thread keeps the free continuations of its threads for a short while after the
//     last one was needed: making one costs more than a goroutine, see its coro.go.)
//   - One FIFO under a mutex (loom's first pool): strictly FIFO and simple, but every submit and
//     every dispatch took the same lock; with eight goroutines submitting on two cores the lock
//     convoyed (a holder preempted in its critical section stalls every submitter) and the lock
//     was ~7% of a million-futures run.
//   - Per-slot deques with stealing (the JDK's ForkJoinPool in async mode): locality for threads
//     unparked by a carrier, but FIFO only per deque, and with one carrier a thread woken by
//     another (a lock hand-off) would run before threads woken from outside that queued earlier;
//     the timing experiments (one carrier, N sleepers; pinning) assume one FIFO. With a handful
//     of carriers the shared queue's two cache lines are not the bottleneck (the goroutine
//     hand-off is).
//   - Popping in batches into a per-slot buffer: fewer CASes on the head, but a batch taken by a
//     carrier whose task then runs long waits behind it while another carrier idles (the JDK
//     avoids that by letting others steal from the buffer). One CAS per pop costs ~10 ns.
//   - One FIFO for new tasks and resumptions alike (loom's first two pools): strict submission
//     order, but a million submissions queued faster than the carriers start them put every
//     wake-up behind the backlog (see queues.go): 1M × Sleep(100 ms) peaked at ~750,000 parked
//     goroutines against ~45,000 for goroutines, and took 20 s against 9 s; with the two queues,
//     ~43,000 and 9 s. Strict priority for resumptions (what a ForkJoinPool worker's local queue
//     gives) was not taken either: two threads handing a turn back and forth would starve every
//     new task.
//   - A bounded ring (Vyukov's MPMC array queue) that spills to a locked list when full: no
//     allocation per block, but a burst of a million submissions would spill and take the lock
//     again, and keeping FIFO across ring and spill needs its own protocol.
package carrier

import (
	"errors"
	"fmt"
	"sync/atomic"
	"unsafe"
)

// ErrClosed is returned by Submit after Close.
var ErrClosed = errors.New("carrier: pool closed")

// Runnable is a unit of work queued on a Pool.
type Runnable interface {
	// Carry is called by a dispatch loop that holds s. It runs the thread (a new task, or a
	// resumption) until it parks, yields or ends, and returns the slot the loop holds then and
	// true; or nil and false when the thread gave the slot away and the loop is to end.
	Carry(s *Slot) (*Slot, bool)
	// Resumption reports whether the Runnable resumes a parked goroutine (true) or is a new task
	// that runs inline on the dispatching goroutine (false).
	Resumption() bool
}

// Slot is one carrier of a Pool.
type Slot struct {
	ID   int    // 1-based worker index
	Name string // "ForkJoinPool-<pool>-worker-<ID>"
	pool *Pool
	idle bool // on the idle list (guarded by pool.mu)

	// start is the dispatch loop beginning on this slot, and first the Runnable it begins with
	// (see startDispatcher).
	start func()
	first Runnable

	// cur is what runs on the slot (package thread's *Thread), stored by Mounted and cleared
	// when the slot goes idle: how a thread that runs inline and was never registered anywhere
	// is still found (Current, LiveThreads).
	cur unsafe.Pointer

	// next is the hand-off cell (handoff.go): the key of a resumption that the goroutine
	// holding the slot runs next, or nil; handed counts the keys ever placed there.
	next   unsafe.Pointer
	handed atomic.Int64

	// Spare is kept for whoever holds the slot: package thread keeps there the continuations
	// the slot's driver reuses for new tasks (its coro.go).
	Spare unsafe.Pointer

	// then is what the slot runs next after a Yield (Yielded), for its holder's Next
	then Runnable

	// For a watchdog (Pool.Watch): the goroutine, and a count of mounts that tells one mount from
	// the next (a watchdog that sees the same count twice, a period apart, knows the mount has
	// lasted that long; no clock is read on the hot path). Not written in pools nobody watches.
	gid atomic.Int64
	seq atomic.Uint64
}

// Mounted records that cur, running on goroutine gid, runs on s from now on.
func (s *Slot) Mounted(cur unsafe.Pointer, gid int64) {
	atomic.StorePointer(&s.cur, cur)
	if s.pool.watched {
		s.gid.Store(gid)
		s.seq.Add(1)
	}
}

// Current returns what Mounted last recorded on s, or nil if s has gone idle since.
func (s *Slot) Current() unsafe.Pointer { return atomic.LoadPointer(&s.cur) }

// Mount describes the current mount of a slot.
type Mount struct {
	Slot *Slot          // the slot
	Cur  unsafe.Pointer // what [Slot.Mounted] last recorded on it
	Gid  int64          // the goroutine id recorded with it (watched pools only)
	Seq  uint64         // how many mounts the slot has recorded (watched pools only)
}

// Pool returns the pool the slot belongs to.
func (s *Slot) Pool() *Pool { return s.pool }

// String returns the slot's name, the carrier's (ForkJoinPool-1-worker-1).
func (s *Slot) String() string { return s.Name }

var poolSeq atomic.Int64

// Pool is a set of carriers with a FIFO run queue. Its zero value is not usable; see New.
type Pool struct {
	number  int64
	max     int
	watched bool
	q       *runQueues

	// Mirrors of the slot counts for the lock-free paths, written under mu.
	avail    atomic.Int32 // target-busy: slots a Submit may take (idle ones, or new ones)
	excess   atomic.Int32 // max(busy-target, 0): busy slots that retire when done (after a compensation)
	closed   atomic.Bool
	spinning atomic.Bool // a spinner is started and has not looked yet (Wake)

	// For the hand-off cells (handoff.go): what turns a key back into its Runnable, every slot
	// that exists (a copy republished under mu when one is made or retired), and the count of
	// hand-offs placed on slots since retired.
	resume        func(unsafe.Pointer) Runnable
	onIdle        func(*Slot)
	all           atomic.Pointer[[]*Slot]
	retiredHanded atomic.Int64

	// goroutines counts the goroutines the pool has started (startDispatcher) that have not ended: the
	// drivers of its slots, and drivers blocked with a continuation that gave its slot away. It is
	// what a burst of tasks costs in goroutines, measured without runtime.NumGoroutine, which
	// counts the whole process (and reads high for a while after a million goroutines end). It
	// is written once per goroutine started, not per task.
	goroutines     atomic.Int64
	peakGoroutines atomic.Int64

	mu       Lock          // taken deep in parked threads' stacks (Next): see Lock
	target   int           // parallelism plus active compensations, capped at max
	size     int           // slots that exist (busy + idle)
	busy     int           // slots held by a goroutine
	idle     []*Slot       // idle slots, lowest ID last so it is reused first
	slots    map[int]*Slot // every slot that exists, by ID
	freeIDs  []int         // IDs of retired slots, for reuse
	nextID   int
	comps    int   // compensations in force
	direct   int64 // Runnables given a slot by submitDirect, never queued (for Stats.Submitted)
	maxComps int   // high-water mark of size, for stats
}

// New returns a pool with the given parallelism and maximum pool size (max >= parallelism).
func New(parallelism, max int) *Pool {
	if parallelism < 1 {
		parallelism = 1
	}
	if max < parallelism {
		max = parallelism
	}
	p := &Pool{number: poolSeq.Add(1), max: max, target: parallelism, q: newRunQueues()}
	p.syncLocked()
	p.publishSlotsLocked()
	return p
}

// Watch makes the pool keep the goroutine and mount count of each slot for Mounts (a watchdog).
// Call it before the pool is used.
func (p *Pool) Watch() { p.watched = true }

// NextPoolNumber takes the next pool sequence number. Carrier pools and package forkjoin's
// pools share the sequence, as the JDK's virtual-thread scheduler and ForkJoinPools do.
func NextPoolNumber() int64 { return poolSeq.Add(1) }

// Number is the pool's sequence number, the N in "ForkJoinPool-N-worker-K".
func (p *Pool) Number() int64 { return p.number }

// Parallelism is the number of carriers the pool runs when it is not compensating.
func (p *Pool) Parallelism() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.target - p.comps
}

// syncLocked publishes avail and excess after busy or target changed. Readers of excess only
// ask whether it is positive, so it is published clamped at 0 and stored only when that changes:
// outside compensations, one locked store per slot taken or let go of instead of two.
func (p *Pool) syncLocked() {
	p.avail.Store(int32(p.target - p.busy))
	if e := int32(max(p.busy-p.target, 0)); p.excess.Load() != e {
		p.excess.Store(e)
	}
}

// Submit queues r (after Close, only resumptions are accepted) and, if a slot is available,
// gives one to the head of the queue. When nothing is queued and a slot is available, r is the
// head: it gets the slot without going through the queue (submitDirect).
func (p *Pool) Submit(r Runnable) error {
	if p.closed.Load() && !r.Resumption() {
		return ErrClosed
	}
	if p.avail.Load() > 0 && p.q.empty() && p.submitDirect(r) {
		return nil
	}
	p.q.push(r)
	if p.avail.Load() > 0 {
		p.wake()
	}
	return nil
}

// SubmitFromCarrier is Submit by a goroutine that runs under a slot of p (a virtual thread that
// starts another): r is queued, and an idle slot, if any, is given to it by a spinner (Wake), as
// a ForkJoinPool worker pushes to its own queue and signals an idle one; the caller's own slot
// usually takes it first, when the caller parks (a start and join), with no goroutine started.
func (p *Pool) SubmitFromCarrier(r Runnable) error {
	if p.closed.Load() && !r.Resumption() {
		return ErrClosed
	}
	p.q.push(r)
	if p.avail.Load() > 0 {
		p.Wake()
	}
	return nil
}

// submitDirect gives r an available slot, if there is one and nothing is queued, and reports
// whether it did. It is Submit's push, wake's pop of that same Runnable, and the slot in between,
// without the push and the pop. A Runnable pushed by another goroutine meanwhile (after the look
// at the queue) was submitted concurrently with r, so either order is FIFO; and it finds the slot
// r took gone, as if r had been popped first.
func (p *Pool) submitDirect(r Runnable) bool {
	p.mu.Lock()
	if !p.q.empty() {
		p.mu.Unlock()
		return false
	}
	s := p.takeSlotLocked()
	if s == nil {
		p.mu.Unlock()
		return false
	}
	p.direct++
	p.mu.Unlock()
	p.startDispatcher(s, r)
	return true
}

// wake takes an available slot, if there is one, for the head of the queue.
func (p *Pool) wake() {
	for {
		p.mu.Lock()
		s := p.takeSlotLocked()
		if s == nil {
			p.mu.Unlock()
			return
		}
		r, ok := p.q.pop()
		if !ok {
			r = p.steal()
		}
		if r != nil {
			p.mu.Unlock()
			p.startDispatcher(s, r)
			return
		}
		// a busy carrier took it first
		p.idleLocked(s)
		p.mu.Unlock()
		if p.q.empty() && !p.anyNext() {
			return
		}
	}
}

// Wake makes sure that a goroutine will look for a resumption waiting in a hand-off cell while a
// slot is idle (after a PutNext that reported one), and give it that slot: a spinner, as the Go
// runtime's spinning threads, one at a time. It clears its flag before it looks, and PutNext
// places before Wake looks at the flag, so a resumption placed while one spins is seen by it or
// starts the next. Most of the time the cell's slot takes it first (its thread parks or ends
// soon after a wake): the spinner then finds nothing and ends.
func (p *Pool) Wake() {
	if p.spinning.Load() || !p.spinning.CompareAndSwap(false, true) {
		return
	}
	go p.spin()
}

func (p *Pool) spin() {
	p.spinning.Store(false)
	if p.avail.Load() > 0 && (!p.q.empty() || p.anyNext()) {
		p.wake()
	}
}

// Crowded reports whether anything besides the caller waits for a carrier: a queued Runnable, or
// one in a hand-off cell.
func (p *Pool) Crowded() bool { return !p.q.empty() || p.anyNext() }

// Yielded puts r (the caller's own resumption, whose continuation has yielded) at the tail of
// the queue and picks what s runs next: new tasks first, then what waits in s's cell (queued
// before anything in the queues), then the resumptions, at whose tail r is. The caller's
// dispatch loop then goes on (Next returns the pick).
func (p *Pool) Yielded(s *Slot, r Runnable) {
	p.q.push(r)
	if p.excess.Load() > 0 {
		return
	}
	n, ok := p.q.fresh.pop()
	if !ok {
		if n = p.takeNext(s); n == nil {
			if n = p.steal(); n == nil {
				n, _ = p.q.resumed.pop()
			}
		}
	}
	s.then = n
}

// SetOnIdle makes f run on the goroutine that holds s just before s goes idle (nil: nothing).
func (p *Pool) SetOnIdle(f func(s *Slot)) { p.onIdle = f }

// startDispatcher gives slot s to r on a fresh goroutine that runs the dispatch loop on s (the
// driver: only a dispatch loop carries a Runnable, see package thread's coro.go), starting with
// r, until the queue is empty or the driver loses its slot (a thread under it gave the slot away,
// or called runtime.Goexit).
//
// The goroutine runs s.start, a closure made with the slot, and finds r in s.first: a go
// statement with arguments (go p.loop(s, r)) allocates a closure for them, and the caller may be
// a thread deep in its park, where an allocation could take the runtime's malloc deep enough to
// double the thread's stack (see package thread's park.go).
//
//go:noinline
func (p *Pool) startDispatcher(s *Slot, r Runnable) {
	n := p.goroutines.Add(1)
	for peak := p.peakGoroutines.Load(); n > peak && !p.peakGoroutines.CompareAndSwap(peak, n); peak = p.peakGoroutines.Load() {
	}
	s.first = r
	go s.start()
}

// dispatcher returns s's start: the dispatch loop, on s and its successors. It has no deferred
// call (that would be a frame's worth more under every thread that parks on the goroutine), so a
// Carry whose task calls runtime.Goexit, which never returns, counts the goroutine out itself
// (GoroutineExiting).
func (p *Pool) dispatcher(s *Slot) func() {
	return func() {
		cur, r := s, s.first
		s.first = nil
		for r != nil {
			var ok bool
			if cur, ok = r.Carry(cur); !ok {
				break
			}
			r = p.Next(cur)
		}
		p.goroutines.Add(-1)
	}
}

// GoroutineExiting is called by a Carry whose task called [runtime.Goexit], after passing the
// carrier on: the goroutine is ending without returning to the dispatch loop.
func (p *Pool) GoroutineExiting() { p.goroutines.Add(-1) }

// takeSlotLocked returns an idle slot, or a new one if the pool may grow, or nil.
func (p *Pool) takeSlotLocked() *Slot {
	if p.busy >= p.target {
		return nil
	}
	if n := len(p.idle); n > 0 {
		s := p.idle[n-1]
		p.idle = p.idle[:n-1]
		s.idle = false
		p.busy++
		p.syncLocked()
		return s
	}
	if p.size < p.target {
		p.size++
		p.busy++
		p.syncLocked()
		return p.newSlotLocked()
	}
	return nil
}

// idleLocked puts busy slot s on the idle list.
func (p *Pool) idleLocked(s *Slot) {
	p.busy--
	p.syncLocked()
	atomic.StorePointer(&s.cur, nil)
	s.idle = true
	p.idle = append(p.idle, s)
	// keep the lowest ID at the end, so that worker-1 is preferred (as a JDK pool with one busy
	// worker keeps using it)
	for i := len(p.idle) - 1; i > 0 && p.idle[i].ID > p.idle[i-1].ID; i-- {
		p.idle[i], p.idle[i-1] = p.idle[i-1], p.idle[i]
	}
}

func (p *Pool) newSlotLocked() *Slot {
	var id int
	if n := len(p.freeIDs); n > 0 {
		// reuse the lowest free ID so a pool that shrank and grew keeps small worker numbers
		min := 0
		for i := range p.freeIDs {
			if p.freeIDs[i] < p.freeIDs[min] {
				min = i
			}
		}
		id = p.freeIDs[min]
		p.freeIDs[min] = p.freeIDs[n-1]
		p.freeIDs = p.freeIDs[:n-1]
	} else {
		p.nextID++
		id = p.nextID
	}
	if p.size > p.maxComps {
		p.maxComps = p.size
	}
	s := &Slot{ID: id, Name: fmt.Sprintf("ForkJoinPool-%d-worker-%d", p.number, id), pool: p}
	s.start = p.dispatcher(s)
	if p.slots == nil {
		p.slots = make(map[int]*Slot)
	}
	p.slots[id] = s
	p.publishSlotsLocked()
	return s
}

// Next is called by a goroutine that holds s and has finished with it: it returns the next
// queued Runnable to carry on s, or nil after putting s back (idle, or retired when the pool is
// shrinking after a compensation).
func (p *Pool) Next(s *Slot) Runnable {
	if r := s.then; r != nil {
		s.then = nil
		return r
	}
	if r := p.takeNext(s); r != nil {
		return r
	}
	if p.excess.Load() <= 0 {
		if r, ok := p.q.pop(); ok {
			return r
		}
	}
	return p.nextSlow(s)
}

//go:noinline
func (p *Pool) nextSlow(s *Slot) Runnable {
	if p.excess.Load() > 0 {
		if p.onIdle != nil {
			p.onIdle(s) // before it may retire
		}
		if p.retire(s) {
			return nil
		}
	}
	if r, ok := p.q.pop(); ok {
		return r
	}
	if r := p.steal(); r != nil {
		return r
	}
	if p.onIdle != nil {
		p.onIdle(s)
	}
	p.mu.Lock()
	p.idleLocked(s)
	p.mu.Unlock()
	// a Submit that pushed after the pop above may have seen no slot available, and a PutNext
	// after the steal no idle slot: look again
	if !p.q.empty() || p.anyNext() {
		p.wake()
	}
	return nil
}

// retire retires s if the pool has more busy slots than its target.
func (p *Pool) retire(s *Slot) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.busy <= p.target {
		return false
	}
	p.busy--
	p.size--
	p.syncLocked()
	p.freeIDs = append(p.freeIDs, s.ID)
	delete(p.slots, s.ID)
	p.retiredHanded.Add(s.handed.Load())
	p.publishSlotsLocked()
	return true
}

// Release gives up s because its goroutine is about to block (unmount): the slot goes on to the
// next queued Runnable on another goroutine, or back to the idle list.
func (p *Pool) Release(s *Slot) {
	if r := p.Next(s); r != nil {
		p.startDispatcher(s, r)
	}
}

// Compensate raises the number of carriers by one (up to the maximum pool size) while a carrier is
// captured by a pinned wait, and returns false if the pool is already at its maximum. Each true
// result must be balanced by EndCompensate.
func (p *Pool) Compensate() bool {
	p.mu.Lock()
	if p.target >= p.max {
		p.mu.Unlock()
		return false
	}
	p.target++
	p.comps++
	p.syncLocked()
	var s *Slot
	var r Runnable
	if !p.q.empty() || p.anyNext() {
		if s = p.takeSlotLocked(); s != nil {
			var ok bool
			if r, ok = p.q.pop(); !ok {
				if r = p.steal(); r == nil {
					p.idleLocked(s)
					s = nil
				}
			}
		}
	}
	p.mu.Unlock()
	if s != nil {
		p.startDispatcher(s, r)
	}
	return true
}

// EndCompensate undoes one Compensate. The extra carrier retires the next time its goroutine is
// done with it.
func (p *Pool) EndCompensate() {
	p.mu.Lock()
	p.target--
	p.comps--
	// an idle slot beyond the target retires at once
	for p.size > p.target && len(p.idle) > 0 {
		s := p.idle[0]
		p.idle = p.idle[1:]
		p.size--
		p.freeIDs = append(p.freeIDs, s.ID)
		delete(p.slots, s.ID)
		p.retiredHanded.Add(s.handed.Load())
	}
	p.publishSlotsLocked()
	p.syncLocked()
	p.mu.Unlock()
}

// TryAcquire is called by a goroutine that wants a slot to run on (a thread re-mounting after
// running unmounted): it returns an idle slot at once if there is one and nothing is queued
// ahead, else nil, and the caller must queue itself with Submit as a resumption.
func (p *Pool) TryAcquire() *Slot {
	if p.closed.Load() || p.avail.Load() <= 0 || !p.q.empty() || p.anyNext() {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.q.empty() {
		return nil
	}
	return p.takeSlotLocked()
}

// Busy reports whether some slot is held by a goroutine.
func (p *Pool) Busy() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.busy > 0
}

// Mounts returns the busy slots with what runs on each.
func (p *Pool) Mounts() []Mount {
	p.mu.Lock()
	defer p.mu.Unlock()
	var ms []Mount
	for _, s := range p.slots {
		if s.idle {
			continue
		}
		seq := s.seq.Load()
		ms = append(ms, Mount{Slot: s, Cur: s.Current(), Gid: s.gid.Load(), Seq: seq})
	}
	return ms
}

// Stats is a snapshot of a pool.
type Stats struct {
	Parallelism    int   // carriers when not compensating
	PoolSize       int   // carriers that exist now, busy or idle
	Mounted        int   // carriers running virtual-thread code
	Queued         int   // runnables waiting for a carrier
	Compensations  int   // compensations in force
	PeakPoolSize   int   // largest pool size seen
	Submitted      int64 // runnables ever queued (Submit, SubmitFromCarrier and Yielded)
	Goroutines     int64 // goroutines the pool started that have not ended (drivers)
	PeakGoroutines int64 // the most of them alive at once
}

// Stats returns a snapshot.
func (p *Pool) Stats() Stats {
	p.mu.Lock()
	defer p.mu.Unlock()
	inCells, handed := p.nexts()
	return Stats{
		Parallelism:    p.target - p.comps,
		PoolSize:       p.size,
		Mounted:        p.busy,
		Queued:         p.q.len() + inCells,
		Compensations:  p.comps,
		PeakPoolSize:   p.maxComps,
		Submitted:      p.q.pushed() + handed + p.direct,
		Goroutines:     p.goroutines.Load(),
		PeakGoroutines: p.peakGoroutines.Load(),
	}
}

// Close makes later Submits of new tasks fail. Runnables already queued still run; the caller
// is expected to have waited for its threads to finish first.
func (p *Pool) Close() { p.closed.Store(true) }
