// loom demo's carrier-hopping experiment on the JDK (parallelism=2): 16 virtual threads print
// themselves before and after a 10 ms sleep; a thread may resume on another carrier.
// Usage: java -Djdk.virtualThreadScheduler.parallelism=2 CarrierHopping.java
import java.time.Duration;
import java.util.*;

public class CarrierHopping {
    public static void main(String[] args) throws Exception {
        int n = 16;
        String[] before = new String[n], after = new String[n];
        List<Thread> ts = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int k = i;
            ts.add(Thread.ofVirtual().start(() -> {
                before[k] = Thread.currentThread().toString();
                try { Thread.sleep(Duration.ofMillis(10)); } catch (InterruptedException e) { }
                after[k] = Thread.currentThread().toString();
            }));
        }
        for (Thread t : ts) t.join();
        int hops = 0, example = 0;
        for (int i = 0; i < n; i++) {
            if (!worker(before[i]).equals(worker(after[i]))) { hops++; example = i; }
        }
        System.out.println("figure hops " + hops);
        System.out.printf("text %s, after sleep %s; %d of %d threads resumed on another worker%n", before[example], after[example], hops, n);
    }

    static String worker(String s) { return s.substring(s.lastIndexOf('-') + 1); }
}
