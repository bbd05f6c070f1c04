// loom demo's futures-1m experiment on the JDK: N tasks returning id*2 on a virtual thread per
// task, summed through their futures.
// Usage: java Futures1M.java N
import java.util.*;
import java.util.concurrent.*;

public class Futures1M {
    public static void main(String[] args) throws Exception {
        int n = Integer.parseInt(args[0]);
        long t0 = System.nanoTime();
        long sum = 0;
        try (var es = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<Long>> fs = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                long id = i;
                fs.add(es.submit(() -> id * 2));
            }
            for (Future<Long> f : fs) sum += f.get();
        }
        long ms = (System.nanoTime() - t0) / 1_000_000;
        System.out.println("figure sum " + sum);
        System.out.println("figure elapsed_ms " + ms);
        System.out.printf("text sum %,d in %,d ms%n", sum, ms);
    }
}
