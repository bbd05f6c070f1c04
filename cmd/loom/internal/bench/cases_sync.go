package bench

//lint:file-ignore SA2001 the lock rows measure the cost of an empty lock+unlock itself, as the Java rows do.

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/loomgo/loom/executors"
	"github.com/loomgo/loom/locks"
	"github.com/loomgo/loom/queue"
	"github.com/loomgo/loom/thread"
)

func lockCases() []Case {
	const workers = 8
	return []Case{
		{Group: "uncontended lock+unlock", Name: "sync.Mutex", F: func(b *testing.B) {
			var mu sync.Mutex
			for b.Loop() {
				mu.Lock()
				mu.Unlock()
			}
		}},
		{Group: "uncontended lock+unlock", Name: "locks.ReentrantLock", Note: "on a virtual thread", Java: "reentrantlock-uncontended", Goal: 1.3, JavaGoal: 1, F: func(b *testing.B) {
			var l locks.ReentrantLock
			onVirtualThread(b, func(n int) {
				for range n {
					l.Lock()
					l.Unlock()
				}
			})
		}},
		{Group: "uncontended lock+unlock", Name: "locks.Monitor (synchronized)", Note: "on a virtual thread", Java: "synchronized-uncontended", Goal: 1.3, F: func(b *testing.B) {
			var m locks.Monitor
			onVirtualThread(b, func(n int) {
				for range n {
					m.Enter()
					m.Exit()
				}
			})
		}},

		{Group: "contended: 2 goroutines increment a counter", Name: "sync.Mutex", Note: "per increment", F: func(b *testing.B) {
			var mu sync.Mutex
			count := 0
			contend(b.N, 2, goroutine, func() { mu.Lock(); count++; mu.Unlock() })
		}},
		{Group: "contended: 2 goroutines increment a counter", Name: "locks.ReentrantLock", Java: "reentrantlock-contended-2", Note: "per increment", Goal: 1.6, F: func(b *testing.B) {
			var l locks.ReentrantLock
			count := 0
			contend(b.N, 2, goroutine, func() { l.Lock(); count++; l.Unlock() })
		}},

		{Group: "contended: 8 threads increment a counter", Name: "sync.Mutex, goroutines", Note: "per increment", F: func(b *testing.B) {
			var mu sync.Mutex
			count := 0
			contend(b.N, workers, goroutine, func() { mu.Lock(); count++; mu.Unlock() })
		}},
		{Group: "contended: 8 threads increment a counter", Name: "locks.ReentrantLock, virtual threads", Java: "reentrantlock-contended-8-virtual", Note: "per increment", F: func(b *testing.B) {
			var l locks.ReentrantLock
			count := 0
			onVirtualThread(b, func(n int) {
				contend(n, workers, func(f func()) func() {
					t := thread.StartVirtualThread(f)
					return func() { join(b, t) }
				}, func() { l.Lock(); count++; l.Unlock() })
			})
		}},
	}
}

// goroutine starts f on a goroutine of its own (which leaves loom alone when done) and returns
// a function that waits for it.
func goroutine(f func()) func() {
	var wg sync.WaitGroup
	wg.Go(func() {
		defer thread.Detach()
		f()
	})
	return wg.Wait
}

// contend runs n calls of op split over workers started with start, and waits for them.
func contend(n, workers int, start func(func()) (wait func()), op func()) {
	var next atomic.Int64
	total := int64(n)
	waits := make([]func(), workers)
	for i := range waits {
		waits[i] = start(func() {
			for next.Add(1) <= total {
				op()
			}
		})
	}
	for _, w := range waits {
		w()
	}
}

func queueCases() []Case {
	const capacity = 128
	return []Case{
		{Group: "1 producer → 1 consumer, capacity 128", Name: "buffered channel, goroutines", Note: "per element", F: chanTransfer},
		{Group: "1 producer → 1 consumer, capacity 128", Name: "queue.ArrayBlockingQueue, virtual threads", Java: "arrayblockingqueue-1-to-1", Note: "per element", Goal: 1.5, F: func(b *testing.B) {
			q := queue.NewArrayBlockingQueue[int](capacity, false)
			onVirtualThread(b, func(n int) { transfer(b, n, thread.OfVirtual(), q.Put, q.Take) })
		}},
		{Group: "1 producer → 1 consumer, capacity 128", Name: "queue.LinkedBlockingQueue, virtual threads", Java: "linkedblockingqueue-1-to-1", Note: "per element", F: func(b *testing.B) {
			q := queue.NewLinkedBlockingQueue[int](capacity)
			onVirtualThread(b, func(n int) { transfer(b, n, thread.OfVirtual(), q.Put, q.Take) })
		}},

		// The same on one core: GOMAXPROCS=1 for the channel, one carrier for the queue (and
		// for its Java twin).
		{Group: "1 producer → 1 consumer, capacity 128, GOMAXPROCS=1", Name: "buffered channel, goroutines", Note: "per element", F: oneProc(chanTransfer)},
		{Group: "1 producer → 1 consumer, capacity 128, GOMAXPROCS=1", Name: "queue.ArrayBlockingQueue, virtual threads on 1 carrier", Note: "per element", Goal: 1.5,
			Java: "arrayblockingqueue-1-to-1", JavaOptions: []string{"-Djdk.virtualThreadScheduler.parallelism=1"}, F: oneProc(func(b *testing.B) {
				s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 1})
				defer s.Close()
				q := queue.NewArrayBlockingQueue[int](capacity, false)
				transfer(b, b.N, thread.OfVirtual().Scheduler(s), q.Put, q.Take)
			})},
	}
}

// chanTransfer moves b.N ints from a goroutine to another through a buffered channel.
func chanTransfer(b *testing.B) {
	ch := make(chan int, 128)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range b.N {
			<-ch
		}
	}()
	for i := range b.N {
		ch <- i
	}
	<-done
}

// oneProc runs f with GOMAXPROCS=1.
func oneProc(f func(b *testing.B)) func(b *testing.B) {
	return func(b *testing.B) {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
		f(b)
	}
}

// transfer moves n ints from a producer to a consumer, two virtual threads made by vb.
func transfer(b *testing.B, n int, vb *thread.VirtualBuilder, put func(int) error, take func() (int, error)) {
	c := vb.Start(func() {
		for range n {
			take()
		}
	})
	p := vb.Start(func() {
		for i := range n {
			put(i)
		}
	})
	join(b, p, c)
}

func executorCases() []Case {
	return []Case{
		{Group: "submit a task and wait for its result", Name: "go + channel", F: func(b *testing.B) {
			for i := 0; b.Loop(); i++ {
				ch := make(chan int, 1)
				go func() { ch <- i * 2 }()
				<-ch
			}
		}},
		{Group: "submit a task and wait for its result", Name: "virtual thread per task executor, Submit+Get", Note: "from a virtual thread", Java: "virtual-executor-submit-get", F: func(b *testing.B) {
			es := executors.NewVirtualThreadPerTaskExecutor()
			defer es.Close()
			onVirtualThread(b, func(n int) { submitGet(b, es, n) })
		}},
		{Group: "submit a task and wait for its result", Name: "fixed pool of 2 platform threads, Submit+Get", Note: "from a virtual thread", Java: "fixed-pool-2-submit-get",
			JavaRemark: "each op wakes a pool thread parked in the OS, then the waiting virtual thread: OS-level wake-ups, in Java as in loom",
			F: func(b *testing.B) {
				es := executors.NewFixedThreadPool(2)
				defer es.Close()
				onVirtualThread(b, func(n int) { submitGet(b, es, n) })
			}},
	}
}

// submitGet submits n tasks to es, one at a time, and waits for each one's result.
func submitGet(b *testing.B, es executors.ExecutorService, n int) {
	for i := range n {
		f, err := executors.Submit(es, func() (int, error) { return i * 2, nil })
		if err == nil {
			_, err = f.Get()
		}
		if err != nil {
			b.Error(err)
			return
		}
	}
}
