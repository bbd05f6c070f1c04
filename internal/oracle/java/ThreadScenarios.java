// Threads, builders, interrupts, LockSupport: the twins of ../threads_test.go.
import java.time.Duration;
import java.util.*;
import java.util.concurrent.*;
import java.util.concurrent.atomic.*;
import java.util.concurrent.locks.*;

final class ThreadScenarios {
    static void register(Map<String, Oracle.Scenario> m) {
        m.put("thread_lifecycle_virtual", l -> lifecycle(l, Thread.ofVirtual()));
        m.put("thread_lifecycle_platform", l -> lifecycle(l, Thread.ofPlatform()));
        m.put("thread_states_while_blocked_virtual", l -> statesWhileBlocked(l, Thread.ofVirtual()));
        m.put("thread_states_while_blocked_platform", l -> statesWhileBlocked(l, Thread.ofPlatform()));
        m.put("thread_sleep_interrupted", ThreadScenarios::sleepInterrupted);
        m.put("thread_interrupt_before_sleep", ThreadScenarios::interruptBeforeSleep);
        m.put("thread_interrupt_unstarted_and_terminated", ThreadScenarios::interruptUnstartedAndTerminated);
        m.put("thread_park_permit", ThreadScenarios::parkPermit);
        m.put("thread_park_interrupted", ThreadScenarios::parkInterrupted);
        m.put("thread_park_nonpositive_keeps_permit", ThreadScenarios::parkNonPositive);
        m.put("thread_sleep_and_yield_keep_permit", ThreadScenarios::sleepAndYieldKeepPermit);
        m.put("thread_join_unstarted", ThreadScenarios::joinUnstarted);
        m.put("thread_join_interrupted", ThreadScenarios::joinInterrupted);
        m.put("thread_join_timeout", ThreadScenarios::joinTimeout);
        m.put("thread_start_twice", ThreadScenarios::startTwice);
        m.put("thread_virtual_daemon_priority", ThreadScenarios::virtualDaemonPriority);
        m.put("thread_platform_daemon_priority", ThreadScenarios::platformDaemonPriority);
        m.put("thread_builder_names", ThreadScenarios::builderNames);
        m.put("thread_tostring", ThreadScenarios::toStrings);
        m.put("thread_set_name_any_state", ThreadScenarios::setNameAnyState);
        m.put("thread_uncaught_handler", ThreadScenarios::uncaughtHandler);
        m.put("thread_current_and_ids", ThreadScenarios::currentAndIds);
    }

    /** NEW -> RUNNABLE/WAITING -> TERMINATED, with isAlive at each point. */
    static void lifecycle(Log log, Thread.Builder b) throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        Thread t = b.unstarted(() -> {
            try { gate.await(); } catch (InterruptedException e) { }
        });
        log.p("new: %s alive=%s interrupted=%s", t.getState(), t.isAlive(), t.isInterrupted());
        t.start();
        Sync.awaitState(log, t, Thread.State.WAITING);
        log.p("waiting on a latch: %s alive=%s", t.getState(), t.isAlive());
        gate.countDown();
        t.join();
        log.p("joined: %s alive=%s", t.getState(), t.isAlive());
    }

    /** The state a thread reports while blocked in each kind of blocking call. */
    static void statesWhileBlocked(Log log, Thread.Builder b) throws Exception {
        // each blocks until interrupted (or, for lock and monitor, until released)
        Thread sleeper = b.start(() -> { try { Thread.sleep(Duration.ofHours(1)); } catch (InterruptedException e) { } });
        log.p("sleep: %s", Sync.blocked(log, sleeper));
        sleeper.interrupt();
        Sync.join(log, sleeper);

        Thread parker = b.start(() -> LockSupport.park());
        log.p("park: %s", Sync.blocked(log, parker));
        LockSupport.unpark(parker);
        Sync.join(log, parker);

        Thread timedParker = b.start(() -> LockSupport.parkNanos(Duration.ofHours(1).toNanos()));
        log.p("parkNanos: %s", Sync.blocked(log, timedParker));
        LockSupport.unpark(timedParker);
        Sync.join(log, timedParker);

        CountDownLatch never = new CountDownLatch(1);
        Thread target = b.start(() -> { try { never.await(); } catch (InterruptedException e) { } });
        Thread joiner = b.start(() -> { try { target.join(); } catch (InterruptedException e) { } });
        log.p("join: %s", Sync.blocked(log, joiner));
        Thread timedJoiner = b.start(() -> { try { target.join(Duration.ofHours(1)); } catch (InterruptedException e) { } });
        log.p("join(Duration): %s", Sync.blocked(log, timedJoiner));
        joiner.interrupt();
        timedJoiner.interrupt();
        target.interrupt();
        Sync.join(log, joiner, timedJoiner, target);

        ReentrantLock lock = new ReentrantLock();
        lock.lock();
        Thread locker = b.start(() -> { lock.lock(); lock.unlock(); });
        log.p("ReentrantLock.lock: %s", Sync.blocked(log, locker));
        lock.unlock();
        Sync.join(log, locker);

        Object monitor = new Object();
        Thread entering;
        synchronized (monitor) {
            entering = b.start(() -> { synchronized (monitor) { } });
            log.p("synchronized enter: %s", Sync.blocked(log, entering));
        }
        Sync.join(log, entering);

        Thread waiter = b.start(() -> {
            synchronized (monitor) { try { monitor.wait(); } catch (InterruptedException e) { } }
        });
        log.p("Object.wait: %s", Sync.blocked(log, waiter));
        waiter.interrupt();
        Sync.join(log, waiter);

        Thread timedWaiter = b.start(() -> {
            synchronized (monitor) { try { monitor.wait(3_600_000); } catch (InterruptedException e) { } }
        });
        log.p("Object.wait(ms): %s", Sync.blocked(log, timedWaiter));
        timedWaiter.interrupt();
        Sync.join(log, timedWaiter);

        BlockingQueue<String> q = new LinkedBlockingQueue<>();
        Thread taker = b.start(() -> { try { q.take(); } catch (InterruptedException e) { } });
        log.p("BlockingQueue.take: %s", Sync.blocked(log, taker));
        Thread poller = b.start(() -> { try { q.poll(1, TimeUnit.HOURS); } catch (InterruptedException e) { } });
        log.p("BlockingQueue.poll(timeout): %s", Sync.blocked(log, poller));
        taker.interrupt();
        poller.interrupt();
        Sync.join(log, taker, poller);

        CompletableFuture<String> f = new CompletableFuture<>();
        Thread getter = b.start(() -> { try { f.get(); } catch (Exception e) { } });
        log.p("Future.get: %s", Sync.blocked(log, getter));
        f.complete("x");
        Sync.join(log, getter);
    }

    static void sleepInterrupted(Log log) throws Exception {
        Thread t = Thread.ofVirtual().start(() -> {
            log.call("sleep 1 h", () -> Thread.sleep(Duration.ofHours(1)));
            log.p("interrupted after: %s", Thread.currentThread().isInterrupted());
        });
        Sync.awaitState(log, t, Thread.State.TIMED_WAITING);
        t.interrupt();
        t.join();
        log.p("state %s, interrupted %s", t.getState(), t.isInterrupted());
    }

    static void interruptBeforeSleep(Log log) throws Exception {
        Thread t = Thread.ofVirtual().start(() -> {
            Thread.currentThread().interrupt();
            log.call("sleep with the status set", () -> Thread.sleep(Duration.ofHours(1)));
            log.p("interrupted after: %s", Thread.currentThread().isInterrupted());
            Thread.currentThread().interrupt();
            log.call("sleep(0) with the status set", () -> Thread.sleep(Duration.ZERO));
            log.p("interrupted after: %s", Thread.currentThread().isInterrupted());
            Thread.currentThread().interrupt();
            log.call("sleep(-1 ms) with the status set", () -> Thread.sleep(Duration.ofMillis(-1)));
            log.p("interrupted after: %s", Thread.currentThread().isInterrupted());
            log.p("Thread.interrupted: %s, then %s", Thread.interrupted(), Thread.interrupted());
        });
        t.join();
    }

    static void interruptUnstartedAndTerminated(Log log) throws Exception {
        AtomicBoolean seen = new AtomicBoolean();
        Thread t = Thread.ofVirtual().unstarted(() -> seen.set(Thread.currentThread().isInterrupted()));
        t.interrupt();
        log.p("interrupted before start: %s", t.isInterrupted());
        t.start();
        t.join();
        log.p("the task saw interrupted=%s; after: %s", seen.get(), t.isInterrupted());
        Thread u = Thread.ofVirtual().start(() -> { });
        u.join();
        u.interrupt();
        log.p("interrupt a terminated thread: %s", u.isInterrupted());
    }

    static void parkPermit(Log log) throws Exception {
        LockSupport.unpark(Thread.currentThread());
        LockSupport.park();
        log.p("park with a permit returned at once");
        AtomicBoolean go = new AtomicBoolean();
        Thread t = Thread.ofVirtual().start(() -> {
            while (!go.get()) Thread.onSpinWait();
            LockSupport.park();
            log.p("first park returned (two unparks left one permit)");
            LockSupport.park();
            log.p("second park returned");
        });
        LockSupport.unpark(t);
        LockSupport.unpark(t);
        go.set(true);
        Sync.awaitState(log, t, Thread.State.WAITING);
        log.p("second park blocks: %s", t.getState());
        LockSupport.unpark(t);
        t.join();
    }

    static void parkInterrupted(Log log) throws Exception {
        Thread t = Thread.ofVirtual().start(() -> {
            LockSupport.park();
            log.p("park returned, interrupted=%s", Thread.currentThread().isInterrupted());
            LockSupport.park();
            log.p("park with the status set returned at once, interrupted=%s", Thread.currentThread().isInterrupted());
            LockSupport.parkNanos(Duration.ofHours(1).toNanos());
            log.p("parkNanos with the status set returned at once");
            log.p("Thread.interrupted: %s, then %s", Thread.interrupted(), Thread.interrupted());
        });
        Sync.awaitState(log, t, Thread.State.WAITING);
        t.interrupt();
        t.join();
    }

    /** parkNanos(0) and parkNanos(-1) return at once and leave an available permit in place. */
    static void parkNonPositive(Log log) throws Exception {
        Thread t = Thread.ofVirtual().start(() -> {
            LockSupport.parkNanos(0);
            LockSupport.parkNanos(-1);
            log.p("parkNanos(0), parkNanos(-1) returned");
            LockSupport.unpark(Thread.currentThread());
            LockSupport.parkNanos(0);
            LockSupport.parkNanos(-1);
            LockSupport.park(); // returns at once if the permit is still there
        });
        boolean ended = Sync.awaitState(log, t, Thread.State.TERMINATED);
        log.p("the permit survived parkNanos(0): %s", ended);
        LockSupport.unpark(t);
        t.join();
    }

    /** sleep and yield neither consume nor grant the park permit. */
    static void sleepAndYieldKeepPermit(Log log) throws Exception {
        CountDownLatch phase = new CountDownLatch(1);
        Thread t = Thread.ofVirtual().start(() -> {
            LockSupport.unpark(Thread.currentThread());
            try { Thread.sleep(1); } catch (InterruptedException e) { }
            Thread.yield();
            LockSupport.park(); // the permit from before the sleep
            log.p("park after sleep and yield used the permit");
            phase.countDown();
            Thread.yield();
            LockSupport.park(); // no permit: blocks until unparked
            log.p("second park returned after unpark");
        });
        phase.await();
        Sync.awaitState(log, t, Thread.State.WAITING);
        log.p("second park blocks: %s", t.getState());
        LockSupport.unpark(t);
        t.join();
    }

    static void joinUnstarted(Log log) throws Exception {
        Thread t = Thread.ofVirtual().unstarted(() -> { });
        log.call("join() of an unstarted thread", t::join);
        log.val("join(Duration) of an unstarted thread", () -> t.join(Duration.ofMillis(1)));
        Thread p = Thread.ofPlatform().unstarted(() -> { });
        log.call("join() of an unstarted platform thread", p::join);
        log.val("join(Duration) of an unstarted platform thread", () -> p.join(Duration.ofMillis(1)));
    }

    static void joinInterrupted(Log log) throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        Thread t = Thread.ofVirtual().start(() -> { try { gate.await(); } catch (InterruptedException e) { } });
        Thread.currentThread().interrupt();
        log.call("join with the status set", t::join);
        log.p("interrupted after: %s", Thread.currentThread().isInterrupted());
        Thread self = Thread.currentThread();
        Thread interrupter = Thread.ofVirtual().start(() -> {
            try { Sync.awaitState(log, self, Thread.State.WAITING); } catch (InterruptedException e) { }
            self.interrupt();
        });
        log.call("join interrupted while waiting", t::join);
        log.p("interrupted after: %s", Thread.currentThread().isInterrupted());
        interrupter.join();
        gate.countDown();
        t.join();
    }

    static void joinTimeout(Log log) throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        Thread t = Thread.ofVirtual().start(() -> { try { gate.await(); } catch (InterruptedException e) { } });
        log.val("join(0) while alive", () -> t.join(Duration.ZERO));
        log.val("join(1 ms) while alive", () -> t.join(Duration.ofMillis(1)));
        log.val("join(-1 ms) while alive", () -> t.join(Duration.ofMillis(-1)));
        gate.countDown();
        log.val("join(1 h)", () -> t.join(Duration.ofHours(1)));
        log.val("join(-1 ms) after termination", () -> t.join(Duration.ofMillis(-1)));
    }

    static void startTwice(Log log) throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        for (Thread.Builder b : List.of(Thread.ofVirtual(), Thread.ofPlatform())) {
            Thread t = b.start(() -> { try { gate.await(); } catch (InterruptedException e) { } });
            log.call("start while alive", t::start);
            t.interrupt();
            t.join();
            log.call("start after termination", t::start);
            log.p("state %s", t.getState());
        }
    }

    static void virtualDaemonPriority(Log log) throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        Thread t = Thread.ofVirtual().unstarted(() -> { try { gate.await(); } catch (InterruptedException e) { } });
        log.p("new: daemon=%s priority=%s", t.isDaemon(), t.getPriority());
        log.call("setDaemon(true) while new", () -> t.setDaemon(true));
        log.call("setDaemon(false) while new", () -> t.setDaemon(false));
        log.call("setPriority(1)", () -> t.setPriority(1));
        log.p("priority after setPriority(1): %s", t.getPriority());
        log.call("setPriority(11)", () -> t.setPriority(11));
        log.call("setPriority(0)", () -> t.setPriority(0));
        t.start();
        log.call("setDaemon(true) while alive", () -> t.setDaemon(true));
        log.call("setDaemon(false) while alive", () -> t.setDaemon(false));
        gate.countDown();
        t.join();
        log.call("setDaemon(true) after termination", () -> t.setDaemon(true));
        log.p("terminated: daemon=%s priority=%s", t.isDaemon(), t.getPriority());
    }

    static void platformDaemonPriority(Log log) throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        Thread t = Thread.ofPlatform().unstarted(() -> { try { gate.await(); } catch (InterruptedException e) { } });
        log.p("new: daemon=%s priority=%s", t.isDaemon(), t.getPriority());
        log.call("setPriority(7)", () -> t.setPriority(7));
        log.call("setPriority(11)", () -> t.setPriority(11));
        log.call("setDaemon(true) while new", () -> t.setDaemon(true));
        log.p("after: daemon=%s priority=%s", t.isDaemon(), t.getPriority());
        t.start();
        log.call("setDaemon(false) while alive", () -> t.setDaemon(false));
        gate.countDown();
        t.join();
        log.call("setDaemon(false) after termination", () -> t.setDaemon(false));
        log.p("terminated: daemon=%s", t.isDaemon());
        Thread d = Thread.ofPlatform().daemon(true).priority(3).unstarted(() -> { });
        log.p("builder daemon(true).priority(3): daemon=%s priority=%s", d.isDaemon(), d.getPriority());
        log.call("builder priority(0)", () -> Thread.ofPlatform().priority(0));
        log.call("builder stackSize(-1)", () -> Thread.ofPlatform().stackSize(-1));
    }

    static void builderNames(Log log) throws Exception {
        Thread.Builder b = Thread.ofVirtual().name("duke-", 100);
        List<String> names = new ArrayList<>();
        for (int i = 0; i < 3; i++) names.add(b.unstarted(() -> { }).getName());
        ThreadFactory f = b.factory();
        for (int i = 0; i < 2; i++) names.add(f.newThread(() -> { }).getName());
        names.add(b.unstarted(() -> { }).getName());
        log.p("builder, builder, builder, factory, factory, builder: %s", names);
        log.p("fixed name: %s", Thread.ofPlatform().name("fixed").unstarted(() -> { }).getName());
        log.p("virtual default name: \"%s\"", Thread.ofVirtual().unstarted(() -> { }).getName());
        log.call("name(prefix, -1)", () -> Thread.ofVirtual().name("x-", -1));
        log.p("isVirtual: %s %s", Thread.ofVirtual().unstarted(() -> { }).isVirtual(),
                Thread.ofPlatform().unstarted(() -> { }).isVirtual());
    }

    static void toStrings(Log log) throws Exception {
        log.p("scenario thread: %s", Thread.currentThread());
        CountDownLatch gate = new CountDownLatch(1);
        AtomicReference<String> inside = new AtomicReference<>();
        Thread v = Thread.ofVirtual().unstarted(() -> {
            inside.set(Thread.currentThread().toString());
            try { gate.await(); } catch (InterruptedException e) { }
        });
        log.p("unstarted virtual: %s", v);
        v.start();
        Sync.awaitState(log, v, Thread.State.WAITING);
        log.p("running virtual, seen by itself: %s", inside.get());
        log.p("waiting virtual: %s", v);
        gate.countDown();
        v.join();
        log.p("terminated virtual: %s", v);
        Thread named = Thread.ofVirtual().name("fred").unstarted(() -> { });
        log.p("named virtual: %s", named);
        Thread p = Thread.ofPlatform().name("plat").unstarted(() -> { });
        log.p("unstarted platform: %s", p);
        p.start();
        p.join();
        log.p("terminated platform: %s", p);
    }

    static void setNameAnyState(Log log) throws Exception {
        for (Thread.Builder b : List.of(Thread.ofVirtual().name("a"), Thread.ofPlatform().name("a"))) {
            Thread t = b.start(() -> { });
            t.join();
            t.setName("renamed");
            log.p("renamed after termination: %s", t.getName());
        }
    }

    static void uncaughtHandler(Log log) throws Exception {
        AtomicReference<String> seen = new AtomicReference<>();
        Thread[] holder = new Thread[1];
        Thread t = Thread.ofVirtual().uncaughtExceptionHandler((th, e) -> seen.set(
                "handler ran in the failing thread: " + (th == Thread.currentThread() && th == holder[0])
                + ", got " + Ex.name(e))).unstarted(() -> { throw new BoomRuntime("uncaught"); });
        holder[0] = t;
        t.start();
        t.join();
        log.p("%s; state %s", seen.get(), t.getState());
    }

    static void currentAndIds(Log log) throws Exception {
        AtomicReference<String> v = new AtomicReference<>(), p = new AtomicReference<>();
        Thread[] ts = new Thread[2];
        ts[0] = Thread.ofVirtual().unstarted(() -> v.set("virtual: isVirtual=" + Thread.currentThread().isVirtual()
                + " current is itself=" + (Thread.currentThread() == ts[0])));
        ts[1] = Thread.ofPlatform().unstarted(() -> p.set("platform: isVirtual=" + Thread.currentThread().isVirtual()
                + " current is itself=" + (Thread.currentThread() == ts[1])));
        log.p("ids positive: %s, distinct: %s, increasing: %s", ts[0].threadId() > 0,
                ts[0].threadId() != ts[1].threadId(), ts[1].threadId() > ts[0].threadId());
        ts[0].start();
        ts[1].start();
        ts[0].join();
        ts[1].join();
        log.p("%s; %s", v.get(), p.get());
    }
}
