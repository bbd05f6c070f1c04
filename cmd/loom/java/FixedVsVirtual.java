// loom demo's fixed-vs-virtual experiments on the JDK: TASKS tasks that each sleep SLEEP_MS, on a
// fixed pool of POOL platform threads, then on a virtual thread per task (best of 3).
// Usage: java FixedVsVirtual.java TASKS POOL SLEEP_MS
// Prints "figure NAME VALUE" lines and one "text ..." line; times are measured inside the
// program, so the JVM's start-up is not in them.
import java.nio.file.*;
import java.time.Duration;
import java.util.concurrent.*;
import java.util.concurrent.atomic.*;

public class FixedVsVirtual {
    public static void main(String[] args) throws Exception {
        int tasks = Integer.parseInt(args[0]), pool = Integer.parseInt(args[1]);
        Duration sleep = Duration.ofMillis(Long.parseLong(args[2]));
        long[] fixed = run(Executors.newFixedThreadPool(pool), tasks, sleep);
        long[] virt = null;
        for (int i = 0; i < 3; i++) {
            long[] v = run(Executors.newVirtualThreadPerTaskExecutor(), tasks, sleep);
            if (virt == null || v[0] < virt[0]) virt = v;
        }
        System.out.println("figure fixed_ms " + fixed[0]);
        System.out.println("figure virtual_ms " + virt[0]);
        System.out.println("figure fixed_os_threads " + fixed[1]);
        System.out.println("figure virtual_os_threads " + virt[1]);
        System.out.printf("text %,d ms vs %,d ms (best of 3; %.0f×); %,d vs %,d OS threads%n",
                fixed[0], virt[0], (double) fixed[0] / virt[0], fixed[1], virt[1]);
    }

    /** Runs the tasks, closes the executor (waiting for all), returns {ms, peak OS threads}. */
    static long[] run(ExecutorService es, int tasks, Duration sleep) throws Exception {
        AtomicLong peak = new AtomicLong(osThreads());
        Thread sampler = Thread.ofPlatform().daemon().start(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                peak.accumulateAndGet(osThreads(), Math::max);
                try { Thread.sleep(10); } catch (InterruptedException e) { return; }
            }
        });
        long t0 = System.nanoTime();
        try (es) {
            for (int i = 0; i < tasks; i++) es.execute(() -> { try { Thread.sleep(sleep); } catch (InterruptedException e) { } });
        }
        long ms = (System.nanoTime() - t0) / 1_000_000;
        sampler.interrupt();
        sampler.join();
        peak.accumulateAndGet(osThreads(), Math::max);
        return new long[] {ms, peak.get()};
    }

    /** The process's OS threads now (Linux /proc/self/status). */
    static long osThreads() {
        try {
            for (String l : Files.readAllLines(Path.of("/proc/self/status")))
                if (l.startsWith("Threads:")) return Long.parseLong(l.substring(8).trim());
        } catch (Exception e) { }
        return Thread.activeCount();
    }
}
