package thread

import (
	"fmt"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/loomgo/loom/internal/carrier"
	"github.com/loomgo/loom/internal/rt"
)

// The one blocking primitive.
//
// Every loom wait (Sleep, Join, locks, conditions, queues, futures, monitors) ends in parkFor,
// so unmounting, pinning, interrupts, timeouts and states are implemented once, here.
//
// A thread's park word holds a sequence number and a phase:
//
//	running --(parkFor publishes)--> parked --(one waker wins the CAS)--> resumed --(thread runs)--> running
//
// Three kinds of waker race for a parked thread: Unpark (and Interrupt, which unparks), the
// timer of a timed park, and nobody (the driver takes back a park whose permit arrived while it
// was publishing). Exactly one of them moves parked->resumed, and only that one hands the thread
// its way back: a virtual thread that gave up its carrier is queued on the scheduler as a
// resumption (the carrier that pops it resumes the thread's continuation, coro.go); a platform or
// pinned thread, which kept its goroutine's carrier, is woken directly (wakeWith). The sequence
// number stops a timer of an earlier park from resuming a later one.
//
// An unmounting park is published by the driver once the thread's continuation has yielded to it
// (publishPark, as the JDK's VirtualThread.afterYield): a waker that wins the park word queues the
// thread, and no driver may resume a continuation that has not switched out yet.
//
// Lost wake-ups: Unpark stores the permit, then looks for the parked phase; the park's publisher
// (the driver, or parkInPlace) publishes the parked phase, then looks for the permit. Go's atomics are sequentially consistent, so at least
// one of the two sees the other; if both do, the CAS on the park word picks one. (Unpark first
// tries the CAS without storing the permit, which the park it ends would consume: see
// unparkFrom. Only if that fails does it take the path above.)
//
// The parked stack. A parked virtual thread's continuation keeps its goroutine's stack, and Go
// gives a goroutine 2 KB and doubles it the first time a call would go deeper (it never shrinks
// back while the goroutine waits that deep). Everything under a parked virtual thread is therefore
// kept shallow: iter.Pull's two frames, the continuation's dispatch loop (coro.loop), run (which
// runs the task and catches its panic in one frame), the task, Sleep, parkStart and the yield.
// Rare paths (pinned and platform parks, labels, the first registration, a panicking task) are
// out of line (noinline) so that their frames are not part of the common one, and the park path
// keeps no time.Time or string locals. TestParkedStack* checks that 2 KB is enough. (Before
// continuations, the hand-off of the carrier to the next thread ran on the parking thread's stack
// too; now the driver does it, on its own.)
//
// Not taken (engine18): running new tasks in the dispatch loop itself (a loop set on the pool by
// this package, with one deferred call for panics and Goexit), which takes newTask.Carry out from
// under every parked thread (7 frames -> 6 for a sleeper submitted to an executor). It bought
// nothing measurable: a full collection with 100,000 sleepers parked (runtime.GC, medians of 9,
// 5 pairs of builds alternating) 149 [148-157] ms before, 153 [142-157] after, ~1.5 µs per
// parked goroutine whatever its frames; loom bench, 100,000 × Sleep(1s), 5 pairs: 1.09 -> 1.12
// (noise). What a collection pays per parked goroutine is the goroutine, not its frames.
//
// Where a hand-off's time went before continuations (issue 14's fourth round, when a parked
// thread's goroutine waited on its parker and the waker handed it the carrier; instructions counted with valgrind's
// callgrind at GOMAXPROCS=1, where nothing crosses cores, 100,000 operations less a run of one): a
// Park/Unpark round trip between two virtual threads on one carrier is 4,276 instructions, of
// which loom's own code is ~1,370, sync.Cond's ~660 and the runtime's ~2,300; two goroutines on
// unbuffered channels take 2,789. A start+join from a virtual thread is ~5,100 (loom ~1,600)
// against go + WaitGroup's 3,498. Loom's part is spread over some thirty small functions of 20-120
// instructions each (the park word, the state, the carrier's cell, mount and unmount, the
// current-thread cache), none of them a hot spot. Taking out three of its locked instructions per
// half round trip (the parked count's two adds, the cell's hand-off count) left the ping-pong
// where it was (base 568-588 ns, without them 597-614 ns, 5 runs each); taking out eight per half
// round trip (those three, the state's two stores, the park word's reset, the carrier's
// current-thread store, the slot's clear; not correct, a measurement only) bought 3-4% (567 -> 546
// ns on two carriers, 581 -> 563 on one, medians of 5): uncontended on one core, a locked
// instruction costs about a nanosecond. What is left is the length of the path: at the channels'
// instructions per nanosecond loom's 4,276 would take ~490 ns of its ~570. Sixty-three calls into
// 31 of loom's functions per round trip are part of it (the noinline helpers that keep the parked
// stack under 2 KB among them), some ten instructions each for the call alone. The floor of this
// design, two goroutines waking each other through a parker like park.go's (a woken word and a
// sync.Cond), is 1.08x the channels' round trip (325-340 against 296-318 ns here); reaching issue
// 14's 1.5x means about halving loom's ~700 instructions per hand-off.
//
// The floor of two designs (issue 14's fifth round; BenchmarkHandOffFloor, each against its
// goroutine twin in alternating rounds, medians of the rounds' ratios, three runs). Today's
// mechanism, a goroutine per parked thread woken through a parker like the one below: ping-pong
// 1.06-1.14x the channels'. The JDK's own mechanism, continuations: a virtual thread is an
// iter.Pull coroutine, a carrier is a goroutine that resumes one (next) until it yields back, a
// park is a yield whose parked state the carrier publishes after the switch (as
// VirtualThread.afterYield does, so that no waker can resume a continuation still running), and
// an unpark puts the thread in its waker's hand-off cell or the run queue: ping-pong 0.59-0.64x
// the channels' (186-205 ns a round trip against 300-341), and a start+join from a continuation,
// with ended coroutines reused by their carrier, 0.57-0.63x go + WaitGroup (218-261 against
// 382-433 ns). The same paired run put today's loom at 1.97-2.08x (ping-pong) and 1.71-2.05x
// (start+join). A coroutine switch bypasses the runtime's scheduler (no ready, no run queue, no
// schedule: iter.Pull's next and yield each switch goroutines on the same thread, ~35 ns), and a
// parked continuation holds neither a parker nor the runtime's sudog (160 bytes a sleeper), but
// iter.Pull makes each coroutine with 6 allocations and 208 bytes (a start+finish costs 265 ns,
// less than go + WaitGroup's 400), so ended ones must be reused. It is the engine that can reach
// 1.5x with loom's bookkeeping on top; what it changes, found by probes (Go 1.26): (1) a carrier
// is the goroutine that drives, so a resumption popped by a goroutine that is not a dispatch
// loop (Submit's wake, the timer queue) needs one started for it; (2) Blocking and I/O parks,
// whose goroutine blocks in Go while the carrier goes on, cannot yield: the slot goes to a new
// driver, and the thread, when Go's wait returns, yields to its old driver, which queues it and
// exits; (3) runtime.Goexit in a coroutine ends its driver too (iter.Pull re-raises it in next),
// so the dispatch loop needs a deferred hand-over of its slot; (4) a coroutine that yields
// while locked to its OS thread (runtime.LockOSThread) is a fatal error ("coro: OS thread
// locking must match locking at coroutine creation"), which no recover catches and no public
// API can detect beforehand: a virtual thread that locks its OS thread and then parks would
// crash the process (inside Native it parks in place and stays correct: see Native); (5) a
// goroutine in a coroutine wait is durably blocked for testing/synctest, and next may be called
// from any goroutine in turn, as carriers need. Taken in the same round: see coro.go. Measured
// with loom's bookkeeping on top (BenchmarkVsGoroutines, paired; before -> after): ping-pong on two
// carriers 1.97-2.08x -> 1.15-1.41x, on one 1.79-2.08x -> 1.18-1.26x, start+join from a virtual
// thread 1.71-2.05x -> 1.27-1.32x.

const (
	phaseRunning = 0
	phaseParked  = 1
	phaseResumed = 2
	phaseMask    = 3
	// How the thread waits, recorded in the park word itself so that a waker acts on the park it
	// won and not on a later one (the fields of t may already describe the next park), and so
	// that the thread, once woken, finds in it all it needs to end the park (parkEnd).
	flagTimed   = 4   // waits on its own timer (platform threads): a waker fires the timer
	flagUnmount = 8   // gave up its carrier: a waker queues it on the scheduler
	flagMonitor = 16  // a monitor wait or entry: woken by rt.Unpark, not by Unpark (Java item 88)
	flagNoIntr  = 32  // monitor entry: an interrupt does not wake it
	flagTimeout = 64  // in a resumed word: the scheduler's timer queue was the waker (timers.go)
	flagQueued  = 128 // has an entry in the scheduler's timer queue
	flagBlocker = 256 // has a blocker to clear at the end
	seqShift    = 9
)

// permitFor returns the bit of the permit a park with the given reason consumes: LockSupport's
// permit for ordinary parks, and a separate one for monitor entry and Object.wait, which in Java
// neither consume nor grant the park permit.
func permitFor(reason int) uint32 {
	if reason == rt.ParkWaiting {
		return bitPermit
	}
	return bitMonitorPermit
}

// parkFor parks the current thread t (the caller must be t) until its permit is available, it is
// interrupted, or timeout elapses (timeout < 0: no timeout; timeout == 0: do not wait). It
// consumes the permit. The thread shows state st while parked, and blocker as its Blocker.
func (t *Thread) parkFor(timeout time.Duration, reason int, blocker any, st State) {
	if t.parkStart(timeout, 0, reason, blocker, st) {
		t.parkEnd()
	}
}

// A park in three steps, so that the deepest two things a park does each start from a small
// frame: parkStart hands the carrier on (which may wake another goroutine) and returns; the
// caller then waits (awaitWake: sync.Cond.Wait, which may allocate the runtime's sudog, and so
// run malloc, on this stack) from its own frame; parkEnd mounts the thread again. Sleep and Park
// call the three themselves; parkFor is the three in one.

// parkStart begins a park of t (see parkFor for the arguments; deadline, if not 0, is the
// deadline of a positive timeout, read from the clock by the caller already). It returns false if the park is
// over already: nothing to wait for (the permit, an interrupt, a zero timeout), or a park that
// keeps the carrier (pinned, platform, or a virtual thread running unmounted in Blocking), done
// by parkInPlace. It returns true if t has unmounted and published its park: the caller must
// then call awaitWake and parkEnd.
func (t *Thread) parkStart(timeout time.Duration, deadline int64, reason int, blocker any, st State) bool {
	if t.bits.take(permitFor(reason)) || reason != rt.ParkBlocked && t.bits.get(bitInterrupted) || timeout == 0 {
		return false // monitor entry (ParkBlocked) ignores interrupts, as in Java
	}
	slot := t.slot.Load()
	if slot == nil || t.kind != kindVirtual || t.pinDepth > 0 ||
		t.sched.opts.Pinning == PinSynchronized && (t.monitors > 0 || reason != rt.ParkWaiting) {
		t.parkInPlace(slot, timeout, reason, blocker, st)
		return false
	}
	return t.parkYield(slot, timeout, deadline, reason, blocker, st)
}

// parkYield unmounts t from slot and yields its continuation to the carrier's loop, which
// publishes the park (publishPark). It reports false if the permit or an interrupt arrived before
// the park was published and the loop took it back (t is then mounted and RUNNABLE again), true
// once t has been woken and given a carrier (t.slot): the caller then calls parkEnd.
//
//go:noinline
func (t *Thread) parkYield(slot *carrier.Slot, timeout time.Duration, deadline int64, reason int, blocker any, st State) bool {
	if t.regIndex == 0 {
		registerVirtual(t) // parked, it is found through the registry (LiveThreads)
	}
	if t.sched.opts.ProfilerLabels {
		t.labelGoroutine() // before the state shows the park, so a profile taken then names it
	}
	seq := t.park.Load()>>seqShift + 1
	parked := seq<<seqShift | phaseParked | flagUnmount
	if reason != rt.ParkWaiting {
		parked |= flagMonitor
	}
	if reason == rt.ParkBlocked {
		parked |= flagNoIntr
	}
	if blocker != nil {
		t.setBlocker(blocker)
		parked |= flagBlocker
	}
	if timeout > 0 {
		if deadline == 0 {
			deadline = rt.Deadline(timeout) // saturates: math.MaxInt64 is "forever", not the past
		}
		parked |= flagQueued
	}
	co := t.coro()
	co.parked, co.deadline, co.slot = parked, deadline, slot
	// Unmounted from here on; the state before the park is published (a WAITING virtual thread
	// has no carrier), and published only once the continuation has switched out. The trace's
	// region for the unmount begins and ends on the thread's goroutine (traceMount).
	t.slot.Store(nil)
	t.enterParkState(st, reason)
	t.traceUnmount("", reason, blocker, timeout)
	co.yield(whyParked)
	if co.back {
		t.traceMount() // the driver took the park back: mounted again on the same carrier
		return false
	}
	return true
}

// parkEnd mounts t, woken from the park parkStart began, on the carrier it was given. It reports
// whether the scheduler's timer queue was the waker: the park's deadline has passed.
//
//go:noinline
func (t *Thread) parkEnd() (timedOut bool) {
	w := t.park.Load() // resumed: the park's flags
	if w&(flagQueued|flagTimeout) == flagQueued {
		t.sched.timers.dropped() // woken before the deadline: the queue's entry is stale now
	}
	slot := t.slot.Load()
	t.sched.count(slot, cParked, -1)
	t.mount(slot)
	t.park.Store(w >> seqShift << seqShift)
	if w&flagMonitor == 0 {
		t.bits.clear(bitPermit)
	} else {
		t.bits.clear(bitMonitorPermit)
	}
	t.afterPark(w)
	return w&flagTimeout != 0
}

// parkInPlace is parkFor for a park that keeps the goroutine's carrier (pinned, platform) or has
// none to give (a virtual thread inside Blocking).
//
//go:noinline
func (t *Thread) parkInPlace(slot *carrier.Slot, timeout time.Duration, reason int, blocker any, st State) {
	permit := permitFor(reason)
	interruptible := reason != rt.ParkBlocked
	pinnedBy := ""
	if slot != nil { // not mounted (a platform thread, or inside Blocking): nothing to pin
		pinnedBy = t.pinnedBy(reason)
	}
	seq := t.park.Load()>>seqShift + 1
	parked := seq<<seqShift | phaseParked
	if reason != rt.ParkWaiting {
		parked |= flagMonitor
	}
	if !interruptible {
		parked |= flagNoIntr
	}
	if blocker != nil {
		t.setBlocker(blocker)
		parked |= flagBlocker
	}
	t.enterParkState(st, reason)
	// A timed park of a virtual thread is queued on its scheduler's timer queue and waits like an
	// untimed one; a platform thread's waits on its own timer's channel (see awaitTimer).
	var deadline int64
	ownTimer := timeout > 0 && t.sched == nil
	if timeout > 0 {
		deadline = rt.Deadline(timeout)
		if ownTimer {
			parked |= flagTimed
		} else {
			parked |= flagQueued
		}
	}
	if !ownTimer {
		t.armWake()
	} else if x := t.more(); x.timer == nil {
		x.timer = time.NewTimer(timeout)
	} else {
		x.timer.Reset(timeout)
	}
	t.park.Store(parked)
	if t.bits.get(permit) || interruptible && t.bits.get(bitInterrupted) {
		if t.park.CompareAndSwap(parked, seq<<seqShift|phaseRunning) {
			if ownTimer {
				t.moreIfAny().timer.Stop()
			}
			t.bits.clear(permit)
			t.afterPark(parked)
			return
		}
		// a waker won: it will hand us our way back; wait for it as usual
	}

	var start time.Time
	var compensated bool
	if pinnedBy != "" {
		start = time.Now()
		t.sched.pinnedParks.Add(1)
		t.tracePinnedPark(pinnedBy, reason, blocker, timeout)
		if reason == rt.ParkMonitorWait {
			compensated = slot.Pool().Compensate()
		}
	}

	if ownTimer {
		t.awaitTimer(parked, deadline)
	} else {
		if timeout > 0 {
			t.sched.timers.add(t, deadline, parked)
		}
		t.awaitWake()
		if timeout > 0 && t.park.Load()&flagTimeout == 0 {
			t.sched.timers.dropped()
		}
	}

	if pinnedBy != "" {
		t.sched.pinnedParks.Add(-1)
		if compensated {
			slot.Pool().EndCompensate()
		}
	}
	t.park.Store(seq << seqShift)
	t.bits.clear(permit)
	t.afterPark(parked)
	if pinnedBy != "" {
		t.sched.pinned(t, time.Since(start), pinnedBy, reason)
	}
}

// afterPark makes t, whose park with word w is over, RUNNABLE (a notified monitor waiter stays
// BLOCKED until it has re-entered) and clears its blocker.
func (t *Thread) afterPark(w uint64) {
	if isMonitorWait(w) {
		t.runnableUnlessNotified() // see state.go
	} else if t.state.Load() != int32(Runnable) { // its waker made it RUNNABLE already (resumeIf)
		t.state.Store(int32(Runnable))
	}
	if w&flagBlocker != 0 {
		t.setBlocker(nil)
	}
}

// pinnedBy returns why a park by t with the given reason keeps its carrier, or "" if it does not.
func (t *Thread) pinnedBy(reason int) string {
	if !t.isVirtual() {
		return ""
	}
	if t.pinDepth > 0 {
		return "NATIVE"
	}
	if t.sched.opts.Pinning == PinSynchronized && (t.monitors > 0 || reason != rt.ParkWaiting) {
		return "MONITOR"
	}
	return ""
}

// resumeIf moves t from the park phase seen (parked, with its sequence number) to resumed and
// hands t its way back. It reports whether it won. release says the waker is the release of a
// monitor (rt.Unpark for a monitor reason), not a timer or an interrupt; byTimer that it is the
// scheduler's timer queue. from is the carrier the waker holds and is about to let go of, if the
// caller knows it (nil: resume looks it up).
func (t *Thread) resumeIf(parked uint64, release, byTimer bool, from *carrier.Slot) bool {
	resumed := parked&^phaseMask | phaseResumed
	if byTimer {
		resumed |= flagTimeout
	}
	if !t.park.CompareAndSwap(parked, resumed) {
		return false
	}
	if parked&flagTimed == 0 {
		// Unparked is RUNNABLE, also while it waits for a carrier (Java's UNPARKED state), not
		// only once it runs. The thread cannot run before the hand-off below, so it cannot
		// have parked again yet and this store cannot overwrite a later park's state. (A
		// platform thread on its own timer may already be running, so it sets its own state.)
		// A notified monitor waiter woken by its timer or an interrupt stays BLOCKED: it still
		// has to re-enter (state.go).
		if isMonitorWait(parked) && !release {
			t.runnableUnlessNotified()
		} else {
			t.state.Store(int32(Runnable))
		}
	}
	if parked&flagTimed != 0 {
		// the thread waits on its timer's channel: fire it now; the thread re-mounts itself
		t.moreIfAny().timer.Reset(0)
	} else if parked&flagUnmount != 0 {
		ending := from != nil // a thread that ends wakes its joiners on the carrier it lets go of
		if from == nil && !byTimer {
			from = wakerSlot(t.sched.pool)
		}
		t.resume(from, ending)
	} else {
		t.wakeWith(nil)
	}
	return true
}

// resume queues t, resumed from an unmounting park, on its scheduler: in the hand-off cell of
// from, the carrier its waker holds, when it can (see internal/carrier's handoff.go), else on the
// run queue. When an idle carrier exists too and the waker goes on running, a spinner is started
// that gives t that carrier unless the waker's carrier takes it first (Pool.Wake); a waker that
// is ending (a thread waking its joiners) lets go of its carrier next, so t is not woken
// elsewhere.
func (t *Thread) resume(from *carrier.Slot, ending bool) {
	p := t.sched.pool
	if from != nil && from.Pool() == p { // a joiner of another scheduler's thread queues as usual
		if placed, idle := p.PutNext(from, unsafe.Pointer(t)); placed {
			if idle && !ending {
				p.Wake() // a resumption does not wait in a cell while a carrier is idle
			}
			return
		}
	}
	if err := p.Submit(t.resumption()); err != nil {
		// the scheduler was closed while t was parked; Close waits for live threads, so this
		// cannot happen unless the pool was closed behind the scheduler's back
		panic(fmt.Sprintf("loom: cannot resume %v: %v", t, err))
	}
}

// wakerSlot returns the carrier of p that the calling goroutine's virtual thread is mounted on,
// or nil (a platform or foreign thread, the timer queue, a thread of another scheduler, or one
// running unmounted). It looks only in curCache: a waker it misses just queues as before.
func wakerSlot(p *carrier.Pool) *carrier.Slot {
	gid := gidFunc()
	if w := curCache[gid&(cacheSize-1)].Load(); w != nil && w.gid == gid {
		if s := w.slot.Load(); s != nil && s.Pool() == p {
			return s
		}
	}
	return nil
}

// resumeKey turns a key of a hand-off cell back into the thread's resumption (Pool.SetResume).
func resumeKey(k unsafe.Pointer) carrier.Runnable { return (*resumption)(k) }

// The wake of a park that keeps its carrier (parkInPlace: a platform thread, a pinned virtual
// thread, or one running unmounted in Blocking): the goroutine waits on its parker, and the one
// waker that won the park word wakes it (wakeWith). The CAS on the park word guarantees one wake
// per park. A platform thread makes its parker at its first park; a virtual thread's is its
// continuation's (coro.pk), made at the first such park on it.
//
// The parker is a sync.Cond whose Locker holds no lock: its Unlock, which Cond.Wait calls after
// taking its ticket and before sleeping, signals the Cond itself if the wake has already come.
// The waker sets woken and then signals. Whichever order the two run in, the ticket is served:
// a Signal before the ticket was taken is covered by the woken check before Wait; one between the
// ticket and the sleep advances the ticket counter, so the sleep returns at once; one after it
// readies the sleeping goroutine. A goroutine waiting in Cond.Wait is durably blocked for
// testing/synctest, so a scheduler made inside a bubble runs on the bubble's fake clock.
//
// Designs measured and not taken: a channel of one carrier per thread (loom's first hand-off:
// 112 bytes and an allocation per thread, and its collection was a quarter of a million
// sleepers' time); a sync.Mutex locked by the thread and unlocked by the waker (not durably
// blocking for synctest); a sync.WaitGroup (16 bytes, and durably blocking, but its semaphore
// lives in the runtime's global table of 251 treaps keyed by address: with a million parked
// threads each wake walks a tree of thousands, and a ping-pong measured ~20% slower than the
// channel; the Cond's ticket list is the thread's own). Until continuations, every unmounting
// park waited on such a parker too (see "The floor of two designs" above).
type parker struct {
	woken atomic.Bool // the wake came (false: waiting)
	c     sync.Cond
}

type parkerLocker parker

func (l *parkerLocker) Lock() {}

func (l *parkerLocker) Unlock() {
	if l.woken.Load() {
		l.c.Signal() // the wake came before the sleep: do not sleep
	}
}

// armWake prepares t, about to publish a park that keeps its carrier, for the wake that ends it.
func (t *Thread) armWake() {
	p := t.pk()
	if p == nil {
		p = newParker()
		if t.kind == kindVirtual {
			t.coro().pk = p // a virtual thread that parks runs on a continuation
		} else {
			t.wait = unsafe.Pointer(p)
		}
	}
	p.woken.Store(false)
}

//go:noinline
func newParker() *parker {
	p := new(parker)
	p.c.L = (*parkerLocker)(p)
	return p
}

// awaitWake waits for the wake armWake prepared.
func (t *Thread) awaitWake() {
	p := t.pk()
	for !p.woken.Load() {
		p.c.Wait()
	}
}

// wakeWith wakes t, giving it carrier s (nil: it keeps what it has).
func (t *Thread) wakeWith(s *carrier.Slot) {
	if s != nil {
		t.slot.Store(s)
	}
	p := t.pk()
	p.woken.Store(true)
	p.c.Signal()
}

// A platform thread's timed park waits on the thread's own timer channel, so a timeout readies
// the parked goroutine directly, as time.Sleep does for a plain goroutine (an AfterFunc would
// start a goroutine per firing). A waker that wins the park word fires the timer at once with
// Reset(0). (A virtual thread's timed park goes through its scheduler's timer queue instead:
// see timers.go.)
//
// A firing can be stale: a waker of an earlier park may call Reset(0) late, after the thread has
// already re-armed the timer for a later park. awaitTimer therefore trusts only the park word and
// the clock: woken before its deadline with the word still parked, it re-arms for the time left
// and, since a waker may have won in between, looks at the word again before waiting.

// awaitTimer waits until the park with word parked is resumed by a waker, or its deadline
// passes (then it resumes the park itself).
func (t *Thread) awaitTimer(parked uint64, deadline int64) {
	timer := t.moreIfAny().timer
	resumed := parked&^phaseMask | phaseResumed
	for {
		<-timer.C
		if t.park.Load() == resumed {
			return
		}
		left := deadline - nanotime()
		if left <= 0 {
			t.park.CompareAndSwap(parked, resumed) // else a waker just won: resumed either way
			return
		}
		timer.Reset(time.Duration(left))
		if t.park.Load() == resumed {
			timer.Stop()
			return
		}
	}
}

// nanotime is monotonic nanoseconds since the process started (deadlines: rt.Deadline).
func nanotime() int64 { return rt.Nanotime() }

// unpark makes t's permit available and resumes t if it is parked (but not in a monitor).
func (t *Thread) unpark() { t.unparkFrom(nil) }

// unparkFrom is unpark by a thread that holds carrier from (nil: unknown) and, when it passes
// one, is ending on it and hands it on next (see resume).
//
// A waker that finds t parked resumes it without making the permit available: the park it ends
// would consume the permit at once (parkEnd), so the two locked instructions (the Or here, the
// And there, which now only looks) buy nothing. Only when t is not parked, or another waker won,
// is the permit stored, and then the park word is looked at again, as before: the lost-wake-up
// argument (store the permit, then look for the park; publish the park, then look for the
// permit) holds for that path, and the first CAS is an extra chance, not a replacement.
// Measured (A/B, medians of 5): ping-pong ratio to channels 1.99 -> 1.95 on one carrier, 2.02 ->
// 1.96 on two. (Loom's previous round found no difference when parkEnd still cleared the permit
// with a locked And every time.)
func (t *Thread) unparkFrom(from *carrier.Slot) {
	if v := t.park.Load(); v&phaseMask == phaseParked && v&flagMonitor == 0 && t.resumeIf(v, false, false, from) {
		return
	}
	t.bits.set(bitPermit)
	if v := t.park.Load(); v&phaseMask == phaseParked && v&flagMonitor == 0 {
		t.resumeIf(v, false, false, from)
	}
}

// unparkMonitor makes t's monitor permit available and resumes t if it is parked in a monitor.
func (t *Thread) unparkMonitor() {
	t.bits.set(bitMonitorPermit)
	if v := t.park.Load(); v&phaseMask == phaseParked && v&flagMonitor != 0 {
		t.resumeIf(v, true, false, nil)
	}
}

// interruptWake resumes t if it is parked interruptibly, after Interrupt set its status.
func (t *Thread) interruptWake() {
	t.bits.set(bitPermit) // as Java's interrupt of a virtual thread unparks it
	if v := t.park.Load(); v&phaseMask == phaseParked && v&flagNoIntr == 0 {
		t.resumeIf(v, false, false, nil)
	}
}

// newTask and resumption are a Thread as the carrier pool sees it: the same object, with the
// carrier.Runnable methods, which are loom's machinery and not part of Thread's API. A thread is
// queued once as a newTask (Start) and then as a resumption each time it is woken from an
// unmounted park.
type (
	newTask    Thread
	resumption Thread
)

func (t *Thread) newTask() *newTask { return (*newTask)(t) }

func (t *Thread) resumption() *resumption { return (*resumption)(t) }

// Resumption implements carrier.Runnable.
func (r *newTask) Resumption() bool { return false }

// Resumption implements carrier.Runnable.
func (r *resumption) Resumption() bool { return true }

// Carry implements carrier.Runnable: the driver resumes the thread's continuation (coro.go).
func (r *resumption) Carry(s *carrier.Slot) (*carrier.Slot, bool) {
	t := (*Thread)(r)
	t.slot.Store(s)
	return drive(t.coro(), s)
}

// Carry implements carrier.Runnable: a new virtual thread starts on a free continuation, which
// then dispatches the carrier's next new tasks inline (coro.go). A panic that escapes the task
// is the thread's uncaught exception and ends only the thread; runtime.Goexit ends the
// continuation's goroutine, and its driver's.
func (r *newTask) Carry(s *carrier.Slot) (*carrier.Slot, bool) {
	t := (*Thread)(r)
	co := t.sched.takeCoro(s)
	co.other, co.slot = t, s
	return drive(co, s)
}

// endUnfinished ends t if its task did not return (finish clears the task): it panicked, and
// the panic is t's uncaught exception, or it called runtime.Goexit. The carrier goes on to the
// next thread; Carry then returns no carrier, and the goroutine ends.
func (t *Thread) endUnfinished() {
	if t.task == nil {
		return
	}
	t.endAbnormally(recover())
}

// endAbnormally ends t after its task panicked with v, or called runtime.Goexit (v == nil).
//
//go:noinline
func (t *Thread) endAbnormally(v any) {
	co := t.coro()
	defer func() {
		// also after runtime.Goexit in the uncaught-exception handler: the slot goes to the
		// driver, which passes it on (drive)
		co.slot = t.finish()
	}()
	if c, ok := t.task.(rt.Catcher); ok {
		var stack []byte
		if v != nil {
			stack = debug.Stack()
		}
		c.Caught(v, stack)
		return
	}
	if v != nil {
		t.uncaught(v, debug.Stack())
	}
}

// finish ends a virtual thread on its continuation and returns the carrier it holds then; the
// continuation goes back to dispatching (coro.loop). Once t has ended no waker can win its park
// word, so nothing resumes the continuation on t's behalf any more.
func (t *Thread) finish() *carrier.Slot {
	if t.regIndex != 0 {
		unregisterVirtual(t)
	}
	if m := t.moreIfAny(); m != nil && m.labelled {
		t.unlabelGoroutine()
	}
	if e, ok := t.task.(rt.Ender); ok {
		e.Ended()
	}
	s := t.slot.Swap(nil)
	if co := t.coro(); co != nil {
		co.t = nil // its continuation goes back to dispatching (coro.loop)
		t.wait = nil
	}
	t.terminate(s)
	return s
}

// mount records that t runs on s from now on: for the carrier (what runs there, and the
// watchdog's count of mounts) and for Current.
func (t *Thread) mount(s *carrier.Slot) {
	if t.slot.Load() != s { // a resumption's waker stored it already (wakeWith)
		t.slot.Store(s)
	}
	s.Mounted(unsafe.Pointer(t), t.gid)
	if c := &curCache[t.gid&(cacheSize-1)]; c.Load() != t {
		c.Store(t)
	}
	t.traceMount()
}

// Park disables the current thread until its permit is available (see Unpark), it is
// interrupted, or it returns spuriously; the caller must re-check its condition in a loop. A
// virtual thread unmounts while parked (unless pinned). The permit is consumed; an interrupt
// makes Park return without clearing the interrupt status. The thread is WAITING meanwhile. It
// ports LockSupport.park().
func Park() {
	if t := Current(); t.parkStartWaiting() {
		t.parkEnd()
	}
}

// ParkNanos is Park that also returns once d has elapsed (TIMED_WAITING). d <= 0 returns at once
// and leaves the permit as it is, as LockSupport.parkNanos does; [math.MaxInt64] waits as long as
// Park. It ports LockSupport.parkNanos.
func ParkNanos(d time.Duration) {
	if d > 0 {
		Current().parkFor(d, rt.ParkWaiting, nil, TimedWaiting)
	}
}

// ParkUntil is Park that also returns once deadline has passed. Unlike [ParkNanos], a deadline
// already past still consumes an available permit, as LockSupport.parkUntil does on the JDK. It
// ports LockSupport.parkUntil.
func ParkUntil(deadline time.Time) {
	t := Current()
	if d := time.Until(deadline); d > 0 {
		t.parkFor(d, rt.ParkWaiting, nil, TimedWaiting)
		return
	}
	t.bits.clear(bitPermit)
}

// Unpark makes t's permit available: if t is parked it returns from Park, otherwise its next Park
// returns at once. The permit is binary: two Unparks before a Park still let only one Park
// through. Unpark(nil) does nothing, as LockSupport.unpark(null). It ports LockSupport.unpark.
func Unpark(t *Thread) {
	if t != nil {
		t.unpark()
	}
}

// Sleep pauses the current thread for at least d (TIMED_WAITING); a virtual thread unmounts
// meanwhile unless it is pinned. It neither consumes nor grants the park permit, and Unpark does
// not shorten it. If the thread is interrupted (before or during the sleep) Sleep returns
// [ErrInterrupted] and clears the interrupt status. Sleep(0) is a Yield; a negative d returns at
// once, as Thread.sleep(Duration) does. It ports Thread.sleep.
func Sleep(d time.Duration) error {
	if d < 0 {
		return nil
	}
	t := Current()
	if t.bits.take(bitInterrupted) {
		return ErrInterrupted
	}
	if d == 0 {
		return sleepZero(t)
	}
	deadline := rt.Deadline(d) // saturates: math.MaxInt64 sleeps forever rather than not at all
	hadPermit := t.bits.take(bitPermit)
	t.traceSleep()
	var err error
	// One clock read per sleep that is not cut short: the first park is given the deadline (and
	// the timeout it came from), and a park ended by the timer queue has seen its deadline pass.
	left := d
	for {
		timedOut := false
		if t.parkStartSleep(left, deadline) {
			timedOut = t.parkEnd()
		}
		if t.bits.take(bitInterrupted) {
			err = ErrInterrupted
			break
		}
		if timedOut {
			break
		}
		if left = time.Duration(deadline - nanotime()); left <= 0 {
			break
		}
	}
	// no deferred call (it would deepen every sleeping thread's stack): parkFor does not panic
	if hadPermit {
		t.bits.set(bitPermit)
	}
	return err
}

// parkStartWaiting is parkStart for Park, for the same reason as parkStartSleep.
//
//go:noinline
func (t *Thread) parkStartWaiting() bool {
	return t.parkStart(-1, 0, rt.ParkWaiting, nil, Waiting)
}

// parkStartSleep is parkStart for Sleep. Its three words of arguments, against parkStart's
// seven, keep Sleep's frame small: the caller reserves the spill area of its calls' register
// arguments, and Sleep's frame is under every sleeping thread's wait. With frames of more than
// about 288 bytes above Cond.Wait, the runtime's occasional refill of its sudog cache there
// overflows a goroutine's first 2 KB stack and doubles it: 100,000 sleepers through
// executors.Submit measured 2,078 B of stack each with parkStart called from Sleep, 2,050 B
// with this (mem17's probe; goroutines: 2,049).
//
//go:noinline
func (t *Thread) parkStartSleep(d time.Duration, deadline int64) bool {
	return t.parkStart(d, deadline, rt.ParkWaiting, nil, TimedWaiting)
}

//go:noinline
func sleepZero(t *Thread) error {
	Yield()
	if t.bits.take(bitInterrupted) {
		return ErrInterrupted
	}
	return nil
}

// Interrupted reports whether the current thread's interrupt status was set, and clears it. It
// ports Thread.interrupted().
func Interrupted() bool { return Current().bits.take(bitInterrupted) }

// Yield gives the current virtual thread's carrier to the next queued virtual thread and queues
// itself behind the ones already waiting (FIFO); with nothing queued, or when the thread is
// pinned, it just continues. On a platform thread it is [runtime.Gosched]. It neither consumes nor
// grants the park permit. It ports Thread.yield().
func Yield() {
	t := Current()
	s := t.slot.Load()
	if !t.isVirtual() || s == nil || t.pinnedBy(rt.ParkWaiting) != "" {
		runtimeGosched()
		return
	}
	if !s.Pool().Crowded() {
		return // nothing else waits: it just continues
	}
	if t.regIndex == 0 {
		registerVirtual(t) // unmounted, it is found through the registry (LiveThreads)
	}
	co := t.coro()
	co.slot = s
	t.slot.Store(nil)
	t.traceYield()
	co.yield(whyYield)
	t.mount(t.slot.Load())
}

// Native runs fn pinned: a virtual thread that parks (or sleeps, or blocks in any loom call)
// inside fn keeps its carrier, as a Java virtual thread does with a native frame on its stack.
// Every such park that lasts longer than the scheduler's threshold is reported as a [PinnedEvent]
// with reason "NATIVE". On a platform thread Native just calls fn.
//
// Native is also where a virtual thread may lock its goroutine to its OS thread
// ([runtime.LockOSThread]), provided fn unlocks it before it returns. A virtual thread runs on a
// continuation (an [iter.Pull] coroutine), and the Go runtime ends the process with a fatal error
// ("coro: OS thread locking must match locking at coroutine creation") when a continuation
// switches while locked: a virtual thread that parks, yields or ends while locked outside Native
// crashes the process, where inside Native it only pins its carrier. (Java has no such call; a
// thread that needs an OS thread of its own for its whole life is a platform thread,
// [OfPlatform].)
func Native(fn func()) {
	t := Current()
	t.pinDepth++
	defer func() { t.pinDepth-- }()
	fn()
}

// Blocking runs fn unmounted: a virtual thread gives its carrier back while fn runs, so fn may
// block in Go's own ways (channel operations, [sync.Mutex], [time.Sleep], syscalls) without holding a
// carrier that other virtual threads need, then re-mounts (behind the threads already queued). It
// is the managed blocker of Java's ForkJoinPool. On a platform thread, or a pinned virtual
// thread, Blocking just calls fn. The thread's state stays RUNNABLE.
//
// An unmounted fn that blocks in a syscall holds an OS thread of its own, so unmounted Blocking
// calls count against [PlatformThreadLimit] together with platform threads: past the limit,
// Blocking calls fn without unmounting (the carrier waits with it, as ForkJoinPool.managedBlock
// blocks in place when the pool cannot grow), and starting a platform thread fails with
// [ErrThreadLimit]; the process never reaches the Go runtime's fatal "thread exhaustion".
func Blocking(fn func()) {
	t := Current()
	s := t.slot.Load()
	if !t.isVirtual() || s == nil || t.pinDepth > 0 || !takeOSThread() {
		fn()
		return
	}
	if t.regIndex == 0 {
		registerVirtual(t) // unmounted, it is found through the registry (LiveThreads)
	}
	t.slot.Store(nil)
	register(t.gid, t) // unmounted, it is found by its goroutine id (Current)
	t.traceBlocking()
	p := s.Pool()
	p.Release(s)
	defer func() {
		releaseOSThread() // fn has returned: it holds no OS thread any more
		unregister(t.gid)
		t.remount(p)
	}()
	fn()
}
