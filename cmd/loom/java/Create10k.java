// loom demo's create-10k experiment on the JDK: start and join N threads that do nothing,
// virtual then platform.
// Usage: java Create10k.java N
import java.util.*;

public class Create10k {
    public static void main(String[] args) throws Exception {
        int n = Integer.parseInt(args[0]);
        run(Thread.ofVirtual(), n / 10); // a little warm-up for the JIT
        long v = run(Thread.ofVirtual(), n), p = run(Thread.ofPlatform().daemon(), n);
        System.out.println("figure virtual_ms " + v);
        System.out.println("figure platform_ms " + p);
        System.out.printf("text %,d ms vs %,d ms (%.0f×)%n", v, p, (double) p / Math.max(v, 1));
    }

    static long run(Thread.Builder b, int n) throws InterruptedException {
        List<Thread> ts = new ArrayList<>(n);
        long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) ts.add(b.start(() -> { }));
        for (Thread t : ts) t.join();
        return (System.nanoTime() - t0) / 1_000_000;
    }
}
