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
// microseconds); on other packet conns both calls unmount for their whole length. Interrupts
// follow DatagramSocket's: interrupting a thread blocked in ReadFrom or WriteTo, or calling
// ReadFrom with the interrupt status set and no datagram queued, closes the PacketConn; the call
// returns a [*net.OpError] wrapping [ErrClosedByInterrupt] and the interrupt status stays set
// (Java's SocketException "Closed by interrupt"). A ReadFrom with a datagram queued, and a UDP
// WriteTo, proceed whatever the status, as DatagramSocket.receive and send do (DatagramChannel
// would close itself). On other packet conns the status set closes them at once. On goroutines
// loom did not start, the calls are the wrapped conn's.
type PacketConn struct {
	endpoint
	pc    net.PacketConn
	raw   rawPacket // zero if pc is not a UDP socket
	sw    parkWait  // the IOWait of a UDP WriteTo
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
	vp.raw.init(pc, vp)
	vp.sw.init(&vp.endpoint, "send", vp)
	return vp
}

// NetPacketConn returns the packet conn p wraps.
func (p *PacketConn) NetPacketConn() net.PacketConn { return p.pc }

// ReadFrom reads a datagram into b and returns its size and sender, as the wrapped conn's
// ReadFrom. It blocks until a datagram arrives, the read deadline passes
// ([os.ErrDeadlineExceeded]) or the conn is closed; a virtual thread unmounts meanwhile. An
// interrupt while it waits, or the interrupt status set when no datagram is queued, closes the
// conn (see [PacketConn]). It ports DatagramSocket.receive.
func (p *PacketConn) ReadFrom(b []byte) (n int, addr net.Addr, err error) {
	t, mounted := rt.IOCurrent()
	switch {
	case t == nil:
		return p.pc.ReadFrom(b)
	case p.raw.ok():
		n, addr, err = p.raw.readFrom(p, t, b)
	default:
		n, addr, err = p.readFromUnmounted(t, mounted, b)
	}
	if err != nil && p.byInterruptOf(t) {
		err = p.opError(ErrClosedByInterrupt)
	}
	return n, addr, err
}

// readFromUnmounted is ReadFrom on a packet conn vio cannot try without blocking: it is about to
// park from the start, so the interrupt status set at entry closes the conn.
func (p *PacketConn) readFromUnmounted(t any, mounted bool, b []byte) (int, net.Addr, error) {
	prev := rt.IOBegin(t, &p.rwait)
	defer rt.IOEnd(t, prev) // the wrapped conn may panic: re-mount regardless
	if mounted {
		rt.IOPark(t, p.readHow())
	}
	return p.pc.ReadFrom(b)
}

// WriteTo sends b as a datagram to addr, as the wrapped conn's WriteTo. See [PacketConn] for
// when it unmounts. On a UDP socket it sends whatever the interrupt status, and an interrupt
// during the send closes the conn; on other packet conns interrupts are as for ReadFrom. It ports
// DatagramSocket.send.
func (p *PacketConn) WriteTo(b []byte, addr net.Addr) (int, error) {
	var n int
	var err error
	w := &p.wwait
	var t any
	if p.raw.ok() {
		t = p.send(func() { n, err = p.pc.WriteTo(b, addr) })
	} else {
		t = call(w, p.writeHow(), func() { n, err = p.pc.WriteTo(b, addr) })
	}
	if err != nil && t != nil && p.byInterruptOf(t) {
		err = &net.OpError{Op: "write", Net: p.netw, Source: p.laddr, Addr: addr, Err: ErrClosedByInterrupt}
	}
	return n, err
}

// send runs fn, a WriteTo on a UDP socket, without unmounting (it blocks only for microseconds,
// while the socket's buffer is full): it proceeds whatever the interrupt status, as
// DatagramSocket.send with room, and an interrupt that comes during it closes the conn (the send
// may be waiting inside Go's poller, where vio cannot see it).
func (p *PacketConn) send(fn func()) (t any) {
	t, _ = rt.IOCurrent()
	if t == nil {
		fn()
		return nil
	}
	w := p.sw.acquire()
	defer w.release()
	prev := rt.IOBegin(t, &w.IOWait)
	defer rt.IOEnd(t, prev)
	w.arm(t)
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
