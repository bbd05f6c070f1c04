// loom demo's one-carrier-sleepers experiment on the JDK (run with
// -Djdk.virtualThreadScheduler.parallelism=1): three virtual threads that each sleep 100 ms.
// Usage: java -Djdk.virtualThreadScheduler.parallelism=1 OneCarrierSleepers.java
import java.time.Duration;
import java.util.*;

public class OneCarrierSleepers {
    public static void main(String[] args) throws Exception {
        String[] carriers = new String[3];
        List<Thread> ts = new ArrayList<>();
        long t0 = System.nanoTime();
        for (int i = 0; i < 3; i++) {
            int k = i;
            ts.add(Thread.ofVirtual().start(() -> {
                try { Thread.sleep(Duration.ofMillis(100)); } catch (InterruptedException e) { }
                String s = Thread.currentThread().toString();
                carriers[k] = s.substring(s.indexOf('@') + 1);
            }));
        }
        for (Thread t : ts) t.join();
        long ms = (System.nanoTime() - t0) / 1_000_000;
        boolean one = Arrays.stream(carriers).allMatch(c -> c.endsWith("-worker-1"));
        System.out.println("figure elapsed_ms " + ms);
        System.out.printf("text %d ms total, %s%n", ms, one ? "all on worker-1" : "on " + String.join(", ", carriers));
    }
}
