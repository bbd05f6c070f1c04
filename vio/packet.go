package vio

import (
	"fmt"
	"net"
	"time"

	"github.com/loomgo/loom/internal/rt"
	"github.com/loomgo/loom/thread"
)

// PacketConn is a [net.PacketConn] whose ReadFrom unmounts a virtual thread: it ports
// java.net.DatagramSocket / DatagramChannel used by virtual threads. Get one from [ListenPacket]
// or [WrapPacketConn].
//
// On a virtual thread, a ReadFrom with a datagram already queued on a UDP socket costs one system
// call and no carrier hand-off; one that would block gives the carrier back while Go's poller
// waits (WAITING, or TIMED_WAITING with a read deadline set through the PacketConn). WriteTo on a
// UDP socket is the wrapped conn's (a send blocks only while the socket's buffer is full, for
// microseconds); on other packet conns both calls unmount for their whole length. Interrupting a
// thread blocked in ReadFrom or WriteTo, or calling them with the interrupt status set, closes
// the PacketConn; the call returns a [*net.OpError] wrapping [ErrClosedByInterrupt] and the
// interrupt status stays set (DatagramChannel's ClosedByInterruptException). On platform threads
// and goroutines loom did not start, the calls are the wrapped conn's.
type PacketConn struct {
	endpoint
	pc    net.PacketConn
	raw   rawPacket // zero if pc is not a UDP socket
	netw  string
	laddr net.Addr
}

// ListenPacket announces on the local network address, as [net.ListenPacket], and returns a vio
// [*PacketConn].
func ListenPacket(network, address string) (net.PacketConn, error) {
	pc, err := net.ListenPacket(network, address)
	if err != nil {
		return nil, err
	}
	return wrapPacketConn(pc), nil
}

// WrapPacketConn returns pc as a vio [*PacketConn]; a *PacketConn comes back unchanged. The
// returned [PacketConn] owns pc. WrapPacketConn(nil) panics with [thread.ErrNilArgument].
func WrapPacketConn(pc net.PacketConn) net.PacketConn {
	if pc == nil {
		panic(fmt.Errorf("%w: vio.WrapPacketConn(nil)", thread.ErrNilArgument))
	}
	return wrapPacketConn(pc)
}

func wrapPacketConn(pc net.PacketConn) *PacketConn {
	if vp, ok := pc.(*PacketConn); ok {
		return vp
	}
	vp := &PacketConn{pc: pc, laddr: pc.LocalAddr()}
	if vp.laddr != nil {
		vp.netw = vp.laddr.Network()
	}
	vp.init(vp, pc.Close, "receive", "send")
	vp.raw.init(pc)
	return vp
}

// NetPacketConn returns the packet conn p wraps.
func (p *PacketConn) NetPacketConn() net.PacketConn { return p.pc }

// ReadFrom reads a datagram into b and returns its size and sender, as the wrapped conn's
// ReadFrom. It blocks until a datagram arrives, the read deadline passes
// ([os.ErrDeadlineExceeded]) or the conn is closed; a virtual thread unmounts meanwhile. An
// interrupt closes the conn (see [PacketConn]). It ports DatagramSocket.receive.
func (p *PacketConn) ReadFrom(b []byte) (n int, addr net.Addr, err error) {
	t, mounted := rt.IOCurrent()
	if t == nil {
		return p.pc.ReadFrom(b)
	}
	prev := rt.IOBegin(t, &p.rwait)
	defer rt.IOEnd(t, prev) // the wrapped conn may panic: re-mount regardless
	switch {
	case mounted && p.raw.ok():
		n, addr, err = p.raw.readFrom(p, t, b)
	case mounted:
		rt.IOPark(t, p.readHow())
		fallthrough
	default:
		n, addr, err = p.pc.ReadFrom(b)
	}
	if err != nil && p.byInterruptOf(t) {
		err = p.opError(ErrClosedByInterrupt)
	}
	return n, addr, err
}

// WriteTo sends b as a datagram to addr, as the wrapped conn's WriteTo. See [PacketConn] for
// when it unmounts; interrupts are as for ReadFrom. It ports DatagramSocket.send.
func (p *PacketConn) WriteTo(b []byte, addr net.Addr) (int, error) {
	var n int
	var err error
	w := &p.wwait
	var t any
	if p.raw.ok() {
		t = register(w, func() { n, err = p.pc.WriteTo(b, addr) })
	} else {
		t = call(w, p.writeHow(), func() { n, err = p.pc.WriteTo(b, addr) })
	}
	if err != nil && t != nil && p.byInterruptOf(t) {
		err = &net.OpError{Op: "write", Net: p.netw, Source: p.laddr, Addr: addr, Err: ErrClosedByInterrupt}
	}
	return n, err
}

// register runs fn as an I/O call registered as w (an interrupt reaches it) without unmounting:
// for calls that block only for microseconds.
func register(w *rt.IOWait, fn func()) (t any) {
	t, _ = rt.IOCurrent()
	if t == nil {
		fn()
		return nil
	}
	prev := rt.IOBegin(t, w)
	defer rt.IOEnd(t, prev)
	fn()
	return t
}

func (p *PacketConn) opError(err error) error {
	return &net.OpError{Op: "read", Net: p.netw, Source: p.laddr, Err: err}
}

// Close closes the conn; blocked calls return [net.ErrClosed].
func (p *PacketConn) Close() error { return p.close() }

// LocalAddr returns the local address of the wrapped conn.
func (p *PacketConn) LocalAddr() net.Addr { return p.laddr }

// SetDeadline sets the read and write deadlines of the wrapped conn; while a read deadline is set
// a virtual thread blocked in ReadFrom shows TIMED_WAITING.
func (p *PacketConn) SetDeadline(t time.Time) error {
	p.setDeadlines(true, true, t)
	return p.pc.SetDeadline(t)
}

// SetReadDeadline sets the read deadline of the wrapped conn (DatagramSocket.setSoTimeout).
func (p *PacketConn) SetReadDeadline(t time.Time) error {
	p.setDeadlines(true, false, t)
	return p.pc.SetReadDeadline(t)
}

// SetWriteDeadline sets the write deadline of the wrapped conn.
func (p *PacketConn) SetWriteDeadline(t time.Time) error {
	p.setDeadlines(false, true, t)
	return p.pc.SetWriteDeadline(t)
}
