// loom demo's platform-100k experiment on the JDK: TASKS platform threads that each sleep
// SLEEP_MS. A start refused with OutOfMemoryError (the OS's thread limit) is retried after a
// millisecond, as loom's run waits at its platform thread limit.
// Usage: java Platform100k.java TASKS SLEEP_MS
import java.nio.file.*;
import java.time.Duration;
import java.util.concurrent.*;
import java.util.concurrent.atomic.*;

public class Platform100k {
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
        CountDownLatch done = new CountDownLatch(tasks);
        Thread.Builder b = Thread.ofPlatform().daemon();
        long refused = 0;
        long t0 = System.nanoTime();
        for (int i = 0; i < tasks; i++) {
            while (true) {
                try {
                    b.start(() -> { try { Thread.sleep(sleep); } catch (InterruptedException e) { } done.countDown(); });
                    break;
                } catch (OutOfMemoryError e) {
                    refused++;
                    Thread.sleep(1);
                }
            }
        }
        done.await();
        long ms = (System.nanoTime() - t0) / 1_000_000;
        sampler.interrupt();
        sampler.join();
        System.out.println("figure elapsed_ms " + ms);
        System.out.println("figure peak_os_threads " + peak.get());
        System.out.println("figure refused " + refused);
        System.out.printf("text %,d ms, peak %,d OS threads (%,d starts refused with OutOfMemoryError and retried)%n", ms, peak.get(), refused);
    }

    static long osThreads() {
        try {
            for (String l : Files.readAllLines(Path.of("/proc/self/status")))
                if (l.startsWith("Threads:")) return Long.parseLong(l.substring(8).trim());
        } catch (Exception e) { }
        return Thread.activeCount();
    }
}
