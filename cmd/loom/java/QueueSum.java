// loom demo's queue-sum experiment on the JDK: the Go tour's channel sum, with two virtual
// threads and a SynchronousQueue (an unbuffered channel).
// Usage: java QueueSum.java
import java.util.concurrent.*;

public class QueueSum {
    public static void main(String[] args) throws Exception {
        int[] s = {7, 2, 8, -9, 4, 0};
        SynchronousQueue<Integer> q = new SynchronousQueue<>();
        Thread.ofVirtual().start(() -> sum(s, 0, s.length / 2, q));
        Thread.ofVirtual().start(() -> sum(s, s.length / 2, s.length, q));
        int x = q.take(), y = q.take();
        System.out.printf("text %d %d %d%n", x, y, x + y);
    }

    static void sum(int[] s, int from, int to, SynchronousQueue<Integer> q) {
        int total = 0;
        for (int i = from; i < to; i++) total += s[i];
        try { q.put(total); } catch (InterruptedException e) { }
    }
}
