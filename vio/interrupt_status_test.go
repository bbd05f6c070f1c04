package vio_test

import (
	"bufio"
	"bytes"
	"crypto/tls"
	"errors"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"syscall"
	"testing"
	"time"

	"github.com/loomgo/loom/internal/testutil"
	"github.com/loomgo/loom/thread"
	"github.com/loomgo/loom/vio"
)

// The interrupt status on entry to a socket call, as java.net.Socket, ServerSocket and
// DatagramSocket (NioSocketImpl) treat it on JDK 21–25: a call that can proceed at once does so
// and leaves the socket open and the status set; a call that would park closes the socket
// instead ("Closed by interrupt"). Found by the oracle (internal/oracle,
// io_interrupt_status_set_can_proceed; DIVERGENCES.md D6), which compares with JDK 25.

// awaitReadable waits until c has data to read, without reading it (Java: available() > 0).
func awaitReadable(t *testing.T, c syscall.Conn) {
	t.Helper()
	rc, err := c.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		n := 0
		rc.Control(func(fd uintptr) { n = testutil.Pending(fd) })
		if n > 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("no data arrived in 30 s")
		}
		time.Sleep(time.Millisecond)
	}
}

// onThread runs task on a new thread of the given kind and waits for it.
func onThread(t *testing.T, virtual bool, task func()) {
	t.Helper()
	if virtual {
		runVirtual(t, nil, task)
		return
	}
	p := thread.OfPlatform().Start(task)
	if ok, _ := p.JoinTimeout(time.Minute); !ok {
		t.Fatalf("%v still running after a minute", p)
	}
}

func threadKinds() map[string]bool { return map[string]bool{"virtual": true, "platform": false} }

// A read with data there, a write with room, an accept with a connection queued, a receive with a
// datagram queued, a send, and reads and writes of no bytes: each started with the interrupt
// status set, each succeeds, the status stays set and the socket stays open (the peer still
// talks to it). Java's Socket, ServerSocket and DatagramSocket do the same.
func TestInterruptStatusSetCallsThatCanProceedLeaveTheSocketOpen(t *testing.T) {
	for kind, virtual := range threadKinds() {
		t.Run(kind, func(t *testing.T) {
			c := newConnection(t)
			l := listen(t)
			queued, err := vio.Dial("tcp", l.Addr().String())
			if err != nil {
				t.Fatal(err)
			}
			defer queued.Close()
			p1, p2 := udpPair(t)
			c.c1.Write([]byte("data"))
			awaitReadable(t, c.c2.(syscall.Conn))
			if _, err := p1.WriteTo([]byte("dgram"), p2.LocalAddr()); err != nil {
				t.Fatal(err)
			}
			awaitReadable(t, p2.(*vio.PacketConn).NetPacketConn().(syscall.Conn))
			onThread(t, virtual, func() {
				thread.Current().Interrupt()
				buf := make([]byte, 10)
				check := func(call string, err error) {
					t.Helper()
					if err != nil {
						t.Errorf("%s with the interrupt status set: %v, want success", call, err)
					}
					if !thread.Current().IsInterrupted() {
						t.Errorf("%s cleared the interrupt status", call)
					}
				}
				n, err := c.c2.Read(buf)
				check("Read with data there", err)
				if string(buf[:n]) != "data" {
					t.Errorf("Read with data there = %q, want %q", buf[:n], "data")
				}
				_, err = c.c2.Write([]byte("ABC"))
				check("Write with room", err)
				_, err = c.c2.Read(buf[:0])
				check("Read of no bytes", err)
				_, err = c.c2.Write(nil)
				check("Write of no bytes", err)
				a, err := l.Accept()
				check("Accept with a connection queued", err)
				if a != nil {
					a.Close()
				}
				n, _, err = p2.ReadFrom(buf)
				check("ReadFrom with a datagram queued", err)
				if string(buf[:n]) != "dgram" {
					t.Errorf("ReadFrom with a datagram queued = %q, want %q", buf[:n], "dgram")
				}
				_, err = p2.WriteTo([]byte("back"), p1.LocalAddr())
				check("WriteTo", err)
			})
			// everything is still open: the peers get what was written, and write back
			if got, err := io.ReadAll(io.LimitReader(c.c1, 3)); string(got) != "ABC" || err != nil {
				t.Errorf("peer of the write read %q, %v; want ABC", got, err)
			}
			c.c1.Write([]byte("more"))
			if got, err := io.ReadAll(io.LimitReader(c.c2, 4)); string(got) != "more" || err != nil {
				t.Errorf("read after: %q, %v; want more", got, err)
			}
			again, err := vio.Dial("tcp", l.Addr().String())
			if err != nil {
				t.Fatal(err)
			}
			defer again.Close()
			if a, err := l.Accept(); err != nil {
				t.Errorf("Accept after: %v; the listener was closed", err)
			} else {
				a.Close()
			}
			buf := make([]byte, 10)
			if n, _, err := p1.ReadFrom(buf); string(buf[:n]) != "back" || err != nil {
				t.Errorf("peer of the WriteTo received %q, %v; want back", buf[:n], err)
			}
		})
	}
}

// Calls that would park, started with the interrupt status set, close their socket at once and
// fail with ErrClosedByInterrupt, the status still set: a read with no data, a write larger than
// the buffers (the peer gets exactly what Write reports), an accept with nothing queued, a
// receive with nothing queued. They run after a call that could proceed (which left the status
// set) on the same socket, as in a handler that drains its input after it was interrupted.
func TestInterruptStatusSetCallsThatWouldParkCloseTheSocket(t *testing.T) {
	for kind, virtual := range threadKinds() {
		t.Run(kind, func(t *testing.T) {
			rc, wc := newConnection(t), newConnection(t)
			l := listen(t)
			_, p2 := udpPair(t)
			rc.c1.Write([]byte("x"))
			awaitReadable(t, rc.c2.(syscall.Conn))
			var written int
			var werr error
			onThread(t, virtual, func() {
				thread.Current().Interrupt()
				buf := make([]byte, 10)
				if n, err := rc.c2.Read(buf); n != 1 || err != nil {
					t.Errorf("Read with data there = %d, %v", n, err)
				}
				for _, call := range []struct {
					name string
					do   func() error
				}{
					{"Read with no data", func() error { _, err := rc.c2.Read(buf); return err }},
					{"Write larger than the buffers", func() error { written, werr = wc.c1.Write(make([]byte, 64<<20)); return werr }},
					{"Accept with nothing queued", func() error { _, err := l.Accept(); return err }},
					{"ReadFrom with nothing queued", func() error { _, _, err := p2.ReadFrom(buf); return err }},
				} {
					if err := call.do(); !isInterruptClose(err) {
						t.Errorf("%s with the interrupt status set: %v, want ErrClosedByInterrupt", call.name, err)
					}
					if !thread.Current().IsInterrupted() {
						t.Errorf("%s cleared the interrupt status", call.name)
					}
				}
			})
			if !isClosed(rc.c2) || !isClosed(wc.c1) {
				t.Error("a conn is still open")
			}
			if _, err := l.Accept(); !errors.Is(err, net.ErrClosed) {
				t.Errorf("Accept on the listener after: %v, want net.ErrClosed", err)
			}
			if _, err := p2.WriteTo([]byte("x"), p2.LocalAddr()); !errors.Is(err, net.ErrClosed) {
				t.Errorf("WriteTo on the packet conn after: %v, want net.ErrClosed", err)
			}
			if written >= 64<<20 {
				t.Errorf("Write wrote all %d bytes with no reader", written)
			}
			if got, err := io.Copy(io.Discard, wc.c2); got != int64(written) || err != nil {
				t.Errorf("peer received %d bytes (%v); the writer reported %d", got, err, written)
			}
		})
	}
}

// TLS over a vio conn (tls.Server(c), as http.Server.ServeTLS does) follows the socket's rule:
// with the status set, a TLS read whose record is there and a TLS write succeed; the next read,
// which must wait, closes the socket. A TLS conn wrapped directly (WrapConn of a tls.Conn) takes
// the unmounted path, about to park from the start: the status set closes it at once.
func TestInterruptStatusSetTLS(t *testing.T) {
	srvConf, cliConf := testTLS(t)
	cliConf = cliConf.Clone()
	cliConf.ServerName = "127.0.0.1"
	handshake := func(t *testing.T, c1, c2 net.Conn) (client, server *tls.Conn) {
		client, server = tls.Client(c1, cliConf), tls.Server(c2, srvConf)
		done := make(chan error, 1)
		go func() { done <- client.Handshake() }()
		if err := server.Handshake(); err != nil {
			t.Fatal(err)
		}
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		return client, server
	}
	t.Run("over a vio conn", func(t *testing.T) {
		c := newConnection(t)
		client, server := handshake(t, c.c1, c.c2)
		client.Write([]byte("hello"))
		awaitReadable(t, c.c2.(syscall.Conn))
		var first, second error
		var got string
		runVirtual(t, nil, func() {
			thread.Current().Interrupt()
			buf := make([]byte, 10)
			n, err := server.Read(buf)
			got, first = string(buf[:n]), err
			if _, err := server.Write([]byte("world")); err != nil {
				t.Errorf("TLS write with the status set: %v", err)
			}
			_, second = server.Read(buf)
			if !thread.Current().IsInterrupted() {
				t.Error("interrupt status cleared")
			}
		})
		if got != "hello" || first != nil {
			t.Errorf("TLS read with a record there and the status set = %q, %v; want hello", got, first)
		}
		buf := make([]byte, 10)
		if n, err := client.Read(buf); string(buf[:n]) != "world" || err != nil {
			t.Errorf("client read %q, %v; want world", buf[:n], err)
		}
		if !isInterruptClose(second) {
			t.Errorf("TLS read that must wait, status set: %v; want ErrClosedByInterrupt", second)
		}
	})
	t.Run("wrapped tls.Conn", func(t *testing.T) {
		c1, c2 := tcpPair(t)
		client, server := handshake(t, c1, c2)
		defer client.Close()
		vs := vio.WrapConn(server)
		defer vs.Close()
		client.Write([]byte("hello"))
		var err error
		runVirtual(t, nil, func() {
			thread.Current().Interrupt()
			_, err = vs.Read(make([]byte, 10))
		})
		if !isInterruptClose(err) {
			t.Errorf("read of a wrapped tls.Conn with the status set: %v; want ErrClosedByInterrupt", err)
		}
	})
}

// A handler on a virtual thread (vio.Handler) that is interrupted still writes its response: the
// writes to the client's connection have room, so they proceed and the connection stays open.
func TestInterruptStatusSetHandlerStillResponds(t *testing.T) {
	s := newScheduler(t, 1)
	body := bytes.Repeat([]byte("0123456789abcdef"), 4<<10) // 64 KiB: the handler's writes reach the conn
	statusAfter := make(chan bool, 1)
	srv := &http.Server{Handler: vio.HandlerWith(thread.OfVirtual().Scheduler(s).Factory(), http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		thread.Current().Interrupt()
		w.Write(body)
		statusAfter <- thread.Current().IsInterrupted()
	}))}
	l := listen(t)
	done := make(chan error, 1)
	go func() { done <- srv.Serve(l) }()
	defer func() {
		srv.Close()
		<-done
	}()
	c, err := net.Dial("tcp", l.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.Write([]byte("GET / HTTP/1.1\r\nHost: x\r\n\r\n"))
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !bytes.Equal(got, body) || err != nil {
		t.Errorf("response %d with %d of %d bytes (%v)", resp.StatusCode, len(got), len(body), err)
	}
	if !<-statusAfter {
		t.Error("the handler's interrupt status was cleared")
	}
}

// A reader or an acceptor is interrupted at a random moment while data (connections) arrive in
// random bursts and then stop, the peer staying open: whatever the race, the call that comes to
// wait after the interrupt closes the socket with ErrClosedByInterrupt (the interrupt is never
// lost between the fast path and the park), and what was read is a prefix of what was sent.
func TestStressInterruptStatusSetNeverLostBeforeThePark(t *testing.T) {
	s := newScheduler(t, 2)
	before := openFDs(t)
	for seed := range stressSeeds() {
		rng := rand.New(rand.NewPCG(uint64(seed), 11))
		virtual := rng.IntN(4) != 0
		start := func(task func()) *thread.Thread {
			if virtual {
				return thread.OfVirtual().Scheduler(s).Start(task)
			}
			return thread.OfPlatform().Start(task)
		}
		bursts := 1 + rng.IntN(10)
		pause := time.Duration(rng.IntN(300)) * time.Microsecond
		if rng.IntN(2) == 0 {
			c1, c2 := tcpPair(t)
			w, r := vio.WrapConn(c1), vio.WrapConn(c2)
			sent := make([]byte, bursts*(1+rng.IntN(4<<10)))
			for i := range sent {
				sent[i] = byte(rng.Uint32())
			}
			var got []byte
			var rerr error
			buf := make([]byte, 1+rng.IntN(8<<10))
			reader := start(readUntilError(r, buf, &got, &rerr))
			go func() {
				for i := range bursts {
					w.Write(sent[i*len(sent)/bursts : (i+1)*len(sent)/bursts])
					time.Sleep(pause)
				}
			}()
			time.Sleep(time.Duration(rng.IntN(2000)) * time.Microsecond)
			reader.Interrupt()
			if ok, _ := reader.JoinTimeout(30 * time.Second); !ok {
				t.Fatalf("seed %d: reader stuck after the interrupt (%v)", seed, reader)
			}
			if !isInterruptClose(rerr) || !reader.IsInterrupted() {
				t.Fatalf("seed %d: interrupted reader ended with %v, status %v", seed, rerr, reader.IsInterrupted())
			}
			if len(got) > len(sent) || !bytes.Equal(got, sent[:len(got)]) {
				t.Fatalf("seed %d: received %d bytes that are not a prefix of the %d sent", seed, len(got), len(sent))
			}
			w.Close()
			r.Close()
			continue
		}
		l, err := vio.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		var aerr error
		accepted := 0
		acceptor := start(func() {
			for {
				c, err := l.Accept()
				if err != nil {
					aerr = err
					return
				}
				accepted++
				c.Close()
			}
		})
		dialed := make(chan int, 1)
		go func() {
			n := 0
			for range bursts {
				if c, err := net.Dial("tcp", l.Addr().String()); err == nil {
					c.Close()
					n++
				}
				time.Sleep(pause)
			}
			dialed <- n
		}()
		time.Sleep(time.Duration(rng.IntN(2000)) * time.Microsecond)
		acceptor.Interrupt()
		if ok, _ := acceptor.JoinTimeout(30 * time.Second); !ok {
			t.Fatalf("seed %d: acceptor stuck after the interrupt (%v)", seed, acceptor)
		}
		if n := <-dialed; !isInterruptClose(aerr) || !acceptor.IsInterrupted() || accepted > n {
			t.Fatalf("seed %d: interrupted acceptor ended with %v, status %v, after %d of %d connections", seed, aerr, acceptor.IsInterrupted(), accepted, n)
		}
		l.Close()
	}
	if after := openFDs(t); after > before+5 {
		t.Errorf("open file descriptors %d → %d after %d seeds", before, after, stressSeeds())
	}
}
