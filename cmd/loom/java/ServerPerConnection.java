// loom demo's server-per-connection experiment on the JDK: a thread-per-connection echo server
// (ServerSocket.accept, a virtual thread per socket) and CLIENTS keep-alive clients, each on a
// platform thread, sending LINES lines GAP_MS apart and reading each echo.
// Usage: java -Djdk.virtualThreadScheduler.parallelism=2 ServerPerConnection.java 300 5 100
import java.io.*;
import java.net.*;
import java.util.concurrent.*;

public class ServerPerConnection {
    public static void main(String[] args) throws Exception {
        int clients = Integer.parseInt(args[0]), lines = Integer.parseInt(args[1]);
        long gap = Long.parseLong(args[2]);
        var server = new ServerSocket(0, 4096, InetAddress.getLoopbackAddress());
        var acceptor = Thread.ofVirtual().start(() -> {
            try (var es = Executors.newVirtualThreadPerTaskExecutor()) {
                while (true) {
                    Socket s = server.accept();
                    es.submit(() -> {
                        try (s; var in = new BufferedReader(new InputStreamReader(s.getInputStream()));
                             var out = s.getOutputStream()) {
                            for (String line; (line = in.readLine()) != null; ) out.write((line + "\n").getBytes());
                        }
                        return null;
                    });
                }
            } catch (IOException closed) { }
        });
        long t0 = System.nanoTime();
        try (var es = Executors.newThreadPerTaskExecutor(Thread.ofPlatform().factory())) {
            for (int i = 0; i < clients; i++) {
                int k = i;
                es.submit(() -> {
                    try (var s = new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort());
                         var in = new BufferedReader(new InputStreamReader(s.getInputStream()));
                         var out = s.getOutputStream()) {
                        for (int j = 0; j < lines; j++) {
                            if (j > 0) Thread.sleep(gap);
                            String msg = "client " + k + " line " + j;
                            out.write((msg + "\n").getBytes());
                            if (!msg.equals(in.readLine())) throw new IOException("bad echo");
                        }
                    }
                    return null;
                });
            }
        }
        long ms = (System.nanoTime() - t0) / 1_000_000;
        server.close();
        acceptor.join();
        System.out.println("figure elapsed_ms " + ms);
        System.out.printf("text %,d ms for %,d clients (a virtual thread per connection)%n", ms, clients);
    }
}
