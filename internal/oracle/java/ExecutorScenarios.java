// Executors and futures: shutdown, shutdownNow, awaitTermination, rejection, future states,
// invokeAll/invokeAny, scheduled executors, completion service. The twins of ../executors_test.go.
import java.time.Duration;
import java.util.*;
import java.util.concurrent.*;
import java.util.concurrent.atomic.*;

final class ExecutorScenarios {
    static void register(Map<String, Oracle.Scenario> m) {
        m.put("exec_thread_per_task_lifecycle", ExecutorScenarios::threadPerTaskLifecycle);
        m.put("exec_thread_per_task_shutdown_now", ExecutorScenarios::threadPerTaskShutdownNow);
        m.put("exec_fixed_pool_shutdown_now", ExecutorScenarios::fixedPoolShutdownNow);
        m.put("exec_rejection_policies", ExecutorScenarios::rejectionPolicies);
        m.put("exec_future_states", ExecutorScenarios::futureStates);
        m.put("exec_cancel_running_task", ExecutorScenarios::cancelRunningTask);
        m.put("exec_future_task", ExecutorScenarios::futureTask);
        m.put("exec_invoke_all", ExecutorScenarios::invokeAll);
        m.put("exec_invoke_any", ExecutorScenarios::invokeAny);
        m.put("exec_invoke_any_timeout", ExecutorScenarios::invokeAnyTimeout);
        m.put("exec_close_interrupted", ExecutorScenarios::closeInterrupted);
        m.put("exec_await_termination_interrupted", ExecutorScenarios::awaitTerminationInterrupted);
        m.put("exec_scheduled_shutdown_policy", ExecutorScenarios::scheduledShutdownPolicy);
        m.put("exec_scheduled_periodic_failure", ExecutorScenarios::scheduledPeriodicFailure);
        m.put("exec_completion_service", ExecutorScenarios::completionService);
        m.put("exec_pool_sizes", ExecutorScenarios::poolSizes);
        m.put("exec_default_thread_factory", ExecutorScenarios::defaultThreadFactory);
        m.put("exec_hooks", ExecutorScenarios::hooks);
    }

    static String state(Object o) { return LockScenarios.state(o); }

    static String status(Object o) { return LockScenarios.status(o); }

    /** A task that blocks on gate and returns v. */
    static Callable<String> gated(CountDownLatch gate, String v) {
        return () -> { gate.await(); return v; };
    }

    static void threadPerTaskLifecycle(Log log) throws Exception {
        ExecutorService es = Executors.newVirtualThreadPerTaskExecutor();
        CountDownLatch gate = new CountDownLatch(1);
        Future<String> f = es.submit(gated(gate, "done"));
        log.p("shutdown %s terminated %s", es.isShutdown(), es.isTerminated());
        es.shutdown();
        log.p("after shutdown: shutdown %s terminated %s", es.isShutdown(), es.isTerminated());
        log.call("submit after shutdown", () -> es.submit(() -> "x"));
        log.call("execute after shutdown", () -> es.execute(() -> { }));
        log.val("awaitTermination(1 ms) with a task running", () -> es.awaitTermination(1, TimeUnit.MILLISECONDS));
        gate.countDown();
        log.val("awaitTermination(1 h)", () -> es.awaitTermination(1, TimeUnit.HOURS));
        log.p("terminated %s; the task's result %s", es.isTerminated(), f.get());
        log.call("close a terminated executor", es::close);
        log.call("shutdown again", es::shutdown);
    }

    static void threadPerTaskShutdownNow(Log log) throws Exception {
        ExecutorService es = Executors.newVirtualThreadPerTaskExecutor();
        AtomicReference<String> seen = new AtomicReference<>();
        CountDownLatch started = new CountDownLatch(1);
        Future<?> f = es.submit(() -> {
            started.countDown();
            try { Thread.sleep(Duration.ofHours(1)); } catch (InterruptedException e) { seen.set("task saw " + Ex.name(e)); throw e; }
            return null;
        });
        started.await();
        log.p("shutdownNow returned %s never-started tasks", es.shutdownNow().size());
        log.val("get", f::get);
        log.val("awaitTermination(1 h)", () -> es.awaitTermination(1, TimeUnit.HOURS));
        log.p("%s; state %s", seen.get(), f.state());
    }

    static void fixedPoolShutdownNow(Log log) throws Exception {
        ExecutorService es = Executors.newFixedThreadPool(1);
        CountDownLatch started = new CountDownLatch(1);
        Future<?> running = es.submit(() -> { started.countDown(); Thread.sleep(Duration.ofHours(1)); return null; });
        started.await();
        Future<?> queued1 = es.submit(() -> "never");
        Future<?> queued2 = es.submit(() -> "never");
        log.p("shutdownNow returned %s never-started tasks", es.shutdownNow().size());
        log.val("the running task's get", running::get);
        log.p("queued futures: done %s %s, state %s", queued1.isDone(), queued2.isDone(), queued1.state());
        log.val("awaitTermination(1 h)", () -> es.awaitTermination(1, TimeUnit.HOURS));
        log.call("execute after shutdownNow", () -> es.execute(() -> { }));
    }

    static void rejectionPolicies(Log log) throws Exception {
        Map<String, RejectedExecutionHandler> policies = new LinkedHashMap<>();
        policies.put("AbortPolicy", new ThreadPoolExecutor.AbortPolicy());
        policies.put("CallerRunsPolicy", new ThreadPoolExecutor.CallerRunsPolicy());
        policies.put("DiscardPolicy", new ThreadPoolExecutor.DiscardPolicy());
        policies.put("DiscardOldestPolicy", new ThreadPoolExecutor.DiscardOldestPolicy());
        for (var e : policies.entrySet()) {
            ThreadPoolExecutor es = new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS, new ArrayBlockingQueue<>(1), e.getValue());
            CountDownLatch gate = new CountDownLatch(1);
            List<String> ran = Collections.synchronizedList(new ArrayList<>());
            es.execute(() -> { try { gate.await(); } catch (InterruptedException x) { } ran.add("A"); });
            Sync.await(log, "A running", () -> es.getActiveCount() == 1);
            es.execute(() -> ran.add("B"));
            log.call(e.getKey() + ": execute C on a saturated pool",
                    () -> es.execute(() -> ran.add("C in " + Thread.currentThread().getName())));
            gate.countDown();
            es.shutdown();
            es.awaitTermination(1, TimeUnit.HOURS);
            log.p("%s: ran %s", e.getKey(), ran);
            List<String> after = new ArrayList<>();
            log.call(e.getKey() + ": execute after shutdown", () -> es.execute(() -> after.add("D")));
            log.p("%s: after shutdown ran %s", e.getKey(), after);
        }
    }

    static void futureStates(Log log) throws Exception {
        ExecutorService es = Executors.newVirtualThreadPerTaskExecutor();
        CountDownLatch gate = new CountDownLatch(1);
        Future<String> running = es.submit(gated(gate, "v"));
        log.p("running: state %s done %s cancelled %s", running.state(), running.isDone(), running.isCancelled());
        log.val("running resultNow", running::resultNow);
        log.val("running exceptionNow", running::exceptionNow);
        log.val("running get(1 ms)", () -> running.get(1, TimeUnit.MILLISECONDS));
        gate.countDown();
        log.val("get", running::get);
        log.p("succeeded: state %s done %s resultNow %s", running.state(), running.isDone(), running.resultNow());
        log.val("succeeded exceptionNow", running::exceptionNow);
        log.val("cancel a succeeded future", () -> running.cancel(true));
        Future<String> failed = es.submit(() -> { throw new Boom("failed"); });
        log.val("get of a failed task", failed::get);
        log.p("failed: state %s exceptionNow %s", failed.state(), failed.exceptionNow());
        log.val("failed resultNow", failed::resultNow);
        CountDownLatch never = new CountDownLatch(1);
        Future<String> cancelled = es.submit(gated(never, "never"));
        log.val("cancel(false)", () -> cancelled.cancel(false));
        log.p("cancelled: state %s done %s cancelled %s", cancelled.state(), cancelled.isDone(), cancelled.isCancelled());
        log.val("get of a cancelled future", cancelled::get);
        log.val("cancelled resultNow", cancelled::resultNow);
        log.val("cancelled exceptionNow", cancelled::exceptionNow);
        log.val("cancel again", () -> cancelled.cancel(true));
        never.countDown();
        es.close();
    }

    static void cancelRunningTask(Log log) throws Exception {
        ExecutorService es = Executors.newVirtualThreadPerTaskExecutor();
        AtomicReference<String> seen = new AtomicReference<>();
        CountDownLatch started = new CountDownLatch(1);
        Future<String> f = es.submit(() -> {
            started.countDown();
            try {
                Thread.sleep(Duration.ofHours(1));
            } catch (InterruptedException e) {
                seen.set("the task saw " + Ex.name(e) + ", interrupted after " + Thread.currentThread().isInterrupted());
                throw e;
            }
            return "slept";
        });
        started.await();
        log.val("cancel(true) of a running task", () -> f.cancel(true));
        log.val("get", f::get);
        es.shutdown();
        es.awaitTermination(1, TimeUnit.HOURS);
        log.p("%s; state %s", seen.get(), f.state());
        ExecutorService es2 = Executors.newVirtualThreadPerTaskExecutor();
        CountDownLatch gate = new CountDownLatch(1), started2 = new CountDownLatch(1);
        AtomicBoolean finished = new AtomicBoolean();
        Future<String> g = es2.submit(() -> { started2.countDown(); gate.await(); finished.set(true); return "ran"; });
        started2.await();
        log.val("cancel(false) of a running task", () -> g.cancel(false));
        gate.countDown();
        es2.close();
        log.p("cancel(false) let it run to the end: %s; get -> %s", finished.get(), Ex.of(g::get));
    }

    static void futureTask(Log log) throws Exception {
        AtomicInteger runs = new AtomicInteger();
        FutureTask<Integer> ft = new FutureTask<>(runs::incrementAndGet);
        log.p("%s", status(ft));
        ft.run();
        ft.run();
        log.p("run twice: ran %s time(s), get %s, %s", runs.get(), ft.get(), status(ft));
        FutureTask<Integer> cancelled = new FutureTask<>(runs::incrementAndGet);
        log.val("cancel before run", () -> cancelled.cancel(false));
        cancelled.run();
        log.p("run after cancel: ran %s time(s) in all, %s", runs.get(), status(cancelled));
        FutureTask<String> withResult = new FutureTask<>(() -> runs.incrementAndGet(), "given");
        withResult.run();
        log.val("FutureTask(runnable, result) get", withResult::get);
        FutureTask<String> pending = new FutureTask<>(() -> "never run");
        log.val("get(1 ms) of a task never run", () -> pending.get(1, TimeUnit.MILLISECONDS));
        Thread.currentThread().interrupt();
        log.val("get with the status set", pending::get);
        log.p("interrupted after: %s", Thread.currentThread().isInterrupted());
        FutureTask<String> failing = new FutureTask<>(() -> { throw new Boom("in run"); });
        failing.run();
        log.val("get of a task that threw", failing::get);
        log.p("%s", status(failing));
    }

    static void invokeAll(Log log) throws Exception {
        ExecutorService es = Executors.newVirtualThreadPerTaskExecutor();
        List<Callable<String>> tasks = List.of(() -> "one", () -> { throw new Boom("two"); }, () -> "three");
        List<Future<String>> fs = es.invokeAll(tasks);
        List<String> out = new ArrayList<>();
        for (Future<String> f : fs) out.add(f.isDone() + " " + f.state() + " " + Ex.of(f::get));
        log.p("invokeAll: %s", out);
        log.p("invokeAll(empty): %s", es.invokeAll(List.of()).size());
        es.shutdown();
        log.call("invokeAll after shutdown", () -> es.invokeAll(tasks));
        es.close();
    }

    static void invokeAny(Log log) throws Exception {
        ExecutorService es = Executors.newVirtualThreadPerTaskExecutor();
        AtomicReference<String> loser = new AtomicReference<>("not interrupted");
        CountDownLatch loserStarted = new CountDownLatch(1);
        CountDownLatch failed = new CountDownLatch(1);
        List<Callable<String>> tasks = List.of(
                () -> { failed.countDown(); throw new Boom("fails"); },
                () -> { loserStarted.countDown(); try { new CountDownLatch(1).await(); } catch (InterruptedException e) { loser.set("interrupted"); throw e; } return "never"; },
                () -> { failed.await(); loserStarted.await(); return "wins"; });
        log.val("invokeAny", () -> es.invokeAny(tasks));
        es.close();
        log.p("the blocked task: %s", loser.get());
        ExecutorService es2 = Executors.newVirtualThreadPerTaskExecutor();
        log.val("invokeAny, all fail", () -> es2.invokeAny(List.<Callable<String>>of(() -> { throw new Boom("all"); }, () -> { throw new Boom("all"); })));
        log.val("invokeAny(empty)", () -> es2.invokeAny(List.<Callable<String>>of()));
        Thread.currentThread().interrupt();
        log.val("invokeAny with the status set", () -> es2.invokeAny(List.<Callable<String>>of(() -> "x")));
        log.p("interrupted after: %s", Thread.currentThread().isInterrupted());
        es2.close();
    }

    static void invokeAnyTimeout(Log log) throws Exception {
        ExecutorService es = Executors.newVirtualThreadPerTaskExecutor();
        AtomicInteger started = new AtomicInteger(), interrupted = new AtomicInteger();
        Callable<String> blocker = () -> {
            started.incrementAndGet();
            try { new CountDownLatch(1).await(); } catch (InterruptedException e) { interrupted.incrementAndGet(); throw e; }
            return "never";
        };
        // whether a task starts before the timeout cancels it depends on time: log that every task
        // that started was interrupted, not how many started
        log.val("invokeAny(1 ms) with nothing finishing", () -> es.invokeAny(List.of(blocker, blocker), 1, TimeUnit.MILLISECONDS));
        es.close();
        log.p("every task that started was interrupted: %s", started.get() == interrupted.get());
        ExecutorService es2 = Executors.newVirtualThreadPerTaskExecutor();
        List<Future<String>> fs = es2.invokeAll(List.of(() -> "quick", blocker), 1, TimeUnit.SECONDS);
        log.p("invokeAll(1 s): %s %s, %s %s", fs.get(0).state(), Ex.of(fs.get(0)::get), fs.get(1).state(), fs.get(1).isCancelled());
        es2.close();
        log.p("every task that started was interrupted: %s", started.get() == interrupted.get());
    }

    static void closeInterrupted(Log log) throws Exception {
        ExecutorService es = Executors.newVirtualThreadPerTaskExecutor();
        AtomicReference<String> seen = new AtomicReference<>();
        CountDownLatch started = new CountDownLatch(1);
        es.submit(() -> {
            started.countDown();
            try { new CountDownLatch(1).await(); } catch (InterruptedException e) { seen.set("task saw " + Ex.name(e)); }
            return null;
        });
        started.await();
        Thread.currentThread().interrupt();
        log.call("close with the status set", es::close);
        log.p("%s; terminated %s; interrupted after close %s", seen.get(), es.isTerminated(), Thread.interrupted());
    }

    static void awaitTerminationInterrupted(Log log) throws Exception {
        ExecutorService es = Executors.newVirtualThreadPerTaskExecutor();
        CountDownLatch gate = new CountDownLatch(1);
        es.submit(gated(gate, "x"));
        es.shutdown();
        Thread.currentThread().interrupt();
        log.val("awaitTermination(1 h) with the status set", () -> es.awaitTermination(1, TimeUnit.HOURS));
        log.p("interrupted after: %s", Thread.currentThread().isInterrupted());
        gate.countDown();
        es.awaitTermination(1, TimeUnit.HOURS);
        Thread.currentThread().interrupt();
        log.val("awaitTermination(1 h) of a terminated executor with the status set", () -> es.awaitTermination(1, TimeUnit.HOURS));
        log.p("interrupted after: %s", Thread.interrupted());
        ExecutorService pool = Executors.newFixedThreadPool(1);
        log.val("awaitTermination(1 ms) of a pool never shut down", () -> pool.awaitTermination(1, TimeUnit.MILLISECONDS));
        pool.shutdown();
        log.val("awaitTermination(1 h) of an idle pool shut down", () -> pool.awaitTermination(1, TimeUnit.HOURS));
    }

    static void scheduledShutdownPolicy(Log log) throws Exception {
        ScheduledThreadPoolExecutor ses = new ScheduledThreadPoolExecutor(1);
        AtomicBoolean oneShotRan = new AtomicBoolean();
        ScheduledFuture<?> oneShot = ses.schedule(() -> oneShotRan.set(true), 20, TimeUnit.MILLISECONDS);
        ScheduledFuture<?> periodic = ses.scheduleAtFixedRate(() -> { }, 1, 1, TimeUnit.HOURS);
        ScheduledFuture<?> negative = ses.schedule(() -> { }, -1, TimeUnit.SECONDS);
        log.p("delay of the periodic task > 59 min: %s", periodic.getDelay(TimeUnit.MINUTES) >= 59);
        ses.shutdown();
        log.p("after shutdown: periodic cancelled %s, one-shot cancelled %s", periodic.isCancelled(), oneShot.isCancelled());
        log.val("awaitTermination(1 h)", () -> ses.awaitTermination(1, TimeUnit.HOURS));
        log.p("the delayed one-shot still ran: %s; negative delay ran: %s", oneShotRan.get(), negative.isDone() && !negative.isCancelled());
        ScheduledExecutorService s2 = Executors.newSingleThreadScheduledExecutor();
        log.call("scheduleAtFixedRate(period 0)", () -> s2.scheduleAtFixedRate(() -> { }, 0, 0, TimeUnit.MILLISECONDS));
        log.call("scheduleWithFixedDelay(delay 0)", () -> s2.scheduleWithFixedDelay(() -> { }, 0, 0, TimeUnit.MILLISECONDS));
        log.call("scheduleAtFixedRate(period -1)", () -> s2.scheduleAtFixedRate(() -> { }, 0, -1, TimeUnit.MILLISECONDS));
        s2.shutdown();
        log.call("schedule after shutdown", () -> s2.schedule(() -> { }, 0, TimeUnit.SECONDS));
        s2.awaitTermination(1, TimeUnit.HOURS);
    }

    static void scheduledPeriodicFailure(Log log) throws Exception {
        ScheduledExecutorService ses = Executors.newSingleThreadScheduledExecutor();
        AtomicInteger runs = new AtomicInteger();
        ScheduledFuture<?> f = ses.scheduleAtFixedRate(() -> {
            if (runs.incrementAndGet() == 3) throw new BoomRuntime("third run");
        }, 0, 1, TimeUnit.MILLISECONDS);
        log.val("get of the periodic task", f::get);
        log.p("runs %s done %s cancelled %s", runs.get(), f.isDone(), f.isCancelled());
        ses.shutdown();
        ses.awaitTermination(1, TimeUnit.HOURS);
        log.p("no run after the failure: %s", runs.get());
    }

    static void completionService(Log log) throws Exception {
        ExecutorService es = Executors.newVirtualThreadPerTaskExecutor();
        CompletionService<String> cs = new ExecutorCompletionService<>(es);
        log.val("poll with nothing submitted", cs::poll);
        CountDownLatch a = new CountDownLatch(1), b = new CountDownLatch(1);
        cs.submit(gated(a, "A"));
        cs.submit(gated(b, "B"));
        log.val("poll(1 ms) with nothing complete", () -> cs.poll(1, TimeUnit.MILLISECONDS));
        b.countDown();
        String first = cs.take().get();
        a.countDown();
        String second = cs.take().get();
        log.p("completion order %s, %s", first, second);
        cs.submit(() -> { throw new Boom("in a completion service"); });
        log.val("take then get of a failed task", () -> cs.take().get());
        es.close();
    }

    static void poolSizes(Log log) throws Exception {
        ThreadPoolExecutor es = new ThreadPoolExecutor(2, 4, 1, TimeUnit.MINUTES, new LinkedBlockingQueue<>());
        log.p("new: pool size %s core %s max %s %s", es.getPoolSize(), es.getCorePoolSize(), es.getMaximumPoolSize(), state(es));
        log.p("prestartAllCoreThreads %s, then %s, pool size %s", es.prestartAllCoreThreads(), es.prestartCoreThread(), es.getPoolSize());
        log.call("setCorePoolSize(5) > max", () -> es.setCorePoolSize(5));
        log.call("setMaximumPoolSize(1) < core", () -> es.setMaximumPoolSize(1));
        log.call("setCorePoolSize(-1)", () -> es.setCorePoolSize(-1));
        log.call("setKeepAliveTime(-1)", () -> es.setKeepAliveTime(-1, TimeUnit.SECONDS));
        CountDownLatch gate = new CountDownLatch(1);
        for (int i = 0; i < 3; i++) es.execute(() -> { try { gate.await(); } catch (InterruptedException e) { } });
        // (a prestarted worker counts as active before it takes a task: wait for the queue too)
        Sync.await(log, "2 active, 1 queued", () -> es.getActiveCount() == 2 && es.getQueue().size() == 1);
        log.p("3 tasks on 2 core threads: %s", state(es));
        gate.countDown();
        es.shutdown();
        es.awaitTermination(1, TimeUnit.HOURS);
        // (its pool size may still count workers on their way out: Java's toString reads the set)
        log.p("terminated: %s largest %s tasks %s completed %s", status(es), es.getLargestPoolSize(), es.getTaskCount(), es.getCompletedTaskCount());
        log.call("new ThreadPoolExecutor(-1, 1)", () -> new ThreadPoolExecutor(-1, 1, 0, TimeUnit.SECONDS, new LinkedBlockingQueue<>()));
        log.call("new ThreadPoolExecutor(2, 1)", () -> new ThreadPoolExecutor(2, 1, 0, TimeUnit.SECONDS, new LinkedBlockingQueue<>()));
        log.call("new ThreadPoolExecutor(0, 0)", () -> new ThreadPoolExecutor(0, 0, 0, TimeUnit.SECONDS, new LinkedBlockingQueue<>()));
        log.call("new ThreadPoolExecutor(1, 1, keepAlive -1)", () -> new ThreadPoolExecutor(1, 1, -1, TimeUnit.SECONDS, new LinkedBlockingQueue<>()));
        log.call("newFixedThreadPool(0)", () -> Executors.newFixedThreadPool(0));
        log.call("newScheduledThreadPool(-1)", () -> Executors.newScheduledThreadPool(-1));
    }

    static void defaultThreadFactory(Log log) throws Exception {
        ThreadFactory f = Executors.defaultThreadFactory();
        Thread a = f.newThread(() -> { }), b = f.newThread(() -> { });
        log.p("%s, %s: daemon %s priority %s virtual %s", a.getName(), b.getName(), a.isDaemon(), a.getPriority(), a.isVirtual());
    }

    static void hooks(Log log) throws Exception {
        List<String> calls = Collections.synchronizedList(new ArrayList<>());
        ThreadPoolExecutor es = new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS, new LinkedBlockingQueue<>()) {
            @Override protected void beforeExecute(Thread t, Runnable r) { calls.add("before"); }
            @Override protected void afterExecute(Runnable r, Throwable t) { calls.add("after " + (t == null ? "ok" : Ex.name(t))); }
            @Override protected void terminated() { calls.add("terminated"); }
        };
        es.setThreadFactory(r -> {
            Thread t = new Thread(r);
            t.setUncaughtExceptionHandler((th, e) -> { }); // the failing task ends its worker quietly
            return t;
        });
        es.execute(() -> calls.add("task 1"));
        es.execute(() -> { calls.add("task 2"); throw new BoomRuntime("task 2"); });
        es.execute(() -> calls.add("task 3"));
        es.shutdown();
        es.awaitTermination(1, TimeUnit.HOURS);
        log.p("%s", calls);
        log.p("completed %s", es.getCompletedTaskCount());
    }
}
