// loom demo's say-hello-world experiment on the JDK: the Go tour's `go say("world");
// say("hello")` with a virtual thread.
// Usage: java SayHelloWorld.java
import java.time.Duration;
import java.util.*;

public class SayHelloWorld {
    static final List<String> out = Collections.synchronizedList(new ArrayList<>());

    static void say(String w) {
        for (int i = 0; i < 5; i++) {
            try { Thread.sleep(Duration.ofMillis(100)); } catch (InterruptedException e) { }
            out.add(w);
        }
    }

    public static void main(String[] args) throws Exception {
        long t0 = System.nanoTime();
        Thread world = Thread.ofVirtual().start(() -> say("world"));
        say("hello");
        world.join();
        long ms = (System.nanoTime() - t0) / 1_000_000;
        long h = out.stream().filter("hello"::equals).count();
        System.out.println("figure elapsed_ms " + ms);
        System.out.printf("text %d × hello and %d × world interleaved (%s ...) in %,d ms%n", h, out.size() - h, String.join(" ", out.subList(0, 4)), ms);
    }
}
