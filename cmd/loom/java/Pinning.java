// loom demo's pinning experiment on the JDK (run with parallelism=1, maxPoolSize=1): four
// virtual threads each sleep 200 ms inside a synchronized block of their own, then inside a
// ReentrantLock of their own. On JDK 24+ (JEP 491) monitors no longer pin and there is no switch
// to bring Java 21's rule back, so the Java 21 half is run only on JDK 21-23; on 24+ the program
// shows instead what still pins there: four threads that sleep inside a class initializer each.
// Usage: java -Djdk.virtualThreadScheduler.parallelism=1 -Djdk.virtualThreadScheduler.maxPoolSize=1 Pinning.java
import java.time.Duration;
import java.util.*;
import java.util.concurrent.locks.*;

public class Pinning {
    static final Duration D = Duration.ofMillis(200);

    public static void main(String[] args) throws Exception {
        long sync = run(i -> { Object m = new Object(); synchronized (m) { sleep(); } });
        long lock = run(i -> { ReentrantLock l = new ReentrantLock(); l.lock(); try { sleep(); } finally { l.unlock(); } });
        int feature = Runtime.version().feature();
        System.out.println("figure sync_ms " + sync);
        System.out.println("figure lock_ms " + lock);
        if (feature <= 23) {
            System.out.printf("text Java %d (monitors pin): synchronized %,d ms vs ReentrantLock %,d ms%n", feature, sync, lock);
            return;
        }
        long clinit = run(i -> {
            switch (i) { // each thread initializes a class of its own, which sleeps in <clinit>
                case 0 -> Init0.touch();
                case 1 -> Init1.touch();
                case 2 -> Init2.touch();
                default -> Init3.touch();
            }
        });
        System.out.println("figure clinit_ms " + clinit);
        System.out.printf("text Java %d rules: synchronized %,d ms vs ReentrantLock %,d ms; Java 21 rules: not available on JDK %d (JEP 491, no switch back); "
                + "what still pins here, a sleep in a class initializer: %,d ms%n", feature, sync, lock, feature, clinit);
    }

    interface Task { void run(int i) throws Exception; }

    static long run(Task task) throws InterruptedException {
        List<Thread> ts = new ArrayList<>();
        long t0 = System.nanoTime();
        for (int i = 0; i < 4; i++) {
            int k = i;
            ts.add(Thread.ofVirtual().start(() -> { try { task.run(k); } catch (Exception e) { throw new RuntimeException(e); } }));
        }
        for (Thread t : ts) t.join();
        return (System.nanoTime() - t0) / 1_000_000;
    }

    static void sleep() { try { Thread.sleep(D); } catch (InterruptedException e) { } }

    static final class Init0 { static { sleep(); } static void touch() { } }
    static final class Init1 { static { sleep(); } static void touch() { } }
    static final class Init2 { static { sleep(); } static void touch() { } }
    static final class Init3 { static { sleep(); } static void touch() { } }
}
