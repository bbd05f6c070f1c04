// loom demo's threadlocal experiment on the JDK: a ThreadLocal set in two virtual threads and
// in main; each sees only its own value, and main sees none (null) first.
// Usage: java ThreadLocals.java
import java.time.Duration;
import java.util.*;

public class ThreadLocals {
    public static void main(String[] args) throws Exception {
        ThreadLocal<String> tl = new ThreadLocal<>();
        String mainFirst = tl.get();
        String[] seen = new String[2];
        List<Thread> ts = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            int k = i;
            String v = "virtual-" + (i + 1);
            ts.add(Thread.ofVirtual().start(() -> {
                tl.set(v);
                try { Thread.sleep(Duration.ofMillis(10)); } catch (InterruptedException e) { }
                seen[k] = tl.get();
            }));
        }
        tl.set("main");
        for (Thread t : ts) t.join();
        System.out.printf("text main first %s, then \"%s\"; threads saw \"%s\" and \"%s\"%n", mainFirst, tl.get(), seen[0], seen[1]);
    }
}
