// loom demo's scope-fail-fast experiment on the JDK (JDK 25's StructuredTaskScope, a preview
// API: run with --enable-preview --source 25): one fork fails after 100 ms, another would take
// 2 s; the failure cancels the scope and interrupts the slow fork.
// Usage: java --enable-preview --source 25 ScopeFailFast.java
import java.time.Duration;
import java.util.concurrent.*;
import java.util.concurrent.atomic.*;

public class ScopeFailFast {
    public static void main(String[] args) throws Exception {
        AtomicBoolean slowInterrupted = new AtomicBoolean();
        long t0 = System.nanoTime();
        String outcome;
        try (var scope = StructuredTaskScope.open()) {
            scope.fork(() -> {
                try { Thread.sleep(Duration.ofSeconds(2)); } catch (InterruptedException e) { slowInterrupted.set(true); throw e; }
                return "slow";
            });
            scope.fork(() -> { Thread.sleep(Duration.ofMillis(100)); throw new IllegalStateException("inventory service down"); });
            scope.join();
            outcome = "joined";
        } catch (StructuredTaskScope.FailedException e) {
            outcome = "FailedException (" + e.getCause().getMessage() + ")";
        }
        long ms = (System.nanoTime() - t0) / 1_000_000;
        System.out.println("figure elapsed_ms " + ms);
        System.out.printf("text failed in %,d ms with %s, slow fork interrupted: %s%n", ms, outcome, slowInterrupted.get());
    }
}
