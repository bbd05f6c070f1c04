// loom demo's scope-first-success experiment on the JDK (JDK 25 preview API): the first
// successful result of forks that take 300, 50 and 150 ms; the others are cancelled.
// Usage: java --enable-preview --source 25 ScopeFirstSuccess.java
import java.time.Duration;
import java.util.concurrent.*;
import java.util.concurrent.StructuredTaskScope.Joiner;
import java.util.concurrent.atomic.*;

public class ScopeFirstSuccess {
    public static void main(String[] args) throws Exception {
        AtomicInteger cancelled = new AtomicInteger();
        String[] names = {"database", "cache", "replica"};
        long[] ms = {300, 50, 150};
        long t0 = System.nanoTime();
        String winner;
        try (var scope = StructuredTaskScope.open(Joiner.<String>anySuccessfulResultOrThrow())) {
            for (int i = 0; i < 3; i++) {
                String name = names[i];
                Duration d = Duration.ofMillis(ms[i]);
                scope.fork(() -> {
                    try { Thread.sleep(d); } catch (InterruptedException e) { cancelled.incrementAndGet(); throw e; }
                    return name;
                });
            }
            winner = scope.join();
        }
        long el = (System.nanoTime() - t0) / 1_000_000;
        System.out.println("figure elapsed_ms " + el);
        System.out.println("figure cancelled " + cancelled.get());
        System.out.printf("text \"%s\" wins in %,d ms; %d slower forks interrupted%n", winner, el, cancelled.get());
    }
}
