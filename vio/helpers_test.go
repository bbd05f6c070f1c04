package vio_test

import (
	"bytes"
	"errors"
	"net"
	"os"
	"testing"
	"time"

	"github.com/loomgo/loom/thread"
	"github.com/loomgo/loom/vio"
)

// newScheduler returns a scheduler with n carriers, closed when the test ends.
func newScheduler(tb testing.TB, n int) *thread.Scheduler {
	s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: n})
	tb.Cleanup(s.Close)
	return s
}

// runVirtual runs task on a virtual thread of s (one carrier if s is nil) and waits for it, as the
// JDK tests' VThreadRunner.run. A thread still running after a minute fails the test with a
// thread dump.
func runVirtual(t *testing.T, s *thread.Scheduler, task func()) {
	t.Helper()
	if s == nil {
		s = newScheduler(t, 1)
	}
	th := thread.OfVirtual().Scheduler(s).Start(task)
	if ok, _ := th.JoinTimeout(time.Minute); !ok {
		var dump bytes.Buffer
		thread.DumpThreads(&dump, thread.DumpText)
		t.Fatalf("%v still running after a minute:\n%s", th, dump.String())
	}
}

// runAfterParked runs task on a goroutine once target is WAITING or TIMED_WAITING (and a little
// later, as the JDK tests' runAfterParkedAsync), and returns a channel closed when task has run.
// Before task runs it checks that a virtual target has given its carrier back, the point of a
// vio call.
func runAfterParked(t *testing.T, target *thread.Thread, task func()) <-chan struct{} {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		st := waitParked(t, target)
		if st == thread.New {
			return
		}
		time.Sleep(20 * time.Millisecond)
		if target.IsVirtual() && target.State() == st && target.Carrier() != "" {
			t.Errorf("%v is %v but holds carrier %q", target, st, target.Carrier())
		}
		task()
	}()
	return done
}

// waitParked waits until th is WAITING or TIMED_WAITING and returns that state (New if it gave
// up after 30 s, having failed the test).
func waitParked(t *testing.T, th *thread.Thread) thread.State {
	deadline := time.Now().Add(30 * time.Second)
	for {
		switch st := th.State(); st {
		case thread.Waiting, thread.TimedWaiting:
			return st
		case thread.Terminated:
			t.Errorf("%v terminated before it parked", th)
			return thread.New
		}
		if time.Now().After(deadline) {
			t.Errorf("%v never parked (state %v)", th, th.State())
			return thread.New
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// connection is a loopback TCP connection whose ends are both vio conns, as the JDK tests'
// Connection.
type connection struct{ c1, c2 net.Conn }

func newConnection(t *testing.T) *connection {
	t.Helper()
	c1, c2 := tcpPair(t)
	conn := &connection{vio.WrapConn(c1), vio.WrapConn(c2)}
	t.Cleanup(func() { conn.c1.Close(); conn.c2.Close() })
	return conn
}

// isInterruptClose reports whether err is the error of a call closed by an interrupt: both
// thread.ErrInterrupted and net.ErrClosed, and vio.ErrClosedByInterrupt.
func isInterruptClose(err error) bool {
	return errors.Is(err, thread.ErrInterrupted) && errors.Is(err, net.ErrClosed) && errors.Is(err, vio.ErrClosedByInterrupt)
}

// isAsyncClose reports whether err is the error of a call whose conn another thread closed:
// net.ErrClosed, and not an interrupt.
func isAsyncClose(err error) bool {
	return errors.Is(err, net.ErrClosed) && !errors.Is(err, thread.ErrInterrupted)
}

// isClosed reports whether c has been closed: a further write fails with net.ErrClosed.
func isClosed(c net.Conn) bool {
	_, err := c.Write([]byte("x"))
	return errors.Is(err, net.ErrClosed)
}

func isTimeout(err error) bool { return errors.Is(err, os.ErrDeadlineExceeded) }

// tcpPair returns the two ends of a loopback TCP connection (plain conns).
func tcpPair(tb testing.TB) (net.Conn, net.Conn) {
	tb.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	defer ln.Close()
	c1, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		tb.Fatal(err)
	}
	c2, err := ln.Accept()
	if err != nil {
		c1.Close()
		tb.Fatal(err)
	}
	return c1, c2
}
