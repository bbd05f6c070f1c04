// The Java half of loom's differential behaviour oracle (see ../doc.go).
//
// Every scenario is a static method that drives java.lang.Thread and java.util.concurrent and
// writes a canonical log of what it observed. main runs them one after the other, each on a
// fresh platform thread named "scenario" (the Go half does the same), and prints
//
//   == <scenario name>
//   <log lines>
//
// for each. The Go test runs the same scenario written with loom and compares the two logs.
// Scenarios are timing-free: they synchronise with latches and by polling thread states, never
// with a sleep that decides an outcome; a timed call only ever times out when nothing could
// satisfy it.
//
// Usage: java --enable-preview -Djdk.virtualThreadScheduler.parallelism=1 Oracle [name...]
//        java ... Oracle --list
import java.net.SocketException;
import java.time.Duration;
import java.util.*;
import java.util.concurrent.*;
import java.util.function.*;

public final class Oracle {
    /** A scenario: writes what it observes to the log. */
    interface Scenario { void run(Log log) throws Exception; }

    /** The classes that register scenarios. Each has a static register(Map) method; a class
     *  that did not compile on this JDK (an API it lacks) is reported, not fatal. */
    static final String[] SUITES = {
        "ThreadScenarios", "LockScenarios", "SyncScenarios", "QueueScenarios", "ExecutorScenarios",
        "FutureScenarios", "CompletionScenarios", "ScopeScenarios", "ScopedValueScenarios", "LocalScenarios", "IoScenarios",
    };

    static final Duration SCENARIO_TIMEOUT = Duration.ofSeconds(30);

    public static void main(String[] args) throws Exception {
        Map<String, Scenario> all = new LinkedHashMap<>();
        for (String suite : SUITES) {
            Class<?> c;
            try {
                c = Class.forName(suite);
            } catch (ClassNotFoundException e) {
                System.out.println("!! suite " + suite + " not compiled on Java " + Runtime.version().feature());
                continue;
            }
            c.getDeclaredMethod("register", Map.class).invoke(null, all);
        }
        if (args.length == 1 && args[0].equals("--list")) {
            all.keySet().forEach(System.out::println);
            System.exit(0);
        }
        Set<String> only = new HashSet<>(Arrays.asList(args));
        for (var e : all.entrySet()) {
            if (!only.isEmpty() && !only.contains(e.getKey())) continue;
            Log log = new Log();
            Thread t = Thread.ofPlatform().name("scenario").start(() -> {
                try {
                    e.getValue().run(log);
                } catch (Throwable x) {
                    log.p("unexpected " + Ex.name(x));
                }
            });
            if (!t.join(SCENARIO_TIMEOUT)) {
                log.p("TIMEOUT after " + SCENARIO_TIMEOUT.toSeconds() + " s");
            }
            StringBuilder b = new StringBuilder("== ").append(e.getKey()).append('\n');
            for (String line : log.lines()) b.append(line).append('\n');
            System.out.print(b);
            System.out.flush();
        }
        System.exit(0); // a timed-out scenario may have left threads behind
    }
}

/** The canonical log of one scenario. */
final class Log {
    private final List<String> lines = new ArrayList<>();

    synchronized List<String> lines() { return new ArrayList<>(lines); }

    /** p appends a line: format with each %s replaced by the next argument written by Ex.str
     *  (exceptions by their canonical names, collections as [a, b]). */
    synchronized void p(String format, Object... args) {
        Object[] strs = new Object[args.length];
        for (int i = 0; i < args.length; i++) strs[i] = Ex.str(args[i]);
        lines.add(args.length == 0 ? format : String.format(format, strs));
    }

    interface Action { void run() throws Throwable; }
    interface Supplier<T> { T get() throws Throwable; }

    /** call runs a, and logs "label -> ok" or "label -> <exception>". */
    void call(String label, Action a) {
        try {
            a.run();
            p(label + " -> ok");
        } catch (Throwable t) {
            p(label + " -> " + Ex.name(t));
        }
    }

    /** val runs s, and logs "label -> <value>" or "label -> <exception>". */
    <T> void val(String label, Supplier<T> s) {
        try {
            p(label + " -> " + Ex.str(s.get()));
        } catch (Throwable t) {
            p(label + " -> " + Ex.name(t));
        }
    }
}

/** A checked exception the scenarios throw on purpose: loom's side returns an error of its own
 *  type with the same message. Logged as Boom(message). */
final class Boom extends Exception {
    Boom(String message) { super(message); }
}

/** An unchecked one, for Runnables (Go: a panic with a boom value). Logged as Boom(message) too. */
final class BoomRuntime extends RuntimeException {
    BoomRuntime(String message) { super(message); }
}

/** Ex names exceptions the way the oracle's canonical log does (see ../exceptions_test.go). */
final class Ex {
    static String name(Throwable t) {
        if (t instanceof Boom || t instanceof BoomRuntime) return "Boom(" + t.getMessage() + ")";
        String n = t.getClass().getSimpleName();
        // Socket exceptions differ by message only. The classic socket's "Closed by interrupt" is
        // the channels' ClosedByInterruptException (loom has one error for both), and "Socket is
        // closed" (a closed socket's getInputStream) is "Socket closed" (its stream's read).
        if (t instanceof SocketException) {
            String m = String.valueOf(t.getMessage());
            if (m.equals("Closed by interrupt")) return "ClosedByInterruptException";
            if (m.equals("Socket is closed")) m = "Socket closed";
            return n + "(" + m + ")";
        }
        // Go has one wrapper where Java has two: get's ExecutionException and join's
        // CompletionException are both *executors.ExecutionError.
        if (t instanceof CompletionException) n = "ExecutionException";
        if (t instanceof ExecutionException || t instanceof CompletionException
                || n.equals("FailedException")) {
            return t.getCause() == null ? n + "()" : n + "(" + name(t.getCause()) + ")";
        }
        return n;
    }

    /** unwrap returns the cause of a CompletionException: what loom passes to a dependent
     *  stage's callback, which sees the failure unchanged (executors.CompletableFuture's doc). */
    static Throwable unwrap(Throwable t) {
        return t instanceof CompletionException && t.getCause() != null ? t.getCause() : t;
    }

    /** of runs a and returns "ok" or the name of what it threw. */
    static String of(Log.Action a) {
        try {
            a.run();
            return "ok";
        } catch (Throwable t) {
            return name(t);
        }
    }

    /** val runs s and returns its value, or the name of what it threw. */
    static <T> String val(Log.Supplier<T> s) {
        try {
            return str(s.get());
        } catch (Throwable t) {
            return name(t);
        }
    }

    static String str(Object o) {
        if (o == null) return "null";
        if (o instanceof Throwable t) return name(t);
        if (o instanceof Collection<?> c) {
            StringJoiner j = new StringJoiner(", ", "[", "]");
            for (Object x : c) j.add(str(x));
            return j.toString();
        }
        if (o instanceof Object[] a) return str(Arrays.asList(a));
        return String.valueOf(o);
    }
}

/** Helpers that synchronise without timing. */
final class Sync {
    static final long PATIENCE_MS = 10_000;

    /** awaitState polls until t is in state s (or reports, after 10 s, that it is not). */
    static boolean awaitState(Log log, Thread t, Thread.State s) throws InterruptedException {
        return await(log, "state " + s, () -> t.getState() == s);
    }

    /** await polls cond every millisecond until it holds; after 10 s it logs that it did not. */
    static boolean await(Log log, String what, BooleanSupplier cond) throws InterruptedException {
        long deadline = System.nanoTime() + PATIENCE_MS * 1_000_000;
        while (!cond.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                log.p("gave up waiting for " + what);
                return false;
            }
            Thread.sleep(1);
        }
        return true;
    }

    /** blocked polls until t is blocked (neither NEW nor RUNNABLE) and returns its state. */
    static Thread.State blocked(Log log, Thread t) throws InterruptedException {
        await(log, "the thread to block", () -> {
            Thread.State s = t.getState();
            return s != Thread.State.NEW && s != Thread.State.RUNNABLE;
        });
        return t.getState();
    }

    /** join joins t for up to a minute and logs if it did not end. */
    static void join(Log log, Thread... ts) throws InterruptedException {
        for (Thread t : ts) {
            if (!t.join(Duration.ofMinutes(1))) log.p("thread did not end: " + t);
        }
    }
}
