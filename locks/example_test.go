package locks_test

import (
	"fmt"
	"time"

	"github.com/loomgo/loom/locks"
	"github.com/loomgo/loom/thread"
)

// A counter shared by virtual threads, as Java's lock.lock(); try { ... } finally { lock.unlock(); }.
func ExampleReentrantLock() {
	var lock locks.ReentrantLock
	count := 0
	var ths []*thread.Thread
	for range 100 {
		ths = append(ths, thread.StartVirtualThread(func() {
			lock.Lock()
			defer lock.Unlock()
			count++
		}))
	}
	for _, th := range ths {
		th.Join()
	}
	fmt.Println(count)
	// Output: 100
}

// TryLock never waits; TryLockTimeout waits a bounded time.
func ExampleReentrantLock_tryLock() {
	var lock locks.ReentrantLock
	lock.Lock()
	thread.StartVirtualThread(func() {
		fmt.Println("tryLock:", lock.TryLock())
		ok, err := lock.TryLockTimeout(10 * time.Millisecond)
		fmt.Println("tryLock(10ms):", ok, err)
	}).Join()
	lock.Unlock()
	// Output:
	// tryLock: false
	// tryLock(10ms): false <nil>
}

// A bounded buffer with two conditions, the example of Java's Condition javadoc.
func ExampleCondition() {
	var lock locks.ReentrantLock
	notFull, notEmpty := lock.NewCondition(), lock.NewCondition()
	var items []int
	const capacity = 2

	put := func(x int) {
		lock.Lock()
		defer lock.Unlock()
		for len(items) == capacity {
			notFull.AwaitUninterruptibly()
		}
		items = append(items, x)
		notEmpty.Signal()
	}
	take := func() int {
		lock.Lock()
		defer lock.Unlock()
		for len(items) == 0 {
			notEmpty.AwaitUninterruptibly()
		}
		x := items[0]
		items = items[1:]
		notFull.Signal()
		return x
	}

	producer := thread.StartVirtualThread(func() {
		for i := 1; i <= 5; i++ {
			put(i)
		}
	})
	for range 5 {
		fmt.Print(take(), " ")
	}
	producer.Join()
	fmt.Println()
	// Output: 1 2 3 4 5
}

// Object.wait and notifyAll: a guarded block.
func ExampleMonitor_wait() {
	var m locks.Monitor
	ready := false
	waiter := thread.StartVirtualThread(func() {
		m.Synchronized(func() {
			for !ready {
				m.Wait()
			}
			fmt.Println("ready")
		})
	})
	m.Synchronized(func() {
		ready = true
		m.NotifyAll()
	})
	waiter.Join()
	// Output: ready
}

// synchronized (account) { ... } on an arbitrary object.
func ExampleMonitorOf() {
	type account struct{ balance int }
	acct := &account{}
	var ths []*thread.Thread
	for range 10 {
		ths = append(ths, thread.StartVirtualThread(func() {
			locks.MonitorOf(acct).Synchronized(func() { acct.balance += 10 })
		}))
	}
	for _, th := range ths {
		th.Join()
	}
	fmt.Println(acct.balance)
	// Output: 100
}

// At most two threads inside at once.
func ExampleSemaphore() {
	sem := locks.NewSemaphore(2, false)
	var lock locks.ReentrantLock
	inside, most := 0, 0
	var ths []*thread.Thread
	for range 10 {
		ths = append(ths, thread.StartVirtualThread(func() {
			sem.AcquireUninterruptibly()
			defer sem.Release()
			lock.Lock()
			inside++
			most = max(most, inside)
			lock.Unlock()
			thread.Sleep(time.Millisecond)
			lock.Lock()
			inside--
			lock.Unlock()
		}))
	}
	for _, th := range ths {
		th.Join()
	}
	fmt.Println("never more than 2 inside:", most <= 2, "; permits left:", sem.AvailablePermits())
	// Output: never more than 2 inside: true ; permits left: 2
}

// A start signal and a done signal, as in Java's CountDownLatch javadoc.
func ExampleCountDownLatch() {
	start := locks.NewCountDownLatch(1)
	done := locks.NewCountDownLatch(3)
	for range 3 {
		thread.StartVirtualThread(func() {
			start.Await()
			done.CountDown()
		})
	}
	fmt.Println("before start:", done.Count())
	start.CountDown()
	done.Await()
	fmt.Println("after:", done.Count())
	// Output:
	// before start: 3
	// after: 0
}

// A read-mostly cache; the writer downgrades to a read lock to use what it wrote.
func ExampleReentrantReadWriteLock() {
	var rw locks.ReentrantReadWriteLock
	cache := map[string]string{}

	get := func(k string) (string, bool) {
		rw.ReadLock().Lock()
		defer rw.ReadLock().Unlock()
		v, ok := cache[k]
		return v, ok
	}
	rw.WriteLock().Lock()
	cache["lang"] = "Go"
	rw.ReadLock().Lock() // downgrade: take the read lock before releasing the write lock
	rw.WriteLock().Unlock()
	fmt.Println(cache["lang"], rw.IsWriteLocked(), rw.ReadHoldCount())
	rw.ReadLock().Unlock()

	v, ok := get("lang")
	fmt.Println(v, ok)
	// Output:
	// Go false 1
	// Go true
}

// Three workers meet at a barrier after each phase; the last to arrive runs the barrier action.
func ExampleCyclicBarrier() {
	phase := 0
	barrier := locks.NewCyclicBarrier(3, func() {
		phase++
		fmt.Println("phase", phase, "done")
	})
	var ths []*thread.Thread
	for range 3 {
		ths = append(ths, thread.StartVirtualThread(func() {
			for range 2 {
				if _, err := barrier.Await(); err != nil {
					fmt.Println(err)
				}
			}
		}))
	}
	for _, th := range ths {
		th.Join()
	}
	// Output:
	// phase 1 done
	// phase 2 done
}

// An interrupt makes a waiting LockInterruptibly give up, as InterruptedException does in Java.
func ExampleReentrantLock_lockInterruptibly() {
	var lock locks.ReentrantLock
	lock.Lock()
	waiter := thread.StartVirtualThread(func() {
		if err := lock.LockInterruptibly(); err != nil {
			fmt.Println("gave up:", err)
			return
		}
		lock.Unlock()
	})
	for !lock.HasQueuedThread(waiter) {
		thread.Sleep(time.Millisecond)
	}
	waiter.Interrupt()
	waiter.Join()
	lock.Unlock()
	// Output: gave up: thread: interrupted
}
