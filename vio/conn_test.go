package vio_test

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/loomgo/loom/internal/viobench"
	"github.com/loomgo/loom/thread"
	"github.com/loomgo/loom/vio"
)

func TestEchoServerThreadPerConnection(t *testing.T) {
	addr, _, stop, err := viobench.StartEchoServer(viobench.Virtual, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	if _, err := viobench.EchoClients(addr, 20, 5, 0); err != nil {
		t.Error(err)
	}
}

// The scenario: a thread-per-connection server on 2 carriers, 300 keep-alive clients
// sending 5 lines 100 ms apart. With plain conns it served 2 connections at a time (60 s); with
// vio it must take about what goroutine-per-connection takes (~0.5 s).
func TestThreadPerConnectionServerServesAllClientsAtOnce(t *testing.T) {
	const clients, lines, gap = 300, 5, 100 * time.Millisecond
	run := func(side viobench.Side) time.Duration {
		addr, _, stop, err := viobench.StartEchoServer(side, 2)
		if err != nil {
			t.Fatal(err)
		}
		defer stop()
		el, err := viobench.EchoClients(addr, clients, lines, gap)
		if err != nil {
			t.Fatal(err)
		}
		return el
	}
	goroutines, virtual := run(viobench.Goroutines), run(viobench.Virtual)
	t.Logf("%d clients × %d lines %v apart: goroutines %v, virtual threads %v", clients, lines, gap, goroutines, virtual)
	if limit := 2*goroutines + time.Second; virtual > limit {
		t.Errorf("virtual threads took %v, more than %v (goroutines: %v): blocked reads hold carriers", virtual, limit, goroutines)
	}
}

// One carrier, many threads blocked in Read: the carrier is free for another thread, and the
// scheduler counts them as parked.
func TestBlockedReadsGiveTheCarrierBack(t *testing.T) {
	s := newScheduler(t, 1)
	const n = 50
	conns := make([]*connection, n)
	readers := make([]*thread.Thread, n)
	for i := range n {
		conns[i] = newConnection(t)
		c := conns[i].c2
		readers[i] = thread.OfVirtual().Scheduler(s).Start(func() {
			b := make([]byte, 8)
			if n, err := c.Read(b); n != 4 || err != nil {
				t.Errorf("Read = %d, %v", n, err)
			}
		})
	}
	for _, r := range readers {
		waitParked(t, r)
	}
	if st := s.Stats(); st.Parked != n || st.Mounted != 0 {
		t.Errorf("stats with %d readers blocked: Parked %d, Mounted %d; want %d, 0", n, st.Parked, st.Mounted, n)
	}
	ran := false
	runVirtual(t, s, func() { ran = true })
	if !ran {
		t.Fatal("another virtual thread did not run while the readers were blocked")
	}
	for _, c := range conns {
		c.c1.Write([]byte("ping"))
	}
	for _, r := range readers {
		r.Join()
	}
}

func TestBlockedReadIsTimedWaitingOnlyWithADeadline(t *testing.T) {
	s := newScheduler(t, 1)
	c := newConnection(t)
	for _, dl := range []time.Time{{}, time.Now().Add(time.Hour)} {
		c.c2.SetReadDeadline(dl)
		r := thread.OfVirtual().Scheduler(s).Start(func() { c.c2.Read(make([]byte, 1)) })
		want := thread.Waiting
		if !dl.IsZero() {
			want = thread.TimedWaiting
		}
		if got := waitParked(t, r); got != want {
			t.Errorf("deadline %v: blocked reader is %v, want %v", dl, got, want)
		}
		c.c1.Write([]byte("x"))
		r.Join()
	}
}

func TestThreadDumpShowsTheIOCall(t *testing.T) {
	s := newScheduler(t, 1)
	c := newConnection(t)
	r := thread.OfVirtual().Scheduler(s).Name("reader").Start(func() { c.c2.Read(make([]byte, 1)) })
	waitParked(t, r)
	if b := r.Blocker(); b != c.c2 {
		t.Errorf("Blocker() = %v, want the conn", b)
	}
	var dump bytes.Buffer
	if err := thread.DumpThreads(&dump, thread.DumpText); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{fmt.Sprintf("#%d \"reader\" virtual WAITING in read on", r.ThreadID()), "(a *vio.Conn)", "vio.(*Conn).Read"} {
		if !strings.Contains(dump.String(), want) {
			t.Errorf("dump lacks %q:\n%s", want, dump.String())
		}
	}
	c.c1.Write([]byte("x"))
	r.Join()
	if b := r.Blocker(); b != nil {
		t.Errorf("Blocker() after the read = %v, want nil", b)
	}
}

// A read that can proceed at once does not give the carrier up: the thread stays RUNNABLE and
// mounted on its carrier across many reads (a hand-off would queue it, and with another thread
// queued on one carrier, the other thread would run first).
func TestReadWithDataThereKeepsTheCarrier(t *testing.T) {
	s := newScheduler(t, 1)
	c := newConnection(t)
	c.c1.Write(bytes.Repeat([]byte("x"), 1000))
	var order []string
	runVirtual(t, s, func() {
		other := thread.OfVirtual().Scheduler(s).Start(func() { order = append(order, "other") })
		b := make([]byte, 1)
		for range 1000 {
			if _, err := io.ReadFull(c.c2, b); err != nil {
				t.Error(err)
				return
			}
		}
		order = append(order, "reader")
		other.Join()
	})
	if want := []string{"reader", "other"}; !cmp.Equal(order, want) {
		t.Errorf("order = %v, want %v: a read with data there handed the carrier off", order, want)
	}
}

// The interrupt's error belongs to the call during which the interrupt closed the resource: a
// later call of the same thread, its status still set, finds it closed and fails as any call on a
// closed resource does (net.ErrClosed; os.ErrClosed for a file), as Java's next read on the
// socket says "Socket closed" (ClosedChannelException on a channel). Found by the oracle
// (internal/oracle, io_interrupt_status_set_would_block).
func TestALaterCallOnAResourceClosedByInterruptIsAPlainClose(t *testing.T) {
	runVirtual(t, nil, func() {
		c := newConnection(t)
		l, err := vio.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		pc, err := vio.ListenPacket("udp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer pc.Close()
		name := t.TempDir() + "/f"
		if err := os.WriteFile(name, []byte("data"), 0o600); err != nil {
			t.Fatal(err)
		}
		f, err := vio.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		buf := make([]byte, 10)
		w, big := newConnection(t), make([]byte, 64<<20) // a write that must wait: no one reads
		for _, call := range []struct {
			name   string
			do     func() error
			closed error
		}{
			{"Conn.Read", func() error { _, err := c.c2.Read(buf); return err }, net.ErrClosed},
			{"Conn.Write", func() error { _, err := w.c1.Write(big); return err }, net.ErrClosed},
			{"Listener.Accept", func() error { _, err := l.Accept(); return err }, net.ErrClosed},
			{"PacketConn.ReadFrom", func() error { _, _, err := pc.ReadFrom(buf); return err }, net.ErrClosed},
			{"File.Read", func() error { _, err := f.Read(buf); return err }, os.ErrClosed},
		} {
			thread.Current().Interrupt()
			if err := call.do(); !errors.Is(err, vio.ErrClosedByInterrupt) {
				t.Errorf("%s with the interrupt status set: %v, want ErrClosedByInterrupt", call.name, err)
			}
			for range 2 {
				err := call.do()
				if !errors.Is(err, call.closed) || errors.Is(err, vio.ErrClosedByInterrupt) || errors.Is(err, thread.ErrInterrupted) {
					t.Errorf("%s again on the closed resource, status still set: %v, want a plain %v", call.name, err, call.closed)
				}
			}
			if !thread.Interrupted() {
				t.Errorf("%s: interrupt status cleared", call.name)
			}
		}
	})
}

// Interrupting a writer blocked on a full socket buffer: it returns the count written, and the
// peer receives exactly that many bytes (nothing lost, nothing invented).
func TestInterruptedWriteReportsWhatWasWritten(t *testing.T) {
	runVirtual(t, nil, func() {
		c := newConnection(t)
		me := thread.Current()
		runAfterParked(t, me, me.Interrupt)
		n, err := c.c1.Write(make([]byte, 64<<20))
		if !isInterruptClose(err) || n <= 0 || n >= 64<<20 {
			t.Errorf("Write = %d, %v; want part of it and ErrClosedByInterrupt", n, err)
		}
		thread.Interrupted()
		got, err := io.Copy(io.Discard, c.c2)
		if got != int64(n) || err != nil {
			t.Errorf("peer received %d bytes (%v); the writer reported %d", got, err, n)
		}
	})
}

func TestDeadlinePassesThroughAndLeavesTheConnOpen(t *testing.T) {
	runVirtual(t, nil, func() {
		c := newConnection(t)
		c.c2.SetReadDeadline(time.Now().Add(50 * time.Millisecond))
		_, err := c.c2.Read(make([]byte, 1))
		var ne net.Error
		if !isTimeout(err) || !errors.As(err, &ne) || !ne.Timeout() {
			t.Errorf("Read after the deadline: %v; want os.ErrDeadlineExceeded", err)
		}
		c.c2.SetReadDeadline(time.Time{})
		c.c1.Write([]byte("y"))
		b := make([]byte, 1)
		if n, err := c.c2.Read(b); n != 1 || err != nil || b[0] != 'y' {
			t.Errorf("Read after clearing the deadline = %d, %v", n, err)
		}
	})
}

func TestCloseByAnotherVirtualThreadWhileBlocked(t *testing.T) {
	s := newScheduler(t, 1)
	c := newConnection(t)
	var err error
	r := thread.OfVirtual().Scheduler(s).Start(func() { _, err = c.c2.Read(make([]byte, 1)) })
	waitParked(t, r)
	runVirtual(t, s, func() { c.c2.Close() })
	r.Join()
	if !isAsyncClose(err) {
		t.Errorf("Read: %v; want net.ErrClosed", err)
	}
	if r.IsInterrupted() {
		t.Error("the reader's interrupt status is set by a close")
	}
}

// Errors are the standard library's: compare a vio conn's with the plain conn's, on a virtual
// thread, for a deadline, EOF and a closed conn.
func TestErrorsAreTheStandardLibrarys(t *testing.T) {
	runVirtual(t, nil, func() {
		errorsOf := func(wrap bool) []string {
			c1, c2 := tcpPair(t)
			defer c1.Close()
			if wrap {
				c2 = vio.WrapConn(c2)
			}
			var got []string
			c2.SetReadDeadline(time.Now().Add(10 * time.Millisecond))
			_, err := c2.Read(make([]byte, 1))
			got = append(got, describeErr(err, c2))
			c2.SetReadDeadline(time.Time{})
			c1.Close()
			_, err = c2.Read(make([]byte, 1))
			got = append(got, describeErr(err, c2))
			c2.Close()
			_, err = c2.Read(make([]byte, 1))
			got = append(got, describeErr(err, c2))
			_, err = c2.Write([]byte("x"))
			got = append(got, describeErr(err, c2))
			return got
		}
		if diff := cmp.Diff(errorsOf(false), errorsOf(true)); diff != "" {
			t.Errorf("vio errors differ from the plain conn's (-plain +vio):\n%s", diff)
		}
	})
}

// describeErr describes err with the conn's own addresses replaced, so two conns compare.
func describeErr(err error, c net.Conn) string {
	if err == nil {
		return "<nil>"
	}
	s := fmt.Sprintf("%T %v", err, err)
	var oe *net.OpError
	if errors.As(err, &oe) {
		s = fmt.Sprintf("%T op=%s net=%s src=%v addr=%v err=%T %v timeout=%v", err, oe.Op, oe.Net, oe.Source != nil, oe.Addr != nil, oe.Err, oe.Err, oe.Timeout())
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, c.LocalAddr().String(), "L"), c.RemoteAddr().String(), "R")
}

// TLS over a vio conn: a server virtual thread blocked in a TLS read unmounts (the TLS conn reads
// its vio conn), and an interrupt closes the socket under it.
func TestTLSOverVioConn(t *testing.T) {
	srvConf, cliConf := testTLS(t)
	s := newScheduler(t, 1)
	l := listen(t)
	var srv *thread.Thread
	var readErr error
	srv = thread.OfVirtual().Scheduler(s).Start(func() {
		c, err := l.Accept()
		if err != nil {
			t.Error(err)
			return
		}
		tc := tls.Server(c, srvConf)
		defer tc.Close()
		r := bufio.NewReader(tc)
		line, err := r.ReadString('\n')
		if err != nil || line != "hello\n" {
			t.Errorf("server read %q, %v", line, err)
			return
		}
		tc.Write([]byte("world\n"))
		_, readErr = r.ReadString('\n') // blocks until the interrupt
	})
	c, err := tls.Dial("tcp", l.Addr().String(), cliConf)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	io.WriteString(c, "hello\n")
	if line, err := bufio.NewReader(c).ReadString('\n'); line != "world\n" || err != nil {
		t.Fatalf("client read %q, %v", line, err)
	}
	if waitParked(t, srv) != thread.Waiting || srv.Carrier() != "" {
		t.Errorf("server blocked in a TLS read: %v on %q, want WAITING and unmounted", srv.State(), srv.Carrier())
	}
	srv.Interrupt()
	srv.Join()
	if !errors.Is(readErr, thread.ErrInterrupted) || !errors.Is(readErr, net.ErrClosed) {
		t.Errorf("TLS read after the interrupt: %v; want ErrClosedByInterrupt", readErr)
	}
}

// Conns without a system-call path (a TLS conn wrapped directly, net.Pipe) take the unmounted
// path: blocked, the thread is WAITING without a carrier, and an interrupt closes the conn.
func TestConnWithoutSyscallConnRunsUnmounted(t *testing.T) {
	srvConf, cliConf := testTLS(t)
	for _, kind := range []string{"net.Pipe", "tls.Conn"} {
		t.Run(kind, func(t *testing.T) {
			s := newScheduler(t, 1)
			var a, b net.Conn
			if kind == "net.Pipe" {
				a, b = net.Pipe()
			} else {
				c1, c2 := tcpPair(t)
				cc := cliConf.Clone()
				cc.ServerName = "127.0.0.1"
				a, b = tls.Client(c1, cc), tls.Server(c2, srvConf)
				go a.(*tls.Conn).Handshake()
				if err := b.(*tls.Conn).Handshake(); err != nil {
					t.Fatal(err)
				}
			}
			defer a.Close()
			vb := vio.WrapConn(b)
			defer vb.Close()
			var first atomic.Int64
			var err error
			r := thread.OfVirtual().Scheduler(s).Start(func() {
				buf := make([]byte, 10)
				n, _ := vb.Read(buf)
				first.Store(int64(n))
				if n == 2 {
					_, err = vb.Read(buf) // blocks until the interrupt
				}
			})
			waitParked(t, r)
			if r.Carrier() != "" || s.Stats().Parked != 1 {
				t.Errorf("blocked on a %s: carrier %q, parked %d; want unmounted", kind, r.Carrier(), s.Stats().Parked)
			}
			a.Write([]byte("hi"))
			for r.IsAlive() && first.Load() != 2 {
				time.Sleep(time.Millisecond)
			}
			waitParked(t, r)
			r.Interrupt()
			r.Join()
			if !isInterruptClose(err) {
				t.Errorf("second read: %v; want ErrClosedByInterrupt", err)
			}
		})
	}
}

// On a platform thread a vio conn is the plain conn, plus the interrupt rule: an interrupt closes
// it, whether it comes before or while the thread is blocked.
func TestPlatformThreadInterruptClosesTheConn(t *testing.T) {
	c := newConnection(t)
	var err error
	p := thread.OfPlatform().Start(func() { _, err = c.c2.Read(make([]byte, 1)) })
	time.Sleep(20 * time.Millisecond)
	if st := p.State(); st != thread.Runnable {
		t.Errorf("platform thread blocked in Read is %v, want RUNNABLE (as Java's, in native code)", st)
	}
	p.Interrupt()
	p.Join()
	if !isInterruptClose(err) || !p.IsInterrupted() {
		t.Errorf("Read on an interrupted platform thread: %v (status %v); want ErrClosedByInterrupt, status set", err, p.IsInterrupted())
	}
}

// A goroutine loom never saw gets the plain conn: it is not attached by vio calls, and its calls
// behave as the wrapped conn's. One that called thread.Current is a thread loom knows: an
// interrupt of it closes the conn.
func TestForeignGoroutines(t *testing.T) {
	c := newConnection(t)
	before := len(thread.LiveThreads())
	done := make(chan error)
	go func() {
		c.c1.Write([]byte("x"))
		_, err := c.c2.Read(make([]byte, 1))
		done <- err
	}()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if after := len(thread.LiveThreads()); after > before {
		t.Errorf("live threads %d → %d: a vio call attached a foreign goroutine", before, after)
	}
	me := make(chan *thread.Thread)
	go func() {
		me <- thread.Current()
		_, err := c.c2.Read(make([]byte, 1))
		done <- err
		thread.Detach()
	}()
	th := <-me
	time.Sleep(20 * time.Millisecond)
	th.Interrupt()
	if err := <-done; !isInterruptClose(err) {
		t.Errorf("Read on an interrupted attached goroutine: %v; want ErrClosedByInterrupt", err)
	}
}

func TestWrapIsIdempotent(t *testing.T) {
	c := newConnection(t)
	if w := vio.WrapConn(c.c1); w != c.c1 {
		t.Error("WrapConn(a vio conn) wrapped it again")
	}
	l := listen(t)
	if w := vio.WrapListener(l); w != l {
		t.Error("WrapListener(a vio listener) wrapped it again")
	}
	p, _ := udpPair(t)
	if w := vio.WrapPacketConn(p); w != p {
		t.Error("WrapPacketConn(a vio packet conn) wrapped it again")
	}
	tr := vio.Transport(nil)
	if w := vio.Transport(tr); w != tr {
		t.Error("Transport(a vio transport) wrapped it again")
	}
}

func TestNilArgumentsPanic(t *testing.T) {
	for name, f := range map[string]func(){
		"WrapConn":       func() { vio.WrapConn(nil) },
		"WrapListener":   func() { vio.WrapListener(nil) },
		"WrapPacketConn": func() { vio.WrapPacketConn(nil) },
		"Handler":        func() { vio.Handler(nil) },
		"HandlerWith":    func() { vio.HandlerWith(nil, nil) },
		"NewFile":        func() { vio.NewFile(nil) },
		//lint:ignore SA1012 the nil context is the test.
		"DialContext": func() { vio.DialContext(nil, "tcp", "127.0.0.1:1") },
		//lint:ignore SA1012 the nil context is the test.
		"Await": func() { vio.Await(nil) },
		"Wait":  func() { vio.Wait(nil) },
	} {
		func() {
			defer func() {
				if err, ok := recover().(error); !ok || !errors.Is(err, thread.ErrNilArgument) {
					t.Errorf("%s(nil) panicked with %v, want thread.ErrNilArgument", name, err)
				}
			}()
			f()
		}()
	}
}

// A pinned virtual thread (inside thread.Native) blocked in vio I/O keeps its carrier, as Java's
// does when its poller park is pinned, and the park is reported as a pinned event.
func TestPinnedReadKeepsTheCarrierAndIsReported(t *testing.T) {
	var events atomic.Int64
	var ev thread.PinnedEvent
	s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 2, PinnedThreshold: time.Millisecond,
		OnPinned: func(e thread.PinnedEvent) { ev = e; events.Add(1) }})
	defer s.Close()
	c := newConnection(t)
	r := thread.OfVirtual().Scheduler(s).Start(func() {
		thread.Native(func() { c.c2.Read(make([]byte, 1)) })
	})
	waitParked(t, r)
	if r.Carrier() == "" || s.Stats().PinnedParked != 1 {
		t.Errorf("pinned reader: carrier %q, pinned parked %d; want it kept, 1", r.Carrier(), s.Stats().PinnedParked)
	}
	time.Sleep(5 * time.Millisecond)
	c.c1.Write([]byte("x"))
	r.Join()
	if events.Load() != 1 || ev.Reason != "NATIVE" || ev.Thread != r {
		t.Errorf("pinned events %d, last %+v; want one NATIVE event for the reader", events.Load(), ev)
	}
}

// Dial unmounts while it connects (here: while it resolves the name, through a resolver that
// answers only when its context ends), and an interrupt cancels it.
func TestDialInterrupted(t *testing.T) {
	s := newScheduler(t, 1)
	resolver := &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, _, _ string) (net.Conn, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	}}
	var err error
	d := thread.OfVirtual().Scheduler(s).Start(func() {
		dialer := &vio.Dialer{Dialer: net.Dialer{Resolver: resolver}}
		_, err = dialer.DialContext(context.Background(), "tcp", "never.invalid:80")
	})
	if waitParked(t, d) != thread.Waiting || d.Carrier() != "" {
		t.Errorf("dialing thread: %v on %q; want WAITING, unmounted", d.State(), d.Carrier())
	}
	d.Interrupt()
	d.Join()
	if !isInterruptClose(err) || !d.IsInterrupted() {
		t.Errorf("interrupted dial: %v (status %v); want ErrClosedByInterrupt, status set", err, d.IsInterrupted())
	}
}

func TestDialerDialsVioConns(t *testing.T) {
	l := listen(t)
	runVirtual(t, nil, func() {
		d := &vio.Dialer{Dialer: net.Dialer{Timeout: 5 * time.Second}}
		c, err := d.Dial("tcp", l.Addr().String())
		if err != nil {
			t.Error(err)
			return
		}
		defer c.Close()
		if _, ok := c.(*vio.Conn); !ok {
			t.Errorf("Dial returned a %T, want *vio.Conn", c)
		}
		if _, err := vio.Dial("tcp", "127.0.0.1:1"); err == nil || !strings.Contains(err.Error(), "refused") {
			t.Errorf("Dial to a closed port: %v, want connection refused", err)
		}
	})
}

func TestCloseWriteHalfCloses(t *testing.T) {
	runVirtual(t, nil, func() {
		c := newConnection(t)
		c.c1.Write([]byte("abc"))
		if err := c.c1.(*vio.Conn).CloseWrite(); err != nil {
			t.Error(err)
		}
		got, err := io.ReadAll(c.c2)
		if string(got) != "abc" || err != nil {
			t.Errorf("peer read %q, %v after CloseWrite", got, err)
		}
		a, _ := net.Pipe()
		defer a.Close()
		if err := vio.WrapConn(a).(*vio.Conn).CloseWrite(); !errors.Is(err, errors.ErrUnsupported) {
			t.Errorf("CloseWrite on a pipe: %v, want errors.ErrUnsupported", err)
		}
	})
}

var _ = os.Getpid

// An I/O park is not a LockSupport park: Unpark does not end it (the read goes on waiting for
// data) and its permit is kept for the next Park, which then returns at once.
func TestUnparkDoesNotEndAReadAndItsPermitIsKept(t *testing.T) {
	s := newScheduler(t, 1)
	c := newConnection(t)
	var n int
	var err error
	parkedAfter := false
	r := thread.OfVirtual().Scheduler(s).Start(func() {
		n, err = c.c2.Read(make([]byte, 1))
		thread.Park() // the permit from the Unpark below: returns at once
		parkedAfter = true
	})
	waitParked(t, r)
	thread.Unpark(r)
	time.Sleep(20 * time.Millisecond)
	if st := r.State(); st != thread.Waiting {
		t.Errorf("after Unpark the reader is %v, want still WAITING in Read", st)
	}
	c.c1.Write([]byte("x"))
	if ok, _ := r.JoinTimeout(10 * time.Second); !ok || !parkedAfter {
		t.Fatal("the Park after the read did not return: Unpark's permit was lost")
	}
	if n != 1 || err != nil {
		t.Errorf("Read = %d, %v", n, err)
	}
}

// panicConn is a conn whose Read and Write panic, as a buggy wrapper's might.
type panicConn struct{ net.Conn }

func (panicConn) Read([]byte) (int, error)  { panic("bad read") }
func (panicConn) Write([]byte) (int, error) { panic("bad write") }

// A panic inside a vio call (here a wrapped conn's) leaves no half-done I/O park: the thread
// that recovers is mounted again and can block in loom, and the scheduler's counts are right.
func TestPanicInsideAVioCallLeavesTheThreadMounted(t *testing.T) {
	s := newScheduler(t, 1)
	a, b := net.Pipe()
	defer a.Close()
	pc := vio.WrapConn(panicConn{b})
	var got []string
	runVirtual(t, s, func() {
		for _, f := range []func(){
			func() { pc.Read(make([]byte, 1)) },
			func() { pc.Write([]byte("x")) },
		} {
			func() {
				defer func() { got = append(got, fmt.Sprint(recover())) }()
				f()
			}()
			if err := thread.Sleep(time.Millisecond); err != nil || thread.Current().Carrier() == "" {
				t.Errorf("after the panic: Sleep %v, carrier %q", err, thread.Current().Carrier())
			}
		}
	})
	if want := []string{"bad read", "bad write"}; !cmp.Equal(got, want) {
		t.Errorf("recovered %q, want %q", got, want)
	}
	deadline := time.Now().Add(10 * time.Second)
	for st := s.Stats(); st.Live != 0 || st.Mounted != 0 || st.Parked != 0; st = s.Stats() {
		if time.Now().After(deadline) {
			t.Fatalf("stats after: %+v", st)
		}
		time.Sleep(time.Millisecond)
	}
}
