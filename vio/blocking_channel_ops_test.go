package vio_test

// A port of the JDK's test/jdk/java/nio/channels/vthread/BlockingChannelOps.java: virtual threads
// doing blocking I/O on NIO channels. A SocketChannel, ServerSocketChannel and DatagramChannel
// are vio's Conn, Listener and PacketConn, as their socket adaptors are, so the socket tests'
// helpers serve both files; a Pipe is os.Pipe wrapped by vio.NewFile. Each test is named after
// its Java method.

import (
	"errors"
	"io"
	"os"
	"testing"
	"time"

	"github.com/loomgo/loom/thread"
	"github.com/loomgo/loom/vio"
)

// SocketChannel read/write, no blocking.
func TestBlockingChannelOps_testSocketChannelReadWrite1(t *testing.T) {
	TestBlockingSocketOps_testSocketReadWrite1(t)
}

// Virtual thread blocks in SocketChannel read.
func TestBlockingChannelOps_testSocketChannelRead(t *testing.T) { testSocketRead(t, 0) }

// Virtual thread blocks in SocketChannel write.
func TestBlockingChannelOps_testSocketChannelWrite(t *testing.T) {
	TestBlockingSocketOps_testSocketWrite1(t)
}

// SocketChannel close while virtual thread blocked in read.
func TestBlockingChannelOps_testSocketChannelReadAsyncClose(t *testing.T) {
	testSocketReadAsyncClose(t, 0)
}

// Virtual thread interrupted while blocked in SocketChannel read.
func TestBlockingChannelOps_testSocketChannelReadInterrupt(t *testing.T) {
	testSocketReadInterrupt(t, 0)
}

// SocketChannel close while virtual thread blocked in write: a close that came before the write
// blocked is a plain close (ClosedChannelException in Java), and the test retries.
func TestBlockingChannelOps_testSocketChannelWriteAsyncClose(t *testing.T) {
	runVirtual(t, nil, func() {
		for retry := true; retry; {
			retry = writeUntilClosed(t, func(c *connection) { c.c1.Close() }, isAsyncClose)
		}
	})
}

// Virtual thread interrupted while blocked in SocketChannel write.
func TestBlockingChannelOps_testSocketChannelWriteInterrupt(t *testing.T) {
	runVirtual(t, nil, func() {
		for retry := true; retry; {
			me := thread.Current()
			retry = writeUntilClosed(t, func(*connection) { me.Interrupt() }, isInterruptClose)
			if !retry && !thread.Interrupted() {
				t.Error("interrupt status cleared; Java leaves it set")
			}
		}
	})
}

// writeUntilClosed writes to a new connection until act (run once the thread blocks) makes a
// write fail; it reports whether the test must be retried because the write failed before it
// blocked, else checks the error with want.
func writeUntilClosed(t *testing.T, act func(*connection), want func(error) bool) (retry bool) {
	c := newConnection(t)
	blocked := false
	done := runAfterParked(t, thread.Current(), func() { blocked = true; act(c) })
	ba := make([]byte, 100*1024)
	var err error
	for err == nil {
		_, err = c.c1.Write(ba)
	}
	<-done
	if !blocked {
		return true
	}
	if !want(err) {
		t.Errorf("Write: %v", err)
	}
	return false
}

// Virtual thread blocks in SocketChannel adaptor read.
func TestBlockingChannelOps_testSocketAdaptorRead1(t *testing.T) { testSocketRead(t, 0) }

// Virtual thread blocks in SocketChannel adaptor read with timeout.
func TestBlockingChannelOps_testSocketAdaptorRead2(t *testing.T) { testSocketRead(t, time.Minute) }

// ServerSocketChannel accept, no blocking.
func TestBlockingChannelOps_testServerSocketChannelAccept1(t *testing.T) {
	TestBlockingSocketOps_testServerSocketAccept1(t)
}

// Virtual thread blocks in ServerSocketChannel accept.
func TestBlockingChannelOps_testServerSocketChannelAccept2(t *testing.T) {
	testServerSocketAccept(t, 0)
}

// ServerSocketChannel close while virtual thread blocked in accept.
func TestBlockingChannelOps_testServerSocketChannelAcceptAsyncClose(t *testing.T) {
	testServerSocketAcceptAsyncClose(t, 0)
}

// Virtual thread interrupted while blocked in ServerSocketChannel accept.
func TestBlockingChannelOps_testServerSocketChannelAcceptInterrupt(t *testing.T) {
	testServerSocketAcceptInterrupt(t, 0)
}

// Virtual thread blocks in ServerSocketChannel adaptor accept.
func TestBlockingChannelOps_testSocketChannelAdaptorAccept1(t *testing.T) {
	testServerSocketAccept(t, 0)
}

// Virtual thread blocks in ServerSocketChannel adaptor accept with timeout.
func TestBlockingChannelOps_testSocketChannelAdaptorAccept2(t *testing.T) {
	testServerSocketAccept(t, time.Minute)
}

// DatagramChannel receive/send, no blocking.
func TestBlockingChannelOps_testDatagramChannelSendReceive1(t *testing.T) {
	TestBlockingSocketOps_testDatagramSocketSendReceive1(t)
}

// Virtual thread blocks in DatagramChannel receive.
func TestBlockingChannelOps_testDatagramChannelSendReceive2(t *testing.T) {
	testDatagramSocketSendReceive(t, 0)
}

// DatagramChannel close while virtual thread blocked in receive.
func TestBlockingChannelOps_testDatagramChannelReceiveAsyncClose(t *testing.T) {
	testDatagramSocketReceiveAsyncClose(t, 0)
}

// Virtual thread interrupted while blocked in DatagramChannel receive.
func TestBlockingChannelOps_testDatagramChannelReceiveInterrupt(t *testing.T) {
	testDatagramSocketReceiveInterrupt(t, 0)
}

// Virtual thread blocks in DatagramSocket adaptor receive.
func TestBlockingChannelOps_testDatagramSocketAdaptorReceive1(t *testing.T) {
	testDatagramSocketSendReceive(t, 0)
}

// Virtual thread blocks in DatagramSocket adaptor receive with timeout.
func TestBlockingChannelOps_testDatagramSocketAdaptorReceive2(t *testing.T) {
	testDatagramSocketSendReceive(t, time.Minute)
}

// DatagramChannel close while virtual thread blocked in adaptor receive.
func TestBlockingChannelOps_testDatagramSocketAdaptorReceiveAsyncClose1(t *testing.T) {
	testDatagramSocketReceiveAsyncClose(t, 0)
}

// DatagramChannel close while virtual thread blocked in adaptor receive with timeout.
func TestBlockingChannelOps_testDatagramSocketAdaptorReceiveAsyncClose2(t *testing.T) {
	testDatagramSocketReceiveAsyncClose(t, time.Minute)
}

// Virtual thread interrupted while blocked in DatagramSocket adaptor receive.
func TestBlockingChannelOps_testDatagramSocketAdaptorReceiveInterrupt1(t *testing.T) {
	testDatagramSocketReceiveInterrupt(t, 0)
}

// Virtual thread interrupted while blocked in DatagramSocket adaptor receive with timeout.
func TestBlockingChannelOps_testDatagramSocketAdaptorReceiveInterrupt2(t *testing.T) {
	testDatagramSocketReceiveInterrupt(t, time.Minute)
}

// pipe returns the two ends of an os.Pipe as vio files, closed when the test ends.
func pipe(t *testing.T) (source, sink *vio.File) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	source, sink = vio.NewFile(r), vio.NewFile(w)
	t.Cleanup(func() { source.Close(); sink.Close() })
	return source, sink
}

// Pipe read/write, no blocking.
func TestBlockingChannelOps_testPipeReadWrite1(t *testing.T) {
	runVirtual(t, nil, func() {
		source, sink := pipe(t)
		if n, err := sink.Write([]byte("XXX")); n != 3 || err != nil {
			t.Errorf("Write = %d, %v", n, err)
		}
		bb := make([]byte, 10)
		if n, err := source.Read(bb); n <= 0 || bb[0] != 'X' || err != nil {
			t.Errorf("Read = %d, %v", n, err)
		}
	})
}

// Virtual thread blocks in Pipe.SourceChannel read.
func TestBlockingChannelOps_testPipeReadWrite2(t *testing.T) {
	runVirtual(t, nil, func() {
		source, sink := pipe(t)
		runAfterParked(t, thread.Current(), func() { sink.Write([]byte("XXX")) })
		bb := make([]byte, 10)
		if n, err := source.Read(bb); n <= 0 || bb[0] != 'X' || err != nil {
			t.Errorf("Read = %d, %v", n, err)
		}
	})
}

// Virtual thread blocks in Pipe.SinkChannel write.
func TestBlockingChannelOps_testPipeReadWrite3(t *testing.T) {
	runVirtual(t, nil, func() {
		source, sink := pipe(t)
		got := make(chan int64, 1)
		runAfterParked(t, thread.Current(), func() {
			n, _ := io.Copy(io.Discard, source)
			got <- n
		})
		bb := make([]byte, 100*1024)
		for range 1000 {
			if n, err := sink.Write(bb); n != len(bb) || err != nil {
				t.Errorf("Write = %d, %v", n, err)
				break
			}
		}
		sink.Close()
		if n := <-got; n != 1000*100*1024 {
			t.Errorf("reader got %d bytes, want %d", n, 1000*100*1024)
		}
	})
}

// Pipe.SourceChannel close while virtual thread blocked in read.
func TestBlockingChannelOps_testPipeReadAsyncClose(t *testing.T) {
	runVirtual(t, nil, func() {
		source, _ := pipe(t)
		runAfterParked(t, thread.Current(), func() { source.Close() })
		n, err := source.Read(make([]byte, 100))
		if n != 0 || !errors.Is(err, os.ErrClosed) || errors.Is(err, thread.ErrInterrupted) {
			t.Errorf("Read = %d, %v; want os.ErrClosed", n, err)
		}
	})
}

// Virtual thread interrupted while blocked in Pipe.SourceChannel read.
func TestBlockingChannelOps_testPipeReadInterrupt(t *testing.T) {
	runVirtual(t, nil, func() {
		source, _ := pipe(t)
		me := thread.Current()
		runAfterParked(t, me, me.Interrupt)
		n, err := source.Read(make([]byte, 100))
		if n != 0 || !isInterruptClose(err) {
			t.Errorf("Read = %d, %v; want ErrClosedByInterrupt", n, err)
		}
		if !thread.Interrupted() {
			t.Error("interrupt status cleared; Java leaves it set")
		}
	})
}

// Pipe.SinkChannel close while virtual thread blocked in write.
func TestBlockingChannelOps_testPipeWriteAsyncClose(t *testing.T) {
	runVirtual(t, nil, func() {
		for retry := true; retry; {
			retry = writePipeUntilClosed(t, func(sink *vio.File) { sink.Close() }, func(err error) bool {
				return errors.Is(err, os.ErrClosed) && !errors.Is(err, thread.ErrInterrupted)
			})
		}
	})
}

// Virtual thread interrupted while blocked in Pipe.SinkChannel write.
func TestBlockingChannelOps_testPipeWriteInterrupt(t *testing.T) {
	runVirtual(t, nil, func() {
		for retry := true; retry; {
			me := thread.Current()
			retry = writePipeUntilClosed(t, func(*vio.File) { me.Interrupt() }, isInterruptClose)
			if !retry && !thread.Interrupted() {
				t.Error("interrupt status cleared; Java leaves it set")
			}
		}
	})
}

// writePipeUntilClosed is writeUntilClosed for a pipe.
func writePipeUntilClosed(t *testing.T, act func(*vio.File), want func(error) bool) (retry bool) {
	_, sink := pipe(t)
	blocked := false
	done := runAfterParked(t, thread.Current(), func() { blocked = true; act(sink) })
	bb := make([]byte, 100*1024)
	var err error
	for err == nil {
		_, err = sink.Write(bb)
	}
	<-done
	if !blocked {
		return true
	}
	if !want(err) {
		t.Errorf("Write: %v", err)
	}
	return false
}
