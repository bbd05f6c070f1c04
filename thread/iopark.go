package thread

import (
	"sync/atomic"
	"time"

	"github.com/loomgo/loom/internal/carrier"
	"github.com/loomgo/loom/internal/rt"
)

// I/O parks: the park whose waker is not loom.
//
// A virtual thread that waits for a socket gives its carrier back as any park does; what differs
// is who waits and who wakes. parkFor yields the thread's continuation to its driver until a loom
// waker (Unpark, Interrupt, the timer queue) queues it. An I/O park waits in Go's own machinery
// instead — the runtime's network poller inside syscall.RawConn.Read, a select on a channel, a
// process's exit — on the continuation's goroutine, which cannot yield meanwhile: the carrier goes
// to another driver (Release) while the continuation's own driver waits for it to yield. When Go's
// wait returns, the thread takes an idle carrier, or yields to that old driver (whyDetached),
// which queues its resumption on its scheduler, as resumeIf does for a woken park, and ends; the
// driver that pops it resumes the continuation (remount). Package vio drives the three steps
// through internal/rt:
//
//	ioBegin  register the call's IOWait (Java's Thread.blockedOn); interrupt status set: w.Interrupt now
//	ioPark   the call would block: give the carrier back (Release), WAITING or TIMED_WAITING
//	ioEnd    Go's wait is over: queue behind the runnable threads (FIFO), mount, RUNNABLE; unregister
//
// For a socket the three are placed around the non-blocking syscall: vio calls RawConn.Read(f),
// f tries read(2) and only on EAGAIN calls ioPark and returns false, so the poller waits with no
// carrier held, and f runs again (unmounted) when the poller reports the socket ready. A call
// that can proceed at once never reaches ioPark: it costs ioBegin and ioEnd (an atomic swap
// each), no hand-off.
//
// # Invariants
//
//   - The park word stays in phase running during an I/O park. None of loom's wakers may end it:
//     an Unpark only stores the permit (the next Park consumes it; an I/O park neither consumes
//     nor grants it), and resumeIf must not queue a thread whose goroutine sits in the poller,
//     or a carrier would be handed to a goroutine that is not there to take it.
//   - Interrupt ends an I/O park through the registered IOWait (closing the socket makes the
//     poller return), never through the park word. Interrupt stores the status, then loads the
//     IOWait; ioBegin stores the IOWait, then loads the status; with sequentially consistent
//     atomics at least one of them sees the other, so an interrupt is never missed (both may
//     call w.Interrupt, which is idempotent), as Java's blockedOn/interrupt pair under its
//     interruptLock.
//   - Only the thread touches its io fields other than the registered wait; a nested wait (a TLS
//     read over a vio conn: the outer call unmounted, the inner one finds the thread unmounted)
//     parks and re-mounts only at the depth that unmounted.
//   - A pinned virtual thread (Native, or a monitor under PinSynchronized) keeps its carrier in
//     an I/O park, as Java's does when Poller.poll parks it, and the park is reported as a pinned
//     park (LockSupport.park) once it exceeds the threshold.
//
// # Designs not taken
//
//   - Publishing the parked phase with a flag that tells wakers to stay away: every waker
//     (unpark, unparkMonitor, interruptWake) would test one more flag on the hot path of ordinary
//     parks, to gain nothing: the I/O park has exactly one waker, its own goroutine.
//   - A goroutine per I/O call that does the syscall while the thread parks on the park word: a
//     goroutine and two hand-offs per blocking read, and a read that could proceed at once would
//     still pay for them.
//   - Unmounting around every call, as Blocking does: every read, even one whose data is there,
//     gives the carrier away and queues for one again behind the runnable threads. On an idle
//     scheduler that costs ~10% of a read; on a busy one each read waits its turn (issue 12
//     measured an HTTP fan-out wrapped in Blocking at 2.5× the goroutines' time).

// The modes of an I/O park.
const (
	ioUnmounted   = iota // gave the carrier back: re-mount at the end
	ioPinned             // pinned: kept the carrier, a pinned park
	ioCompensated        // kept the carrier; pool is lending one (nil: it could not)
)

// ioState is a thread's I/O park, touched only by the thread except for wait (see Interrupt).
type ioState struct {
	wait   atomic.Pointer[rt.IOWait] // the I/O call in progress (Java's Thread.nioBlocker)
	depth  int32                     // nesting of ioBegin
	parked int32                     // the depth whose ioPark parked the thread, 0 if none
	mode   int                       // how the thread is parked: ioUnmounted, ioPinned, ioCompensated
	pool   *carrier.Pool             // the pool the thread gave its carrier back to (or that compensates)
	pinned string                    // ioPinned: why ("NATIVE", "MONITOR")
	start  time.Time                 // when a pinned park began
}

func init() {
	rt.IOCurrent = func() (any, bool) {
		t := currentIfAttached()
		if t == nil {
			return nil, false
		}
		return t, t.isVirtual() && t.slot.Load() != nil
	}
	rt.IOBegin = func(t any, w *rt.IOWait) *rt.IOWait { return t.(*Thread).ioBegin(w) }
	rt.IOPark = func(t any, how int) { t.(*Thread).ioPark(how) }
	rt.IOEnd = func(t any, prev *rt.IOWait) { t.(*Thread).ioEnd(prev) }
}

// currentIfAttached is Current without attaching: nil on a goroutine that is not a loom thread.
func currentIfAttached() *Thread {
	gid := gidFunc()
	if t := curCache[gid&(cacheSize-1)].Load(); t != nil && t.gid == gid && t.rawState() != Terminated {
		return t
	}
	if t := lookup(gid); t != nil {
		return t
	}
	return mountedOn(gid)
}

func (t *Thread) ioBegin(w *rt.IOWait) *rt.IOWait {
	io := &t.more().io
	prev := io.wait.Swap(w)
	io.depth++
	if t.bits.get(bitInterrupted) {
		w.Interrupt(t)
	}
	return prev
}

func (t *Thread) ioPark(how int) {
	io := &t.more().io
	if io.parked != 0 {
		return // parked already, by this call or an enclosing one
	}
	s := t.slot.Load()
	if !t.isVirtual() || s == nil {
		return // a platform thread keeps its OS thread; inside Blocking it holds no carrier
	}
	io.parked = io.depth
	if how == rt.IOCompensated {
		// keep the carrier, as Java's Blocker.begin does for file I/O, and let the pool run a
		// temporary one meanwhile (up to MaxPoolSize)
		io.mode = ioCompensated
		if p := s.Pool(); p.Compensate() {
			io.pool = p
		}
		return
	}
	if w := io.wait.Load(); w != nil && w.Blocker != nil {
		t.setBlocker(w.Blocker)
	}
	st := int32(-1) // the state to report once parked (as Java's PARKING, RUNNABLE until then)
	switch how {
	case rt.IOWaiting:
		st = int32(Waiting)
	case rt.IOTimedWaiting:
		st = int32(TimedWaiting)
	}
	if by := t.pinnedBy(rt.ParkWaiting); by != "" {
		if st >= 0 {
			t.state.Store(st)
		}
		io.mode, io.pinned, io.start = ioPinned, by, time.Now()
		t.sched.pinnedParks.Add(1)
		return
	}
	io.mode = ioUnmounted
	if t.regIndex == 0 {
		registerVirtual(t) // unmounted, it is found through the registry (LiveThreads)
	}
	if t.sched.opts.ProfilerLabels {
		t.labelGoroutine()
	}
	t.slot.Store(nil)
	if st >= 0 {
		t.state.Store(st) // after the carrier is gone: a WAITING virtual thread has none
	}
	// unmounted, its goroutine still runs (Go's poller, a nested vio call): found by its
	// goroutine id from now until it re-mounts
	register(t.gid, t)
	t.sched.count(s, cParked, 1)
	t.traceIOPark()
	io.pool = s.Pool()
	io.pool.Release(s)
}

func (t *Thread) ioEnd(prev *rt.IOWait) {
	io := &t.moreIfAny().io // ioBegin made it
	io.wait.Store(prev)
	if io.parked == io.depth {
		io.parked = 0
		t.state.Store(int32(Runnable))
		t.setBlocker(nil)
		p := io.pool
		io.pool = nil
		switch io.mode {
		case ioCompensated:
			if p != nil {
				p.EndCompensate()
			}
		case ioPinned:
			t.sched.pinnedParks.Add(-1)
			t.sched.pinned(t, time.Since(io.start), io.pinned, rt.ParkWaiting)
		default:
			unregister(t.gid)
			t.remount(p)
			t.sched.count(t.slot.Load(), cParked, -1)
		}
	}
	io.depth--
}

// remount gives t, which runs unmounted, a carrier of p again: an idle one at once if no virtual
// thread is queued ahead, else its turn behind the queued ones (the FIFO order of a resumption),
// through its continuation's old driver, which holds no carrier (see drive).
func (t *Thread) remount(p *carrier.Pool) {
	s := p.TryAcquire()
	if s == nil {
		// its continuation's old driver, which holds no carrier, queues it (drive) and ends
		t.coro().yield(whyDetached)
		s = t.slot.Load()
	}
	t.mount(s)
}

// ioWait returns the I/O call t waits in, or nil.
func (t *Thread) ioWait() *rt.IOWait {
	if m := t.moreIfAny(); m != nil {
		return m.io.wait.Load()
	}
	return nil
}

// interruptIO ends the I/O call t waits in, if any, as Java's Thread.interrupt calls its
// blocker's Interruptible.
func (t *Thread) interruptIO() {
	if w := t.ioWait(); w != nil {
		w.Interrupt(t)
	}
}
