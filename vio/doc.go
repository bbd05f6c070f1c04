// Package vio is blocking I/O that unmounts a virtual thread: sockets, HTTP, files, processes,
// and Go's channels and contexts, as the JDK's socket, channel and HttpClient implementations
// behave on virtual threads (JEP 444). It is what makes a thread-per-connection or
// thread-per-request server on loom's virtual threads scale the way it does in Java.
//
// A plain [net.Conn] read on a virtual thread blocks its goroutine inside Go's runtime, with the
// carrier: a server that gives every connection a virtual thread then serves only Parallelism
// connections at a time. Through vio the same read gives the carrier back while it waits:
//
//	l, _ := vio.Listen("tcp", ":8080")
//	es := executors.NewVirtualThreadPerTaskExecutor()
//	for {
//		c, err := l.Accept() // unmounts while no client comes
//		if err != nil {
//			break
//		}
//		es.Execute(func() { serve(c) }) // serve's reads and writes unmount while they wait
//	}
//
// and [ListenAndServe] is the one-liner of a thread-per-request HTTP server. Java → vio:
//
//	Socket / SocketChannel (connect)          Dial, DialContext, Dialer, WrapConn → *Conn
//	ServerSocket / ServerSocketChannel        Listen, WrapListener → *Listener
//	DatagramSocket / DatagramChannel          ListenPacket, WrapPacketConn → *PacketConn
//	HttpClient.send                           Transport (http.Client{Transport: vio.Transport(nil)})
//	HttpServer / a servlet container          Handler, ListenAndServe, Serve
//	FileChannel, Files.readAllBytes/write     Open, Create, OpenFile, NewFile → *File, ReadFile, WriteFile
//	ProcessBuilder.start, Process.waitFor     Start, Wait, Run, Output, CombinedOutput
//	BlockingQueue.take/put, CountDownLatch    Recv, Send (Go channels), Await (a context)
//	ClosedByInterruptException                ErrClosedByInterrupt
//	SocketTimeoutException                    os.ErrDeadlineExceeded (set a deadline)
//
// # Terms
//
//   - A vio call is a blocking call on a vio value (a Conn Read, a Listener Accept, a Recv).
//   - The fast path of a call is the attempt that can proceed at once: the system call on a
//     socket, the non-blocking select on a channel. It costs what the plain call costs.
//   - An I/O park is the wait of a virtual thread in a vio call that could not proceed: the thread
//     gives its carrier back while Go waits for it (the runtime's network poller, a select, a
//     process's exit), and takes one again when Go's wait ends. Package thread implements it on
//     its park primitive (thread/iopark.go): the thread shows WAITING (TIMED_WAITING when a
//     deadline is set), counts as parked in the scheduler's stats, and [thread.DumpThreads] shows
//     the call ("in read on <…> (a *vio.Conn)") and its stack.
//   - The unmounted path is for calls vio cannot try without blocking (a TLS conn, a pipe conn,
//     an HTTP round trip, a process wait, a dial): the thread gives its carrier back for the
//     whole call, even if it would not have blocked.
//
// # How a blocked socket call moves
//
// [Conn.Read] on a mounted virtual thread registers the conn's IOWait with the thread (Java's
// Thread.blockedOn), then calls [syscall.RawConn.Read] with a callback that makes the read(2)
// itself. Data there: the callback returns true, RawConn.Read returns, the IOWait is removed —
// no hand-off. EAGAIN: the callback looks at the interrupt status (set: it returns, and the
// call closes the socket), then parks the thread (gives its carrier to the next queued
// virtual thread) and returns false, and Go's poller waits with no carrier held. When the socket
// is ready the poller runs the callback again, still unmounted; its read succeeds, and the
// thread queues itself behind the virtual threads already waiting for a carrier (FIFO), as an
// unparked thread is queued, and continues when a carrier picks it. Writes do the same with
// write(2), continuing a partial write where it stopped. Accept cannot use the listener's
// RawConn (Go refuses reads on it), so a Listener keeps a duplicate of the listening socket and
// waits for readiness on that, looking with ppoll(2) whether a connection is queued before it
// calls the listener's own Accept.
//
// The error values, counts and EOF rules are the standard library's: [io.EOF] for a zero-byte
// stream read, partial writes continued, EINTR retried, [*net.OpError] with Op "read"/"write"
// and the conn's addresses, [os.ErrDeadlineExceeded] when a deadline passes, [net.ErrClosed]
// after a close.
//
// # Interrupts
//
// Sockets follow java.net.Socket, ServerSocket and DatagramSocket on a virtual thread (JDK 21–25,
// NioSocketImpl): the interrupt status matters only where a call must wait. Interrupting a thread
// blocked in a Conn Read or Write, a Listener Accept, a [PacketConn] ReadFrom or WriteTo, or a
// dial, closes the socket, and so does a call that would block started with the interrupt status
// set; the call returns [ErrClosedByInterrupt] (both [thread.ErrInterrupted] and [net.ErrClosed]
// to [errors.Is]; Java's SocketException "Closed by interrupt") and the interrupt status stays
// set. A call that can proceed at once — a read with data there, a write with room in the send
// buffer, an accept with a connection queued, a receive with a datagram queued — does so with the
// status set and leaves the socket open (Java's InputStream.read, OutputStream.write,
// ServerSocket.accept and DatagramSocket.receive do the same); the status closes the socket at
// the first call that has to wait. Java's channels (SocketChannel, ServerSocketChannel,
// DatagramChannel) close on any call made with the status set; vio does not, and a port of
// channel code that relies on it checks [thread.Thread.IsInterrupted] itself. Files follow
// FileChannel: a File call made with the status set, or interrupted, closes the File. Conns
// without a system-call path (a wrapped tls.Conn, [net.Pipe]) are about to wait from the start of
// every call, so the status set closes them at once; TLS over a vio conn (tls.Server(c), as
// [http.Server.ServeTLS] does) follows the socket's rule.
//
// Another thread's call on a conn closed by an interrupt sees a plain [net.ErrClosed] (Java's
// AsynchronousCloseException), and so does any later call on it, the interrupted thread's
// included (Java: "Socket closed", ClosedChannelException). Calls whose Java counterparts throw
// InterruptedException — an HTTP round trip (HttpClient.send), a process wait, Recv, Send, Await
// — return an error matching [thread.ErrInterrupted] and clear the status. This holds on platform
// threads too (where Java's classic sockets ignore interrupts), and on goroutines that loom knows
// (that called [thread.Current]); on goroutines loom never saw, vio calls are the plain ones,
// since nothing can interrupt them.
//
// # Invariants
//
//   - A call that can proceed at once never gives up its carrier.
//   - A thread re-mounts only after Go's wait has ended and it holds no lock of Go's poller: a
//     Close or an interrupt from another thread never waits for a carrier.
//   - An interrupt is never lost: Interrupt stores the status then loads the IOWait, a call
//     stores the IOWait then loads the status (see thread/iopark.go); a socket call that is about
//     to park marks its IOWait, then loads the status, and Interrupt closes the socket only
//     through a marked IOWait.
//   - A vio value owns what it wraps: closing the vio value closes it, and deadlines set through
//     the vio value decide WAITING versus TIMED_WAITING.
//
// # Files and processes
//
// A regular file cannot be waited for: read(2) on it blocks in the kernel. As the JDK does, a
// virtual thread in a file call keeps its carrier and the scheduler compensates with a temporary
// one (up to MaxPoolSize) while the call runs; the thread stays RUNNABLE. Measured on a 4 KiB
// page-cache read, compensating costs less than giving the carrier back and re-mounting (which
// also sends the thread to the back of the queue after every read). Pipes, FIFOs and terminals
// are pollable and take the socket path. Process waits take the unmounted path.
//
// # Designs not taken
//
//   - [thread.Blocking] around every call: every read, even one whose data is there, gives the
//     carrier away and queues for one again behind the runnable threads (cheap on an idle
//     scheduler, ~10% of a read; a turn in the queue per read on a busy one: issue 12 measured an
//     HTTP fan-out wrapped that way at 2.5× the goroutines' time), and no interrupts or states.
//   - A readiness probe (poll(2), recv with MSG_PEEK) before the standard library's Read: two
//     system calls per read, and a conn type with its own buffering behind SyscallConn could
//     wait forever for bytes it already holds. The system call in the callback is one, and vio
//     takes that path only for the standard library's socket types.
//   - accept4(2) in the listener callback and [net.FileConn] around the result: by [net.FileConn]'s
//     code, four more system calls per connection (dup, getsockopt, getpeername, close) where the
//     ppoll look is one, which costs nothing measurable next to the dial (BenchmarkAcceptQueued);
//     and the listener's keep-alive settings would be lost.
//   - Interrupts of vio calls that leave the socket open: Java closes it, and a socket whose read
//     was abandoned half-way cannot be trusted anyway.
//   - The channels' rule for sockets (close on any call made with the status set, as
//     AbstractInterruptibleChannel.begin): ported code mostly uses java.net.Socket, whose calls
//     that can proceed succeed, and a handler that was interrupted while it drains its input
//     would lose its connection. vio has one API for both, so it takes Socket's.
//
// # Limits
//
// Only TCP, Unix and UDP sockets of the standard library take the system-call path; other conns
// take the unmounted path. A second Read (or Write) on one Conn while another is blocked waits
// inside Go's poller lock holding its carrier. HTTP/2 response bodies are read on the unmounted
// path. Deadlines and interrupts are seen only through the vio value, not through the value it
// wraps.
package vio
