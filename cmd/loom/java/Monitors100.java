// loom demo's monitors-100 experiment on the JDK (parallelism=1, maxPoolSize=1): N virtual
// threads each sleep 50 ms inside a synchronized block of their own; JDK 24+ rules.
// Usage: java -Djdk.virtualThreadScheduler.parallelism=1 -Djdk.virtualThreadScheduler.maxPoolSize=1 Monitors100.java N
import java.time.Duration;
import java.util.*;
import java.util.concurrent.*;

public class Monitors100 {
    public static void main(String[] args) throws Exception {
        int n = Integer.parseInt(args[0]);
        Set<String> carriers = ConcurrentHashMap.newKeySet();
        List<Thread> ts = new ArrayList<>();
        long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) {
            ts.add(Thread.ofVirtual().start(() -> {
                Object m = new Object();
                synchronized (m) {
                    try { Thread.sleep(Duration.ofMillis(50)); } catch (InterruptedException e) { }
                    String s = Thread.currentThread().toString();
                    carriers.add(s.substring(s.indexOf('@') + 1));
                }
            }));
        }
        for (Thread t : ts) t.join();
        long ms = (System.nanoTime() - t0) / 1_000_000;
        System.out.println("figure elapsed_ms " + ms);
        System.out.println("figure carriers " + carriers.size());
        System.out.printf("text %,d ms, %d carrier used (Java %d)%n", ms, carriers.size(), Runtime.version().feature());
    }
}
