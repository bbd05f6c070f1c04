// Every blocking queue's edge cases: the twins of ../queues_test.go.
import java.util.*;
import java.util.concurrent.*;

final class QueueScenarios {
    static void register(Map<String, Oracle.Scenario> m) {
        m.put("queue_array_edges", QueueScenarios::arrayEdges);
        m.put("queue_linked_edges", QueueScenarios::linkedEdges);
        m.put("queue_interrupt_on_entry", QueueScenarios::interruptOnEntry);
        m.put("queue_blocked_calls_interrupted", QueueScenarios::blockedCallsInterrupted);
        m.put("queue_array_fair_producers", QueueScenarios::arrayFairProducers);
        m.put("queue_drain_to", QueueScenarios::drainTo);
        m.put("queue_deque_ops", QueueScenarios::dequeOps);
        m.put("queue_priority_order", QueueScenarios::priorityOrder);
        m.put("queue_delay_order", QueueScenarios::delayOrder);
        m.put("queue_synchronous_edges", QueueScenarios::synchronousEdges);
        m.put("queue_synchronous_fair_order", QueueScenarios::synchronousFairOrder);
        m.put("queue_transfer", QueueScenarios::transfer);
        m.put("queue_remove_contains", QueueScenarios::removeContains);
    }

    static void arrayEdges(Log log) throws Exception {
        log.call("new ArrayBlockingQueue(0)", () -> new ArrayBlockingQueue<String>(0));
        ArrayBlockingQueue<String> q = new ArrayBlockingQueue<>(2);
        log.call("add a", () -> q.add("a"));
        log.call("add b", () -> q.add("b"));
        log.call("add c to a full queue", () -> q.add("c"));
        log.val("offer c to a full queue", () -> q.offer("c"));
        log.val("offer(c, 1 ms) to a full queue", () -> q.offer("c", 1, TimeUnit.MILLISECONDS));
        log.p("%s size %s remaining %s peek %s contains b %s contains z %s", q, q.size(), q.remainingCapacity(), q.peek(), q.contains("b"), q.contains("z"));
        log.val("element", q::element);
        log.val("remove()", q::remove);
        log.val("poll", q::poll);
        log.val("poll empty", q::poll);
        log.val("peek empty", q::peek);
        log.val("element empty", q::element);
        log.val("remove() empty", q::remove);
        log.val("poll(1 ms) empty", () -> q.poll(1, TimeUnit.MILLISECONDS));
        log.val("poll(0) empty", () -> q.poll(0, TimeUnit.MILLISECONDS));
        log.p("%s size %s remaining %s", q, q.size(), q.remainingCapacity());
    }

    static void linkedEdges(Log log) throws Exception {
        // new LinkedBlockingQueue(0) throws IllegalArgumentException; loom's capacity <= 0 is
        // the no-argument constructor (DESIGN.md): not compared
        LinkedBlockingQueue<String> unbounded = new LinkedBlockingQueue<>();
        log.p("unbounded remaining %s", unbounded.remainingCapacity());
        LinkedBlockingQueue<String> q = new LinkedBlockingQueue<>(1);
        q.put("a");
        log.val("offer b to a full queue", () -> q.offer("b"));
        log.call("add b to a full queue", () -> q.add("b"));
        log.p("%s remaining %s", q, q.remainingCapacity());
        log.val("take", q::take);
        log.val("remove() empty", q::remove);
        log.val("element empty", q::element);
        PriorityBlockingQueue<Integer> p = new PriorityBlockingQueue<>();
        log.p("priority queue remaining %s", p.remainingCapacity());
        log.p("delay queue remaining %s", new DelayQueue<Delayed>().remainingCapacity());
        log.p("transfer queue remaining %s", new LinkedTransferQueue<String>().remainingCapacity());
    }

    static void interruptOnEntry(Log log) throws Exception {
        List<BlockingQueue<String>> qs = List.of(new ArrayBlockingQueue<>(2), new LinkedBlockingQueue<>(2), new LinkedBlockingDeque<>(2));
        for (BlockingQueue<String> q : qs) {
            String kind = q.getClass().getSimpleName();
            Thread.currentThread().interrupt();
            log.call(kind + ": put with room and the status set", () -> q.put("a"));
            Thread.currentThread().interrupt();
            log.val(kind + ": offer(1 h) with room and the status set", () -> q.offer("a", 1, TimeUnit.HOURS));
            Thread.currentThread().interrupt();
            log.val(kind + ": offer with the status set", () -> q.offer("a"));
            log.p("%s: size %s interrupted %s", kind, q.size(), Thread.currentThread().isInterrupted());
            log.val(kind + ": take with an element and the status set", q::take);
            Thread.currentThread().interrupt();
            log.val(kind + ": poll(1 h) with an element and the status set", () -> q.poll(1, TimeUnit.HOURS));
            Thread.currentThread().interrupt();
            log.val(kind + ": poll with the status set", q::poll);
            log.p("%s: size %s interrupted %s", kind, q.size(), Thread.interrupted());
        }
    }

    static void blockedCallsInterrupted(Log log) throws Exception {
        ArrayBlockingQueue<String> full = new ArrayBlockingQueue<>(1);
        full.add("x");
        LinkedBlockingQueue<String> empty = new LinkedBlockingQueue<>();
        SynchronousQueue<String> sync = new SynchronousQueue<>();
        LinkedTransferQueue<String> ltq = new LinkedTransferQueue<>();
        Map<String, Log.Action> calls = new LinkedHashMap<>();
        calls.put("put on a full ArrayBlockingQueue", () -> full.put("y"));
        calls.put("take on an empty LinkedBlockingQueue", empty::take);
        calls.put("put on a SynchronousQueue", () -> sync.put("y"));
        calls.put("take on a SynchronousQueue", sync::take);
        calls.put("transfer on a LinkedTransferQueue", () -> ltq.transfer("y"));
        for (var e : calls.entrySet()) {
            Thread t = Thread.ofVirtual().start(() -> {
                log.call(e.getKey() + ", interrupted", e.getValue());
                log.p("interrupted after: %s", Thread.currentThread().isInterrupted());
            });
            Sync.awaitState(log, t, Thread.State.WAITING);
            t.interrupt();
            t.join();
        }
        log.p("full %s empty %s sync %s transfer queue %s", full, empty, sync, ltq);
    }

    /** Blocks one producer after another in put on a full (or hand-off) queue, each waiting
     *  before the next starts, then takes n elements: the order shows whom q served first. */
    static List<String> producersServed(Log log, BlockingQueue<String> q, int n) throws Exception {
        List<Thread> ts = new ArrayList<>();
        for (String name : List.of("p1", "p2", "p3")) {
            Thread t = Thread.ofVirtual().start(() -> { try { q.put(name); } catch (InterruptedException e) { } });
            Sync.awaitState(log, t, Thread.State.WAITING);
            ts.add(t);
        }
        List<String> got = new ArrayList<>();
        for (int i = 0; i < n; i++) got.add(q.take());
        Sync.join(log, ts.toArray(new Thread[0]));
        return got;
    }

    static void arrayFairProducers(Log log) throws Exception {
        ArrayBlockingQueue<String> q = new ArrayBlockingQueue<>(1, true);
        q.put("first");
        log.p("taken %s", producersServed(log, q, 4));
    }

    static void drainTo(Log log) throws Exception {
        LinkedBlockingQueue<Integer> q = new LinkedBlockingQueue<>(List.of(1, 2, 3, 4, 5));
        List<Integer> out = new ArrayList<>();
        log.p("drainTo(max 2) %s -> %s, left %s", q.drainTo(out, 2), out, q);
        log.p("drainTo(max 0) %s", q.drainTo(out, 0));
        log.p("drainTo(all) %s -> %s, left %s", q.drainTo(out), out, q);
        ArrayBlockingQueue<String> full = new ArrayBlockingQueue<>(2, false, List.of("a", "b"));
        Thread putter = Thread.ofVirtual().start(() -> { try { full.put("c"); } catch (InterruptedException e) { } });
        Sync.awaitState(log, putter, Thread.State.WAITING);
        List<String> drained = new ArrayList<>();
        full.drainTo(drained);
        putter.join();
        log.p("drained %s; the blocked putter went on: %s", drained, full);
    }

    static void dequeOps(Log log) throws Exception {
        LinkedBlockingDeque<String> d = new LinkedBlockingDeque<>(3);
        d.addFirst("a");
        d.addLast("b");
        log.val("offerFirst c", () -> d.offerFirst("c"));
        log.val("offerLast d to a full deque", () -> d.offerLast("d"));
        log.call("addFirst d to a full deque", () -> d.addFirst("d"));
        log.call("push d to a full deque", () -> d.push("d"));
        log.val("offerFirst(d, 1 ms) to a full deque", () -> d.offerFirst("d", 1, TimeUnit.MILLISECONDS));
        log.p("%s peekFirst %s peekLast %s", d, d.peekFirst(), d.peekLast());
        List<String> back = new ArrayList<>();
        d.descendingIterator().forEachRemaining(back::add);
        log.p("descending %s", back);
        log.val("pollLast", d::pollLast);
        log.val("pop", d::pop);
        d.push("x");
        d.addLast("x");
        log.p("%s removeLastOccurrence(x) %s -> %s", d, d.removeLastOccurrence("x"), d);
        d.addLast("x");
        log.p("removeFirstOccurrence(x) %s -> %s", d.removeFirstOccurrence("x"), d);
        log.val("takeLast", d::takeLast);
        log.val("takeFirst", d::takeFirst);
        log.val("removeFirst empty", d::removeFirst);
        log.val("removeLast empty", d::removeLast);
        log.val("pop empty", d::pop);
        log.val("pollFirst empty", d::pollFirst);
        log.val("peekLast empty", d::peekLast);
        log.val("pollLast(1 ms) empty", () -> d.pollLast(1, TimeUnit.MILLISECONDS));
        Thread taker = Thread.ofVirtual().start(() -> log.val("takeLast, blocked until putFirst", d::takeLast));
        Sync.awaitState(log, taker, Thread.State.WAITING);
        d.putFirst("y");
        taker.join();
    }

    static void priorityOrder(Log log) throws Exception {
        PriorityBlockingQueue<Integer> q = new PriorityBlockingQueue<>(11, Comparator.reverseOrder());
        for (int x : new int[] {5, 1, 4, 2, 3}) q.put(x);
        log.p("size %s peek %s", q.size(), q.peek());
        List<Integer> out = new ArrayList<>();
        out.add(q.poll());
        q.drainTo(out, 2);
        log.p("poll then drainTo(max 2): %s", out);
        log.p("take %s poll %s poll %s", q.take(), q.poll(), q.poll());
        Thread taker = Thread.ofVirtual().start(() -> log.val("take, blocked until put", q::take));
        Sync.awaitState(log, taker, Thread.State.WAITING);
        q.put(7);
        taker.join();
    }

    /** A Delayed element with a fixed deadline. */
    record Item(String name, long deadlineNanos) implements Delayed {
        static Item in(String name, long millis) { return new Item(name, System.nanoTime() + millis * 1_000_000); }
        public long getDelay(TimeUnit unit) { return unit.convert(deadlineNanos - System.nanoTime(), TimeUnit.NANOSECONDS); }
        public int compareTo(Delayed o) { return Long.compare(deadlineNanos, ((Item) o).deadlineNanos); }
        public String toString() { return name; }
    }

    static void delayOrder(Log log) throws Exception {
        DelayQueue<Item> q = new DelayQueue<>();
        q.put(Item.in("later", 3_600_000));
        q.put(Item.in("expired-1s", -1000));
        q.put(Item.in("expired-3s", -3000));
        q.put(Item.in("expired-2s", -2000));
        log.p("size %s peek %s", q.size(), q.peek());
        log.p("poll %s poll %s", q.poll(), q.poll());
        List<Item> out = new ArrayList<>();
        log.p("drainTo %s -> %s", q.drainTo(out), out);
        log.val("poll with only an unexpired element", q::poll);
        log.val("poll(1 ms)", () -> q.poll(1, TimeUnit.MILLISECONDS));
        log.p("size %s peek %s", q.size(), q.peek());
        log.val("remove() with only an unexpired element", q::remove);
        log.p("size %s", q.size());
    }

    static void synchronousEdges(Log log) throws Exception {
        SynchronousQueue<String> q = new SynchronousQueue<>();
        log.p("size %s empty %s remaining %s peek %s poll %s contains %s %s", q.size(), q.isEmpty(), q.remainingCapacity(), q.peek(), q.poll(), q.contains("x"), q);
        log.val("offer without a taker", () -> q.offer("x"));
        log.call("add without a taker", () -> q.add("x"));
        log.val("offer(1 ms) without a taker", () -> q.offer("x", 1, TimeUnit.MILLISECONDS));
        log.val("poll(1 ms) without a putter", () -> q.poll(1, TimeUnit.MILLISECONDS));
        log.val("element", q::element);
        String[] out = new String[2];
        Thread taker = Thread.ofVirtual().start(() -> out[0] = Ex.val(q::take));
        Sync.awaitState(log, taker, Thread.State.WAITING);
        String offered = Ex.val(() -> q.offer("handed"));
        taker.join();
        log.p("offer with a taker waiting -> %s; take -> %s", offered, out[0]);
        Thread putter = Thread.ofVirtual().start(() -> out[1] = Ex.of(() -> q.put("put")));
        Sync.awaitState(log, putter, Thread.State.WAITING);
        log.p("a putter waits: size %s peek %s", q.size(), q.peek());
        String polled = Ex.val(q::poll);
        putter.join();
        log.p("poll with a putter waiting -> %s; put -> %s", polled, out[1]);
    }

    static void synchronousFairOrder(Log log) throws Exception {
        log.p("fair hand-off order %s", producersServed(log, new SynchronousQueue<>(true), 3));
    }

    static void transfer(Log log) throws Exception {
        LinkedTransferQueue<String> q = new LinkedTransferQueue<>();
        log.val("tryTransfer without a consumer", () -> q.tryTransfer("x"));
        log.val("tryTransfer(1 ms) without a consumer", () -> q.tryTransfer("x", 1, TimeUnit.MILLISECONDS));
        log.p("size %s hasWaitingConsumer %s", q.size(), q.hasWaitingConsumer());
        String[] out = new String[2];
        Thread taker = Thread.ofVirtual().start(() -> out[0] = Ex.val(q::take));
        Sync.awaitState(log, taker, Thread.State.WAITING);
        log.p("consumer waiting: hasWaitingConsumer %s count %s", q.hasWaitingConsumer(), q.getWaitingConsumerCount());
        String tried = Ex.val(() -> q.tryTransfer("handed"));
        taker.join();
        log.p("tryTransfer with a consumer waiting -> %s; take -> %s", tried, out[0]);
        Thread transferrer = Thread.ofVirtual().start(() -> out[1] = Ex.of(() -> q.transfer("transferred")));
        Sync.awaitState(log, transferrer, Thread.State.WAITING);
        log.p("a transfer waits: size %s peek %s", q.size(), q.peek());
        String taken = Ex.val(q::take);
        transferrer.join();
        log.p("take -> %s; transfer -> %s", taken, out[1]);
        q.put("p");
        log.val("offer", () -> q.offer("o"));
        log.p("put and offer never block: %s", q);
    }

    static void removeContains(Log log) throws Exception {
        LinkedBlockingQueue<String> q = new LinkedBlockingQueue<>(List.of("a", "b", "a", "c"));
        log.p("remove(a) %s -> %s", q.remove("a"), q);
        log.p("remove(z) %s contains a %s contains z %s", q.remove("z"), q.contains("a"), q.contains("z"));
        q.add("a");
        log.p("removeIf(a) %s -> %s", q.removeIf("a"::equals), q);
        log.p("toArray %s", Arrays.toString(q.toArray()));
        List<String> seen = new ArrayList<>();
        for (String s : q) seen.add(s);
        log.p("iteration %s", seen);
        q.clear();
        log.p("clear: %s size %s", q, q.size());
    }
}
