// loom bench's Java side: the JDK's twin of each loom case, timed inside the JVM (no start-up)
// the way Go's testing.Benchmark times loom's: the operation runs in batches that grow until a
// batch lasts BENCHTIME_MS, after a warm-up batch as long (for the JIT), and the last batch gives
// ns/op.
// Usage: java Bench.java CASE BENCHTIME_MS     (a case name below; the 1-carrier ping-pong wants
//        -Djdk.virtualThreadScheduler.parallelism=1)
// Prints "figure ns_per_op VALUE" and a "text ..." line.
import java.util.*;
import java.util.concurrent.*;
import java.util.concurrent.atomic.*;
import java.util.concurrent.locks.*;

public class Bench {
    /** An operation run n times, its time measured around the whole batch. */
    interface Op { void run(long n) throws Exception; }

    static volatile long blackhole;

    static final Map<String, Op> CASES = new LinkedHashMap<>();
    static {
        CASES.put("virtual-start-join", n -> { for (long i = 0; i < n; i++) Thread.ofVirtual().start(() -> { }).join(); });
        CASES.put("platform-start-join", n -> {
            Thread.Builder b = Thread.ofPlatform().daemon();
            for (long i = 0; i < n; i++) b.start(() -> { }).join();
        });
        CASES.put("virtual-burst-1000", n -> {
            AtomicLong count = new AtomicLong();
            Thread[] ts = new Thread[1000];
            Thread.Builder b = Thread.ofVirtual();
            for (long i = 0; i < n; i++) {
                for (int k = 0; k < ts.length; k++) ts[k] = b.start(count::incrementAndGet);
                for (Thread t : ts) t.join();
            }
        });
        CASES.put("park-ping-pong", Bench::pingPong);
        CASES.put("reentrantlock-uncontended", n -> {
            ReentrantLock l = new ReentrantLock();
            for (long i = 0; i < n; i++) { l.lock(); l.unlock(); }
        });
        CASES.put("synchronized-uncontended", n -> {
            Object m = new Object();
            for (long i = 0; i < n; i++) { synchronized (m) { blackhole++; } }
        });
        CASES.put("reentrantlock-contended-8-virtual", n -> {
            ReentrantLock l = new ReentrantLock();
            AtomicLong next = new AtomicLong();
            long[] counter = {0};
            Thread[] ts = new Thread[8];
            for (int k = 0; k < ts.length; k++) {
                ts[k] = Thread.ofVirtual().start(() -> {
                    while (next.incrementAndGet() <= n) { l.lock(); try { counter[0]++; } finally { l.unlock(); } }
                });
            }
            for (Thread t : ts) t.join();
        });
        CASES.put("reentrantlock-contended-2", n -> {
            ReentrantLock l = new ReentrantLock();
            AtomicLong next = new AtomicLong();
            long[] counter = {0};
            Thread[] ts = new Thread[2];
            for (int k = 0; k < ts.length; k++) {
                ts[k] = Thread.ofPlatform().start(() -> {
                    while (next.incrementAndGet() <= n) { l.lock(); try { counter[0]++; } finally { l.unlock(); } }
                });
            }
            for (Thread t : ts) t.join();
        });
        CASES.put("threadlocal-get", n -> {
            ThreadLocal<Integer> tl = new ThreadLocal<>();
            tl.set(42);
            long sum = 0;
            for (long i = 0; i < n; i++) sum += tl.get();
            blackhole = sum;
        });
        CASES.put("arrayblockingqueue-1-to-1", n -> transfer(new ArrayBlockingQueue<>(128), n));
        CASES.put("linkedblockingqueue-1-to-1", n -> transfer(new LinkedBlockingQueue<>(128), n));
        CASES.put("virtual-executor-submit-get", n -> {
            try (ExecutorService es = Executors.newVirtualThreadPerTaskExecutor()) {
                for (long i = 0; i < n; i++) { long k = i; es.submit(() -> k * 2).get(); }
            }
        });
        CASES.put("fixed-pool-2-submit-get", n -> {
            try (ExecutorService es = Executors.newFixedThreadPool(2)) {
                for (long i = 0; i < n; i++) { long k = i; es.submit(() -> k * 2).get(); }
            }
        });
    }

    /** n round trips between two virtual threads with LockSupport park/unpark. */
    static void pingPong(long n) throws InterruptedException {
        AtomicInteger turn = new AtomicInteger();
        Thread[] t = new Thread[2];
        for (int side = 0; side < 2; side++) {
            int me = side;
            t[side] = Thread.ofVirtual().unstarted(() -> {
                for (long i = 0; i < n; i++) {
                    while (turn.get() != me) LockSupport.park();
                    turn.set(1 - me);
                    LockSupport.unpark(t[1 - me]);
                }
            });
        }
        t[0].start();
        t[1].start();
        t[0].join();
        t[1].join();
    }

    /** A producer puts n ints that a consumer takes, on two virtual threads. */
    static void transfer(BlockingQueue<Integer> q, long n) throws InterruptedException {
        Thread c = Thread.ofVirtual().start(() -> { try { for (long i = 0; i < n; i++) q.take(); } catch (InterruptedException e) { } });
        Thread p = Thread.ofVirtual().start(() -> { try { for (long i = 0; i < n; i++) q.put((int) i); } catch (InterruptedException e) { } });
        p.join();
        c.join();
    }

    public static void main(String[] args) throws Exception {
        Op op = CASES.get(args[0]);
        if (op == null) throw new IllegalArgumentException("no case " + args[0] + "; cases: " + CASES.keySet());
        long target = Long.parseLong(args[1]) * 1_000_000;
        timed(op, target); // warm-up
        long[] r = timed(op, target);
        double ns = (double) r[1] / r[0];
        System.out.println("figure ns_per_op " + ns);
        System.out.println("figure n " + r[0]);
        System.out.printf("text %s: %.1f ns/op over %,d ops%n", args[0], ns, r[0]);
    }

    /** Runs op in batches of growing n until a batch lasts target ns; returns {n, ns}. */
    static long[] timed(Op op, long target) throws Exception {
        long n = 1;
        while (true) {
            long t0 = System.nanoTime();
            op.run(n);
            long ns = System.nanoTime() - t0;
            if (ns >= target || n >= 1L << 40) return new long[] {n, ns};
            long next = ns <= 0 ? n * 100 : (long) (n * 1.2 * target / ns);
            n = Math.max(n + 1, Math.min(next, n * 100));
        }
    }
}
