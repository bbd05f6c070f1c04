// CompletableFuture: completion, composition, failure propagation, cancellation. The twins of
// ../futures_test.go. A callback that receives a dependent stage's failure logs it through
// Ex.unwrap: loom passes the cause unchanged where Java wraps it in a CompletionException
// (see the exception table in ../exceptions_test.go).
import java.util.*;
import java.util.concurrent.*;
import java.util.concurrent.atomic.*;

final class FutureScenarios {
    static void register(Map<String, Oracle.Scenario> m) {
        m.put("cf_complete_once", FutureScenarios::completeOnce);
        m.put("cf_then_apply_chain", FutureScenarios::thenApplyChain);
        m.put("cf_failure_propagation", FutureScenarios::failurePropagation);
        m.put("cf_cancel", FutureScenarios::cancel);
        m.put("cf_when_complete", FutureScenarios::whenComplete);
        m.put("cf_combine_compose", FutureScenarios::combineCompose);
        m.put("cf_all_of_any_of", FutureScenarios::allOfAnyOf);
        m.put("cf_dependents_order", FutureScenarios::dependentsOrder);
        m.put("cf_dependent_runs_where", FutureScenarios::dependentRunsWhere);
        m.put("cf_async_and_waiting", FutureScenarios::asyncAndWaiting);
    }

    static String status(Object o) { return LockScenarios.status(o); }

    static void completeOnce(Log log) throws Exception {
        CompletableFuture<String> f = new CompletableFuture<>();
        log.p("new: done %s state %s getNow %s %s", f.isDone(), f.state(), f.getNow("absent"), status(f));
        log.p("complete a %s, complete b %s, completeExceptionally %s, cancel %s", f.complete("a"), f.complete("b"),
                f.completeExceptionally(new Boom("late")), f.cancel(true));
        log.p("done %s state %s join %s getNow %s resultNow %s exceptionally %s %s", f.isDone(), f.state(), f.join(),
                f.getNow("absent"), f.resultNow(), f.isCompletedExceptionally(), status(f));
        log.val("exceptionNow of a completed future", f::exceptionNow);
        CompletableFuture<String> failed = CompletableFuture.failedFuture(new Boom("failed"));
        log.p("failedFuture: state %s exceptionNow %s exceptionally %s %s", failed.state(), failed.exceptionNow(), failed.isCompletedExceptionally(), status(failed));
        log.val("getNow of a failed future", () -> failed.getNow("absent"));
        log.val("join of a failed future", failed::join);
        log.val("get of a failed future", failed::get);
        log.p("completedFuture: %s", CompletableFuture.completedFuture("c").join());
    }

    static void thenApplyChain(Log log) throws Exception {
        List<String> seen = new ArrayList<>();
        CompletableFuture<Integer> src = new CompletableFuture<>();
        CompletableFuture<Integer> chain = src.thenApply(x -> x * 10).thenApply(x -> x + 1);
        CompletableFuture<Void> accepted = chain.thenAccept(x -> seen.add("accepted " + x));
        CompletableFuture<Void> ran = accepted.thenRun(() -> seen.add("ran"));
        log.p("before: chain done %s, source done %s", chain.isDone(), src.isDone());
        src.complete(2);
        log.p("chain %s, seen %s, thenRun's result %s, done %s", chain.join(), seen, ran.join(), ran.isDone());
        CompletableFuture<String> ex = CompletableFuture.completedFuture("v").exceptionally(e -> "recovered");
        log.p("exceptionally on success: %s", ex.join());
    }

    static void failurePropagation(Log log) throws Exception {
        CompletableFuture<Integer> src = new CompletableFuture<>();
        CompletableFuture<Integer> dep = src.thenApply(x -> x + 1);
        AtomicReference<String> handled = new AtomicReference<>();
        CompletableFuture<String> h = dep.handle((v, e) -> { handled.set("handle saw value " + v + " and " + Ex.name(Ex.unwrap(e))); return "handled"; });
        CompletableFuture<Integer> rec = dep.exceptionally(e -> { handled.set(handled.get() + "; exceptionally saw " + Ex.name(Ex.unwrap(e))); return -1; });
        AtomicBoolean applied = new AtomicBoolean();
        CompletableFuture<Integer> skipped = dep.thenApply(x -> { applied.set(true); return x; });
        src.completeExceptionally(new Boom("source"));
        log.p("dependent: exceptionally %s cancelled %s state %s exceptionNow %s", dep.isCompletedExceptionally(), dep.isCancelled(), dep.state(), dep.exceptionNow());
        log.val("dependent get", dep::get);
        log.val("dependent join", dep::join);
        log.p("%s; handle -> %s, exceptionally -> %s", handled.get(), h.join(), rec.join());
        log.p("a stage after the failure: ran %s, %s", applied.get(), Ex.of(skipped::get));
        CompletableFuture<Integer> thrown = CompletableFuture.completedFuture(1).thenApply(x -> { throw new BoomRuntime("in thenApply"); });
        log.val("a stage whose function throws: get", thrown::get);
        log.p("its exceptionNow %s", thrown.exceptionNow());
    }

    static void cancel(Log log) throws Exception {
        CompletableFuture<String> f = new CompletableFuture<>();
        CompletableFuture<String> dep = f.thenApply(s -> s + "!");
        log.val("cancel(true)", () -> f.cancel(true));
        log.p("cancelled %s done %s exceptionally %s state %s %s", f.isCancelled(), f.isDone(), f.isCompletedExceptionally(), f.state(), status(f));
        log.val("get", f::get);
        log.val("join", f::join);
        log.val("getNow", () -> f.getNow("absent"));
        log.val("exceptionNow", f::exceptionNow);
        log.val("complete after cancel", () -> f.complete("late"));
        log.p("dependent: cancelled %s exceptionally %s state %s", dep.isCancelled(), dep.isCompletedExceptionally(), dep.state());
        log.val("dependent get", dep::get);
        log.val("cancel a completed future", () -> CompletableFuture.completedFuture("x").cancel(true));
    }

    static void whenComplete(Log log) throws Exception {
        List<String> seen = new ArrayList<>();
        CompletableFuture<String> ok = CompletableFuture.completedFuture("v").whenComplete((v, e) -> seen.add("saw " + v + ", " + Ex.str(e)));
        log.p("%s; result %s", seen, ok.join());
        CompletableFuture<String> throwing = CompletableFuture.completedFuture("v").whenComplete((v, e) -> { throw new BoomRuntime("in whenComplete"); });
        log.val("whenComplete whose action throws, on success: get", throwing::get);
        CompletableFuture<String> failed = CompletableFuture.<String>failedFuture(new Boom("original"))
                .whenComplete((v, e) -> { throw new BoomRuntime("second"); });
        log.val("whenComplete whose action throws, on failure: get", failed::get);
    }

    static void combineCompose(Log log) throws Exception {
        CompletableFuture<Integer> a = new CompletableFuture<>(), b = new CompletableFuture<>();
        CompletableFuture<Integer> sum = a.thenCombine(b, Integer::sum);
        a.complete(1);
        log.p("combine after one: done %s", sum.isDone());
        b.complete(2);
        log.p("combine: %s", sum.join());
        CompletableFuture<Integer> inner = new CompletableFuture<>();
        CompletableFuture<Integer> composed = CompletableFuture.completedFuture(5).thenCompose(x -> inner.thenApply(y -> x * y));
        log.p("compose before the inner future: done %s", composed.isDone());
        inner.complete(3);
        log.p("compose: %s", composed.join());
        CompletableFuture<Integer> failedInner = CompletableFuture.completedFuture(1).thenCompose(x -> CompletableFuture.failedFuture(new Boom("inner")));
        log.val("compose of a failed inner future: get", failedInner::get);
        CompletableFuture<Integer> failedSide = CompletableFuture.completedFuture(1).thenCombine(CompletableFuture.<Integer>failedFuture(new Boom("side")), Integer::sum);
        log.val("combine with a failed side: get", failedSide::get);
    }

    static void allOfAnyOf(Log log) throws Exception {
        CompletableFuture<String> a = new CompletableFuture<>(), b = new CompletableFuture<>();
        CompletableFuture<Void> all = CompletableFuture.allOf(a, b);
        CompletableFuture<Object> any = CompletableFuture.anyOf(a, b);
        b.complete("b");
        log.p("after b: all done %s, any %s", all.isDone(), any.join());
        a.complete("a");
        log.p("after a: all %s", all.join());
        CompletableFuture<String> c = new CompletableFuture<>(), d = new CompletableFuture<>();
        CompletableFuture<Void> allFail = CompletableFuture.allOf(c, d);
        c.completeExceptionally(new Boom("c"));
        log.p("one failed, one pending: all done %s", allFail.isDone());
        d.complete("d");
        log.val("then all: get", allFail::get);
        CompletableFuture<Object> anyFail = CompletableFuture.anyOf(CompletableFuture.failedFuture(new Boom("first")), new CompletableFuture<>());
        log.val("anyOf whose first completion is a failure: get", anyFail::get);
        log.p("allOf() done %s; anyOf() done %s", CompletableFuture.allOf().isDone(), CompletableFuture.anyOf().isDone());
    }

    static void dependentsOrder(Log log) throws Exception {
        CompletableFuture<String> f = new CompletableFuture<>();
        List<String> order = new ArrayList<>();
        for (String name : List.of("A", "B", "C")) f.thenRun(() -> order.add(name));
        f.complete("x");
        log.p("dependents ran in order %s", order);
    }

    static void dependentRunsWhere(Log log) throws Exception {
        CompletableFuture<String> f = new CompletableFuture<>();
        AtomicReference<String> before = new AtomicReference<>(), after = new AtomicReference<>();
        f.thenRun(() -> before.set(Thread.currentThread().getName()));
        Thread completer = Thread.ofVirtual().name("completer").start(() -> f.complete("x"));
        completer.join();
        f.thenRun(() -> after.set(Thread.currentThread().getName()));
        log.p("registered before completion, ran in %s; registered after, ran in %s", before.get(), after.get());
    }

    static void asyncAndWaiting(Log log) throws Exception {
        CompletableFuture<String> failing = CompletableFuture.supplyAsync(() -> { throw new BoomRuntime("async"); });
        log.val("supplyAsync that throws: get", failing::get);
        CompletableFuture<String> ok = CompletableFuture.supplyAsync(() -> "async value");
        log.val("supplyAsync: get", ok::get);
        AtomicBoolean ran = new AtomicBoolean();
        CompletableFuture.runAsync(() -> ran.set(true)).join();
        log.p("runAsync ran %s", ran.get());
        CompletableFuture<String> pending = new CompletableFuture<>();
        log.val("get(1 ms) of an incomplete future", () -> pending.get(1, TimeUnit.MILLISECONDS));
        Thread.currentThread().interrupt();
        log.val("get with the status set", pending::get);
        log.p("interrupted after: %s", Thread.currentThread().isInterrupted());
        Thread.currentThread().interrupt();
        log.val("join of a completed future with the status set", CompletableFuture.completedFuture("j")::join);
        log.p("interrupted after: %s", Thread.interrupted());
        Thread waiter = Thread.ofVirtual().start(() -> log.val("join, interrupted while waiting, then completed", pending::join));
        Sync.awaitState(log, waiter, Thread.State.WAITING);
        waiter.interrupt();
        Sync.await(log, "the interrupt to be seen", () -> waiter.getState() != Thread.State.RUNNABLE);
        pending.complete("late");
        waiter.join();
    }
}
