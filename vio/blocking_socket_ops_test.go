package vio_test

// A port of the JDK's test/jdk/java/net/vthread/BlockingSocketOps.java: virtual threads doing
// blocking I/O on sockets (here vio conns, listeners and packet conns), each test named after
// its Java method. Every blocked call is checked to have given its carrier back (runAfterParked)
// on a scheduler with one carrier. testSocketReadUrgentData is not ported: Go's net has no urgent
// (out-of-band) data.

import (
	"errors"
	"io"
	"net"
	"testing"
	"time"

	"github.com/loomgo/loom/thread"
	"github.com/loomgo/loom/vio"
)

// Socket read/write, no blocking.
func TestBlockingSocketOps_testSocketReadWrite1(t *testing.T) {
	runVirtual(t, nil, func() {
		c := newConnection(t)
		if _, err := c.c1.Write([]byte("XXX")); err != nil {
			t.Error(err)
			return
		}
		ba := make([]byte, 10)
		n, err := c.c2.Read(ba)
		if n <= 0 || ba[0] != 'X' || err != nil {
			t.Errorf("Read = %d, %v (%q)", n, err, ba[:max(n, 0)])
		}
	})
}

// Virtual thread blocks in read.
func TestBlockingSocketOps_testSocketRead1(t *testing.T) { testSocketRead(t, 0) }

// Virtual thread blocks in timed read.
func TestBlockingSocketOps_testSocketRead2(t *testing.T) { testSocketRead(t, time.Minute) }

func testSocketRead(t *testing.T, timeout time.Duration) {
	runVirtual(t, nil, func() {
		c := newConnection(t)
		me := thread.Current()
		runAfterParked(t, me, func() {
			if want := stateFor(timeout); me.State() != want {
				t.Errorf("blocked in Read: %v, want %v", me.State(), want)
			}
			c.c1.Write([]byte("XXX"))
		})
		if timeout > 0 {
			c.c2.SetReadDeadline(time.Now().Add(timeout))
		}
		ba := make([]byte, 10)
		n, err := c.c2.Read(ba)
		if n <= 0 || ba[0] != 'X' || err != nil {
			t.Errorf("Read = %d, %v", n, err)
		}
	})
}

func stateFor(timeout time.Duration) thread.State {
	if timeout > 0 {
		return thread.TimedWaiting
	}
	return thread.Waiting
}

// Virtual thread blocks in write.
func TestBlockingSocketOps_testSocketWrite1(t *testing.T) {
	runVirtual(t, nil, func() {
		c := newConnection(t)
		got := make(chan int64, 1)
		runAfterParked(t, thread.Current(), func() {
			n, _ := io.Copy(io.Discard, c.c2)
			got <- n
		})
		ba := make([]byte, 100*1024)
		for range 1000 {
			if _, err := c.c1.Write(ba); err != nil {
				t.Error(err)
				return
			}
		}
		c.c1.Close()
		if n := <-got; n != 1000*100*1024 {
			t.Errorf("reader got %d bytes, want %d", n, 1000*100*1024)
		}
	})
}

// Virtual thread blocks in read, peer closes connection gracefully.
func TestBlockingSocketOps_testSocketReadPeerClose1(t *testing.T) {
	runVirtual(t, nil, func() {
		c := newConnection(t)
		runAfterParked(t, thread.Current(), func() { c.c2.Close() })
		n, err := c.c1.Read(make([]byte, 1))
		if n != 0 || err != io.EOF {
			t.Errorf("Read = %d, %v; want 0, io.EOF", n, err)
		}
	})
}

// Virtual thread blocks in read, peer closes connection abruptly.
func TestBlockingSocketOps_testSocketReadPeerClose2(t *testing.T) {
	runVirtual(t, nil, func() {
		c := newConnection(t)
		c.c2.(*vio.Conn).NetConn().(*net.TCPConn).SetLinger(0)
		runAfterParked(t, thread.Current(), func() { c.c2.Close() })
		n, err := c.c1.Read(make([]byte, 1))
		var oe *net.OpError
		if n != 0 || !errors.As(err, &oe) || oe.Op != "read" || err == io.EOF {
			t.Errorf("Read = %d, %v; want a read error (connection reset)", n, err)
		}
	})
}

// Socket close while virtual thread blocked in read.
func TestBlockingSocketOps_testSocketReadAsyncClose1(t *testing.T) {
	testSocketReadAsyncClose(t, 0)
}

// Socket close while virtual thread blocked in timed read.
func TestBlockingSocketOps_testSocketReadAsyncClose2(t *testing.T) {
	testSocketReadAsyncClose(t, time.Minute)
}

func testSocketReadAsyncClose(t *testing.T, timeout time.Duration) {
	runVirtual(t, nil, func() {
		c := newConnection(t)
		err := endBlockedCall(t, readOf(c.c1), timeout, func(*thread.Thread) { c.c1.Close() })
		if !isAsyncClose(err) {
			t.Errorf("Read: %v; want net.ErrClosed (not an interrupt)", err)
		}
	})
}

// Virtual thread interrupted while blocked in Socket read.
func TestBlockingSocketOps_testSocketReadInterrupt1(t *testing.T) {
	testSocketReadInterrupt(t, 0)
}

// Virtual thread interrupted while blocked in Socket read with timeout.
func TestBlockingSocketOps_testSocketReadInterrupt2(t *testing.T) {
	testSocketReadInterrupt(t, time.Minute)
}

func testSocketReadInterrupt(t *testing.T, timeout time.Duration) {
	runVirtual(t, nil, func() {
		c := newConnection(t)
		err := endBlockedCall(t, readOf(c.c1), timeout, (*thread.Thread).Interrupt)
		checkClosedByInterrupt(t, "Read", err, func() bool { return isClosed(c.c1) })
	})
}

// Socket close while virtual thread blocked in write.
func TestBlockingSocketOps_testSocketWriteAsyncClose(t *testing.T) {
	runVirtual(t, nil, func() {
		c := newConnection(t)
		runAfterParked(t, thread.Current(), func() { c.c1.Close() })
		ba := make([]byte, 100*1024)
		for {
			if _, err := c.c1.Write(ba); err != nil {
				if !isAsyncClose(err) {
					t.Errorf("Write: %v; want net.ErrClosed", err)
				}
				return
			}
		}
	})
}

// Virtual thread interrupted while blocked in Socket write.
func TestBlockingSocketOps_testSocketWriteInterrupt(t *testing.T) {
	runVirtual(t, nil, func() {
		c := newConnection(t)
		me := thread.Current()
		runAfterParked(t, me, me.Interrupt)
		ba := make([]byte, 100*1024)
		for {
			if _, err := c.c1.Write(ba); err != nil {
				if !isInterruptClose(err) {
					t.Errorf("Write: %v; want ErrClosedByInterrupt", err)
				}
				break
			}
		}
		if !thread.Interrupted() {
			t.Error("interrupt status cleared; Java leaves it set")
		}
		if !isClosed(c.c1) {
			t.Error("socket not closed by the interrupt")
		}
	})
}

// ServerSocket accept, no blocking.
func TestBlockingSocketOps_testServerSocketAccept1(t *testing.T) {
	runVirtual(t, nil, func() {
		l := listen(t)
		c1, err := net.Dial("tcp", l.Addr().String())
		if err != nil {
			t.Error(err)
			return
		}
		c2, err := l.Accept()
		if err != nil {
			t.Error(err)
		} else {
			if _, ok := c2.(*vio.Conn); !ok {
				t.Errorf("Accept returned a %T, want a *vio.Conn", c2)
			}
			c2.Close()
		}
		c1.Close()
	})
}

// Virtual thread blocks in accept.
func TestBlockingSocketOps_testServerSocketAccept2(t *testing.T) {
	testServerSocketAccept(t, 0)
}

// Virtual thread blocks in timed accept.
func TestBlockingSocketOps_testServerSocketAccept3(t *testing.T) {
	testServerSocketAccept(t, time.Minute)
}

func testServerSocketAccept(t *testing.T, timeout time.Duration) {
	runVirtual(t, nil, func() {
		l := listen(t)
		me := thread.Current()
		dialed := make(chan net.Conn, 1)
		runAfterParked(t, me, func() {
			if want := stateFor(timeout); me.State() != want {
				t.Errorf("blocked in Accept: %v, want %v", me.State(), want)
			}
			c, err := net.Dial("tcp", l.Addr().String())
			if err != nil {
				t.Error(err)
			}
			dialed <- c
		})
		if timeout > 0 {
			l.(*vio.Listener).SetDeadline(time.Now().Add(timeout))
		}
		c2, err := l.Accept()
		if err != nil {
			t.Error(err)
			return
		}
		c2.Close()
		if c1 := <-dialed; c1 != nil {
			c1.Close()
		}
	})
}

// ServerSocket close while virtual thread blocked in accept.
func TestBlockingSocketOps_testServerSocketAcceptAsyncClose1(t *testing.T) {
	testServerSocketAcceptAsyncClose(t, 0)
}

// ServerSocket close while virtual thread blocked in timed accept.
func TestBlockingSocketOps_testServerSocketAcceptAsyncClose2(t *testing.T) {
	testServerSocketAcceptAsyncClose(t, time.Minute)
}

func testServerSocketAcceptAsyncClose(t *testing.T, timeout time.Duration) {
	runVirtual(t, nil, func() {
		l := listen(t)
		err := endBlockedCall(t, acceptOf(t, l), timeout, func(*thread.Thread) { l.Close() })
		if !isAsyncClose(err) {
			t.Errorf("Accept: %v; want net.ErrClosed", err)
		}
	})
}

// Virtual thread interrupted while blocked in ServerSocket accept.
func TestBlockingSocketOps_testServerSocketAcceptInterrupt1(t *testing.T) {
	testServerSocketAcceptInterrupt(t, 0)
}

// Virtual thread interrupted while blocked in ServerSocket accept with timeout.
func TestBlockingSocketOps_testServerSocketAcceptInterrupt2(t *testing.T) {
	testServerSocketAcceptInterrupt(t, time.Minute)
}

func testServerSocketAcceptInterrupt(t *testing.T, timeout time.Duration) {
	runVirtual(t, nil, func() {
		l := listen(t)
		err := endBlockedCall(t, acceptOf(t, l), timeout, (*thread.Thread).Interrupt)
		checkClosedByInterrupt(t, "Accept", err, func() bool {
			c, err := net.DialTimeout("tcp", l.Addr().String(), 5*time.Second)
			if err == nil {
				c.Close()
			}
			return err != nil // the listening socket no longer accepts connections
		})
	})
}

// DatagramSocket receive/send, no blocking.
func TestBlockingSocketOps_testDatagramSocketSendReceive1(t *testing.T) {
	runVirtual(t, nil, func() {
		s1, s2 := udpPair(t)
		if _, err := s1.WriteTo([]byte("XXX"), s2.LocalAddr()); err != nil {
			t.Error(err)
			return
		}
		ba := make([]byte, 100)
		n, from, err := s2.ReadFrom(ba)
		if err != nil || n != 3 || ba[0] != 'X' || from.String() != s1.LocalAddr().String() {
			t.Errorf("ReadFrom = %d, %v, %v; want 3 bytes from %v", n, from, err, s1.LocalAddr())
		}
	})
}

// Virtual thread blocks in DatagramSocket receive.
func TestBlockingSocketOps_testDatagramSocketSendReceive2(t *testing.T) {
	testDatagramSocketSendReceive(t, 0)
}

// Virtual thread blocks in DatagramSocket receive with timeout.
func TestBlockingSocketOps_testDatagramSocketSendReceive3(t *testing.T) {
	testDatagramSocketSendReceive(t, time.Minute)
}

func testDatagramSocketSendReceive(t *testing.T, timeout time.Duration) {
	runVirtual(t, nil, func() {
		s1, s2 := udpPair(t)
		me := thread.Current()
		runAfterParked(t, me, func() {
			if want := stateFor(timeout); me.State() != want {
				t.Errorf("blocked in ReadFrom: %v, want %v", me.State(), want)
			}
			s1.WriteTo([]byte("XXX"), s2.LocalAddr())
		})
		if timeout > 0 {
			s2.SetReadDeadline(time.Now().Add(timeout))
		}
		ba := make([]byte, 100)
		n, from, err := s2.ReadFrom(ba)
		if err != nil || n != 3 || ba[0] != 'X' || from.String() != s1.LocalAddr().String() {
			t.Errorf("ReadFrom = %d, %v, %v; want 3 bytes from %v", n, from, err, s1.LocalAddr())
		}
	})
}

// Virtual thread blocks in DatagramSocket receive that times out.
func TestBlockingSocketOps_testDatagramSocketReceiveTimeout(t *testing.T) {
	runVirtual(t, nil, func() {
		_, s := udpPair(t)
		s.SetReadDeadline(time.Now().Add(500 * time.Millisecond))
		_, _, err := s.ReadFrom(make([]byte, 100))
		if !isTimeout(err) {
			t.Errorf("ReadFrom: %v; want os.ErrDeadlineExceeded", err)
		}
	})
}

// DatagramSocket close while virtual thread blocked in receive.
func TestBlockingSocketOps_testDatagramSocketReceiveAsyncClose1(t *testing.T) {
	testDatagramSocketReceiveAsyncClose(t, 0)
}

// DatagramSocket close while virtual thread blocked with timeout.
func TestBlockingSocketOps_testDatagramSocketReceiveAsyncClose2(t *testing.T) {
	testDatagramSocketReceiveAsyncClose(t, time.Minute)
}

func testDatagramSocketReceiveAsyncClose(t *testing.T, timeout time.Duration) {
	runVirtual(t, nil, func() {
		_, s := udpPair(t)
		err := endBlockedCall(t, receiveOf(s), timeout, func(*thread.Thread) { s.Close() })
		if !isAsyncClose(err) {
			t.Errorf("ReadFrom: %v; want net.ErrClosed", err)
		}
	})
}

// Virtual thread interrupted while blocked in DatagramSocket receive.
func TestBlockingSocketOps_testDatagramSocketReceiveInterrupt1(t *testing.T) {
	testDatagramSocketReceiveInterrupt(t, 0)
}

// Virtual thread interrupted while blocked in DatagramSocket receive with timeout.
func TestBlockingSocketOps_testDatagramSocketReceiveInterrupt2(t *testing.T) {
	testDatagramSocketReceiveInterrupt(t, time.Minute)
}

func testDatagramSocketReceiveInterrupt(t *testing.T, timeout time.Duration) {
	runVirtual(t, nil, func() {
		_, s := udpPair(t)
		err := endBlockedCall(t, receiveOf(s), timeout, (*thread.Thread).Interrupt)
		checkClosedByInterrupt(t, "ReadFrom", err, func() bool {
			_, err := s.WriteTo([]byte("x"), s.LocalAddr())
			return errors.Is(err, net.ErrClosed)
		})
	})
}

// listen returns a vio listener on a loopback port, closed when the test ends.
func listen(t *testing.T) net.Listener {
	t.Helper()
	l, err := vio.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l
}

// udpPair returns two vio packet conns bound to loopback ports, closed when the test ends.
func udpPair(t *testing.T) (net.PacketConn, net.PacketConn) {
	t.Helper()
	var pcs [2]net.PacketConn
	for i := range pcs {
		pc, err := vio.ListenPacket("udp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { pc.Close() })
		pcs[i] = pc
	}
	return pcs[0], pcs[1]
}

// blockedCall is a call that blocks on a resource until something ends it, and the resource's
// deadline setter, for the tests' timed variants.
type blockedCall struct {
	call        func() error
	setDeadline func(time.Time) error
}

func readOf(c net.Conn) blockedCall {
	return blockedCall{func() error { _, err := c.Read(make([]byte, 1)); return err }, c.SetReadDeadline}
}

func acceptOf(t *testing.T, l net.Listener) blockedCall {
	return blockedCall{func() error {
		c, err := l.Accept()
		if err == nil {
			c.Close()
			t.Error("connection accepted???")
		}
		return err
	}, l.(*vio.Listener).SetDeadline}
}

func receiveOf(pc net.PacketConn) blockedCall {
	return blockedCall{func() error { _, _, err := pc.ReadFrom(make([]byte, 100)); return err }, pc.SetReadDeadline}
}

// endBlockedCall makes b's call on the current virtual thread, with a deadline timeout away if
// timeout > 0, and runs end (on another goroutine) once the thread has parked in the call; it
// returns the call's error.
func endBlockedCall(t *testing.T, b blockedCall, timeout time.Duration, end func(*thread.Thread)) error {
	me := thread.Current()
	runAfterParked(t, me, func() { end(me) })
	if timeout > 0 {
		b.setDeadline(time.Now().Add(timeout))
	}
	return b.call()
}

// checkClosedByInterrupt checks what an interrupted call leaves: its error is
// ErrClosedByInterrupt, the interrupt status is still set (Java's Thread.interrupted() is true),
// and closed() reports the resource closed.
func checkClosedByInterrupt(t *testing.T, what string, err error, closed func() bool) {
	if !isInterruptClose(err) {
		t.Errorf("%s: %v; want ErrClosedByInterrupt", what, err)
	}
	if !thread.Interrupted() {
		t.Error("interrupt status cleared; Java leaves it set")
	}
	if !closed() {
		t.Errorf("%s: not closed by the interrupt", what)
	}
}
