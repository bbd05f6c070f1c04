// loom demo's virtual-100k experiment on the JDK: TASKS virtual threads that each sleep
// SLEEP_MS (best of 2), with the peak growth of the resident set over the program's start (the
// second run reuses the heap pages the first one touched, so the growth is measured from before
// both).
// Usage: java Virtual100k.java TASKS SLEEP_MS
import java.nio.file.*;
import java.time.Duration;
import java.util.concurrent.*;
import java.util.concurrent.atomic.*;

public class Virtual100k {
    public static void main(String[] args) throws Exception {
        int tasks = Integer.parseInt(args[0]);
        Duration sleep = Duration.ofMillis(Long.parseLong(args[1]));
        long best = Long.MAX_VALUE, threads = 0;
        System.gc();
        long base = status("VmRSS:") * 1024;
        AtomicLong peak = new AtomicLong(base);
        for (int run = 0; run < 2; run++) {
            AtomicLong peakThreads = new AtomicLong();
            Thread sampler = Thread.ofPlatform().daemon().start(() -> {
                while (!Thread.currentThread().isInterrupted()) {
                    peak.accumulateAndGet(status("VmRSS:") * 1024, Math::max);
                    peakThreads.accumulateAndGet(status("Threads:"), Math::max);
                    try { Thread.sleep(20); } catch (InterruptedException e) { return; }
                }
            });
            long t0 = System.nanoTime();
            try (var es = Executors.newVirtualThreadPerTaskExecutor()) {
                for (int i = 0; i < tasks; i++) es.execute(() -> { try { Thread.sleep(sleep); } catch (InterruptedException e) { } });
            }
            long ms = (System.nanoTime() - t0) / 1_000_000;
            sampler.interrupt();
            sampler.join();
            if (ms < best) { best = ms; threads = peakThreads.get(); }
        }
        long bestPeak = peak.get() - base;
        System.out.println("figure elapsed_ms " + best);
        System.out.println("figure peak_rss_bytes " + bestPeak);
        System.out.println("figure os_threads " + threads);
        System.out.printf("text %,d ms (best of 2), RSS +%.0f MB at the peak, %d OS threads%n", best, bestPeak / 1e6, threads);
    }

    /** A numeric field of /proc/self/status (kB for memory). */
    static long status(String field) {
        try {
            for (String l : Files.readAllLines(Path.of("/proc/self/status")))
                if (l.startsWith(field)) return Long.parseLong(l.substring(field.length()).trim().split("\\s+")[0]);
        } catch (Exception e) { }
        return 0;
    }
}
