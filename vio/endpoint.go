package vio

import (
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/loomgo/loom/internal/rt"
	"github.com/loomgo/loom/thread"
)

// endpoint is what every vio resource shares: it can be closed by an interrupt of a thread
// blocked on it (Java's AbstractInterruptibleChannel), and it remembers whether deadlines are
// set, so that a virtual thread blocked on it shows TIMED_WAITING (Java's setSoTimeout).
type endpoint struct {
	mu       sync.Mutex // held while an interrupt closes the resource
	closed   atomic.Bool
	closedBy atomic.Pointer[thread.Thread] // the thread whose interrupt closed it
	reported atomic.Bool                   // a call of closedBy has returned ErrClosedByInterrupt
	rdl, wdl atomic.Bool                   // a read (write) deadline is set
	closeFn  func() error                  // closes the resource
	rwait    rt.IOWait                     // registered by reads (and accepts, receives)
	wwait    rt.IOWait                     // registered by writes
}

// init prepares e for the resource blocker, closed by closeFn.
func (e *endpoint) init(blocker any, closeFn func() error, readOp, writeOp string) {
	e.closeFn = closeFn
	e.rwait = rt.IOWait{Op: readOp, Blocker: blocker, Interrupt: e.interrupt}
	e.wwait = rt.IOWait{Op: writeOp, Blocker: blocker, Interrupt: e.interrupt}
}

// interrupt closes the resource on behalf of the interrupted thread t, unless it is closed
// already (then there is nothing to do: the blocked call fails on its own, as Java's
// AsynchronousCloseException).
func (e *endpoint) interrupt(t any) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed.CompareAndSwap(false, true) {
		e.closedBy.Store(t.(*thread.Thread)) // before the close, so the woken call sees it
		e.closeFn()
	}
}

// interruptedPark closes the resource for t, whose call would have parked with its interrupt
// status set, and returns the error the call fails with before byInterruptOf turns it into the
// interrupt's (net.ErrClosed if the resource was closed already).
func (e *endpoint) interruptedPark(t any) error {
	e.interrupt(t)
	return net.ErrClosed
}

// close closes the resource for its owner.
func (e *endpoint) close() error {
	e.closed.Store(true)
	return e.closeFn()
}

// byInterruptOf reports whether a failed call of t is the one to report that an interrupt of t
// closed the resource: the first such call (normally the call the interrupt woke, or the one that
// began with the status set; the next one if that call had completed anyway). Later calls of t
// fail as any call on a closed resource does, with net.ErrClosed, as in Java ("Socket closed",
// ClosedChannelException). It returns once the close is complete: Go's poller wakes a blocked
// call as a close begins, and the call must not report the resource closed while the
// interrupting goroutine is still closing it (a listening socket would still accept
// connections).
func (e *endpoint) byInterruptOf(t any) bool {
	if by := e.closedBy.Load(); by == nil || t != any(by) {
		return false
	}
	// An empty critical section: it waits for the interrupting goroutine's close to finish.
	e.mu.Lock()
	//lint:ignore SA2001 the empty critical section is the wait (see above).
	e.mu.Unlock()
	return e.reported.CompareAndSwap(false, true)
}

// parkWait is the IOWait of a socket call that follows java.net.Socket's interrupt rule
// (NioSocketImpl, ServerSocket, DatagramSocket on a virtual thread): the interrupt status matters
// only where the call is about to park. A call that can proceed at once does so and leaves the
// status set; one that must wait with the status set closes the socket instead of parking (the
// interrupted park's InterruptedIOException, which Socket turns into "Closed by interrupt"); an
// interrupt of a thread parked in the call closes the socket as any interrupt of an I/O park
// does. The channels' rule (AbstractInterruptibleChannel.begin: close whenever the status is set)
// is the endpoint's own rwait and wwait, which files use.
//
// The status check and the interrupt cannot miss each other: the call stores parker, then loads
// the status (parking); Interrupt stores the status, then loads the registered wait and its
// parker (interrupt). A late Interrupt of a call that has ended finds another parker, or none.
type parkWait struct {
	rt.IOWait
	e      *endpoint
	parker atomic.Pointer[thread.Thread] // the thread about to park, or parked, in the call
	busy   atomic.Bool                   // a call uses it (see acquire)
}

func (w *parkWait) init(e *endpoint, op string, blocker any) {
	w.e = e
	w.IOWait = rt.IOWait{Op: op, Blocker: blocker, Interrupt: w.interrupt}
}

// acquire returns w for a call if no other call uses it, else a fresh wait like it: several
// threads may accept on one listener, or send on one packet conn, at once.
func (w *parkWait) acquire() *parkWait {
	if w.busy.CompareAndSwap(false, true) {
		return w
	}
	f := &parkWait{}
	f.init(w.e, w.Op, w.Blocker)
	return f
}

// release ends the call (interrupts no longer close the resource through w) and frees w.
func (w *parkWait) release() {
	w.parker.Store(nil)
	w.busy.Store(false)
}

// interrupt closes the resource for t if t is about to park or parked in the call; otherwise t's
// status is all the interrupt leaves, for the call to find if it comes to park.
func (w *parkWait) interrupt(t any) {
	if th := t.(*thread.Thread); w.parker.Load() == th {
		w.e.interrupt(th)
	}
}

// parking tells w that t's call is about to park, and reports whether t's interrupt status is
// set: the call must then not park, but close the resource (w.e.interrupt, once it holds no lock
// of Go's poller) and fail.
func (w *parkWait) parking(t any) bool {
	th := t.(*thread.Thread)
	w.parker.Store(th)
	return th.IsInterrupted()
}

// arm makes an interrupt of t close the resource from now on, whatever t's status was before: for
// a call that may wait inside Go where vio cannot see it (an accept another acceptor raced).
func (w *parkWait) arm(t any) { w.parker.Store(t.(*thread.Thread)) }

// readHow and writeHow say how a thread blocked on e shows.
func (e *endpoint) readHow() int  { return how(e.rdl.Load()) }
func (e *endpoint) writeHow() int { return how(e.wdl.Load()) }

func how(timed bool) int {
	if timed {
		return rt.IOTimedWaiting
	}
	return rt.IOWaiting
}

func (e *endpoint) setDeadlines(read, write bool, t time.Time) {
	if read {
		e.rdl.Store(!t.IsZero())
	}
	if write {
		e.wdl.Store(!t.IsZero())
	}
}

// call runs fn, which blocks in Go's own ways, as an I/O call of the current thread: registered
// as w, so that an interrupt reaches it, and unmounted while it runs if the thread is a mounted
// virtual thread (showing as how says). It returns the thread (nil on a goroutine that is not a
// loom thread: fn just runs). Every hand-off is paid even if fn does not block: it is the path
// for the calls vio cannot try without blocking.
func call(w *rt.IOWait, how int, fn func()) (t any) {
	t, mounted := rt.IOCurrent()
	if t == nil {
		fn()
		return nil
	}
	prev := rt.IOBegin(t, w)
	defer rt.IOEnd(t, prev) // fn may panic (a handler, a round tripper): re-mount regardless
	if mounted {
		rt.IOPark(t, how)
	}
	fn()
	return t
}
