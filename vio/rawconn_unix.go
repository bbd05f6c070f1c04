//go:build unix

package vio

import (
	"errors"
	"io"
	"io/fs"
	"net"
	"os"
	"strconv"
	"sync/atomic"
	"syscall"

	"github.com/loomgo/loom/internal/rt"
)

// The non-blocking path of a socket: the system call is made by vio itself, inside the
// syscall.RawConn callback, so that vio sees the EAGAIN that means "would block" and unmounts
// exactly then (see thread/iopark.go). The callback does what internal/poll.FD.Read and Write do
// around their system call — EINTR retried, partial writes continued, a zero-byte stream read
// reported as io.EOF, stream transfers capped at maxRW — so that the errors and counts are the
// standard library's.
//
// A Conn's and a PacketConn's calls follow java.net.Socket's interrupt rule: the callback looks at
// the interrupt status only on EAGAIN, where the call would park (see parkWait). A File's follow
// FileChannel's, checked by the File before the call.

// maxRW caps one read or write on a stream socket, as internal/poll does (some kernels reject
// larger ones).
const maxRW = 1 << 30

// rawConn is the non-blocking path of a Conn; its zero value is no path (rc == nil).
type rawConn struct {
	rc       syscall.RawConn
	stream   bool // SOCK_STREAM: transfers capped at maxRW
	zeroEOF  bool // a zero-byte read is the end of the stream (not SOCK_DGRAM or SOCK_RAW)
	rop, wop rawOp
}

// rawOp is one read or write in progress. A Conn has one of each, reused, so that a call costs no
// allocation; a second concurrent read (or write) on the same Conn gets a fresh one.
type rawOp struct {
	busy atomic.Bool
	t    any              // the calling thread
	how  int              // how it shows while it waits
	b    []byte           // what is read into, or written
	n    int              // bytes transferred
	err  error            // the system call's error
	cap  bool             // cap each transfer at maxRW
	from syscall.Sockaddr // the sender of a datagram
	fn   func(fd uintptr) bool
	pw   parkWait // the IOWait of a socket call (Socket's rule); pw.e == nil for a file
}

// errInterruptedPark is the error of a callback that would have parked with the interrupt
// status set: the caller closes the resource (it cannot from inside the callback, which holds a
// reference that Close waits for) and reports the interrupt.
var errInterruptedPark = errors.New("vio: interrupt status set where the call would park")

// init finds the path for c: TCP, Unix and IP/UDP sockets have one; other conns (TLS, pipes, and
// wrappers of sockets that do more than the system call in Read) have none.
func (r *rawConn) init(c net.Conn, vc *Conn) {
	var sc syscall.Conn
	sotype := syscall.SOCK_DGRAM
	switch c := c.(type) {
	case *net.TCPConn:
		sc, sotype = c, syscall.SOCK_STREAM
	case *net.UDPConn:
		sc = c
	case *net.IPConn:
		sc, sotype = c, syscall.SOCK_RAW
	case *net.UnixConn:
		sc, sotype = c, -1 // unix, unixgram or unixpacket: ask the socket
	default:
		return
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return
	}
	if sotype < 0 {
		cerr := rc.Control(func(fd uintptr) { sotype, err = syscall.GetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_TYPE) })
		if cerr != nil || err != nil {
			return
		}
	}
	r.rc = rc
	r.stream = sotype == syscall.SOCK_STREAM
	r.zeroEOF = sotype != syscall.SOCK_DGRAM && sotype != syscall.SOCK_RAW
	r.rop.fn, r.wop.fn = r.rop.read, r.wop.write
	r.rop.pw.init(&vc.endpoint, "read", vc)
	r.wop.pw.init(&vc.endpoint, "write", vc)
}

func (r *rawConn) ok() bool { return r.rc != nil }

// acquire returns own if it is free, else a fresh op.
func acquire(own *rawOp, write bool) *rawOp {
	if own.busy.CompareAndSwap(false, true) {
		return own
	}
	op := &rawOp{}
	if write {
		op.fn = op.write
	} else {
		op.fn = op.read
	}
	if own.pw.e != nil {
		op.pw.init(own.pw.e, own.pw.Op, own.pw.Blocker)
	}
	return op
}

func (op *rawOp) release() {
	op.t, op.b, op.err = nil, nil, nil
	op.pw.release()
	op.busy.Store(false)
}

// read is Conn.Read for a mounted virtual thread t; len(b) > 0.
func (r *rawConn) read(c *Conn, t any, b []byte) (int, error) {
	if r.stream && len(b) > maxRW {
		b = b[:maxRW]
	}
	n, perr, serr := acquire(&r.rop, false).do(r.rc, false, t, c.readHow(), b, false)
	switch {
	case perr != nil:
		return 0, c.opError("read", pollError(perr))
	case serr != nil:
		return 0, c.opError("read", os.NewSyscallError("read", serr))
	case n == 0 && r.zeroEOF:
		return 0, io.EOF
	}
	return n, nil
}

// write is Conn.Write for a mounted virtual thread t.
func (r *rawConn) write(c *Conn, t any, b []byte) (int, error) {
	n, perr, serr := acquire(&r.wop, true).do(r.rc, true, t, c.writeHow(), b, r.stream)
	switch {
	case perr != nil:
		return n, c.opError("write", pollError(perr))
	case serr == io.ErrUnexpectedEOF:
		return n, c.opError("write", serr)
	case serr != nil:
		return n, c.opError("write", os.NewSyscallError("write", serr))
	}
	return n, nil
}

// do runs the op through rc for thread t, showing how while it waits, and releases it. It returns
// the bytes transferred, the poller's error (closed, deadline) and the system call's.
func (op *rawOp) do(rc syscall.RawConn, write bool, t any, how int, b []byte, capRW bool) (n int, perr, serr error) {
	op.t, op.how, op.b, op.n, op.cap = t, how, b, 0, capRW
	perr = op.run(rc, write, t)
	n, serr = op.n, op.err
	e := op.pw.e
	op.release()
	if serr == errInterruptedPark {
		serr, perr = nil, e.interruptedPark(t)
	}
	return n, perr, serr
}

// run calls rc with the op's callback. A socket's op registers its own IOWait for the call (a
// file's caller has registered the File's).
func (op *rawOp) run(rc syscall.RawConn, write bool, t any) error {
	if op.pw.e != nil {
		prev := rt.IOBegin(t, &op.pw.IOWait)
		defer rt.IOEnd(t, prev)
	}
	if write {
		return rc.Write(op.fn)
	}
	return rc.Read(op.fn)
}

// read is the RawConn.Read callback: one read(2); on EAGAIN the thread parks and the poller
// waits.
func (op *rawOp) read(fd uintptr) bool {
	for {
		n, err := syscall.Read(int(fd), op.b)
		if retry, finished := op.settle(err); retry {
			continue
		} else if !finished {
			return false
		}
		op.n = max(n, 0)
		return true
	}
}

// settle takes the error of one non-blocking system call and says what the callback does next:
// try again (EINTR), or wait for the poller (EAGAIN: the thread parks first), or finish (the
// call succeeded, or failed with op.err; errInterruptedPark if a socket call would park with the
// interrupt status set).
func (op *rawOp) settle(err error) (retry, finished bool) {
	switch err {
	case nil:
		return false, true
	case syscall.EINTR:
		return true, false
	case syscall.EAGAIN:
		if op.pw.e != nil && op.pw.parking(op.t) {
			op.err = errInterruptedPark
			return false, true
		}
		rt.IOPark(op.t, op.how)
		return false, false
	}
	op.err = err
	return false, true
}

// write is the RawConn.Write callback: write(2) until all of op.b is written; on EAGAIN the
// thread parks and the poller waits, and the callback continues where it stopped.
func (op *rawOp) write(fd uintptr) bool {
	for {
		p := op.b[op.n:]
		if op.cap && len(p) > maxRW {
			p = p[:maxRW]
		}
		n, err := syscall.Write(int(fd), p)
		if n > 0 {
			op.n += n
		}
		if op.n == len(op.b) {
			op.err = err
			return true
		}
		if retry, finished := op.settle(err); retry {
			continue
		} else if !finished {
			return false
		} else if err != nil {
			return true
		}
		if n == 0 {
			op.err = io.ErrUnexpectedEOF
			return true
		}
	}
}

// pollError returns the error a RawConn call reports (net.ErrClosed, os.ErrDeadlineExceeded,
// ...) without the *net.OpError "raw-read"/"raw-write" around it, which vio replaces with the
// standard library's own ("read"/"write").
func pollError(err error) error {
	if oe, ok := err.(*net.OpError); ok {
		return oe.Err
	}
	return err
}

// rawPacket is the non-blocking ReadFrom of a UDP socket; its zero value is no path.
type rawPacket struct {
	rc  syscall.RawConn
	rop rawOp
}

func (r *rawPacket) init(pc net.PacketConn, vp *PacketConn) {
	uc, ok := pc.(*net.UDPConn)
	if !ok {
		return
	}
	rc, err := uc.SyscallConn()
	if err != nil {
		return
	}
	r.rc = rc
	r.rop.fn = r.rop.recvfrom
	r.rop.pw.init(&vp.endpoint, "receive", vp)
}

func (r *rawPacket) ok() bool { return r.rc != nil }

// readFrom is PacketConn.ReadFrom for a mounted virtual thread t.
func (r *rawPacket) readFrom(p *PacketConn, t any, b []byte) (int, net.Addr, error) {
	op := acquire(&r.rop, false)
	if op != &r.rop {
		op.fn = op.recvfrom
	}
	op.t, op.how, op.b, op.n = t, p.readHow(), b, 0
	err := op.run(r.rc, false, t)
	n, serr, from := op.n, op.err, op.from
	op.from = nil
	op.release()
	if serr == errInterruptedPark {
		serr, err = nil, p.interruptedPark(t)
	}
	switch {
	case err != nil:
		return 0, nil, p.opError(pollError(err))
	case serr != nil:
		return 0, nil, p.opError(os.NewSyscallError("recvfrom", serr))
	}
	return n, udpAddr(from), nil
}

// recvfrom is the RawConn.Read callback of ReadFrom.
func (op *rawOp) recvfrom(fd uintptr) bool {
	for {
		n, from, err := syscall.Recvfrom(int(fd), op.b, 0)
		if retry, finished := op.settle(err); retry {
			continue
		} else if !finished {
			return false
		}
		op.n, op.from = max(n, 0), from
		return true
	}
}

// udpAddr converts a sender's address as UDPConn.ReadFrom does: a 4-byte IP from an IPv4 socket,
// 16 bytes from an IPv6 one, the zone named after its interface.
func udpAddr(sa syscall.Sockaddr) net.Addr {
	switch sa := sa.(type) {
	case *syscall.SockaddrInet4:
		ip := sa.Addr
		return &net.UDPAddr{IP: ip[:], Port: sa.Port}
	case *syscall.SockaddrInet6:
		ip := sa.Addr
		a := &net.UDPAddr{IP: ip[:], Port: sa.Port}
		if sa.ZoneId != 0 {
			if ifi, err := net.InterfaceByIndex(int(sa.ZoneId)); err == nil {
				a.Zone = ifi.Name
			} else {
				a.Zone = strconv.Itoa(int(sa.ZoneId))
			}
		}
		return a
	}
	return nil
}

// initFile finds the path for a pollable file (a pipe, FIFO or terminal that Go registered with
// its poller, which it marks by putting the descriptor in non-blocking mode); it reports whether
// there is one.
func (r *rawConn) initFile(f *os.File) bool {
	rc, err := f.SyscallConn()
	if err != nil {
		return false
	}
	nonblock := false
	rc.Control(func(fd uintptr) {
		flags, _, e := syscall.Syscall(syscall.SYS_FCNTL, fd, syscall.F_GETFL, 0)
		nonblock = e == 0 && flags&syscall.O_NONBLOCK != 0
	})
	if !nonblock {
		return false
	}
	r.rc, r.zeroEOF = rc, true
	r.rop.fn, r.wop.fn = r.rop.read, r.wop.write
	return true
}

// file is File.Read or Write on a pollable file for a mounted virtual thread t, with os.File's
// errors.
func (r *rawConn) file(f *File, t any, write bool, b []byte) (int, error) {
	op, hw, own := "read", f.readHow(), &r.rop
	if write {
		op, hw, own = "write", f.writeHow(), &r.wop
	}
	n, perr, serr := acquire(own, write).do(r.rc, write, t, hw, b, false)
	switch {
	case perr != nil && f.closed.Load():
		return n, &fs.PathError{Op: op, Path: f.f.Name(), Err: os.ErrClosed} // not poll's "use of closed file"
	case perr != nil:
		return n, &fs.PathError{Op: op, Path: f.f.Name(), Err: perr}
	case serr != nil:
		return n, &fs.PathError{Op: op, Path: f.f.Name(), Err: serr}
	case !write && n == 0:
		return 0, io.EOF
	}
	return n, nil
}
