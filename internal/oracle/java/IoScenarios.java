// Socket I/O on virtual threads: the twins of ../vio_test.go, on loopback TCP sockets, with the
// classic java.net.Socket and ServerSocket (the API a porter has) and, where it behaves
// differently, SocketChannel. Socket exceptions are written by Ex.name with their message
// (SocketException(Socket closed)); the classic socket's SocketException "Closed by interrupt" is
// written ClosedByInterruptException, the channels' name for it and loom's one error for both.
import java.io.*;
import java.net.*;
import java.nio.ByteBuffer;
import java.nio.channels.*;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.*;

final class IoScenarios {
    static void register(Map<String, Oracle.Scenario> m) {
        m.put("io_read_blocked_waiting", IoScenarios::readBlockedWaiting);
        m.put("io_read_blocked_timed_waiting", IoScenarios::readBlockedTimedWaiting);
        m.put("io_read_interrupted", IoScenarios::readInterrupted);
        m.put("io_accept_interrupted", IoScenarios::acceptInterrupted);
        m.put("io_write_interrupted", IoScenarios::writeInterrupted);
        m.put("io_interrupt_status_set_would_block", IoScenarios::interruptStatusSetWouldBlock);
        m.put("io_interrupt_status_set_can_proceed", IoScenarios::interruptStatusSetCanProceed);
        m.put("io_channel_interrupt_status_set", IoScenarios::channelInterruptStatusSet);
        m.put("io_timeouts", IoScenarios::timeouts);
        m.put("io_read_peer_close", IoScenarios::readPeerClose);
        m.put("io_async_close", IoScenarios::asyncClose);
        m.put("io_many_blocked_one_carrier", IoScenarios::manyBlockedOneCarrier);
        m.put("io_echo_thread_per_connection", IoScenarios::echoThreadPerConnection);
    }

    static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

    static ServerSocket listen() throws IOException { return new ServerSocket(0, 50, LOOPBACK); }

    /** The two ends of a loopback connection: the client's and the one the server accepted. */
    static Socket[] socketPair() throws IOException {
        try (ServerSocket ss = listen()) {
            Socket client = new Socket(LOOPBACK, ss.getLocalPort());
            return new Socket[] {client, ss.accept()};
        }
    }

    /** One read into a 64-byte buffer: "3 XYZ", -1 at the end of the stream, or the exception. */
    static String read(InputStream in) {
        return Ex.val(() -> {
            byte[] buf = new byte[64];
            int n = in.read(buf);
            return n < 0 ? "-1" : n + " " + new String(buf, 0, n, StandardCharsets.UTF_8);
        });
    }

    static void write(OutputStream out, String s) throws IOException {
        out.write(s.getBytes(StandardCharsets.UTF_8));
    }

    static String accept(ServerSocket ss) {
        return Ex.of(() -> ss.accept().close());
    }

    /** An outcome recorded by a thread and logged by the scenario thread after a join. */
    static final class Outcome {
        volatile String what;
        volatile boolean interrupted;
    }

    static void readBlockedWaiting(Log log) throws Exception {
        Socket[] p = socketPair();
        try (Socket client = p[0]; Socket server = p[1]) {
            InputStream in = server.getInputStream();
            String[] got = new String[1];
            Thread t = Thread.ofVirtual().start(() -> got[0] = read(in));
            log.p("blocked in read: %s", Sync.blocked(log, t));
            log.call("peer writes XYZ", () -> write(client.getOutputStream(), "XYZ"));
            Sync.join(log, t);
            log.p("read -> %s", got[0]);
        }
    }

    static void readBlockedTimedWaiting(Log log) throws Exception {
        Socket[] p = socketPair();
        try (Socket client = p[0]; Socket server = p[1]) {
            InputStream in = server.getInputStream();
            String[] got = new String[1];
            Thread t = Thread.ofVirtual().start(() -> {
                try {
                    server.setSoTimeout((int) Duration.ofHours(1).toMillis());
                } catch (SocketException e) {
                    throw new UncheckedIOException(e);
                }
                got[0] = read(in);
            });
            log.p("blocked in read with a timeout: %s", Sync.blocked(log, t));
            log.call("peer writes XYZ", () -> write(client.getOutputStream(), "XYZ"));
            Sync.join(log, t);
            log.p("read -> %s", got[0]);
        }
    }

    static void readInterrupted(Log log) throws Exception {
        Socket[] p = socketPair();
        try (Socket client = p[0]; Socket server = p[1]) {
            InputStream in = server.getInputStream();
            Outcome o = new Outcome();
            Thread t = Thread.ofVirtual().start(() -> {
                o.what = read(in);
                o.interrupted = Thread.currentThread().isInterrupted();
            });
            log.p("blocked in read: %s", Sync.blocked(log, t));
            t.interrupt();
            Sync.join(log, t);
            log.p("read -> %s, interrupted after: %s", o.what, o.interrupted);
            log.p("read again -> %s", read(in));
            log.p("peer read -> %s", read(client.getInputStream()));
        }
    }

    static void acceptInterrupted(Log log) throws Exception {
        try (ServerSocket ss = listen()) {
            int port = ss.getLocalPort();
            Outcome o = new Outcome();
            Thread t = Thread.ofVirtual().start(() -> {
                o.what = accept(ss);
                o.interrupted = Thread.currentThread().isInterrupted();
            });
            log.p("blocked in accept: %s", Sync.blocked(log, t));
            t.interrupt();
            Sync.join(log, t);
            log.p("accept -> %s, interrupted after: %s", o.what, o.interrupted);
            log.call("accept again", () -> ss.accept().close());
            log.call("connect", () -> new Socket(LOOPBACK, port).close());
        }
    }

    static void writeInterrupted(Log log) throws Exception {
        Socket[] p = socketPair();
        try (Socket client = p[0]; Socket server = p[1]) {
            OutputStream out = server.getOutputStream();
            Outcome o = new Outcome();
            Thread t = Thread.ofVirtual().start(() -> {
                byte[] chunk = new byte[1 << 20];
                o.what = Ex.of(() -> {
                    for (;;) out.write(chunk);
                });
                o.interrupted = Thread.currentThread().isInterrupted();
            });
            log.p("blocked in write: %s", Sync.blocked(log, t));
            t.interrupt();
            Sync.join(log, t);
            log.p("write -> %s, interrupted after: %s", o.what, o.interrupted);
            log.call("write again", () -> write(out, "X"));
        }
    }

    static void interruptStatusSetWouldBlock(Log log) throws Exception {
        Socket[] p = socketPair();
        try (Socket client = p[0]; Socket server = p[1]; ServerSocket ss = listen()) {
            InputStream in = server.getInputStream();
            List<String> lines = new ArrayList<>();
            Thread t = Thread.ofVirtual().start(() -> {
                Thread me = Thread.currentThread();
                me.interrupt();
                lines.add("read with no data -> " + read(in) + ", interrupted after: " + me.isInterrupted());
                lines.add("read again -> " + read(in));
                lines.add("accept with no connection queued -> " + accept(ss) + ", interrupted after: " + me.isInterrupted());
                lines.add("accept again -> " + accept(ss));
            });
            Sync.join(log, t);
            for (String line : lines) log.p("%s", line);
            log.p("peer read -> %s", read(client.getInputStream()));
        }
    }

    static void interruptStatusSetCanProceed(Log log) throws Exception {
        Socket[] p = socketPair(), p2 = socketPair(); // the read's, the write's
        try (Socket client = p[0]; Socket server = p[1]; Socket client2 = p2[0]; Socket server2 = p2[1];
             ServerSocket ss = listen(); Socket queued = new Socket(LOOPBACK, ss.getLocalPort())) {
            InputStream in = server.getInputStream();
            OutputStream out = server2.getOutputStream();
            log.call("peer writes XYZ", () -> write(client.getOutputStream(), "XYZ"));
            awaitReadable(log, in);
            List<String> lines = new ArrayList<>();
            Thread t = Thread.ofVirtual().start(() -> {
                Thread me = Thread.currentThread();
                me.interrupt();
                lines.add("read with data there -> " + read(in) + ", interrupted after: " + me.isInterrupted());
                lines.add("write with room -> " + Ex.of(() -> write(out, "ABC")) + ", interrupted after: " + me.isInterrupted());
                lines.add("accept with a connection queued -> " + accept(ss) + ", interrupted after: " + me.isInterrupted());
            });
            Sync.join(log, t);
            for (String line : lines) log.p("%s", line);
            log.call("write OK on the read's socket", () -> write(server.getOutputStream(), "OK"));
            log.p("peer of the read reads -> %s", read(client.getInputStream()));
            log.p("peer of the write reads -> %s", read(client2.getInputStream()));
        }
    }

    static void channelInterruptStatusSet(Log log) throws Exception {
        try (ServerSocketChannel ssc = ServerSocketChannel.open().bind(new InetSocketAddress(LOOPBACK, 0));
             Socket client = new Socket(LOOPBACK, ((InetSocketAddress) ssc.getLocalAddress()).getPort());
             SocketChannel server = ssc.accept()) {
            log.call("peer writes XYZ", () -> write(client.getOutputStream(), "XYZ"));
            awaitReadable(log, server.socket().getInputStream());
            Outcome o = new Outcome();
            Thread t = Thread.ofVirtual().start(() -> {
                Thread.currentThread().interrupt();
                o.what = Ex.val(() -> {
                    ByteBuffer b = ByteBuffer.allocate(64);
                    int n = server.read(b);
                    return n < 0 ? "-1" : n + " " + new String(b.array(), 0, n, StandardCharsets.UTF_8);
                });
                o.interrupted = Thread.currentThread().isInterrupted();
            });
            Sync.join(log, t);
            log.p("read with data there -> %s, interrupted after: %s", o.what, o.interrupted);
            server.close(); // closed already by the interrupt
            log.p("peer read -> %s", read(client.getInputStream()));
        }
    }

    /** awaitReadable polls until the peer's bytes have arrived at in, without reading them. */
    static void awaitReadable(Log log, InputStream in) throws InterruptedException {
        Sync.await(log, "data to arrive", () -> {
            try {
                return in.available() > 0;
            } catch (IOException e) {
                return true; // the read will say what is wrong
            }
        });
    }

    static void timeouts(Log log) throws Exception {
        Socket[] p = socketPair();
        try (Socket client = p[0]; Socket server = p[1]; ServerSocket ss = listen()) {
            int shortMs = 50, longMs = 60_000;
            InputStream in = server.getInputStream();
            List<String> lines = new ArrayList<>();
            Thread t = Thread.ofVirtual().start(() -> {
                try {
                    server.setSoTimeout(shortMs);
                    lines.add("read with no data -> " + read(in));
                    write(client.getOutputStream(), "XYZ");
                    server.setSoTimeout(longMs);
                    lines.add("read after the peer wrote -> " + read(in));
                    ss.setSoTimeout(shortMs);
                    lines.add("accept with no connection -> " + accept(ss));
                    try (Socket c = new Socket(LOOPBACK, ss.getLocalPort())) {
                        ss.setSoTimeout(longMs);
                        lines.add("accept after a client connected -> " + accept(ss));
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            Sync.join(log, t);
            for (String line : lines) log.p("%s", line);
        }
    }

    static void readPeerClose(Log log) throws Exception {
        Socket[] p = socketPair();
        try (Socket client = p[0]; Socket server = p[1]) {
            InputStream in = server.getInputStream();
            String[] got = new String[1];
            Thread t = Thread.ofVirtual().start(() -> got[0] = read(in));
            log.p("blocked in read: %s", Sync.blocked(log, t));
            log.call("peer closes", client::close);
            Sync.join(log, t);
            log.p("read -> %s", got[0]);
            log.p("read again -> %s", read(in));
        }
    }

    static void asyncClose(Log log) throws Exception {
        Socket[] p = socketPair();
        try (Socket client = p[0]; Socket server = p[1]) {
            InputStream in = server.getInputStream();
            Outcome o = new Outcome();
            Thread t = Thread.ofVirtual().start(() -> {
                o.what = read(in);
                o.interrupted = Thread.currentThread().isInterrupted();
            });
            log.p("blocked in read: %s", Sync.blocked(log, t));
            log.call("close", server::close);
            Sync.join(log, t);
            log.p("read -> %s, interrupted after: %s", o.what, o.interrupted);
            log.p("peer read -> %s", read(client.getInputStream()));
        }
        try (ServerSocket ss = listen()) {
            Outcome a = new Outcome();
            Thread ta = Thread.ofVirtual().start(() -> {
                a.what = accept(ss);
                a.interrupted = Thread.currentThread().isInterrupted();
            });
            log.p("blocked in accept: %s", Sync.blocked(log, ta));
            log.call("close the server socket", ss::close);
            Sync.join(log, ta);
            log.p("accept -> %s, interrupted after: %s", a.what, a.interrupted);
        }
    }

    static void manyBlockedOneCarrier(Log log) throws Exception {
        int n = 10;
        Socket[] clients = new Socket[n], servers = new Socket[n];
        for (int i = 0; i < n; i++) {
            Socket[] p = socketPair();
            clients[i] = p[0];
            servers[i] = p[1];
        }
        try {
            String[] got = new String[n];
            Thread[] readers = new Thread[n];
            for (int i = 0; i < n; i++) {
                int k = i;
                InputStream in = servers[i].getInputStream();
                readers[i] = Thread.ofVirtual().start(() -> got[k] = read(in));
            }
            List<String> states = new ArrayList<>();
            for (Thread r : readers) states.add(String.valueOf(Sync.blocked(log, r)));
            log.p("readers: %s", states);
            long[] sum = {0};
            Thread other = Thread.ofVirtual().start(() -> {
                for (int i = 1; i <= 1000; i++) sum[0] += i;
            });
            Sync.join(log, other);
            log.p("another virtual thread ran to its end: sum %s", sum[0]);
            states.clear();
            for (Thread r : readers) states.add(String.valueOf(r.getState()));
            log.p("readers still: %s", states);
            for (int i = n - 1; i >= 0; i--) write(clients[i].getOutputStream(), "line " + i);
            Sync.join(log, readers);
            log.p("read: %s", Arrays.asList(got));
        } finally {
            for (int i = 0; i < n; i++) {
                clients[i].close();
                servers[i].close();
            }
        }
    }

    static void echoThreadPerConnection(Log log) throws Exception {
        ServerSocket ss = listen();
        int port = ss.getLocalPort();
        int[] served = {0};
        Thread server = Thread.ofVirtual().start(() -> {
            List<Thread> handlers = new ArrayList<>();
            try {
                for (;;) {
                    Socket c = ss.accept();
                    served[0]++;
                    handlers.add(Thread.ofVirtual().start(() -> {
                        try (c) {
                            BufferedReader in = new BufferedReader(new InputStreamReader(c.getInputStream(), StandardCharsets.UTF_8));
                            OutputStream out = c.getOutputStream();
                            for (String line; (line = in.readLine()) != null; ) write(out, line.toUpperCase() + "\n");
                        } catch (IOException e) {
                            // the client went away
                        }
                    }));
                }
            } catch (IOException e) {
                // the server socket was closed
            } finally {
                for (Thread h : handlers) {
                    try { h.join(); } catch (InterruptedException e) { }
                }
            }
        });
        int clients = 5;
        String[] replies = new String[clients];
        Thread[] ths = new Thread[clients];
        for (int i = 0; i < clients; i++) {
            int k = i;
            ths[i] = Thread.ofVirtual().start(() -> replies[k] = Ex.val(() -> {
                try (Socket c = new Socket(LOOPBACK, port)) {
                    BufferedReader in = new BufferedReader(new InputStreamReader(c.getInputStream(), StandardCharsets.UTF_8));
                    List<String> got = new ArrayList<>();
                    for (String w : List.of("hello", "client " + k)) {
                        write(c.getOutputStream(), w + "\n");
                        got.add(in.readLine());
                    }
                    return got;
                }
            }));
        }
        Sync.join(log, ths);
        log.call("close the server socket", ss::close);
        Sync.join(log, server);
        log.p("replies: %s", Arrays.asList(replies));
        log.p("connections served: %s", served[0]);
    }
}
