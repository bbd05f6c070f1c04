package oracle_test

import (
	"bufio"
	"io"
	"net"
	"strings"
	"time"

	"github.com/loomgo/loom/internal/testutil"
	"github.com/loomgo/loom/thread"
	"github.com/loomgo/loom/vio"
)

// Socket I/O on virtual threads (package vio): the twins of java/IoScenarios.java, on loopback
// TCP sockets. The Java half uses the classic java.net.Socket and ServerSocket, the API a porter
// has, and SocketChannel where it behaves differently (io_channel_interrupt_status_set).
//
// How the Java calls map:
//
//	new ServerSocket(0, 50, loopback)      vio.Listen("tcp", "127.0.0.1:0")
//	new Socket(loopback, port)             vio.Dial("tcp", addr)
//	in.read(buf) == -1                     Read returns io.EOF (logged as -1 on both sides)
//	setSoTimeout(ms) before reads          SetReadDeadline(time.Now().Add(ms)) before EACH read:
//	                                       Go's deadline is an instant, Java's timeout a duration
//	                                       per call; a read after a passed deadline fails at once
//
// and the exceptions through exceptions_test.go: vio.ErrClosedByInterrupt is
// ClosedByInterruptException (Java's classic socket throws it as SocketException "Closed by
// interrupt", which the Java half's Ex.name writes the same way), net.ErrClosed is
// SocketException(Socket closed), os.ErrDeadlineExceeded is SocketTimeoutException.
//
// Both halves run with one carrier, so "another virtual thread still runs" means the blocked
// readers gave it back. Nothing waits on time but the two timeouts asked to expire with no data.
func ioScenarios() []scenario {
	const suite = "IoScenarios"
	return []scenario{
		{suite, "io_read_blocked_waiting", ioReadBlockedWaiting},
		{suite, "io_read_blocked_timed_waiting", ioReadBlockedTimedWaiting},
		{suite, "io_read_interrupted", ioReadInterrupted},
		{suite, "io_accept_interrupted", ioAcceptInterrupted},
		{suite, "io_write_interrupted", ioWriteInterrupted},
		{suite, "io_interrupt_status_set_would_block", ioInterruptStatusSetWouldBlock},
		{suite, "io_interrupt_status_set_can_proceed", ioInterruptStatusSetCanProceed},
		{suite, "io_channel_interrupt_status_set", ioChannelInterruptStatusSet},
		{suite, "io_timeouts", ioTimeouts},
		{suite, "io_read_peer_close", ioReadPeerClose},
		{suite, "io_async_close", ioAsyncClose},
		{suite, "io_many_blocked_one_carrier", ioManyBlockedOneCarrier},
		{suite, "io_echo_thread_per_connection", ioEchoThreadPerConnection},
	}
}

// socketPair returns the two ends of a loopback TCP connection, both vio conns: the client's
// (Java: new Socket) and the server's (ServerSocket.accept).
func socketPair() (client, server net.Conn) {
	l, err := vio.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	defer l.Close()
	client, err = vio.Dial("tcp", l.Addr().String())
	if err != nil {
		panic(err)
	}
	server, err = l.Accept()
	if err != nil {
		panic(err)
	}
	return client, server
}

// readStr reads once into a buffer of 64 bytes and returns what the Java half logs: "3 XYZ" for
// three bytes, -1 at the end of the stream, or the exception.
func readStr(c net.Conn) string {
	return outcome(func() (string, error) {
		buf := make([]byte, 64)
		n, err := c.Read(buf)
		if err == io.EOF {
			return "-1", nil
		}
		if err != nil {
			return "", err
		}
		return itoa(n) + " " + string(buf[:n]), nil
	})
}

func itoa(n int) string { return str(n) }

func write(c net.Conn, s string) error {
	_, err := c.Write([]byte(s))
	return err
}

// outcomeOf is an outcome recorded by a thread and logged by the scenario thread after a join.
type outcomeOf struct {
	what        string
	interrupted bool
}

// io_read_blocked_waiting: a virtual thread blocked in a socket read is WAITING, and reads what
// arrives.
func ioReadBlockedWaiting(lg *Log) {
	client, server := socketPair()
	defer client.Close()
	defer server.Close()
	var got string
	t := thread.OfVirtual().Start(func() { got = readStr(server) })
	lg.P("blocked in read: %s", blocked(lg, t))
	lg.Call("peer writes XYZ", func() error { return write(client, "XYZ") })
	join(lg, t)
	lg.P("read -> %s", got)
}

// io_read_blocked_timed_waiting: with a timeout (SO_TIMEOUT; loom: a read deadline) the blocked
// reader is TIMED_WAITING.
func ioReadBlockedTimedWaiting(lg *Log) {
	client, server := socketPair()
	defer client.Close()
	defer server.Close()
	var got string
	t := thread.OfVirtual().Start(func() {
		server.SetReadDeadline(time.Now().Add(hour))
		got = readStr(server)
	})
	lg.P("blocked in read with a timeout: %s", blocked(lg, t))
	lg.Call("peer writes XYZ", func() error { return write(client, "XYZ") })
	join(lg, t)
	lg.P("read -> %s", got)
}

// io_read_interrupted: interrupting a virtual thread blocked in read closes the socket; the read
// fails, the status stays set, the peer sees the end of the stream.
func ioReadInterrupted(lg *Log) {
	client, server := socketPair()
	defer client.Close()
	var o outcomeOf
	t := thread.OfVirtual().Start(func() {
		o.what = readStr(server)
		o.interrupted = thread.Current().IsInterrupted()
	})
	lg.P("blocked in read: %s", blocked(lg, t))
	t.Interrupt()
	join(lg, t)
	lg.P("read -> %s, interrupted after: %s", o.what, o.interrupted)
	lg.P("read again -> %s", readStr(server))
	lg.P("peer read -> %s", readStr(client))
}

// io_accept_interrupted: interrupting a virtual thread blocked in accept closes the server
// socket: accept fails, the status stays set, nobody can connect any more.
func ioAcceptInterrupted(lg *Log) {
	l, err := vio.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	defer l.Close()
	addr := l.Addr().String()
	var o outcomeOf
	t := thread.OfVirtual().Start(func() {
		o.what = of(func() error {
			c, err := l.Accept()
			if err == nil {
				c.Close()
			}
			return err
		})
		o.interrupted = thread.Current().IsInterrupted()
	})
	lg.P("blocked in accept: %s", blocked(lg, t))
	t.Interrupt()
	join(lg, t)
	lg.P("accept -> %s, interrupted after: %s", o.what, o.interrupted)
	lg.Call("accept again", func() error { _, err := l.Accept(); return err })
	lg.Call("connect", func() error {
		c, err := net.Dial("tcp", addr)
		if err == nil {
			c.Close()
		}
		return err
	})
}

// io_write_interrupted: a virtual thread blocked in write (the peer reads nothing, the buffers
// are full) is WAITING; an interrupt closes the socket and the write fails.
func ioWriteInterrupted(lg *Log) {
	client, server := socketPair()
	defer client.Close()
	var o outcomeOf
	t := thread.OfVirtual().Start(func() {
		chunk := make([]byte, 1<<20)
		o.what = of(func() error {
			for {
				if _, err := server.Write(chunk); err != nil {
					return err
				}
			}
		})
		o.interrupted = thread.Current().IsInterrupted()
	})
	lg.P("blocked in write: %s", blocked(lg, t))
	t.Interrupt()
	join(lg, t)
	lg.P("write -> %s, interrupted after: %s", o.what, o.interrupted)
	lg.Call("write again", func() error { return write(server, "X") })
}

// io_interrupt_status_set_would_block: a read or accept that would block, started with the
// interrupt status set, closes its socket at once, as if interrupted while blocked.
func ioInterruptStatusSetWouldBlock(lg *Log) {
	client, server := socketPair()
	defer client.Close()
	l, err := vio.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	defer l.Close()
	var lines []string
	t := thread.OfVirtual().Start(func() {
		me := thread.Current()
		me.Interrupt()
		lines = append(lines, "read with no data -> "+readStr(server)+", interrupted after: "+str(me.IsInterrupted()))
		lines = append(lines, "read again -> "+readStr(server))
		lines = append(lines, "accept with no connection queued -> "+of(func() error { _, err := l.Accept(); return err })+
			", interrupted after: "+str(me.IsInterrupted()))
		lines = append(lines, "accept again -> "+of(func() error { _, err := l.Accept(); return err }))
	})
	join(lg, t)
	for _, line := range lines {
		lg.P("%s", line)
	}
	lg.P("peer read -> %s", readStr(client))
}

// io_interrupt_status_set_can_proceed: a read with data there, a write with room, an accept with
// a connection queued, each started with the interrupt status set. Java's classic socket does
// them and leaves the socket open and the status set: it closes the socket only when the call
// would park. (SocketChannel closes it in every case: io_channel_interrupt_status_set.)
func ioInterruptStatusSetCanProceed(lg *Log) {
	client, server := socketPair() // the read's
	defer client.Close()
	defer server.Close()
	client2, server2 := socketPair() // the write's
	defer client2.Close()
	defer server2.Close()
	l, err := vio.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	defer l.Close()
	queued, err := vio.Dial("tcp", l.Addr().String())
	if err != nil {
		panic(err)
	}
	defer queued.Close()
	lg.Call("peer writes XYZ", func() error { return write(client, "XYZ") })
	awaitReadable(lg, server)
	var lines []string
	t := thread.OfVirtual().Start(func() {
		me := thread.Current()
		me.Interrupt()
		lines = append(lines, "read with data there -> "+readStr(server)+", interrupted after: "+str(me.IsInterrupted()))
		lines = append(lines, "write with room -> "+of(func() error { return write(server2, "ABC") })+", interrupted after: "+str(me.IsInterrupted()))
		lines = append(lines, "accept with a connection queued -> "+of(func() error {
			c, err := l.Accept()
			if err == nil {
				c.Close()
			}
			return err
		})+", interrupted after: "+str(me.IsInterrupted()))
	})
	join(lg, t)
	for _, line := range lines {
		lg.P("%s", line)
	}
	lg.Call("write OK on the read's socket", func() error { return write(server, "OK") })
	lg.P("peer of the read reads -> %s", readStr(client))
	lg.P("peer of the write reads -> %s", readStr(client2))
}

// io_channel_interrupt_status_set: SocketChannel.read with data there and the interrupt status
// set closes the channel (AbstractInterruptibleChannel.begin). vio's Read follows java.net.Socket
// instead (io_interrupt_status_set_can_proceed): a known divergence by design (DIVERGENCES.md D8).
func ioChannelInterruptStatusSet(lg *Log) {
	client, server := socketPair()
	defer client.Close()
	lg.Call("peer writes XYZ", func() error { return write(client, "XYZ") })
	awaitReadable(lg, server)
	var o outcomeOf
	t := thread.OfVirtual().Start(func() {
		thread.Current().Interrupt()
		o.what = readStr(server)
		o.interrupted = thread.Current().IsInterrupted()
	})
	join(lg, t)
	lg.P("read with data there -> %s, interrupted after: %s", o.what, o.interrupted)
	server.Close() // closed already on Java's side; vio's (D8) stays open
	lg.P("peer read -> %s", readStr(client))
}

// awaitReadable polls until c has data to read, without reading it: the peer's bytes have
// arrived (Java: InputStream.available() > 0).
func awaitReadable(lg *Log, c net.Conn) {
	rc, err := c.(*vio.Conn).SyscallConn()
	if err != nil {
		panic(err)
	}
	await(lg, "data to arrive", func() bool {
		n := 0
		rc.Control(func(fd uintptr) { n = testutil.Pending(fd) })
		return n > 0
	})
}

// io_timeouts: a read and an accept that time out fail with SocketTimeoutException and leave the
// socket open: data that comes afterwards is read, a connection that comes afterwards accepted.
// The timeouts that expire are 50 ms with nothing to wait for; the calls after them get a minute,
// so that a loaded machine cannot make them time out.
func ioTimeouts(lg *Log) {
	client, server := socketPair()
	defer client.Close()
	defer server.Close()
	l, err := vio.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	defer l.Close()
	vl := l.(*vio.Listener)
	const short, long = 50 * time.Millisecond, time.Minute
	var lines []string
	t := thread.OfVirtual().Start(func() {
		// setSoTimeout(ms) applies to each later call: a deadline is set before each
		server.SetReadDeadline(time.Now().Add(short))
		lines = append(lines, "read with no data -> "+readStr(server))
		write(client, "XYZ")
		server.SetReadDeadline(time.Now().Add(long))
		lines = append(lines, "read after the peer wrote -> "+readStr(server))
		vl.SetDeadline(time.Now().Add(short))
		lines = append(lines, "accept with no connection -> "+of(func() error { _, err := l.Accept(); return err }))
		c, err := net.Dial("tcp", l.Addr().String())
		if err != nil {
			panic(err)
		}
		defer c.Close()
		vl.SetDeadline(time.Now().Add(long))
		lines = append(lines, "accept after a client connected -> "+of(func() error {
			c, err := l.Accept()
			if err == nil {
				c.Close()
			}
			return err
		}))
	})
	join(lg, t)
	for _, line := range lines {
		lg.P("%s", line)
	}
}

// io_read_peer_close: a virtual thread blocked in read sees the end of the stream (-1; loom:
// io.EOF) when the peer closes, and again on the next read.
func ioReadPeerClose(lg *Log) {
	client, server := socketPair()
	defer server.Close()
	var got string
	t := thread.OfVirtual().Start(func() { got = readStr(server) })
	lg.P("blocked in read: %s", blocked(lg, t))
	lg.Call("peer closes", client.Close)
	join(lg, t)
	lg.P("read -> %s", got)
	lg.P("read again -> %s", readStr(server))
}

// io_async_close: closing a socket (or server socket) from another thread while a virtual thread
// is blocked on it: the blocked call fails with SocketException "Socket closed" (loom:
// net.ErrClosed), not an interrupt, and the status stays clear.
func ioAsyncClose(lg *Log) {
	client, server := socketPair()
	defer client.Close()
	var o outcomeOf
	t := thread.OfVirtual().Start(func() {
		o.what = readStr(server)
		o.interrupted = thread.Current().IsInterrupted()
	})
	lg.P("blocked in read: %s", blocked(lg, t))
	lg.Call("close", server.Close)
	join(lg, t)
	lg.P("read -> %s, interrupted after: %s", o.what, o.interrupted)
	lg.P("peer read -> %s", readStr(client))

	l, err := vio.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	var a outcomeOf
	ta := thread.OfVirtual().Start(func() {
		a.what = of(func() error { _, err := l.Accept(); return err })
		a.interrupted = thread.Current().IsInterrupted()
	})
	lg.P("blocked in accept: %s", blocked(lg, ta))
	lg.Call("close the server socket", l.Close)
	join(lg, ta)
	lg.P("accept -> %s, interrupted after: %s", a.what, a.interrupted)
}

// io_many_blocked_one_carrier: ten virtual threads blocked in reads on one carrier; another
// virtual thread still runs to its end meanwhile; then each reader gets its line.
func ioManyBlockedOneCarrier(lg *Log) {
	const n = 10
	clients, servers := make([]net.Conn, n), make([]net.Conn, n)
	for i := range n {
		clients[i], servers[i] = socketPair()
	}
	defer func() {
		for i := range n {
			clients[i].Close()
			servers[i].Close()
		}
	}()
	got := make([]string, n)
	readers := make([]*thread.Thread, n)
	for i := range n {
		readers[i] = thread.OfVirtual().Start(func() { got[i] = readStr(servers[i]) })
	}
	states := make([]string, n)
	for i, r := range readers {
		states[i] = blocked(lg, r).String()
	}
	lg.P("readers: %s", states)
	sum := 0
	other := thread.OfVirtual().Start(func() {
		for i := 1; i <= 1000; i++ {
			sum += i
		}
	})
	join(lg, other)
	lg.P("another virtual thread ran to its end: sum %s", sum)
	for i := range readers {
		states[i] = readers[i].State().String()
	}
	lg.P("readers still: %s", states)
	for i := n - 1; i >= 0; i-- {
		write(clients[i], "line "+itoa(i))
	}
	join(lg, readers...)
	lg.P("read: %s", got)
}

// io_echo_thread_per_connection: a server that gives every connection a virtual thread, which
// echoes lines upper-cased until the client closes; five clients, each on a virtual thread.
func ioEchoThreadPerConnection(lg *Log) {
	l, err := vio.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	addr := l.Addr().String()
	served := 0
	server := thread.OfVirtual().Start(func() {
		var handlers []*thread.Thread
		defer func() {
			for _, h := range handlers {
				h.Join()
			}
		}()
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			served++
			handlers = append(handlers, thread.OfVirtual().Start(func() {
				defer c.Close()
				in := bufio.NewReader(c)
				for {
					line, err := in.ReadString('\n')
					if err != nil {
						return
					}
					if write(c, strings.ToUpper(line)) != nil {
						return
					}
				}
			}))
		}
	})
	const clients = 5
	replies := make([]string, clients)
	ths := make([]*thread.Thread, clients)
	for i := range clients {
		ths[i] = thread.OfVirtual().Start(func() {
			replies[i] = outcome(func() (string, error) {
				c, err := vio.Dial("tcp", addr)
				if err != nil {
					return "", err
				}
				defer c.Close()
				in := bufio.NewReader(c)
				var got []string
				for _, w := range []string{"hello", "client " + itoa(i)} {
					if err := write(c, w+"\n"); err != nil {
						return "", err
					}
					line, err := in.ReadString('\n')
					if err != nil {
						return "", err
					}
					got = append(got, strings.TrimSuffix(line, "\n"))
				}
				return str(got), nil
			})
		})
	}
	join(lg, ths...)
	lg.Call("close the server socket", l.Close)
	join(lg, server)
	lg.P("replies: %s", replies)
	lg.P("connections served: %s", served)
}
