// Monitors (synchronized, wait/notify), Semaphore, CountDownLatch, CyclicBarrier: the twins of
// ../sync_test.go.
import java.util.*;
import java.util.concurrent.*;
import java.util.concurrent.atomic.*;

final class SyncScenarios {
    static void register(Map<String, Oracle.Scenario> m) {
        m.put("monitor_without_owner", SyncScenarios::monitorWithoutOwner);
        m.put("monitor_wait_releases_all_holds", SyncScenarios::waitReleasesAllHolds);
        m.put("monitor_notify_one_at_a_time", SyncScenarios::notifyOneAtATime);
        m.put("monitor_wait_with_status_set", SyncScenarios::waitWithStatusSet);
        m.put("monitor_interrupted_waiter_reacquires", SyncScenarios::interruptedWaiterReacquires);
        m.put("monitor_notified_then_interrupted", SyncScenarios::notifiedThenInterrupted);
        m.put("monitor_wait_timeout", SyncScenarios::waitTimeout);
        m.put("semaphore_basics", SyncScenarios::semaphoreBasics);
        m.put("semaphore_fair_queue", l -> semaphoreQueue(l, true));
        m.put("semaphore_nonfair_queue", l -> semaphoreQueue(l, false));
        m.put("semaphore_interrupts", SyncScenarios::semaphoreInterrupts);
        m.put("latch_basics", SyncScenarios::latchBasics);
        m.put("latch_interrupts", SyncScenarios::latchInterrupts);
        m.put("barrier_indices_and_action", SyncScenarios::barrierIndicesAndAction);
        m.put("barrier_broken_by_interrupt", SyncScenarios::barrierBrokenByInterrupt);
        m.put("barrier_timeout", SyncScenarios::barrierTimeout);
        m.put("barrier_reset", SyncScenarios::barrierReset);
        m.put("barrier_action_throws", SyncScenarios::barrierActionThrows);
    }

    static void monitorWithoutOwner(Log log) throws Exception {
        Object m = new Object();
        log.call("wait without the monitor", () -> m.wait());
        log.call("notify without the monitor", m::notify);
        log.call("notifyAll without the monitor", m::notifyAll);
        log.p("holdsLock outside: %s", Thread.holdsLock(m));
        synchronized (m) {
            log.p("holdsLock inside: %s", Thread.holdsLock(m));
            m.notify(); // no waiter: lost
            m.notifyAll();
        }
        Thread other = Thread.ofVirtual().start(() -> {
            synchronized (m) { log.p("another thread enters: holdsLock %s", Thread.holdsLock(m)); }
        });
        other.join();
    }

    static void waitReleasesAllHolds(Log log) throws Exception {
        Object m = new Object();
        Thread notifier;
        synchronized (m) {
            synchronized (m) {
                synchronized (m) {
                    notifier = Thread.ofVirtual().start(() -> {
                        synchronized (m) {
                            log.p("another thread entered while the owner waited");
                            m.notify();
                        }
                    });
                    m.wait();
                    log.p("wait returned: holdsLock %s", Thread.holdsLock(m));
                }
                log.p("one exit: holdsLock %s", Thread.holdsLock(m));
            }
            log.p("two exits: holdsLock %s", Thread.holdsLock(m));
        }
        log.p("three exits: holdsLock %s", Thread.holdsLock(m));
        notifier.join();
    }

    static void notifyOneAtATime(Log log) throws Exception {
        Object m = new Object();
        List<String> woke = Collections.synchronizedList(new ArrayList<>());
        List<Thread> ts = new ArrayList<>();
        for (String name : List.of("A", "B", "C")) {
            Thread t = Thread.ofVirtual().name(name).start(() -> {
                synchronized (m) {
                    try {
                        m.wait();
                        woke.add(Thread.currentThread().getName());
                    } catch (InterruptedException e) {
                        woke.add(Thread.currentThread().getName() + " interrupted");
                    }
                }
            });
            Sync.awaitState(log, t, Thread.State.WAITING);
            ts.add(t);
        }
        for (int i = 0; i < 3; i++) {
            synchronized (m) { m.notify(); }
            final int n = i + 1;
            Sync.await(log, n + " woken", () -> woke.size() == n);
            log.p("notify %s woke %s", n, woke);
        }
        Sync.join(log, ts.toArray(new Thread[0]));
    }

    static void waitWithStatusSet(Log log) throws Exception {
        Object m = new Object();
        synchronized (m) {
            Thread.currentThread().interrupt();
            log.call("wait with the status set", () -> m.wait());
            log.p("holdsLock %s interrupted %s", Thread.holdsLock(m), Thread.currentThread().isInterrupted());
            Thread.currentThread().interrupt();
            log.call("wait(1 ms) with the status set", () -> m.wait(1));
            log.p("holdsLock %s interrupted %s", Thread.holdsLock(m), Thread.currentThread().isInterrupted());
        }
    }

    static void interruptedWaiterReacquires(Log log) throws Exception {
        Object m = new Object();
        Thread t = Thread.ofVirtual().start(() -> {
            synchronized (m) {
                log.call("wait, interrupted", () -> m.wait());
                log.p("holdsLock %s interrupted %s", Thread.holdsLock(m), Thread.currentThread().isInterrupted());
            }
        });
        Sync.awaitState(log, t, Thread.State.WAITING);
        synchronized (m) {
            t.interrupt();
            // it must get the monitor back before it can throw: BLOCKED
            Sync.awaitState(log, t, Thread.State.BLOCKED);
            log.p("interrupted waiter while the monitor is held: %s", t.getState());
        }
        t.join();
    }

    static void notifiedThenInterrupted(Log log) throws Exception {
        Object m = new Object();
        Thread t = Thread.ofVirtual().start(() -> {
            synchronized (m) {
                log.call("wait, notified then interrupted", () -> m.wait());
                log.p("interrupted %s", Thread.currentThread().isInterrupted());
            }
        });
        Sync.awaitState(log, t, Thread.State.WAITING);
        synchronized (m) {
            m.notify();
            t.interrupt();
        }
        t.join();
    }

    static void waitTimeout(Log log) throws Exception {
        Object m = new Object();
        synchronized (m) {
            log.call("wait(1 ms), nobody notifies", () -> m.wait(1));
            log.call("wait(-1)", () -> m.wait(-1));
            log.p("holdsLock %s", Thread.holdsLock(m));
        }
    }

    static String state(Object o) { return LockScenarios.state(o); }

    /** Semaphore with its protected reducePermits opened (loom's is exported). */
    static final class Reducible extends Semaphore {
        Reducible(int permits) { super(permits); }
        @Override public void reducePermits(int n) { super.reducePermits(n); }
    }

    static void semaphoreBasics(Log log) throws Exception {
        Reducible s = new Reducible(2);
        log.p("fair %s, %s", s.isFair(), state(s));
        s.acquire();
        log.p("tryAcquire %s, tryAcquire %s, available %s", s.tryAcquire(), s.tryAcquire(), s.availablePermits());
        s.release(3);
        log.p("release(3): available %s", s.availablePermits());
        log.p("drainPermits %s, then available %s", s.drainPermits(), s.availablePermits());
        s.reducePermits(2);
        log.p("reducePermits(2): available %s, tryAcquire %s, %s", s.availablePermits(), s.tryAcquire(), state(s));
        log.p("new Semaphore(-1): available %s", new Semaphore(-1).availablePermits());
        log.call("release(-1)", () -> s.release(-1));
        log.call("acquire(-1)", () -> s.acquire(-1));
        log.call("tryAcquire(-1)", () -> s.tryAcquire(-1));
        log.call("reducePermits(-1)", () -> s.reducePermits(-1));
        log.call("release(0)", () -> s.release(0));
        log.val("tryAcquire(3) with 1 available", () -> { s.release(3); return s.tryAcquire(3) + " leaves " + s.availablePermits(); });
        log.val("tryAcquire(2, 1 ms) with 1 available", () -> s.tryAcquire(2, 1, TimeUnit.MILLISECONDS));
    }

    static void semaphoreQueue(Log log, boolean fair) throws Exception {
        Semaphore s = new Semaphore(0, fair);
        List<String> got = Collections.synchronizedList(new ArrayList<>());
        List<Thread> ts = new ArrayList<>();
        for (String spec : List.of("A2", "B1", "C1")) {
            int n = spec.charAt(1) - '0';
            Thread t = Thread.ofVirtual().name(spec).start(() -> {
                s.acquireUninterruptibly(n);
                got.add(Thread.currentThread().getName());
            });
            Sync.await(log, spec + " queued", () -> s.getQueueLength() == ts.size() + 1);
            ts.add(t);
        }
        s.release(1);
        log.p("release(1) with A2 at the head: got %s, available %s, queued %s", got, s.availablePermits(), s.getQueueLength());
        Thread barger = Thread.ofVirtual().start(() -> log.p("a newcomer's tryAcquire(): %s", s.tryAcquire()));
        barger.join();
        s.release(2);
        Sync.await(log, "A2 served", () -> got.size() >= 1);
        log.p("release(2): got %s", got);
        s.release(2);
        Sync.join(log, ts.toArray(new Thread[0]));
        log.p("release(2): got %s, available %s", got, s.availablePermits());
    }

    static void semaphoreInterrupts(Log log) throws Exception {
        Semaphore s = new Semaphore(1);
        Thread.currentThread().interrupt();
        log.call("acquire with a permit free and the status set", s::acquire);
        log.p("available %s interrupted %s", s.availablePermits(), Thread.currentThread().isInterrupted());
        Thread.currentThread().interrupt();
        log.val("tryAcquire(1 h) with the status set", () -> s.tryAcquire(1, TimeUnit.HOURS));
        Thread.currentThread().interrupt();
        log.call("acquireUninterruptibly with the status set", s::acquireUninterruptibly);
        log.p("available %s interrupted %s", s.availablePermits(), Thread.interrupted());
        Thread t = Thread.ofVirtual().start(() -> {
            log.call("acquire(2) waiting, interrupted", () -> s.acquire(2));
            log.p("interrupted after: %s", Thread.currentThread().isInterrupted());
        });
        Sync.awaitState(log, t, Thread.State.WAITING);
        t.interrupt();
        t.join();
        s.release();
        log.p("available %s, queued %s", s.availablePermits(), s.getQueueLength());
    }

    static void latchBasics(Log log) throws Exception {
        CountDownLatch l = new CountDownLatch(2);
        log.p("count %s %s", l.getCount(), state(l));
        log.val("await(1 ms) at 2", () -> l.await(1, TimeUnit.MILLISECONDS));
        l.countDown();
        l.countDown();
        l.countDown();
        log.p("three countDowns: count %s %s", l.getCount(), state(l));
        log.call("await at 0", l::await);
        log.val("await(0) at 0", () -> l.await(0, TimeUnit.SECONDS));
        log.call("new CountDownLatch(-1)", () -> new CountDownLatch(-1));
        CountDownLatch g = new CountDownLatch(1);
        List<Thread> ts = new ArrayList<>();
        for (int i = 0; i < 3; i++) ts.add(Thread.ofVirtual().start(() -> { try { g.await(); } catch (InterruptedException e) { } }));
        for (Thread t : ts) Sync.awaitState(log, t, Thread.State.WAITING);
        g.countDown();
        Sync.join(log, ts.toArray(new Thread[0]));
        log.p("one countDown released all 3 waiters");
    }

    static void latchInterrupts(Log log) throws Exception {
        CountDownLatch open = new CountDownLatch(0);
        Thread.currentThread().interrupt();
        log.call("await at count 0 with the status set", open::await);
        log.p("interrupted after: %s", Thread.currentThread().isInterrupted());
        Thread.currentThread().interrupt();
        log.val("await(1 h) at count 0 with the status set", () -> open.await(1, TimeUnit.HOURS));
        CountDownLatch closed = new CountDownLatch(1);
        Thread t = Thread.ofVirtual().start(() -> {
            log.call("await, interrupted while waiting", closed::await);
            log.p("interrupted after: %s", Thread.currentThread().isInterrupted());
        });
        Sync.awaitState(log, t, Thread.State.WAITING);
        t.interrupt();
        t.join();
    }

    static void barrierIndicesAndAction(Log log) throws Exception {
        AtomicReference<String> actionRanIn = new AtomicReference<>();
        CyclicBarrier b = new CyclicBarrier(3, () -> actionRanIn.set(Thread.currentThread().getName()));
        log.p("parties %s waiting %s broken %s", b.getParties(), b.getNumberWaiting(), b.isBroken());
        Map<String, Integer> idx = new ConcurrentHashMap<>();
        List<Thread> ts = new ArrayList<>();
        for (String name : List.of("A", "B", "C")) {
            int before = ts.size();
            Thread t = Thread.ofVirtual().name(name).start(() -> {
                try { idx.put(Thread.currentThread().getName(), b.await()); } catch (Exception e) { log.p("%s", Ex.name(e)); }
            });
            if (before < 2) Sync.await(log, name + " waiting", () -> b.getNumberWaiting() == before + 1);
            ts.add(t);
        }
        Sync.join(log, ts.toArray(new Thread[0]));
        log.p("arrival indices A=%s B=%s C=%s; the action ran in %s", idx.get("A"), idx.get("B"), idx.get("C"), actionRanIn.get());
        log.p("after the trip: waiting %s broken %s", b.getNumberWaiting(), b.isBroken());
        log.call("new CyclicBarrier(0)", () -> new CyclicBarrier(0));
    }

    static void barrierBrokenByInterrupt(Log log) throws Exception {
        CyclicBarrier b = new CyclicBarrier(3);
        String[] out = new String[2];
        Thread a = Thread.ofVirtual().name("A").start(() -> out[0] = Ex.of(b::await));
        Sync.await(log, "A waiting", () -> b.getNumberWaiting() == 1);
        Thread c = Thread.ofVirtual().name("B").start(() -> out[1] = Ex.of(b::await));
        Sync.await(log, "B waiting", () -> b.getNumberWaiting() == 2);
        a.interrupt();
        Sync.join(log, a, c);
        log.p("A, interrupted: %s; B: %s", out[0], out[1]);
        log.p("broken %s waiting %s", b.isBroken(), b.getNumberWaiting());
        log.call("await on a broken barrier", b::await);
        b.reset();
        log.p("after reset: broken %s", b.isBroken());
    }

    static void barrierTimeout(Log log) throws Exception {
        CyclicBarrier b = new CyclicBarrier(3);
        String[] out = new String[1];
        Thread a = Thread.ofVirtual().start(() -> out[0] = Ex.of(b::await));
        Sync.await(log, "a party waiting", () -> b.getNumberWaiting() == 1);
        String timedOut = Ex.of(() -> b.await(1, TimeUnit.MILLISECONDS));
        a.join();
        log.p("await(1 ms), no third party: %s; the waiting party: %s; broken %s", timedOut, out[0], b.isBroken());
        log.call("await(1 h) on the broken barrier", () -> b.await(1, TimeUnit.HOURS));
    }

    static void barrierReset(Log log) throws Exception {
        CyclicBarrier b = new CyclicBarrier(2);
        Thread a = Thread.ofVirtual().start(() -> log.call("waiting party, barrier reset", b::await));
        Sync.await(log, "a party waiting", () -> b.getNumberWaiting() == 1);
        b.reset();
        a.join();
        log.p("after reset: broken %s waiting %s", b.isBroken(), b.getNumberWaiting());
        String[] out = new String[1];
        Thread c = Thread.ofVirtual().start(() -> out[0] = Ex.of(b::await));
        Sync.await(log, "a party waiting", () -> b.getNumberWaiting() == 1);
        String second = Ex.of(b::await);
        c.join();
        log.p("next generation: first party %s, second party %s", out[0], second);
    }

    static void barrierActionThrows(Log log) throws Exception {
        CyclicBarrier b = new CyclicBarrier(2, () -> { throw new BoomRuntime("action"); });
        String[] out = new String[1];
        Thread a = Thread.ofVirtual().start(() -> out[0] = Ex.of(b::await));
        Sync.await(log, "a party waiting", () -> b.getNumberWaiting() == 1);
        String last = Ex.of(b::await);
        a.join();
        log.p("last party, which runs the failing action: %s; first party: %s; broken %s", last, out[0], b.isBroken());
    }
}
