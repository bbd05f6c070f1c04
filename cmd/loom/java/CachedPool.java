// loom demo's cached-pool experiment on the JDK: TASKS tasks that each sleep SLEEP_MS on
// Executors.newCachedThreadPool(), which starts a platform thread for every task that finds no
// idle one; past the OS's limit Java throws OutOfMemoryError: unable to create native thread.
// Usage: java CachedPool.java TASKS SLEEP_MS
import java.nio.file.*;
import java.time.Duration;
import java.util.concurrent.*;
import java.util.concurrent.atomic.*;

public class CachedPool {
    public static void main(String[] args) throws Exception {
        int tasks = Integer.parseInt(args[0]);
        Duration sleep = Duration.ofMillis(Long.parseLong(args[1]));
        AtomicLong peak = new AtomicLong(osThreads());
        Thread sampler = Thread.ofPlatform().daemon().start(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                peak.accumulateAndGet(osThreads(), Math::max);
                try { Thread.sleep(10); } catch (InterruptedException e) { return; }
            }
        });
        int submitted = 0;
        Throwable failure = null;
        long t0 = System.nanoTime();
        ExecutorService es = Executors.newCachedThreadPool();
        try {
            for (int i = 0; i < tasks; i++) {
                es.execute(() -> { try { Thread.sleep(sleep); } catch (InterruptedException e) { } });
                submitted++;
            }
        } catch (Throwable t) {
            failure = t;
        }
        es.shutdown();
        es.awaitTermination(1, TimeUnit.HOURS);
        long ms = (System.nanoTime() - t0) / 1_000_000;
        sampler.interrupt();
        sampler.join();
        System.out.println("figure peak_os_threads " + peak.get());
        System.out.println("figure submitted " + submitted);
        System.out.println("figure elapsed_ms " + ms);
        System.out.println("figure failed " + (failure == null ? 0 : 1));
        if (failure != null) {
            System.out.printf("text %,d OS threads, then task %,d failed with %s: %s; the %,d started tasks finished%n",
                    peak.get(), submitted + 1, failure.getClass().getSimpleName(), failure.getMessage(), submitted);
        } else {
            System.out.printf("text all %,d tasks ran on up to %,d OS threads in %,d ms (no OutOfMemoryError on this machine)%n", tasks, peak.get(), ms);
        }
    }

    static long osThreads() {
        try {
            for (String l : Files.readAllLines(Path.of("/proc/self/status")))
                if (l.startsWith("Threads:")) return Long.parseLong(l.substring(8).trim());
        } catch (Exception e) { }
        return Thread.activeCount();
    }
}
