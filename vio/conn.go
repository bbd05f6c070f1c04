package vio

import (
	"errors"
	"fmt"
	"net"
	"syscall"
	"time"

	"github.com/loomgo/loom/internal/rt"
	"github.com/loomgo/loom/thread"
)

// Conn is a [net.Conn] whose blocking calls unmount a virtual thread: it ports the socket of a
// java.net.Socket or java.nio.channels.SocketChannel used by a virtual thread. Get one from
// [Dial], [DialContext], a [Listener]'s Accept, or [WrapConn].
//
// On a virtual thread, Read and Write that can proceed at once cost what the wrapped conn's cost
// (one system call, no carrier hand-off); one that would block gives the carrier back while Go's
// network poller waits, and takes a carrier again (behind the virtual threads already queued)
// when the socket is ready. Meanwhile the thread is WAITING, or TIMED_WAITING if a deadline is
// set through this Conn, and [thread.DumpThreads] shows the call. Conns that are not TCP, Unix or
// UDP sockets (a TLS conn, [net.Pipe]) have no system call vio can try: their calls unmount for
// their whole length.
//
// Interrupts follow java.net.Socket's (NioSocketImpl on a virtual thread). Interrupting a thread
// blocked in Read or Write ([thread.Thread.Interrupt]), or calling one that has to wait with the
// interrupt status set, closes the Conn; the call returns a [*net.OpError] wrapping
// [ErrClosedByInterrupt], and the interrupt status stays set (Java's SocketException "Closed by
// interrupt"). A Read with data there or a Write with room in the send buffer proceeds with the
// status set and leaves the Conn open, as Java's InputStream.read and OutputStream.write do
// (SocketChannel would close itself: see the package doc). A Conn without a system-call path is
// about to wait from the start of each call: the status set closes it at once. Closing the Conn
// from another thread makes blocked calls return [net.ErrClosed]; deadlines make them return
// [os.ErrDeadlineExceeded] (Java's SocketTimeoutException) and leave the Conn open.
//
// On a platform thread, and on a goroutine loom did not start, a Conn behaves as the conn it
// wraps (plus the interrupt rule, on a thread loom knows). Errors are the standard library's:
// [io.EOF] at the end of a stream, *net.OpError with Op "read" or "write" otherwise.
//
// Several goroutines may call a Conn's methods at once, as for any [net.Conn]; concurrent Reads
// (or Writes) are serialized by Go's poller, and a virtual thread waiting for another's Read to
// finish holds its carrier meanwhile.
type Conn struct {
	endpoint
	c            net.Conn
	raw          rawConn // zero if c is not a socket vio can try without blocking
	netw         string
	laddr, raddr net.Addr
}

// WrapConn returns c as a vio [*Conn], whose blocking calls unmount a virtual thread. A *Conn
// comes back unchanged. The returned Conn owns c: close it rather than c, so that deadlines and
// interrupts are seen. WrapConn(nil) panics with [thread.ErrNilArgument].
func WrapConn(c net.Conn) net.Conn {
	if c == nil {
		panic(fmt.Errorf("%w: vio.WrapConn(nil)", thread.ErrNilArgument))
	}
	return wrapConn(c)
}

func wrapConn(c net.Conn) *Conn {
	if vc, ok := c.(*Conn); ok {
		return vc
	}
	vc := &Conn{c: c, laddr: c.LocalAddr(), raddr: c.RemoteAddr()}
	if vc.laddr != nil {
		vc.netw = vc.laddr.Network()
	}
	vc.init(vc, c.Close, "read", "write")
	vc.raw.init(c, vc)
	return vc
}

// NetConn returns the conn c wraps, as [crypto/tls.Conn.NetConn] does.
func (c *Conn) NetConn() net.Conn { return c.c }

// Read reads into b, as the wrapped conn's Read. It blocks until some data is available, the
// peer closes ([io.EOF]), a read deadline passes ([os.ErrDeadlineExceeded]) or the conn is closed;
// a virtual thread unmounts meanwhile. An interrupt while it waits, or the interrupt status set
// when it would have to wait, closes the conn and Read returns [ErrClosedByInterrupt]; with data
// there it reads whatever the status (see [Conn]). A Read of no bytes returns at once. It ports
// Socket's InputStream.read.
func (c *Conn) Read(b []byte) (n int, err error) {
	t, mounted := rt.IOCurrent()
	switch {
	case t == nil:
		return c.c.Read(b)
	case c.raw.ok() && len(b) > 0:
		n, err = c.raw.read(c, t, b)
	case c.raw.ok():
		n, err = c.c.Read(b) // returns at once, as Java's read of 0 bytes
	default:
		n, err = c.unmounted(t, mounted && len(b) > 0, &c.rwait, c.readHow(), c.c.Read, b)
	}
	if err != nil {
		err = c.checkInterrupt(t, "read", err)
	}
	return n, err
}

// Write writes b, as the wrapped conn's Write: it returns when all of b is written or an error
// occurs, with the count written. It blocks while the socket's send buffer is full; a virtual
// thread unmounts meanwhile. Deadlines, close and interrupts are as for Read: with room in the
// send buffer it writes whatever the interrupt status; if it has to wait with the status set,
// it closes the conn and returns the count written so far with [ErrClosedByInterrupt]. It ports
// Socket's OutputStream.write.
func (c *Conn) Write(b []byte) (n int, err error) {
	t, mounted := rt.IOCurrent()
	switch {
	case t == nil:
		return c.c.Write(b)
	case c.raw.ok():
		n, err = c.raw.write(c, t, b)
	default:
		n, err = c.unmounted(t, mounted, &c.wwait, c.writeHow(), c.c.Write, b)
	}
	if err != nil {
		err = c.checkInterrupt(t, "write", err)
	}
	return n, err
}

// unmounted runs fn(b), a Read or Write of a conn vio cannot try without blocking, for thread t,
// registered as w: unmounted if park (a mounted virtual thread), showing as how says. It is about
// to park from the start, so the interrupt status set at entry closes the conn (w is the
// endpoint's rwait or wwait).
func (c *Conn) unmounted(t any, park bool, w *rt.IOWait, how int, fn func([]byte) (int, error), b []byte) (int, error) {
	prev := rt.IOBegin(t, w)
	defer rt.IOEnd(t, prev) // the wrapped conn may panic: re-mount regardless
	if park {
		rt.IOPark(t, how)
	}
	return fn(b)
}

// checkInterrupt turns the error of a call by t into the interrupt's error if an interrupt of t
// closed the conn.
func (c *Conn) checkInterrupt(t any, op string, err error) error {
	if c.byInterruptOf(t) {
		return c.opError(op, ErrClosedByInterrupt)
	}
	return err
}

func (c *Conn) opError(op string, err error) error {
	return &net.OpError{Op: op, Net: c.netw, Source: c.laddr, Addr: c.raddr, Err: err}
}

// Close closes the conn; blocked Reads and Writes return [net.ErrClosed]. It ports Socket.close.
func (c *Conn) Close() error { return c.close() }

// LocalAddr returns the local address of the wrapped conn.
func (c *Conn) LocalAddr() net.Addr { return c.laddr }

// RemoteAddr returns the remote address of the wrapped conn.
func (c *Conn) RemoteAddr() net.Addr { return c.raddr }

// SetDeadline sets the read and write deadlines of the wrapped conn (see [net.Conn]). While a
// deadline is set, a virtual thread blocked on the conn shows TIMED_WAITING.
func (c *Conn) SetDeadline(t time.Time) error {
	c.setDeadlines(true, true, t)
	return c.c.SetDeadline(t)
}

// SetReadDeadline sets the read deadline of the wrapped conn, as Java's Socket.setSoTimeout.
func (c *Conn) SetReadDeadline(t time.Time) error {
	c.setDeadlines(true, false, t)
	return c.c.SetReadDeadline(t)
}

// SetWriteDeadline sets the write deadline of the wrapped conn.
func (c *Conn) SetWriteDeadline(t time.Time) error {
	c.setDeadlines(false, true, t)
	return c.c.SetWriteDeadline(t)
}

// CloseWrite shuts down the writing side of a TCP or Unix conn (Socket.shutdownOutput). For
// other conns it returns an error wrapping [errors.ErrUnsupported].
func (c *Conn) CloseWrite() error {
	if cw, ok := c.c.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return c.opError("close", errors.ErrUnsupported)
}

// CloseRead shuts down the reading side of a TCP or Unix conn (Socket.shutdownInput). For
// other conns it returns an error wrapping [errors.ErrUnsupported].
func (c *Conn) CloseRead() error {
	if cr, ok := c.c.(interface{ CloseRead() error }); ok {
		return cr.CloseRead()
	}
	return c.opError("close", errors.ErrUnsupported)
}

// SyscallConn returns the wrapped conn's raw connection, for socket options (Control). Reads and
// writes made through it bypass vio.
func (c *Conn) SyscallConn() (syscall.RawConn, error) {
	if sc, ok := c.c.(syscall.Conn); ok {
		return sc.SyscallConn()
	}
	return nil, c.opError("raw-control", errors.ErrUnsupported)
}
