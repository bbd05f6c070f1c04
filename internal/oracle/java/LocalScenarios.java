// ThreadLocal and InheritableThreadLocal: the twins of ../threadlocal_test.go. Java's null (no
// value) is loom's zero value; both sides log it as <none>.
import java.util.*;
import java.util.concurrent.*;
import java.util.concurrent.atomic.*;

final class LocalScenarios {
    static void register(Map<String, Oracle.Scenario> m) {
        m.put("tl_initial_per_thread", LocalScenarios::initialPerThread);
        m.put("tl_isolation", LocalScenarios::isolation);
        m.put("tl_inheritable", LocalScenarios::inheritable);
        m.put("tl_pool_threads_keep_values", LocalScenarios::poolThreadsKeepValues);
    }

    static String none(String v) { return v == null ? "<none>" : v; }

    static void initialPerThread(Log log) throws Exception {
        AtomicInteger calls = new AtomicInteger();
        ThreadLocal<Integer> tl = ThreadLocal.withInitial(calls::incrementAndGet);
        log.p("get %s, get %s", tl.get(), tl.get());
        tl.remove();
        log.p("after remove: get %s", tl.get());
        tl.set(42);
        log.p("after set: get %s", tl.get());
        AtomicInteger other = new AtomicInteger();
        Thread.ofVirtual().start(() -> other.set(tl.get())).join();
        log.p("another thread: %s; initial calls %s", other.get(), calls.get());
    }

    static void isolation(Log log) throws Exception {
        ThreadLocal<String> tl = new ThreadLocal<>();
        log.p("first: %s", none(tl.get()));
        tl.set("scenario");
        List<String> seen = Collections.synchronizedList(new ArrayList<>());
        List<Thread> ts = new ArrayList<>();
        for (String name : List.of("v1", "v2")) {
            ts.add(Thread.ofVirtual().start(() -> {
                String before = none(tl.get());
                tl.set(name);
                try { Thread.sleep(1); } catch (InterruptedException e) { }
                seen.add(before + " -> " + tl.get());
            }));
        }
        Sync.join(log, ts.toArray(new Thread[0]));
        Collections.sort(seen);
        log.p("threads saw %s; the scenario thread still %s", seen, tl.get());
    }

    static void inheritable(Log log) throws Exception {
        InheritableThreadLocal<String> plain = new InheritableThreadLocal<>();
        InheritableThreadLocal<String> derived = new InheritableThreadLocal<>() {
            @Override protected String childValue(String parent) { return parent + "+child"; }
        };
        plain.set("parent");
        derived.set("parent");
        AtomicReference<String> r = new AtomicReference<>();
        Thread unstarted = Thread.ofVirtual().unstarted(() -> r.set(plain.get() + ", " + derived.get()));
        plain.set("changed after the child was created");
        unstarted.start();
        unstarted.join();
        log.p("virtual child: %s", r.get());
        plain.set("parent");
        Thread.ofPlatform().start(() -> r.set(plain.get() + ", " + derived.get())).join();
        log.p("platform child: %s", r.get());
        Thread.ofVirtual().inheritInheritableThreadLocals(false).start(() -> r.set(none(plain.get()) + ", " + none(derived.get()))).join();
        log.p("inheritInheritableThreadLocals(false): %s", r.get());
        Thread.ofVirtual().start(() -> {
            plain.set("set by the child");
            try { Thread.ofVirtual().start(() -> r.set(plain.get())).join(); } catch (InterruptedException e) { }
        }).join();
        log.p("grandchild: %s; the parent still %s", r.get(), plain.get());
        plain.remove();
        log.p("after remove: %s", none(plain.get()));
    }

    static void poolThreadsKeepValues(Log log) throws Exception {
        ThreadLocal<String> tl = new ThreadLocal<>();
        try (ExecutorService single = Executors.newSingleThreadExecutor()) {
            single.submit(() -> tl.set("left by task 1")).get();
            log.p("single-thread pool, task 2 sees: %s", none(single.submit(() -> tl.get()).get()));
        }
        try (ExecutorService perTask = Executors.newVirtualThreadPerTaskExecutor()) {
            perTask.submit(() -> tl.set("left by task 1")).get();
            log.p("thread-per-task, task 2 sees: %s", none(perTask.submit(() -> tl.get()).get()));
        }
    }
}
