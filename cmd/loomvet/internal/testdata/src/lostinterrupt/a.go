package lostinterrupt

import (
	"time"

	"github.com/loomgo/loom/executors"
	"github.com/loomgo/loom/locks"
	"github.com/loomgo/loom/queue"
	"github.com/loomgo/loom/structured"
	"github.com/loomgo/loom/thread"
)

func task() {
	thread.Sleep(time.Second) // want `the error of thread.Sleep is dropped`
}

func worker(q *queue.LinkedBlockingQueue[int]) error {
	q.Take()            // want `the error of \(\*queue.LinkedBlockingQueue\).Take is dropped`
	q.Put(1)            // want `the error of \(\*queue.LinkedBlockingQueue\).Put is dropped`
	_ = thread.Sleep(1) // want `the error of thread.Sleep is dropped`
	return nil
}

func values(t *thread.Thread, f executors.Future[string], l *locks.ReentrantLock) (string, int, error) {
	t.Join()              // want `the error of \(\*thread.Thread\).Join is dropped`
	f.Get()               // want `the error of executors.Future.Get is dropped`
	l.LockInterruptibly() // want `the error of \(\*locks.ReentrantLock\).LockInterruptibly is dropped`
	return "", 0, nil
}

func noFix(q queue.BlockingQueue[int], c *locks.Condition, m *locks.Monitor) int {
	v, _ := q.Take()                     // want `the error of queue.BlockingQueue.Take is dropped`
	ok, _ := c.AwaitTimeout(time.Second) // want `the error of \(\*locks.Condition\).AwaitTimeout is dropped`
	_, _, _ = q.PollTimeout(time.Second) // want `the error of queue.BlockingQueue.PollTimeout is dropped`
	defer m.Wait()                       // want `the error of \(\*locks.Monitor\).Wait is dropped`
	if ok {
		return v
	}
	return 0
}

func more(l *locks.CountDownLatch, s *locks.Semaphore, b *locks.CyclicBarrier, sc *structured.Scope[any, struct{}], es executors.ExecutorService) {
	l.Await()                        // want `the error of \(\*locks.CountDownLatch\).Await is dropped`
	s.Acquire()                      // want `the error of \(\*locks.Semaphore\).Acquire is dropped`
	b.Await()                        // want `the error of \(\*locks.CyclicBarrier\).Await is dropped`
	sc.Join()                        // want `the error of \(\*structured.Scope\).Join is dropped`
	es.AwaitTermination(time.Second) // want `the error of executors.ExecutorService.AwaitTermination is dropped`
}

// Handled errors, and calls that are not interruptible, are not reported.
func fine(q *queue.LinkedBlockingQueue[int], dq *queue.DelayQueue[int], cf *executors.CompletableFuture[int], es executors.ExecutorService, l *locks.ReentrantLock) error {
	if err := thread.Sleep(time.Millisecond); err != nil {
		return err
	}
	v, err := q.Take()
	if err != nil {
		return err
	}
	q.Add(v)        // never waits: not interruptible
	q.Offer(v)      // no error at all
	dq.Put(v)       // documented as never reporting an interrupt
	cf.Join()       // documented as not interruptible
	es.Close()      // returns nil
	es.Execute(nil) // a rejection, not an interrupt
	l.Lock()        // Lock is not interruptible in Java either
	l.Unlock()
	thread.Yield()
	return nil
}
