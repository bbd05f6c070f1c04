package thread

import (
	"fmt"
	"sync/atomic"
	"time"

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
// timer of a timed park, and nobody (the thread itself takes back a park whose permit arrived
// while it was publishing). Exactly one of them moves parked->resumed, and only that one hands the
// thread its way back: a virtual thread that gave up its carrier is queued on the scheduler as a
// resumption (a carrier then sends itself over t.resume); a platform or pinned thread, which kept
// its goroutine's carrier, is sent nil over t.resume directly. The sequence number stops a timer
// of an earlier park from resuming a later one.
//
// Lost wake-ups: Unpark stores the permit, then looks for the parked phase; parkFor publishes the
// parked phase, then looks for the permit. Go's atomics are sequentially consistent, so at least
// one of the two sees the other; if both do, the CAS on the park word picks one.

const (
	phaseRunning = 0
	phaseParked  = 1
	phaseResumed = 2
	phaseMask    = 3
	// How the thread waits, recorded in the park word itself so that a waker acts on the park it
	// won and not on a later one (the fields of t may already describe the next park).
	flagTimed   = 4  // waits on its own timer (platform threads): a waker fires the timer
	flagUnmount = 8  // gave up its carrier: a waker queues it on the scheduler
	flagMonitor = 16 // a monitor wait or entry: woken by rt.Unpark, not by Unpark (Java item 88)
	flagNoIntr  = 32 // monitor entry: an interrupt does not wake it
	seqShift    = 6
)

// permitFor returns the permit a park with the given reason consumes: LockSupport's permit for
// ordinary parks, and a separate one for monitor entry and Object.wait, which in Java neither
// consume nor grant the park permit.
func (t *Thread) permitFor(reason int) *atomic.Bool {
	if reason == rt.ParkWaiting {
		return &t.permit
	}
	return &t.mpermit
}

// parkFor parks the current thread t (the caller must be t) until its permit is available, it is
// interrupted, or timeout elapses (timeout < 0: no timeout; timeout == 0: do not wait). It
// consumes the permit. The thread shows state st while parked, and blocker as its Blocker.
func (t *Thread) parkFor(timeout time.Duration, reason int, blocker any, st State) {
	permit := t.permitFor(reason)
	interruptible := reason != rt.ParkBlocked // monitor entry ignores interrupts, as in Java
	if permit.CompareAndSwap(true, false) || interruptible && t.interrupted.Load() || timeout == 0 {
		return
	}
	slot := t.slot.Load()
	pinnedBy := ""
	if slot != nil { // not mounted (a platform thread, or inside Blocking): nothing to pin
		pinnedBy = t.pinnedBy(reason)
	}
	unmount := t.virtual && slot != nil && pinnedBy == ""
	if unmount {
		t.labelGoroutine() // before the state shows the park, so a profile taken then names it
	}
	t.parkReason = reason
	if blocker != nil {
		t.blocker.Store(&blockerBox{blocker})
	}
	t.enterParkState(st, reason)
	// A timed park of a virtual thread is queued on its scheduler's timer queue and waits like an
	// untimed one; a platform thread's waits on its own timer's channel (see awaitTimer).
	var deadline int64
	ownTimer := timeout > 0 && t.sched == nil
	if timeout > 0 {
		deadline = rt.Deadline(timeout) // saturates: math.MaxInt64 is "forever", not the past
	}
	if !ownTimer {
		t.armWake()
	} else if t.timer == nil {
		t.timer = time.NewTimer(timeout)
	} else {
		t.timer.Reset(timeout)
	}
	seq := t.park.Load()>>seqShift + 1
	parked := seq<<seqShift | phaseParked
	if ownTimer {
		parked |= flagTimed
	}
	if unmount {
		parked |= flagUnmount
	}
	if reason != rt.ParkWaiting {
		parked |= flagMonitor
	}
	if !interruptible {
		parked |= flagNoIntr
	}
	t.park.Store(parked)
	if permit.Load() || interruptible && t.interrupted.Load() {
		if t.park.CompareAndSwap(parked, seq<<seqShift|phaseRunning) {
			if ownTimer {
				t.timer.Stop()
			}
			permit.Store(false)
			t.afterPark(blocker, reason)
			return
		}
		// a waker won: it will hand us our way back; wait for it as usual
	}

	var start time.Time
	var compensated bool
	if unmount {
		t.slot.Store(nil)
		t.sched.parked.Add(1)
		slot.Pool().Release(slot)
	} else if pinnedBy != "" {
		start = time.Now()
		t.sched.pinnedParks.Add(1)
		if reason == rt.ParkMonitorWait {
			compensated = slot.Pool().Compensate()
		}
	}

	var s *carrier.Slot
	if ownTimer {
		t.awaitTimer(parked, deadline)
	} else {
		if timeout > 0 {
			t.sched.timers.add(t, deadline, parked)
		}
		s = t.awaitWake()
		if timeout > 0 {
			t.sched.timers.remove(t) // woken before the deadline: drop the entry now
		}
	}

	if unmount {
		t.sched.parked.Add(-1)
		t.mount(s)
	} else if pinnedBy != "" {
		t.sched.pinnedParks.Add(-1)
		if compensated {
			slot.Pool().EndCompensate()
		}
	}
	t.park.Store(seq << seqShift)
	permit.Store(false)
	t.afterPark(blocker, reason)
	if pinnedBy != "" {
		t.sched.pinned(t, time.Since(start), pinnedBy, reason)
	}
}

func (t *Thread) afterPark(blocker any, reason int) {
	if reason == rt.ParkMonitorWait {
		t.runnableUnlessNotified() // see state.go
	} else {
		t.state.Store(int32(Runnable))
	}
	if blocker != nil {
		t.blocker.Store(nil)
	}
}

// pinnedBy returns why a park by t with the given reason keeps its carrier, or "" if it does not.
func (t *Thread) pinnedBy(reason int) string {
	if !t.virtual {
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
// monitor (rt.Unpark for a monitor reason), not a timer or an interrupt.
func (t *Thread) resumeIf(parked uint64, release bool) bool {
	if !t.park.CompareAndSwap(parked, parked&^phaseMask|phaseResumed) {
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
		t.timer.Reset(0)
	} else if parked&flagUnmount != 0 {
		if err := t.sched.pool.Submit(t.runnable()); err != nil {
			// the scheduler was closed while t was parked; Close waits for live threads, so this
			// cannot happen unless the pool was closed behind the scheduler's back
			panic(fmt.Sprintf("loom: cannot resume %v: %v", t, err))
		}
	} else {
		t.wake(nil)
	}
	return true
}

// The wake hand-off. A parked goroutine receives from its own channel (made at its first park),
// and the one waker that won the park word sends it the carrier it is to run on (nil: the thread
// kept its own, or is a platform thread). The CAS on the park word guarantees exactly one send
// per park, so the buffer of one never blocks a waker.
//
// Designs measured and not taken: a sync.Mutex locked by the thread and unlocked by the waker
// saves the ~100-byte channel, but a goroutine blocked on a mutex is not "durably blocked" for
// testing/synctest (a scheduler made inside a bubble must let the fake clock advance); a
// sync.WaitGroup is durably blocking and allocation-free, but its semaphore wake made a
// park/unpark ping-pong ~20% slower than a channel's direct hand-off.

func (t *Thread) armWake() {
	if t.wakeCh == nil {
		t.wakeCh = make(chan *carrier.Slot, 1)
	}
}

func (t *Thread) awaitWake() *carrier.Slot { return <-t.wakeCh }

func (t *Thread) wake(s *carrier.Slot) { t.wakeCh <- s }

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
	resumed := parked&^phaseMask | phaseResumed
	for {
		<-t.timer.C
		if t.park.Load() == resumed {
			return
		}
		left := deadline - nanotime()
		if left <= 0 {
			t.park.CompareAndSwap(parked, resumed) // else a waker just won: resumed either way
			return
		}
		t.timer.Reset(time.Duration(left))
		if t.park.Load() == resumed {
			t.timer.Stop()
			return
		}
	}
}

// nanotime is monotonic nanoseconds since the process started (deadlines: rt.Deadline).
func nanotime() int64 { return rt.Nanotime() }

// unpark makes t's permit available and resumes t if it is parked (but not in a monitor).
func (t *Thread) unpark() {
	t.permit.Store(true)
	if v := t.park.Load(); v&phaseMask == phaseParked && v&flagMonitor == 0 {
		t.resumeIf(v, false)
	}
}

// unparkMonitor makes t's monitor permit available and resumes t if it is parked in a monitor.
func (t *Thread) unparkMonitor() {
	t.mpermit.Store(true)
	if v := t.park.Load(); v&phaseMask == phaseParked && v&flagMonitor != 0 {
		t.resumeIf(v, true)
	}
}

// interruptWake resumes t if it is parked interruptibly, after Interrupt set its status.
func (t *Thread) interruptWake() {
	t.permit.Store(true) // as Java's interrupt of a virtual thread unparks it
	if v := t.park.Load(); v&phaseMask == phaseParked && v&flagNoIntr == 0 {
		t.resumeIf(v, false)
	}
}

// runnable is a Thread as the carrier pool sees it: the same object, with the carrier.Runnable
// methods, which are loom's machinery and not part of Thread's API.
type runnable Thread

func (t *Thread) runnable() *runnable { return (*runnable)(t) }

// Carry implements carrier.Runnable: a new virtual thread runs inline on the dispatching
// goroutine; a resumption is handed the carrier.
func (r *runnable) Carry(s *carrier.Slot) (*carrier.Slot, bool) {
	t := (*Thread)(r)
	if t.hasRun {
		t.wake(s)
		return nil, false
	}
	t.hasRun = true
	gid := gidFunc()
	t.gid.Store(gid)
	t.mount(s)
	t.state.Store(int32(Runnable))
	register(gid, t)
	curCache[gid&(cacheSize-1)].Store(t)
	finished := false
	defer func() {
		if !finished {
			// runtime.Goexit in the task: this goroutine is ending, so pass its carrier on.
			s := t.finish()
			s.Pool().Release(s)
		}
	}()
	t.runTask()
	finished = true
	return t.finish(), true
}

// finish ends a virtual thread on its goroutine and returns the carrier the goroutine holds.
func (t *Thread) finish() *carrier.Slot {
	unregister(t.gid.Load())
	t.unlabelGoroutine()
	s := t.slot.Swap(nil)
	t.terminate()
	return s
}

// mount records that t runs on s from now on (the watchdog watches how long a mount lasts).
func (t *Thread) mount(s *carrier.Slot) {
	t.slot.Store(s)
	s.Mounted(t.gid.Load())
}

// Resumption implements carrier.Runnable.
func (r *runnable) Resumption() bool { return r.hasRun }

// Park disables the current thread until its permit is available (see Unpark), it is
// interrupted, or it returns spuriously; the caller must re-check its condition in a loop. A
// virtual thread unmounts while parked (unless pinned). The permit is consumed; an interrupt
// makes Park return without clearing the interrupt status. The thread is WAITING meanwhile. It
// ports LockSupport.park().
func Park() { Current().parkFor(-1, rt.ParkWaiting, nil, Waiting) }

// ParkNanos is Park that also returns once d has elapsed (TIMED_WAITING). d <= 0 returns at once
// and leaves the permit as it is, as LockSupport.parkNanos does; math.MaxInt64 waits as long as
// Park. It ports LockSupport.parkNanos.
func ParkNanos(d time.Duration) {
	if d > 0 {
		Current().parkFor(d, rt.ParkWaiting, nil, TimedWaiting)
	}
}

// ParkUntil is Park that also returns once deadline has passed. Unlike ParkNanos, a deadline
// already past still consumes an available permit, as LockSupport.parkUntil does on the JDK. It
// ports LockSupport.parkUntil.
func ParkUntil(deadline time.Time) {
	t := Current()
	if d := time.Until(deadline); d > 0 {
		t.parkFor(d, rt.ParkWaiting, nil, TimedWaiting)
		return
	}
	t.permit.Store(false)
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
// ErrInterrupted and clears the interrupt status. Sleep(0) is a Yield; a negative d returns at
// once, as Thread.sleep(Duration) does. It ports Thread.sleep.
func Sleep(d time.Duration) error {
	if d < 0 {
		return nil
	}
	t := Current()
	if t.interrupted.Swap(false) {
		return ErrInterrupted
	}
	if d == 0 {
		Yield()
		if t.interrupted.Swap(false) {
			return ErrInterrupted
		}
		return nil
	}
	deadline := time.Now().Add(d)
	hadPermit := t.permit.Swap(false)
	defer func() {
		if hadPermit {
			t.permit.Store(true)
		}
	}()
	for {
		left := time.Until(deadline)
		if left <= 0 {
			return nil
		}
		t.parkFor(left, rt.ParkWaiting, nil, TimedWaiting)
		if t.interrupted.Swap(false) {
			return ErrInterrupted
		}
	}
}

// Interrupted reports whether the current thread's interrupt status was set, and clears it. It
// ports Thread.interrupted().
func Interrupted() bool { return Current().interrupted.Swap(false) }

// Yield gives the current virtual thread's carrier to the next queued virtual thread and queues
// itself behind the ones already waiting (FIFO); with nothing queued, or when the thread is
// pinned, it just continues. On a platform thread it is runtime.Gosched. It neither consumes nor
// grants the park permit. It ports Thread.yield().
func Yield() {
	t := Current()
	s := t.slot.Load()
	if !t.virtual || s == nil || t.pinnedBy(rt.ParkWaiting) != "" {
		runtimeGosched()
		return
	}
	t.armWake()
	t.slot.Store(nil)
	if !s.Pool().Yield(s, t.runnable()) {
		t.mount(s)
		return
	}
	t.mount(t.awaitWake())
}

// Native runs fn pinned: a virtual thread that parks (or sleeps, or blocks in any loom call)
// inside fn keeps its carrier, as a Java virtual thread does with a native frame on its stack.
// Every such park that lasts longer than the scheduler's threshold is reported as a PinnedEvent
// with reason "NATIVE". On a platform thread Native just calls fn.
func Native(fn func()) {
	t := Current()
	t.pinDepth++
	defer func() { t.pinDepth-- }()
	fn()
}

// Blocking runs fn unmounted: a virtual thread gives its carrier back while fn runs, so fn may
// block in Go's own ways (channel operations, sync.Mutex, time.Sleep, syscalls) without holding a
// carrier that other virtual threads need, then re-mounts (behind the threads already queued). It
// is the managed blocker of Java's ForkJoinPool. On a platform thread, or a pinned virtual
// thread, Blocking just calls fn. The thread's state stays RUNNABLE.
//
// An unmounted fn that blocks in a syscall holds an OS thread of its own, so unmounted Blocking
// calls count against PlatformThreadLimit together with platform threads: past the limit,
// Blocking calls fn without unmounting (the carrier waits with it, as ForkJoinPool.managedBlock
// blocks in place when the pool cannot grow), and starting a platform thread fails with
// ErrThreadLimit; the process never reaches the Go runtime's fatal "thread exhaustion".
func Blocking(fn func()) {
	t := Current()
	s := t.slot.Load()
	if !t.virtual || s == nil || t.pinDepth > 0 || !takeOSThread() {
		fn()
		return
	}
	t.slot.Store(nil)
	p := s.Pool()
	p.Release(s)
	defer func() {
		releaseOSThread() // fn has returned: it holds no OS thread any more
		s := p.TryAcquire()
		if s == nil {
			t.armWake()
			if err := p.Submit(t.runnable()); err != nil {
				panic(err)
			}
			s = t.awaitWake()
		}
		t.mount(s)
	}()
	fn()
}
