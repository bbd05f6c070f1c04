package vio

import (
	"fmt"
	"net"
	"os"
	"syscall"
	"time"

	"github.com/loomgo/loom/internal/rt"
	"github.com/loomgo/loom/thread"
)

// Listener is a [net.Listener] whose Accept unmounts a virtual thread and whose conns are vio
// [*Conn]s: it ports java.net.ServerSocket / ServerSocketChannel used by virtual threads. Get one
// from [Listen] or [WrapListener].
//
// On a virtual thread, an Accept with a connection already queued costs no carrier hand-off; one
// that would block gives the carrier back while Go's poller waits (WAITING, or TIMED_WAITING with
// a deadline set through the Listener). Interrupting a thread blocked in Accept, or calling Accept
// with the interrupt status set and no connection queued, closes the Listener; Accept returns a
// [*net.OpError] wrapping [ErrClosedByInterrupt] and the interrupt status stays set. With a
// connection queued, Accept returns it whatever the status, as ServerSocket.accept does
// (ServerSocketChannel.accept would close itself). A listener without a readiness path (not TCP
// or Unix, or not on Linux) is about to wait from the start: the status set closes it at once.
// On goroutines loom did not start, Accept is the wrapped listener's.
//
// For TCP and Unix listeners on Linux, the Listener holds a duplicate of the listening socket,
// through which it waits for readiness (Go's listener refuses raw reads): close the Listener, not
// the listener it wraps, or the socket stays open.
type Listener struct {
	endpoint
	l    net.Listener
	netw string
	f    *os.File        // duplicate of the listening socket, pollable; nil: no readiness path
	rc   syscall.RawConn // f's
	aw   parkWait        // the IOWait of an Accept through rc
}

// Listen announces on the local network address, as [net.Listen], and returns a vio [*Listener].
func Listen(network, address string) (net.Listener, error) {
	l, err := net.Listen(network, address)
	if err != nil {
		return nil, err
	}
	return wrapListener(l), nil
}

// WrapListener returns l as a vio [*Listener]: Accept unmounts a virtual thread and returns vio
// conns. A *Listener comes back unchanged. The returned Listener owns l. WrapListener(nil)
// panics with [thread.ErrNilArgument].
func WrapListener(l net.Listener) net.Listener {
	if l == nil {
		panic(fmt.Errorf("%w: vio.WrapListener(nil)", thread.ErrNilArgument))
	}
	return wrapListener(l)
}

func wrapListener(l net.Listener) *Listener {
	if vl, ok := l.(*Listener); ok {
		return vl
	}
	vl := &Listener{l: l, netw: l.Addr().Network()}
	vl.init(vl, vl.closeAll, "accept", "accept")
	vl.f, vl.rc = readinessFile(l)
	vl.aw.init(&vl.endpoint, "accept", vl)
	return vl
}

// Accept waits for and returns the next connection, as a vio [*Conn]. It blocks until a
// connection arrives, the deadline passes ([os.ErrDeadlineExceeded]) or the Listener is closed
// ([net.ErrClosed]); a virtual thread unmounts meanwhile. An interrupt while it waits, or the
// interrupt status set when no connection is queued, closes the Listener (see [Listener]). It
// ports ServerSocket.accept.
func (l *Listener) Accept() (net.Conn, error) {
	t, mounted := rt.IOCurrent()
	var c net.Conn
	var err error
	switch {
	case t == nil:
		return l.accept()
	case l.rc != nil:
		c, err = l.acceptReady(t)
	default:
		c, err = l.acceptUnmounted(t, mounted)
	}
	if err != nil && l.byInterruptOf(t) {
		err = l.opError(ErrClosedByInterrupt)
	}
	return c, err
}

// acceptReady is Accept through the readiness path: with a connection queued it accepts at once,
// whatever the interrupt status (ServerSocket.accept); it parks t while none is.
func (l *Listener) acceptReady(t any) (net.Conn, error) {
	w := l.aw.acquire()
	defer w.release()
	prev := rt.IOBegin(t, &w.IOWait)
	defer rt.IOEnd(t, prev) // the wrapped listener may panic: re-mount regardless
	if err := l.awaitReady(t, w); err != nil {
		return nil, err
	}
	// Another acceptor may take the connection first; Go's Accept then waits where vio cannot
	// see it, and an interrupt must still close the listener.
	w.arm(t)
	return l.accept()
}

// acceptUnmounted is Accept on a listener without a readiness path: it is about to park from
// the start, so the interrupt status set at entry closes the listener.
func (l *Listener) acceptUnmounted(t any, mounted bool) (net.Conn, error) {
	prev := rt.IOBegin(t, &l.rwait)
	defer rt.IOEnd(t, prev) // the wrapped listener may panic: re-mount regardless
	if mounted {
		rt.IOPark(t, l.readHow())
	}
	return l.accept()
}

func (l *Listener) accept() (net.Conn, error) {
	c, err := l.l.Accept()
	if err != nil {
		return nil, err
	}
	return wrapConn(c), nil
}

// awaitReady returns when a connection is queued on the listening socket, parking t while there
// is none. If t would park with its interrupt status set, it closes the listener instead.
func (l *Listener) awaitReady(t any, w *parkWait) error {
	how := l.readHow()
	interrupted := false
	err := l.rc.Read(func(fd uintptr) bool {
		if readable(fd) {
			return true
		}
		if w.parking(t) {
			interrupted = true
			return true
		}
		rt.IOPark(t, how)
		return false
	})
	if interrupted {
		err = l.interruptedPark(t)
	}
	if err == nil {
		return nil
	}
	if l.closed.Load() {
		err = net.ErrClosed // the duplicate reports "use of closed file"
	}
	return l.opError(err)
}

func (l *Listener) opError(err error) error {
	return &net.OpError{Op: "accept", Net: l.netw, Addr: l.l.Addr(), Err: err}
}

// closeAll closes the listener, then the duplicate. In that order, an Accept waiting on the
// duplicate wakes only when the listening socket is closed for good: Go's poller releases the
// duplicate's last reference, and closes it, before the waiting RawConn.Read returns.
func (l *Listener) closeAll() error {
	err := l.l.Close()
	if l.f != nil {
		l.f.Close()
	}
	return err
}

// Close closes the Listener; a blocked Accept returns [net.ErrClosed]. It ports
// ServerSocket.close.
func (l *Listener) Close() error { return l.close() }

// Addr returns the listener's network address.
func (l *Listener) Addr() net.Addr { return l.l.Addr() }

// SetDeadline sets the deadline for Accept, as [net.TCPListener.SetDeadline] (Java's
// ServerSocket.setSoTimeout); a zero time means none. It fails for listeners without deadlines.
func (l *Listener) SetDeadline(t time.Time) error {
	dl, ok := l.l.(interface{ SetDeadline(time.Time) error })
	if !ok {
		return &net.OpError{Op: "set", Net: l.netw, Addr: l.l.Addr(), Err: syscall.EINVAL}
	}
	if err := dl.SetDeadline(t); err != nil {
		return err
	}
	l.setDeadlines(true, false, t)
	if l.f != nil {
		return l.f.SetReadDeadline(t)
	}
	return nil
}

// NetListener returns the listener l wraps.
func (l *Listener) NetListener() net.Listener { return l.l }
