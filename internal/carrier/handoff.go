package carrier

import (
	"sync/atomic"
	"unsafe"
)

// The hand-off cell: a resumption queued on the carrier of the thread that woke it.
//
// A thread that unparks another and then parks or ends (a lock passed on, a join, two threads
// taking turns) would otherwise queue the woken thread on the run queue, take an idle carrier for
// it under the pool's mutex, and then give its own carrier back to the idle list under the mutex
// again: two lock round trips, a push and a pop, and on two cores the two goroutines contending
// for the mutex, for a hand-off whose natural shape is "my carrier goes to the thread I woke".
// So a waker that holds a slot, when nothing is queued on the pool, puts the resumption in its
// slot's next cell instead (PutNext), and whoever lets go of the slot next (Next: the waker
// parking, ending, yielding) hands the slot straight to it, without the mutex or the queue.
//
// Liveness. A resumption in a next cell must not wait for a waker that keeps running while
// another carrier idles. Two things take it from there besides the slot's holder:
//
//   - a carrier about to go idle, and one that Submit or Compensate starts, looks in every slot's
//     cell after the run queue (steal); PutNext places and then reads avail, a carrier going idle
//     raises avail and then looks, so (Go's atomics being sequentially consistent) one of the two
//     sees the other;
//   - when PutNext finds an idle slot (avail > 0) and the caller keeps running, it starts a
//     spinner (Wake), one at a time: a goroutine that, when the Go scheduler runs it, steals
//     what waits in a cell for the idle slot. The go statement readies it on the waker's P, so
//     in a ping-pong the waker's carrier usually takes the woken thread first and the spinner
//     finds nothing. (Until continuations, package thread woke the resumed thread's own
//     goroutine early instead, which took itself out of the cell: its pre-wake and Reclaim.)
//
// A cell holds a key (the resumed thread), turned back into a Runnable by the pool's resume
// function (SetResume): no interface, so the cell is one word that a CAS can claim.
//
// FIFO. PutNext places only when both run queues are empty and the cell is free, so a
// resumption in a cell was queued before anything in the run queues, and the slot's holder takes
// its cell before the queues: with one carrier the order is the order of wake-ups, as before.
//
// What it paid when it was made, measured (thread's BenchmarkVsGoroutines, same-process ratios to goroutines on
// unbuffered channels, medians of 6, 2 cores shared with other work): Park/Unpark ping-pong on two
// carriers 2.2x -> 1.8x; on one carrier and for start+join no change beyond noise (one carrier
// never took the mutex; there the cell saves a push and a pop, which the waker's look-up of its
// own carrier costs again). What is left of the ping-pong is mostly Go's own goroutine switch
// (gopark/goready, the same two per round trip as the channels make) and the bookkeeping of a
// park (state, counts, the park word).
//
// Designs not taken:
//
//   - A goroutine-level "run next" without a spinner or pre-wake (Go's runnext): the resumed
//     thread would wait for its waker to park even with a carrier idle, and a waker that spins
//     on what the resumed thread does would never see it
//     (TestHandOffWokenThreadRunsWhileItsWakerKeepsRunning).
//   - Wake taking the idle slot at once and starting its driver for the stolen resumption:
//     a goroutine and two slot changes per hand-off, which made the ping-pong on two carriers
//     2.4x the channels' against 1.3x with the spinner.
//   - A busy bit on the key while the waker pre-wakes, so that the thread cannot run, end and give
//     its parker away before the signal: the woken goroutine, often run at once on the other
//     core, spun (and yielded) in Reclaim for as long as the signal took (a futex wake-up); a late
//     pre-wake of a recycled parker is harmless instead (package thread's claimCarrier). The
//     ping-pong went from 2.0x to 1.8x without it.
//   - A channel instead of the sync.Cond in the parker (package thread): measured no faster.
//   - Unpark not storing the permit when it wins the park word (two atomic operations fewer per
//     hand-off): no difference measurable while the park's end still cleared the permit with a
//     locked And every time; taken later (package thread's unparkFrom), with a clear that looks
//     first: 2-3% on the ping-pongs.
//   - Putting a new task started by a mounted thread in its cell with its goroutine started
//     early (the start of a start+join without the mutex): a goroutine per such start even when
//     the starter keeps running, for a few percent of start+join; not done. With continuations a
//     start by a mounted thread is queued and a spinner started (Pool.SubmitFromCarrier), which
//     took start+join from a virtual thread from 1.8-2.4x to 1.3x go + WaitGroup.
//   - A per-slot deque with stealing (see pool.go: FIFO only per deque).

// SetResume sets the function that turns a key placed with PutNext back into the Runnable that
// resumes it. Call it before the pool is used; without it PutNext never places.
func (p *Pool) SetResume(f func(key unsafe.Pointer) Runnable) { p.resume = f }

// PutNext queues the resumption identified by key (its Runnable is resume(key)) in the next cell
// of s, which the caller holds, if nothing is queued on the pool and the cell is free; it reports
// whether it did. idle, returned with placed, says an idle slot existed after the placement: the
// caller, if it keeps s, starts a spinner (Wake) to give that slot what waits in the cell.
func (p *Pool) PutNext(s *Slot, key unsafe.Pointer) (placed, idle bool) {
	if p.resume == nil || atomic.LoadPointer(&s.next) != nil || !p.q.empty() {
		return false, false
	}
	if !atomic.CompareAndSwapPointer(&s.next, nil, key) {
		return false, false
	}
	s.handed.Add(1)
	return true, p.avail.Load() > 0
}

// takeNext empties s's cell and returns its Runnable, or nil.
func (p *Pool) takeNext(s *Slot) Runnable {
	if atomic.LoadPointer(&s.next) == nil {
		return nil
	}
	if k := atomic.SwapPointer(&s.next, nil); k != nil {
		return p.resume(k)
	}
	return nil
}

// steal takes a resumption from any slot's cell, or returns nil.
func (p *Pool) steal() Runnable {
	if p.resume == nil {
		return nil
	}
	for _, s := range *p.all.Load() {
		if k := atomic.LoadPointer(&s.next); k != nil && atomic.CompareAndSwapPointer(&s.next, k, nil) {
			return p.resume(k)
		}
	}
	return nil
}

// anyNext reports whether some slot's cell holds a resumption.
func (p *Pool) anyNext() bool {
	if p.resume == nil {
		return false
	}
	for _, s := range *p.all.Load() {
		if atomic.LoadPointer(&s.next) != nil {
			return true
		}
	}
	return false
}

// nexts counts the resumptions in cells (Stats).
func (p *Pool) nexts() (queued int, handed int64) {
	for _, s := range *p.all.Load() {
		if atomic.LoadPointer(&s.next) != nil {
			queued++
		}
		handed += s.handed.Load()
	}
	return queued, handed + p.retiredHanded.Load()
}

// publishSlotsLocked republishes the list of slots that steal and anyNext walk.
func (p *Pool) publishSlotsLocked() {
	all := make([]*Slot, 0, len(p.slots))
	for _, s := range p.slots {
		all = append(all, s)
	}
	p.all.Store(&all)
}
