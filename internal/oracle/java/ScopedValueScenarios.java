// ScopedValue (JEP 506, final in JDK 25): the twins of ../scoped_test.go.
import java.util.*;
import java.util.concurrent.*;
import java.util.concurrent.atomic.*;

final class ScopedValueScenarios {
    static void register(Map<String, Oracle.Scenario> m) {
        m.put("sv_unbound_and_bound", ScopedValueScenarios::unboundAndBound);
        m.put("sv_rebinding_nested", ScopedValueScenarios::rebindingNested);
        m.put("sv_call_returns_and_throws", ScopedValueScenarios::callReturnsAndThrows);
        m.put("sv_two_bindings_and_carrier_get", ScopedValueScenarios::twoBindings);
        m.put("sv_not_inherited_by_threads", ScopedValueScenarios::notInherited);
    }

    static final ScopedValue<String> K = ScopedValue.newInstance();
    static final ScopedValue<Integer> A = ScopedValue.newInstance(), B = ScopedValue.newInstance();

    static void unboundAndBound(Log log) throws Exception {
        log.p("unbound: isBound %s orElse %s", K.isBound(), K.orElse("other"));
        log.val("get unbound", K::get);
        log.val("orElseThrow unbound", () -> K.orElseThrow(() -> new Boom("unbound")));
        ScopedValue.where(K, "v").run(() -> log.p("inside run: get %s isBound %s orElse %s orElseThrow %s", K.get(), K.isBound(), K.orElse("other"), Ex.val(() -> K.orElseThrow(() -> new Boom("unbound")))));
        log.p("after run: isBound %s", K.isBound());
    }

    static void rebindingNested(Log log) throws Exception {
        ScopedValue.where(K, "outer").run(() -> {
            ScopedValue.where(K, "inner").run(() -> log.p("nested: %s", K.get()));
            log.p("back in the outer run: %s", K.get());
        });
    }

    static void callReturnsAndThrows(Log log) throws Exception {
        log.p("call returned %s", ScopedValue.where(K, "called").call(() -> K.get() + "!"));
        log.val("call whose op throws", () -> ScopedValue.where(K, "throwing").call(() -> { throw new Boom("in call"); }));
        log.p("after the throw: isBound %s", K.isBound());
        log.val("run whose op throws", () -> { ScopedValue.where(K, "throwing").run(() -> { throw new BoomRuntime("in run"); }); return "ok"; });
        log.p("after the throw: isBound %s", K.isBound());
    }

    static void twoBindings(Log log) throws Exception {
        ScopedValue.Carrier c = ScopedValue.where(A, 1).where(B, 2);
        c.run(() -> log.p("both: %s %s", A.get(), B.get()));
        ScopedValue.where(A, 1).where(A, 3).run(() -> log.p("a later mapping of the same key wins: %s", A.get()));
        log.p("carrier.get(A) %s carrier.get(B) %s", c.get(A), c.get(B));
        log.val("carrier.get of a key it does not bind", () -> c.get(K));
    }

    static void notInherited(Log log) throws Exception {
        ScopedValue.where(K, "bound").call(() -> {
            AtomicReference<String> v = new AtomicReference<>(), p = new AtomicReference<>();
            Thread.ofVirtual().start(() -> v.set("virtual thread: isBound " + K.isBound())).join();
            Thread.ofPlatform().start(() -> p.set("platform thread: isBound " + K.isBound())).join();
            String e;
            try (ExecutorService es = Executors.newVirtualThreadPerTaskExecutor()) {
                e = es.submit(() -> "executor task: isBound " + K.isBound()).get();
            }
            log.p("%s; %s; %s; the binding thread: %s", v.get(), p.get(), e, K.get());
            return null;
        });
    }
}
