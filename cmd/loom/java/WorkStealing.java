// loom demo's work-stealing experiment on the JDK: in a ForkJoinPool of 4, one task forks N
// CPU-bound subtasks (50 µs each) on its own worker's deque and joins them newest first, while
// the other workers steal from that deque. Prints who ran how many, and getStealCount().
// Usage: java WorkStealing.java N
import java.util.*;
import java.util.concurrent.*;

public class WorkStealing {
    public static void main(String[] args) throws Exception {
        int n = Integer.parseInt(args[0]);
        Map<String, Integer> ran = new ConcurrentHashMap<>();
        String[] owner = new String[1];
        ForkJoinPool pool = new ForkJoinPool(4);
        long t0 = System.nanoTime();
        pool.invoke(new RecursiveAction() {
            protected void compute() {
                owner[0] = Thread.currentThread().getName();
                List<RecursiveAction> subs = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    RecursiveAction leaf = new RecursiveAction() {
                        protected void compute() {
                            long end = System.nanoTime() + 50_000;
                            while (System.nanoTime() < end) { }
                            ran.merge(Thread.currentThread().getName(), 1, Integer::sum);
                        }
                    };
                    leaf.fork();
                    subs.add(leaf);
                }
                for (int i = n - 1; i >= 0; i--) subs.get(i).join();
            }
        });
        long ms = (System.nanoTime() - t0) / 1_000_000;
        long steals = pool.getStealCount();
        pool.shutdown();
        int byOwner = ran.getOrDefault(owner[0], 0);
        System.out.println("figure tasks " + n);
        System.out.println("figure by_owner " + byOwner);
        System.out.println("figure by_others " + (n - byOwner));
        System.out.println("figure steals " + steals);
        System.out.println("figure workers_used " + ran.size());
        System.out.println("figure elapsed_ms " + ms);
        StringBuilder others = new StringBuilder();
        for (var e : new TreeMap<>(ran).entrySet())
            if (!e.getKey().equals(owner[0]))
                others.append(others.length() > 0 ? ", " : "").append(e.getKey().replaceFirst(".*-(worker-\\d+)$", "$1")).append(": ").append(e.getValue());
        System.out.printf("text %,d tasks forked on %s: it ran %,d, the others %,d (%s); %,d steals, %,d ms%n",
            n, owner[0].replaceFirst(".*-(worker-\\d+)$", "$1"), byOwner, n - byOwner, others, steals, ms);
    }
}
