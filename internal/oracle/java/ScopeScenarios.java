// StructuredTaskScope and its joiners (JDK 25 preview API, JEP 505): the twins of
// ../structured_test.go. This file compiles only on JDK 25 (the API differs in 21-24); on an
// older JDK its scenarios are reported as not compared.
import java.time.Duration;
import java.util.*;
import java.util.concurrent.*;
import java.util.concurrent.StructuredTaskScope.Joiner;
import java.util.concurrent.StructuredTaskScope.Subtask;
import java.util.concurrent.atomic.*;

final class ScopeScenarios {
    static void register(Map<String, Oracle.Scenario> m) {
        m.put("scope_all_succeed", ScopeScenarios::allSucceed);
        m.put("scope_failure_cancels", ScopeScenarios::failureCancels);
        m.put("scope_any_successful_result", ScopeScenarios::anySuccessful);
        m.put("scope_all_successful_list", ScopeScenarios::allSuccessfulList);
        m.put("scope_await_all_keeps_going", ScopeScenarios::awaitAll);
        m.put("scope_all_until", ScopeScenarios::allUntil);
        m.put("scope_misuse", ScopeScenarios::misuse);
        m.put("scope_timeout", ScopeScenarios::timeout);
        m.put("scope_join_interrupted", ScopeScenarios::joinInterrupted);
        m.put("scope_scoped_values_in_forks", ScopeScenarios::scopedValuesInForks);
        m.put("scope_custom_joiner", ScopeScenarios::customJoiner);
    }

    /** A subtask body that blocks until interrupted and records that it was. */
    static Callable<String> blocker(AtomicReference<String> seen) {
        return () -> {
            try {
                new CountDownLatch(1).await();
            } catch (InterruptedException e) {
                seen.set("interrupted");
                throw e;
            }
            return "never";
        };
    }

    static void allSucceed(Log log) throws Exception {
        try (var scope = StructuredTaskScope.open()) {
            Subtask<String> a = scope.fork(() -> "a");
            Subtask<Integer> b = scope.fork(() -> 2);
            log.val("join", scope::join);
            log.p("states %s %s values %s %s cancelled %s", a.state(), b.state(), a.get(), b.get(), scope.isCancelled());
            log.val("exception() of a successful subtask", a::exception);
        }
    }

    static void failureCancels(Log log) throws Exception {
        AtomicReference<String> seen = new AtomicReference<>("not interrupted");
        CountDownLatch started = new CountDownLatch(1);
        try (var scope = StructuredTaskScope.open()) {
            Subtask<String> slow = scope.fork(() -> { started.countDown(); return blocker(seen).call(); });
            Subtask<String> failing = scope.fork(() -> { started.await(); throw new Boom("fork failed"); });
            log.val("join", scope::join);
            log.p("failing: %s %s; slow: %s; cancelled %s", failing.state(), failing.exception(), slow.state(), scope.isCancelled());
            log.val("get of the failed subtask", failing::get);
            log.val("get of the cancelled subtask", slow::get);
            log.val("exception of the cancelled subtask", slow::exception);
        }
        // close waits for every subtask's thread: only now is the slow fork's fate settled
        log.p("after close the slow fork was %s", seen.get());
    }

    static void anySuccessful(Log log) throws Exception {
        AtomicReference<String> seen = new AtomicReference<>("not interrupted");
        CountDownLatch started = new CountDownLatch(1), failed = new CountDownLatch(1);
        try (var scope = StructuredTaskScope.open(Joiner.<String>anySuccessfulResultOrThrow())) {
            scope.fork(() -> { started.countDown(); return blocker(seen).call(); });
            scope.fork(() -> { failed.countDown(); throw new Boom("one fails"); });
            scope.fork(() -> { started.await(); failed.await(); return "winner"; });
            log.val("join", scope::join);
            log.p("cancelled %s", scope.isCancelled());
        }
        log.p("after close the blocked fork was %s", seen.get());
        try (var scope = StructuredTaskScope.open(Joiner.<String>anySuccessfulResultOrThrow())) {
            scope.fork(() -> { throw new Boom("all fail"); });
            scope.fork(() -> { throw new Boom("all fail"); });
            log.val("join when all fail", scope::join);
        }
        try (var scope = StructuredTaskScope.open(Joiner.<String>anySuccessfulResultOrThrow())) {
            log.val("join with no fork", scope::join);
        }
    }

    static void allSuccessfulList(Log log) throws Exception {
        try (var scope = StructuredTaskScope.open(Joiner.<String>allSuccessfulOrThrow())) {
            CountDownLatch first = new CountDownLatch(1);
            scope.fork(() -> { first.await(); return "first forked"; });
            scope.fork(() -> { first.countDown(); return "second forked"; });
            List<String> got = new ArrayList<>();
            for (Subtask<String> s : scope.join().toList()) got.add(s.state() + " " + s.get());
            log.p("join: %s", got);
        }
        try (var scope = StructuredTaskScope.open(Joiner.<String>allSuccessfulOrThrow())) {
            scope.fork(() -> "ok");
            scope.fork(() -> { throw new Boom("one of all"); });
            log.val("join with a failure", scope::join);
        }
    }

    static void awaitAll(Log log) throws Exception {
        try (var scope = StructuredTaskScope.open(Joiner.<String>awaitAll())) {
            CountDownLatch failed = new CountDownLatch(1);
            Subtask<String> f = scope.fork(() -> { failed.countDown(); throw new Boom("does not cancel"); });
            Subtask<String> s = scope.fork(() -> { failed.await(); return "still ran"; });
            log.val("join", scope::join);
            log.p("%s %s; %s %s; cancelled %s", f.state(), f.exception(), s.state(), s.get(), scope.isCancelled());
        }
    }

    static void allUntil(Log log) throws Exception {
        AtomicReference<String> seen = new AtomicReference<>("not interrupted");
        CountDownLatch started = new CountDownLatch(1);
        var joiner = Joiner.<String>allUntil(s -> s.state() == Subtask.State.SUCCESS && s.get().equals("stop"));
        try (var scope = StructuredTaskScope.open(joiner)) {
            scope.fork(() -> { started.countDown(); return blocker(seen).call(); });
            Subtask<String> goOn = scope.fork(() -> { started.await(); return "go on"; });
            // "stop" only after "go on" has completed, so that the order of completions is fixed
            scope.fork(() -> { while (goOn.state() != Subtask.State.SUCCESS) Thread.sleep(1); return "stop"; });
            List<String> got = new ArrayList<>();
            for (Subtask<String> s : scope.join().toList()) got.add(s.state().toString());
            log.p("join: %s; cancelled %s", got, scope.isCancelled());
        }
        log.p("after close the blocked fork was %s", seen.get());
    }

    static void misuse(Log log) throws Exception {
        try (var scope = StructuredTaskScope.open()) {
            Subtask<String> a = scope.fork(() -> "a");
            log.val("get before join", a::get);
            AtomicReference<String> other = new AtomicReference<>();
            Thread t = Thread.ofVirtual().start(() -> other.set("fork from another thread -> " + Ex.of(() -> scope.fork(() -> "x"))
                    + "; join from another thread -> " + Ex.of(scope::join)));
            t.join();
            log.p("%s", other.get());
            scope.join();
            log.call("fork after join", () -> scope.fork(() -> "late"));
            log.call("join again", scope::join);
        }
        var scope = StructuredTaskScope.open();
        scope.fork(() -> "never joined");
        log.call("close without join", scope::close);
        var fresh = StructuredTaskScope.open();
        log.call("close of a scope that forked nothing", fresh::close);
        log.call("fork after close", () -> fresh.fork(() -> "x"));
        log.call("join after close", fresh::join);
    }

    /** Whether the fork starts before the timeout cancels the scope depends on time (a second
     *  makes it all but certain): the log says that a fork that started was interrupted. */
    static void timeout(Log log) throws Exception {
        AtomicReference<String> seen = new AtomicReference<>("not interrupted");
        AtomicBoolean started = new AtomicBoolean();
        try (var scope = StructuredTaskScope.open(Joiner.<String>awaitAllSuccessfulOrThrow(), cf -> cf.withTimeout(Duration.ofSeconds(1)))) {
            Subtask<String> s = scope.fork(() -> { started.set(true); return blocker(seen).call(); });
            log.val("join", scope::join);
            log.p("the fork's state %s; cancelled %s", s.state(), scope.isCancelled());
        }
        log.p("after close, the fork had not started or was interrupted: %s", !started.get() || seen.get().equals("interrupted"));
    }

    static void joinInterrupted(Log log) throws Exception {
        AtomicReference<String> seen = new AtomicReference<>("not interrupted");
        try (var scope = StructuredTaskScope.open()) {
            CountDownLatch started = new CountDownLatch(1);
            scope.fork(() -> { started.countDown(); return blocker(seen).call(); });
            started.await();
            Thread.currentThread().interrupt();
            log.val("join with the status set", scope::join);
            log.p("interrupted after: %s; cancelled %s", Thread.currentThread().isInterrupted(), scope.isCancelled());
        }
        log.p("after close the fork was %s", seen.get());
    }

    static final ScopedValue<String> USER = ScopedValue.newInstance();

    static void scopedValuesInForks(Log log) throws Exception {
        ScopedValue.where(USER, "duke").call(() -> {
            try (var scope = StructuredTaskScope.open()) {
                Subtask<String> plain = scope.fork(() -> USER.get());
                Subtask<String> rebound = scope.fork(() -> ScopedValue.where(USER, "rebound").call(USER::get) + " then " + USER.get());
                Subtask<String> thread = scope.fork(() -> {
                    AtomicReference<String> r = new AtomicReference<>();
                    Thread t = Thread.ofVirtual().start(() -> r.set("a thread started in a fork sees bound=" + USER.isBound()));
                    t.join();
                    return r.get();
                });
                scope.join();
                log.p("fork sees %s; %s; %s", plain.get(), rebound.get(), thread.get());
            }
            return null;
        });
        log.p("outside: bound %s", USER.isBound());
    }

    static void customJoiner(Log log) throws Exception {
        List<String> events = Collections.synchronizedList(new ArrayList<>());
        AtomicInteger completed = new AtomicInteger();
        Joiner<String, Integer> counting = new Joiner<>() {
            public boolean onFork(Subtask<? extends String> s) { events.add("onFork " + s.state()); return false; }
            public boolean onComplete(Subtask<? extends String> s) { completed.incrementAndGet(); return false; }
            public Integer result() { return completed.get(); }
        };
        try (var scope = StructuredTaskScope.open(counting)) {
            scope.fork(() -> "a");
            scope.fork(() -> { throw new Boom("b"); });
            log.val("join", scope::join);
        }
        log.p("events %s", events);
    }
}
