// loom bench's Java side: the JDK's twin of each loom case with a Java twin
// (cmd/loom/internal/bench), timed inside the JVM (no start-up) the way loom's side is timed:
//
//   - the same thread kinds: each case's loop runs on a virtual thread, as loom's does
//     (onVirtualThread in cases.go). Timed from main, a platform thread, every join or get parks
//     an OS thread and is woken by another OS thread: 20-120 us a round trip on a loaded 2-core
//     machine, where the same call on a virtual thread costs 1-3 us. Loom's benchmark goroutine
//     parks cheaply, so that would not compare like with like;
//   - warm-up: batches of growing n until one lasts a round (BENCHTIME_MS / ROUNDS), then more
//     until the warm-up has lasted BENCHTIME_MS (C2 compiles the loops long before), as
//     testing.Benchmark grows N before each of loom's rounds;
//   - enough iterations: a round lasts BENCHTIME_MS / ROUNDS, thousands of ops at least, so
//     System.nanoTime's granularity (tens of ns) is nothing;
//   - ROUNDS rounds of the calibrated n, the median ns/op reported (loom reports its median
//     round too), with the fastest and slowest.
//
// What one op of each case is (all on virtual threads unless said):
//   virtual-start-join           Thread.ofVirtual().start(() -> {}).join()
//   platform-start-join          a daemon platform thread started and joined: an OS thread
//                                created and ended per op, slow on both sides by nature
//   virtual-burst-1000           start 1,000 virtual threads that each increment a counter, join all
//   park-ping-pong               one round trip of a turn between two virtual threads with
//                                LockSupport.park/unpark (with -Djdk.virtualThreadScheduler
//                                .parallelism=1: both on one carrier)
//   reentrantlock-uncontended    lock(); unlock()
//   synchronized-uncontended     synchronized (m) { blackhole++ }
//   reentrantlock-contended-8-virtual  one increment under a ReentrantLock, 8 virtual threads
//                                sharing the n increments
//   arrayblockingqueue-1-to-1    one element from a producer to a consumer (two virtual threads),
//   linkedblockingqueue-1-to-1   capacity 128
//   virtual-executor-submit-get  submit(() -> k * 2).get() on a virtual-thread-per-task executor
//   fixed-pool-2-submit-get      the same on a fixed pool of 2 platform threads: each op wakes a
//                                pool thread parked in the OS, then the waiting virtual thread
//
// Usage: java Bench.java CASE BENCHTIME_MS [ROUNDS]   (ROUNDS: 5 by default)
// Prints "figure ns_per_op VALUE" (the median), ns_per_op_min, ns_per_op_max, n (ops a round),
// rounds, warmup_ns, on_virtual_thread (1), and a "text ..." line.
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
        long benchtime = Long.parseLong(args[1]) * 1_000_000;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 5;
        if (rounds < 1) throw new IllegalArgumentException("rounds " + rounds);
        long round = Math.max(benchtime / rounds, 1);

        // warm-up: grow n until a batch lasts a round, then go on until the warm-up has lasted
        // benchtime
        long n = 1, warm = 0;
        for (;;) {
            long ns = onVirtualThread(op, n);
            warm += ns;
            if (ns >= round) break;
            long next = ns <= 0 ? n * 100 : (long) (n * 1.2 * round / ns);
            n = Math.max(n + 1, Math.min(next, n * 100));
            if (n >= 1L << 40) break;
        }
        while (warm < benchtime) warm += onVirtualThread(op, n);

        double[] perOp = new double[rounds];
        for (int i = 0; i < rounds; i++) perOp[i] = (double) onVirtualThread(op, n) / n;
        Arrays.sort(perOp);
        double median = perOp[rounds / 2];
        System.out.println("figure ns_per_op " + median);
        System.out.println("figure ns_per_op_min " + perOp[0]);
        System.out.println("figure ns_per_op_max " + perOp[rounds - 1]);
        System.out.println("figure n " + n);
        System.out.println("figure rounds " + rounds);
        System.out.println("figure warmup_ns " + warm);
        System.out.println("figure on_virtual_thread " + (onVirtual ? 1 : 0));
        System.out.printf("text %s: %.1f ns/op, the median of %d rounds of %,d ops (%.1f to %.1f), on a virtual thread%n",
                args[0], median, rounds, n, perOp[0], perOp[rounds - 1]);
    }

    /** Whether every batch ran on a virtual thread (printed, for the test that checks it). */
    static volatile boolean onVirtual = true;

    /** Runs op(n) on a new virtual thread and returns how long op took, timed on that thread. */
    static long onVirtualThread(Op op, long n) throws Exception {
        long[] ns = new long[1];
        Exception[] failed = new Exception[1];
        Thread t = Thread.ofVirtual().start(() -> {
            try {
                if (!Thread.currentThread().isVirtual()) onVirtual = false;
                long t0 = System.nanoTime();
                op.run(n);
                ns[0] = System.nanoTime() - t0;
            } catch (Exception e) {
                failed[0] = e;
            }
        });
        t.join();
        if (failed[0] != null) throw failed[0];
        return ns[0];
    }
}
