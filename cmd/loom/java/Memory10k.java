// loom demo's memory-10k experiment on the JDK: N sleeping virtual threads, then N sleeping
// platform threads, and what each costs once they all sleep: for virtual threads the heap in use
// after a GC (their stacks live in the heap), for platform threads the growth of the resident set
// (their stacks are OS memory; Java's published 19.2 GB is the 1 MB each *reserves*).
// Usage: java Memory10k.java N
import java.lang.management.*;
import java.nio.file.*;
import java.util.*;

public class Memory10k {
    public static void main(String[] args) throws Exception {
        int n = Integer.parseInt(args[0]);
        MemoryMXBean mem = ManagementFactory.getMemoryMXBean();
        long heap0 = settledHeap(mem), rss0 = rss();
        List<Thread> vs = sleepers(Thread.ofVirtual(), n);
        long vHeap = settledHeap(mem) - heap0, vRss = rss() - rss0;
        stop(vs);
        long rss1 = rss();
        List<Thread> ps = sleepers(Thread.ofPlatform().daemon(), n);
        long pRss = rss() - rss1;
        stop(ps);
        double vPer = (double) vHeap / n, pPer = (double) pRss / n;
        System.out.println("figure virtual_bytes_per_thread " + vPer);
        System.out.println("figure platform_bytes_per_thread " + pPer);
        System.out.println("figure virtual_rss_bytes " + vRss);
        System.out.printf("text %.1f MB vs %.0f MB (%.1f KB vs %.1f KB a thread: virtual heap after GC, platform RSS)%n",
                vHeap / 1e6, pRss / 1e6, vPer / 1e3, pPer / 1e3);
    }

    static List<Thread> sleepers(Thread.Builder b, int n) throws InterruptedException {
        List<Thread> ts = new ArrayList<>(n);
        for (int i = 0; i < n; i++) ts.add(b.start(() -> { try { Thread.sleep(3_600_000); } catch (InterruptedException e) { } }));
        for (Thread t : ts) while (t.getState() != Thread.State.TIMED_WAITING) Thread.sleep(1);
        return ts;
    }

    static void stop(List<Thread> ts) throws InterruptedException {
        for (Thread t : ts) t.interrupt();
        for (Thread t : ts) t.join();
    }

    static long settledHeap(MemoryMXBean mem) {
        System.gc();
        return mem.getHeapMemoryUsage().getUsed();
    }

    static long rss() {
        try {
            for (String l : Files.readAllLines(Path.of("/proc/self/status")))
                if (l.startsWith("VmRSS:")) return Long.parseLong(l.substring(6).trim().split("\\s+")[0]) * 1024;
        } catch (Exception e) { }
        return 0;
    }
}
