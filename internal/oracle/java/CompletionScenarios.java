// CompletableFuture's async stages, either and both stages, exceptionallyCompose, timeouts, copies
// and minimal stages, obtrude: the twins of ../completion_test.go. Thread names are logged only
// where loom and the JDK agree on them (the caller, a completing thread, a named executor's
// thread); the default executor's threads are "another thread" (JDK 25: the common pool's
// workers; loom: new virtual threads), and the thread that fires timeouts is logged by kind
// (JDK 25: ForkJoinPool.commonPool-delayScheduler; loom, as JDK 21: CompletableFutureDelayScheduler).
import java.util.*;
import java.util.concurrent.*;
import java.util.concurrent.atomic.*;

final class CompletionScenarios {
    static void register(Map<String, Oracle.Scenario> m) {
        m.put("cf_async_runs_where", CompletionScenarios::asyncRunsWhere);
        m.put("cf_async_failure_propagation", CompletionScenarios::asyncFailurePropagation);
        m.put("cf_either", CompletionScenarios::either);
        m.put("cf_both", CompletionScenarios::both);
        m.put("cf_exceptionally_compose", CompletionScenarios::exceptionallyCompose);
        m.put("cf_timeouts", CompletionScenarios::timeouts);
        m.put("cf_copy_minimal_obtrude", CompletionScenarios::copyMinimalObtrude);
    }

    static String status(Object o) { return LockScenarios.status(o); }

    /** where names the current thread for the log: by name if it is one the scenario named. */
    static String where(Thread scenario) {
        Thread t = Thread.currentThread();
        if (t == scenario) return "the caller";
        String n = t.getName();
        return n.equals("completer") || n.equals("exec") ? n : "another thread";
    }

    static void asyncRunsWhere(Log log) throws Exception {
        Thread me = Thread.currentThread();
        ExecutorService exec = Executors.newSingleThreadExecutor(r -> new Thread(r, "exec"));
        // a thread that runs an async action may also help run the other dependents of its source
        // (Java's postFire), so the sync dependents hang off a source of their own
        CompletableFuture<String> src = new CompletableFuture<>(), plain = new CompletableFuture<>();
        CompletableFuture<String> sync = plain.thenApply(x -> where(me));
        CompletableFuture<String> onExec = src.thenApplyAsync(x -> where(me), exec);
        CompletableFuture<String> onDefault = src.thenApplyAsync(x -> where(me));
        CompletableFuture<String> afterExec = src.thenApplyAsync(x -> x, exec).thenApply(x -> where(me));
        Thread completer = Thread.ofPlatform().name("completer").start(() -> { plain.complete("x"); src.complete("x"); });
        completer.join();
        log.p("registered before completion: thenApply in %s, thenApplyAsync(exec) in %s, thenApplyAsync in %s, a thenApply after an async stage in %s",
                sync.join(), onExec.join(), onDefault.join(), afterExec.join());
        log.p("registered after completion: thenApply in %s, thenApplyAsync(exec) in %s, thenApplyAsync in %s",
                src.thenApply(x -> where(me)).join(), src.thenApplyAsync(x -> where(me), exec).join(),
                src.thenApplyAsync(x -> where(me)).join());
        CompletableFuture<String> other = new CompletableFuture<>();
        CompletableFuture<String> either = src.applyToEitherAsync(other, x -> where(me), exec);
        CompletableFuture<String> both = src.thenCombineAsync(CompletableFuture.completedFuture("y"), (x, y) -> where(me), exec);
        log.p("applyToEitherAsync(exec) in %s, thenCombineAsync(exec) in %s", either.join(), both.join());
        CompletableFuture<String> pending = new CompletableFuture<>();
        CompletableFuture<String> cancelledDep = pending.thenApplyAsync(x -> "ran", exec);
        log.p("cancel an async dependent: %s", cancelledDep.cancel(false));
        pending.complete("p");
        log.val("the cancelled dependent: get", cancelledDep::get);
        exec.shutdown();
        exec.awaitTermination(1, TimeUnit.MINUTES);
        log.val("thenApplyAsync on a shut-down executor: get", src.thenApplyAsync(x -> x, exec)::get);
        log.val("whenCompleteAsync on a shut-down executor: get", src.whenCompleteAsync((x, e) -> {}, exec)::get);
    }

    static void asyncFailurePropagation(Log log) throws Exception {
        AtomicBoolean applied = new AtomicBoolean();
        AtomicReference<String> saw = new AtomicReference<>();
        CompletableFuture<Integer> s = CompletableFuture.supplyAsync(() -> { throw new BoomRuntime("supplier"); });
        CompletableFuture<Integer> a = s.thenApplyAsync(x -> { applied.set(true); return x; });
        CompletableFuture<Integer> b = a.handleAsync((v, e) -> { saw.set("handle saw " + v + " and " + Ex.name(Ex.unwrap(e))); return -1; });
        log.p("handle -> %s; %s; thenApplyAsync ran %s", b.join(), saw.get(), applied.get());
        log.val("the async dependent: get", a::get);
        log.p("its state %s, cancelled %s", a.state(), a.isCancelled());
        CompletableFuture<Integer> w = s.whenCompleteAsync((v, e) -> { throw new BoomRuntime("action"); });
        log.val("whenCompleteAsync whose action throws, on a failed source: get", w::get);
        CompletableFuture<Integer> ok = CompletableFuture.completedFuture(1).whenCompleteAsync((v, e) -> { throw new BoomRuntime("action"); });
        log.val("whenCompleteAsync whose action throws, on success: get", ok::get);
        CompletableFuture<Integer> c = CompletableFuture.completedFuture(1).thenComposeAsync(x -> CompletableFuture.failedFuture(new Boom("inner")));
        log.val("thenComposeAsync to a failed future: get", c::get);
        CompletableFuture<Integer> r = CompletableFuture.completedFuture(1).thenComposeAsync(x -> { throw new BoomRuntime("fn"); });
        log.val("thenComposeAsync whose function throws: get", r::get);
        CompletableFuture<Integer> cancelled = new CompletableFuture<>();
        CompletableFuture<Integer> dep = cancelled.thenApplyAsync(x -> x);
        cancelled.cancel(true);
        log.val("thenApplyAsync of a cancelled source: get", dep::get);
        log.p("its state %s, cancelled %s", dep.state(), dep.isCancelled());
        log.p("exceptionallyAsync on success -> %s", CompletableFuture.completedFuture("v").exceptionallyAsync(e -> "x").join());
    }

    static void either(Log log) throws Exception {
        List<String> seen = Collections.synchronizedList(new ArrayList<>());
        CompletableFuture<String> a = new CompletableFuture<>(), b = new CompletableFuture<>();
        CompletableFuture<String> e1 = a.applyToEither(b, x -> "apply " + x);
        CompletableFuture<Void> e2 = a.acceptEither(b, x -> seen.add("accept " + x));
        CompletableFuture<Void> e3 = a.runAfterEither(b, () -> seen.add("run"));
        log.p("before: %s, a has %s dependents, b %s", status(e1), a.getNumberOfDependents(), b.getNumberOfDependents());
        b.complete("B");
        log.p("after b: %s, seen %s, a has %s dependents", e1.join(), seen, a.getNumberOfDependents());
        a.complete("A");
        log.p("after a: %s, seen %s, %s %s", e1.join(), seen, e2.join(), e3.join());
        CompletableFuture<String> c = new CompletableFuture<>(), d = new CompletableFuture<>();
        CompletableFuture<String> f1 = c.applyToEither(d, x -> "from " + x);
        c.completeExceptionally(new Boom("c"));
        d.complete("d");
        log.val("either whose first source fails: get", f1::get);
        log.p("its state %s", f1.state());
        CompletableFuture<String> cancelledSource = new CompletableFuture<>();
        CompletableFuture<Void> r = cancelledSource.runAfterEither(new CompletableFuture<Integer>(), () -> seen.add("never"));
        cancelledSource.cancel(false);
        log.val("runAfterEither of a cancelled source: get", r::get);
        AtomicInteger runs = new AtomicInteger();
        CompletableFuture<String> same = new CompletableFuture<>();
        CompletableFuture<Integer> twice = same.applyToEither(same, x -> runs.incrementAndGet());
        same.complete("s");
        log.p("either of one future twice: %s, ran %s", twice.join(), runs.get());
        List<String> order = new ArrayList<>();
        CompletableFuture<String> x = new CompletableFuture<>(), y = new CompletableFuture<>();
        x.thenRun(() -> order.add("1"));
        x.applyToEither(y, v -> order.add("either"));
        x.thenRun(() -> order.add("2"));
        y.thenRun(() -> order.add("y"));
        x.complete("x");
        y.complete("y");
        log.p("dependents order %s", order);
        CompletableFuture<String> ready = CompletableFuture.completedFuture("ready");
        log.p("either with a complete source: %s", ready.applyToEither(new CompletableFuture<>(), v -> v + "!").join());
        CompletableFuture<String> failed = CompletableFuture.failedFuture(new Boom("failed"));
        log.val("either with a failed complete source: get", failed.applyToEither(new CompletableFuture<>(), v -> v)::get);
    }

    static void both(Log log) throws Exception {
        CompletableFuture<Integer> a = new CompletableFuture<>(), b = new CompletableFuture<>();
        CompletableFuture<Integer> s = a.thenCombine(b, Integer::sum);
        a.completeExceptionally(new Boom("a"));
        log.p("one source failed, the other pending: done %s", s.isDone());
        b.complete(2);
        log.val("then: get", s::get);
        CompletableFuture<Integer> p = new CompletableFuture<>(), q = new CompletableFuture<>();
        CompletableFuture<Integer> pq = p.thenCombine(q, Integer::sum);
        q.completeExceptionally(new Boom("q"));
        p.completeExceptionally(new Boom("p"));
        log.val("both failed, the second first: get", pq::get);
        List<String> seen = new ArrayList<>();
        CompletableFuture<String> left = new CompletableFuture<>();
        CompletableFuture<Integer> right = new CompletableFuture<>();
        CompletableFuture<Void> accepted = left.thenAcceptBoth(right, (l, r) -> seen.add(l + r));
        CompletableFuture<Void> ran = left.runAfterBoth(right, () -> seen.add("run"));
        right.complete(1);
        log.p("after one: %s %s, seen %s", status(accepted), status(ran), seen);
        left.complete("l");
        log.p("after both: seen %s, %s %s", seen, accepted.join(), ran.join());
        AtomicInteger runs = new AtomicInteger();
        CompletableFuture<Integer> same = new CompletableFuture<>();
        CompletableFuture<Integer> sq = same.thenCombine(same, (x, y) -> { runs.incrementAndGet(); return x * y; });
        same.complete(3);
        log.p("both of one future twice: %s, ran %s", sq.join(), runs.get());
        CompletableFuture<Integer> thrown = CompletableFuture.completedFuture(1).thenCombine(CompletableFuture.completedFuture(2), (x, y) -> { throw new BoomRuntime("fn"); });
        log.val("thenCombine whose function throws: get", thrown::get);
    }

    static void exceptionallyCompose(Log log) throws Exception {
        CompletableFuture<String> f = CompletableFuture.failedFuture(new Boom("primary"));
        log.p("recovered: %s", f.exceptionallyCompose(e -> CompletableFuture.completedFuture("backup after " + Ex.name(Ex.unwrap(e)))).join());
        AtomicBoolean ran = new AtomicBoolean();
        log.p("on success: %s, function ran %s", CompletableFuture.completedFuture("fine").exceptionallyCompose(e -> { ran.set(true); return null; }).join(), ran.get());
        log.val("to a failed future: get", f.exceptionallyCompose(e -> CompletableFuture.failedFuture(new Boom("backup")))::get);
        log.val("whose function throws: get", f.exceptionallyCompose(e -> { throw new BoomRuntime("fn"); })::get);
        CompletableFuture<String> pending = new CompletableFuture<>();
        CompletableFuture<String> g = f.exceptionallyCompose(e -> pending);
        log.p("to a pending future: done %s", g.isDone());
        pending.complete("late");
        log.p("then: %s", g.join());
        CompletableFuture<String> src = new CompletableFuture<>();
        CompletableFuture<String> h = src.exceptionallyComposeAsync(e -> CompletableFuture.completedFuture("async " + Ex.name(Ex.unwrap(e))));
        src.cancel(false);
        log.p("async, after a cancellation: %s", h.join());
        log.p("exceptionally: %s, handle: %s", f.exceptionally(e -> "x").join(), f.handle((v, e) -> v + " " + Ex.name(Ex.unwrap(e))).join());
    }

    static String kind(Thread t) {
        return (t.isVirtual() ? "virtual" : "platform") + (t.isDaemon() ? " daemon" : "") + " thread";
    }

    static void timeouts(Log log) throws Exception {
        CompletableFuture<String> f = new CompletableFuture<>();
        // the dependent is registered before the timeout is armed, so it runs on the thread that
        // fires the timeout (registered after, it would race the timeout for the caller's thread)
        CompletableFuture<String> where = f.handle((v, e) -> Ex.name(Ex.unwrap(e)) + " in a " + kind(Thread.currentThread()));
        f.orTimeout(1, TimeUnit.MILLISECONDS);
        log.p("orTimeout: %s", where.join());
        log.val("get", f::get);
        log.p("state %s, cancelled %s, %s", f.state(), f.isCancelled(), status(f));
        log.p("completeOnTimeout: %s", new CompletableFuture<String>().completeOnTimeout("fallback", 1, TimeUnit.MILLISECONDS).join());
        log.p("orTimeout of a complete future: %s", CompletableFuture.completedFuture("done").orTimeout(1, TimeUnit.MILLISECONDS).join());
        log.val("negative timeout: join", new CompletableFuture<String>().orTimeout(-1, TimeUnit.MILLISECONDS)::join);
        CompletableFuture<String> k = new CompletableFuture<>();
        k.orTimeout(1, TimeUnit.HOURS);
        log.p("an hour's timeout pending: %s dependents", k.getNumberOfDependents());
        k.complete("k");
        log.p("completed first: %s, %s dependents", k.join(), k.getNumberOfDependents());
        CompletableFuture<String> late = new CompletableFuture<>();
        late.completeOnTimeout("timeout", 1, TimeUnit.MILLISECONDS);
        late.join();
        log.p("complete after the timeout: %s, value %s", late.complete("mine"), late.join());
        Executor direct = Runnable::run;
        log.p("delayedExecutor's submission from a %s", CompletableFuture.supplyAsync(() -> kind(Thread.currentThread()), CompletableFuture.delayedExecutor(1, TimeUnit.MILLISECONDS, direct)).join());
        log.p("delayedExecutor: %s", CompletableFuture.supplyAsync(() -> "later", CompletableFuture.delayedExecutor(1, TimeUnit.MILLISECONDS)).join());
    }

    static void copyMinimalObtrude(Log log) throws Exception {
        CompletableFuture<String> f = new CompletableFuture<>();
        CompletableFuture<String> c = f.copy();
        log.p("complete the copy: %s; source done %s", c.complete("copy"), f.isDone());
        f.complete("f");
        log.p("copy %s, source %s", c.join(), f.join());
        CompletableFuture<String> g = new CompletableFuture<>();
        CompletableFuture<String> gc = g.copy();
        g.cancel(false);
        log.val("copy of a cancelled future: get", gc::get);
        log.p("its state %s, cancelled %s", gc.state(), gc.isCancelled());
        CompletableFuture<String> h = new CompletableFuture<>();
        CompletionStage<String> m = h.minimalCompletionStage();
        log.p("complete the view's future: %s; source done %s", m.toCompletableFuture().complete("mine"), h.isDone());
        CompletionStage<String> chained = m.thenApply(x -> x + "!");
        h.complete("v");
        log.p("chained on the view: %s; view's future: %s", chained.toCompletableFuture().join(), m.toCompletableFuture().join());
        CompletableFuture<String> failing = new CompletableFuture<>();
        CompletionStage<String> fm = failing.minimalCompletionStage();
        failing.completeExceptionally(new Boom("m"));
        log.val("view of a failed future: toCompletableFuture().get", fm.toCompletableFuture()::get);
        log.p("completedStage: %s", CompletableFuture.completedStage("s").thenApply(x -> x + "?").toCompletableFuture().join());
        log.val("failedStage: get", CompletableFuture.<String>failedStage(new Boom("fs")).toCompletableFuture()::get);
        CompletableFuture<String> o = CompletableFuture.completedFuture("a");
        o.obtrudeValue("b");
        log.p("obtrudeValue: %s", o.join());
        o.obtrudeException(new Boom("o"));
        log.val("obtrudeException: get", o::get);
        log.p("complete after: %s, %s, state %s", o.complete("c"), status(o), o.state());
        o.obtrudeException(new CancellationException());
        log.p("obtrude a cancellation: cancelled %s, state %s", o.isCancelled(), o.state());
        CompletableFuture<String> p = new CompletableFuture<>();
        CompletableFuture<String> pd = p.thenApply(x -> x + "+");
        p.obtrudeValue("forced");
        log.p("obtrude an incomplete future: %s, dependent %s", p.join(), pd.join());
        CompletableFuture<String> q = new CompletableFuture<>();
        q.thenRun(() -> {});
        q.thenCombine(new CompletableFuture<String>(), (x, y) -> x);
        q.applyToEither(new CompletableFuture<String>(), x -> x);
        log.p("dependents: %s, %s", q.getNumberOfDependents(), LockScenarios.state(q));
        CompletableFuture<String> r = new CompletableFuture<>();
        CompletableFuture<String> sp = new CompletableFuture<>();
        r.applyToEither(sp, x -> x);
        sp.complete("sp");
        log.p("after the other source won: %s dependents, %s", r.getNumberOfDependents(), LockScenarios.state(r));
    }
}
