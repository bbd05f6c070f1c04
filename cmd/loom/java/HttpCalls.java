// loom demo's http-calls-10k experiment on the JDK: CALLS HTTP GETs at once, each on a virtual
// thread with java.net.http.HttpClient, at most CONNS at a time, to a loopback server that
// answers after 100 ms. The server is a minimal HTTP/1.1 server on virtual threads (a virtual
// thread per connection, keep-alive), so the figure is the client's, not the JDK's toy server's.
// Usage: java -Djdk.virtualThreadScheduler.parallelism=2 HttpCalls.java 10000 2000
import java.io.*;
import java.net.*;
import java.net.http.*;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.*;
import java.util.concurrent.atomic.AtomicInteger;

public class HttpCalls {
    public static void main(String[] args) throws Exception {
        int calls = Integer.parseInt(args[0]), conns = Integer.parseInt(args[1]);
        var server = new ServerSocket(0, 4096, InetAddress.getLoopbackAddress());
        var acceptor = Thread.ofVirtual().start(() -> {
            try (var es = Executors.newVirtualThreadPerTaskExecutor()) {
                while (true) {
                    Socket s = server.accept();
                    es.submit(() -> serve(s));
                }
            } catch (IOException closed) { }
        });
        var client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        var uri = URI.create("http://127.0.0.1:" + server.getLocalPort() + "/");
        var permits = new Semaphore(conns);
        var ok = new AtomicInteger();
        long t0 = System.nanoTime();
        try (var es = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < calls; i++) {
                es.submit(() -> {
                    permits.acquire();
                    try {
                        var resp = client.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString());
                        if (resp.body().equals("ok")) ok.incrementAndGet();
                    } finally {
                        permits.release();
                    }
                    return null;
                });
            }
        }
        long ms = (System.nanoTime() - t0) / 1_000_000;
        server.close();
        acceptor.join();
        System.out.println("figure elapsed_ms " + ms);
        System.out.printf("text %,d ms; %,d of %,d calls answered (HttpClient on virtual threads, at most %,d at once)%n", ms, ok.get(), calls, conns);
        System.exit(0); // HttpClient's selector thread would keep the JVM up a while
    }

    // serve answers every request on the connection after 100 ms with "ok".
    static Void serve(Socket s) {
        try (s; var in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.ISO_8859_1));
             var out = s.getOutputStream()) {
            while (true) {
                String line = in.readLine();
                if (line == null) return null;
                while (!line.isEmpty()) { // the headers (GETs have no body)
                    line = in.readLine();
                    if (line == null) return null;
                }
                Thread.sleep(100);
                out.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Type: text/plain\r\n\r\nok".getBytes(StandardCharsets.ISO_8859_1));
                out.flush();
            }
        } catch (IOException | InterruptedException e) {
            return null;
        }
    }
}
