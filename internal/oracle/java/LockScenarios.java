// ReentrantLock, Condition, ReentrantReadWriteLock: the twins of ../locks_test.go.
import java.time.Duration;
import java.util.*;
import java.util.concurrent.*;
import java.util.concurrent.locks.*;

final class LockScenarios {
    static void register(Map<String, Oracle.Scenario> m) {
        m.put("lock_reentrant_hold_counts", LockScenarios::holdCounts);
        m.put("lock_fair_order", l -> queuedOrder(l, true));
        m.put("lock_nonfair_queued_order", l -> queuedOrder(l, false));
        m.put("lock_interruptible_status_set", LockScenarios::interruptibleStatusSet);
        m.put("lock_interruptibly_while_waiting", LockScenarios::interruptiblyWhileWaiting);
        m.put("lock_trylock_when_held", LockScenarios::tryLockWhenHeld);
        m.put("condition_without_lock", LockScenarios::conditionWithoutLock);
        m.put("condition_signal_fifo", LockScenarios::signalFifo);
        m.put("condition_await_restores_holds", LockScenarios::awaitRestoresHolds);
        m.put("condition_interrupt_before_and_after_signal", LockScenarios::interruptBeforeAndAfterSignal);
        m.put("condition_await_uninterruptibly", LockScenarios::awaitUninterruptibly);
        m.put("rwlock_hold_counts", LockScenarios::rwHoldCounts);
        m.put("rwlock_queued_writer_blocks_readers", LockScenarios::rwQueuedWriterBlocksReaders);
        m.put("rwlock_fair_order", LockScenarios::rwFairOrder);
    }

    /** The status word of a future's toString: "[Completed normally", "[Not completed". */
    static String status(Object o) {
        String s = state(o);
        int end = s.length();
        for (char c : new char[] {':', ',', ']'}) {
            int i = s.indexOf(c);
            if (i >= 0 && i < end) end = i;
        }
        return s.substring(0, end) + "]";
    }

    /** The part of toString after the class name and hash: "[Unlocked]". */
    static String state(Object o) {
        String s = o.toString();
        int i = s.indexOf('[');
        return i < 0 ? s : s.substring(i);
    }

    static void holdCounts(Log log) throws Exception {
        ReentrantLock l = new ReentrantLock();
        log.p("new: locked=%s held=%s holds=%s fair=%s %s", l.isLocked(), l.isHeldByCurrentThread(), l.getHoldCount(), l.isFair(), state(l));
        l.lock();
        l.lock();
        log.p("locked twice: locked=%s held=%s holds=%s %s", l.isLocked(), l.isHeldByCurrentThread(), l.getHoldCount(), state(l));
        Thread other = Thread.ofVirtual().start(() -> {
            log.p("another thread: held=%s holds=%s tryLock=%s", l.isHeldByCurrentThread(), l.getHoldCount(), l.tryLock());
            log.call("another thread unlocks", l::unlock);
        });
        other.join();
        log.p("tryLock by the owner: %s, holds %s", l.tryLock(), l.getHoldCount());
        l.unlock();
        l.unlock();
        log.p("unlocked twice: holds=%s", l.getHoldCount());
        l.unlock();
        log.p("unlocked three times: locked=%s holds=%s %s", l.isLocked(), l.getHoldCount(), state(l));
        log.call("unlock an unlocked lock", l::unlock);
    }

    static void queuedOrder(Log log, boolean fair) throws Exception {
        ReentrantLock l = new ReentrantLock(fair);
        List<String> order = Collections.synchronizedList(new ArrayList<>());
        l.lock();
        List<Thread> ts = new ArrayList<>();
        for (String name : List.of("A", "B", "C")) {
            Thread t = Thread.ofVirtual().name(name).start(() -> {
                l.lock();
                order.add(Thread.currentThread().getName());
                l.unlock();
            });
            Sync.await(log, name + " queued", () -> l.hasQueuedThread(t));
            ts.add(t);
        }
        log.p("fair=%s queue length %s, hasQueuedThreads %s", l.isFair(), l.getQueueLength(), l.hasQueuedThreads());
        l.unlock();
        Sync.join(log, ts.toArray(new Thread[0]));
        log.p("served in order %s; queue length %s", order, l.getQueueLength());
    }

    static void interruptibleStatusSet(Log log) throws Exception {
        ReentrantLock l = new ReentrantLock();
        Thread.currentThread().interrupt();
        log.call("lockInterruptibly of a free lock with the status set", l::lockInterruptibly);
        log.p("locked=%s interrupted=%s", l.isLocked(), Thread.currentThread().isInterrupted());
        Thread.currentThread().interrupt();
        log.val("tryLock(1 h) of a free lock with the status set", () -> l.tryLock(1, TimeUnit.HOURS));
        log.p("locked=%s interrupted=%s", l.isLocked(), Thread.currentThread().isInterrupted());
        Thread.currentThread().interrupt();
        log.val("tryLock() with the status set", l::tryLock);
        log.p("locked=%s interrupted=%s", l.isLocked(), Thread.interrupted());
        l.unlock();
        Thread.currentThread().interrupt();
        log.call("lock() with the status set", l::lock);
        log.p("locked=%s interrupted=%s", l.isLocked(), Thread.interrupted());
        l.unlock();
    }

    static void interruptiblyWhileWaiting(Log log) throws Exception {
        ReentrantLock l = new ReentrantLock();
        l.lock();
        Thread t = Thread.ofVirtual().start(() -> {
            log.call("lockInterruptibly while held elsewhere, interrupted", l::lockInterruptibly);
            log.p("interrupted after: %s", Thread.currentThread().isInterrupted());
        });
        Sync.await(log, "t queued", () -> l.hasQueuedThread(t));
        t.interrupt();
        t.join();
        log.p("still queued: %s; holds %s", l.hasQueuedThread(t), l.getHoldCount());
        Thread u = Thread.ofVirtual().start(() -> {
            log.val("tryLock(1 ms) while held elsewhere", () -> l.tryLock(1, TimeUnit.MILLISECONDS));
            log.val("tryLock(0) while held elsewhere", () -> l.tryLock(0, TimeUnit.MILLISECONDS));
        });
        u.join();
        l.unlock();
    }

    static void tryLockWhenHeld(Log log) throws Exception {
        ReentrantLock fair = new ReentrantLock(true);
        Thread holder = Thread.ofVirtual().name("holder").start(() -> {
            fair.lock();
            LockSupport.park();
            fair.unlock();
        });
        Sync.await(log, "the holder to lock", fair::isLocked);
        log.p("%s", state(fair));
        log.p("tryLock of a fair lock held elsewhere: %s", fair.tryLock());
        LockSupport.unpark(holder);
        holder.join();
        log.p("tryLock of the free fair lock: %s, %s", fair.tryLock(), state(fair));
        fair.unlock();
    }

    static void conditionWithoutLock(Log log) throws Exception {
        ReentrantLock l = new ReentrantLock();
        Condition c = l.newCondition();
        log.call("await without the lock", c::await);
        log.call("signal without the lock", c::signal);
        log.call("signalAll without the lock", c::signalAll);
        log.call("awaitNanos without the lock", () -> c.awaitNanos(1));
        log.call("hasWaiters without the lock", () -> l.hasWaiters(c));
        l.lock();
        log.p("hasWaiters %s, waitQueueLength %s", l.hasWaiters(c), l.getWaitQueueLength(c));
        c.signal(); // no waiter: nothing is remembered
        log.val("await(1 ms) after a signal with no waiter", () -> c.await(1, TimeUnit.MILLISECONDS));
        log.val("awaitNanos(1 ms) <= 0", () -> c.awaitNanos(1_000_000) <= 0);
        log.val("awaitUntil(a past deadline)", () -> c.awaitUntil(new Date(System.currentTimeMillis() - 1000)));
        l.unlock();
    }

    static void signalFifo(Log log) throws Exception {
        ReentrantLock l = new ReentrantLock();
        Condition c = l.newCondition();
        List<String> woke = Collections.synchronizedList(new ArrayList<>());
        List<Thread> ts = new ArrayList<>();
        for (String name : List.of("A", "B", "C")) {
            Thread t = Thread.ofVirtual().name(name).start(() -> {
                l.lock();
                try {
                    c.await();
                    woke.add(Thread.currentThread().getName());
                } catch (InterruptedException e) {
                    woke.add(Thread.currentThread().getName() + " interrupted");
                } finally {
                    l.unlock();
                }
            });
            Sync.awaitState(log, t, Thread.State.WAITING);
            ts.add(t);
        }
        l.lock();
        log.p("waiters %s", l.getWaitQueueLength(c));
        c.signal();
        l.unlock();
        Sync.join(log, ts.get(0));
        log.p("one signal woke %s", woke);
        l.lock();
        log.p("waiters %s", l.getWaitQueueLength(c));
        c.signalAll();
        log.p("waiters after signalAll %s", l.getWaitQueueLength(c));
        l.unlock();
        Sync.join(log, ts.toArray(new Thread[0]));
        log.p("woken in order %s", woke);
    }

    static void awaitRestoresHolds(Log log) throws Exception {
        ReentrantLock l = new ReentrantLock();
        Condition c = l.newCondition();
        l.lock();
        l.lock();
        l.lock();
        Thread t = Thread.ofVirtual().start(() -> {
            l.lock();
            log.p("another thread got the lock while the owner awaited: holds %s", l.getHoldCount());
            c.signal();
            l.unlock();
        });
        c.await();
        log.p("await returned with holds %s", l.getHoldCount());
        t.join();
        l.unlock();
        l.unlock();
        l.unlock();
    }

    static void interruptBeforeAndAfterSignal(Log log) throws Exception {
        ReentrantLock l = new ReentrantLock();
        Condition c = l.newCondition();
        Runnable waiter = () -> {
            l.lock();
            try {
                log.call(Thread.currentThread().getName() + " await", c::await);
                log.p("%s: held=%s interrupted=%s", Thread.currentThread().getName(), l.isHeldByCurrentThread(),
                        Thread.currentThread().isInterrupted());
            } finally {
                l.unlock();
            }
        };
        Thread a = Thread.ofVirtual().name("interrupted-before-signal").start(waiter);
        Sync.awaitState(log, a, Thread.State.WAITING);
        a.interrupt();
        a.join();
        Thread b = Thread.ofVirtual().name("interrupted-after-signal").start(waiter);
        Sync.awaitState(log, b, Thread.State.WAITING);
        l.lock();
        c.signal();
        b.interrupt();
        l.unlock();
        b.join();
    }

    static void awaitUninterruptibly(Log log) throws Exception {
        ReentrantLock l = new ReentrantLock();
        Condition c = l.newCondition();
        Thread t = Thread.ofVirtual().start(() -> {
            l.lock();
            c.awaitUninterruptibly();
            log.p("awaitUninterruptibly returned: interrupted=%s", Thread.currentThread().isInterrupted());
            l.unlock();
        });
        Sync.awaitState(log, t, Thread.State.WAITING);
        t.interrupt();
        l.lock();
        log.p("after the interrupt it still waits: hasWaiters %s", l.hasWaiters(c));
        c.signal();
        l.unlock();
        t.join();
    }

    static void rwHoldCounts(Log log) throws Exception {
        ReentrantReadWriteLock rw = new ReentrantReadWriteLock();
        rw.readLock().lock();
        rw.readLock().lock();
        log.p("read twice: readLocks %s readHolds %s writeLocked %s %s", rw.getReadLockCount(), rw.getReadHoldCount(), rw.isWriteLocked(), state(rw));
        log.p("write tryLock while reading (no upgrade): %s", rw.writeLock().tryLock());
        rw.readLock().unlock();
        rw.readLock().unlock();
        rw.writeLock().lock();
        rw.writeLock().lock();
        log.p("write twice: writeHolds %s byCurrent %s held %s", rw.getWriteHoldCount(), rw.isWriteLockedByCurrentThread(), rw.writeLock().isHeldByCurrentThread());
        rw.readLock().lock(); // downgrade
        log.p("read under write: readHolds %s readLocks %s", rw.getReadHoldCount(), rw.getReadLockCount());
        Thread other = Thread.ofVirtual().start(() -> log.p("another thread: read tryLock %s, write tryLock %s, readHolds %s writeHolds %s",
                rw.readLock().tryLock(), rw.writeLock().tryLock(), rw.getReadHoldCount(), rw.getWriteHoldCount()));
        other.join();
        rw.writeLock().unlock();
        rw.writeLock().unlock();
        log.p("write released, read kept: writeLocked %s readLocks %s", rw.isWriteLocked(), rw.getReadLockCount());
        rw.readLock().unlock();
        log.call("read unlock when not held", () -> rw.readLock().unlock());
        log.call("write unlock when not held", () -> rw.writeLock().unlock());
    }

    static void rwQueuedWriterBlocksReaders(Log log) throws Exception {
        ReentrantReadWriteLock rw = new ReentrantReadWriteLock();
        List<String> order = Collections.synchronizedList(new ArrayList<>());
        rw.readLock().lock();
        Thread w = Thread.ofVirtual().start(() -> {
            rw.writeLock().lock();
            order.add("writer");
            rw.writeLock().unlock();
        });
        Sync.await(log, "the writer queued", () -> rw.hasQueuedThread(w));
        Thread r = Thread.ofVirtual().start(() -> {
            rw.readLock().lock();
            order.add("reader");
            rw.readLock().unlock();
        });
        Sync.await(log, "the reader queued", () -> rw.hasQueuedThread(r));
        log.p("a new reader queues behind the writer: queue length %s", rw.getQueueLength());
        Thread barger = Thread.ofVirtual().start(() -> {
            boolean got = rw.readLock().tryLock();
            log.p("tryLock barges past the queue: %s", got);
            if (got) rw.readLock().unlock();
        });
        barger.join();
        rw.readLock().unlock();
        Sync.join(log, w, r);
        log.p("served %s", order);
    }

    static void rwFairOrder(Log log) throws Exception {
        ReentrantReadWriteLock rw = new ReentrantReadWriteLock(true);
        List<String> order = Collections.synchronizedList(new ArrayList<>());
        rw.writeLock().lock();
        List<Thread> ts = new ArrayList<>();
        for (String name : List.of("R1", "W1", "R2", "R3", "W2")) {
            Lock lk = name.startsWith("R") ? rw.readLock() : rw.writeLock();
            Thread t = Thread.ofVirtual().name(name).start(() -> {
                lk.lock();
                order.add(Thread.currentThread().getName());
                lk.unlock();
            });
            Sync.await(log, name + " queued", () -> rw.hasQueuedThread(t));
            ts.add(t);
        }
        log.p("fair=%s queue length %s", rw.isFair(), rw.getQueueLength());
        rw.writeLock().unlock();
        Sync.join(log, ts.toArray(new Thread[0]));
        log.p("served %s", order);
    }
}
