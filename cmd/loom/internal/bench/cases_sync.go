package bench

import (
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
		{Group: "uncontended lock+unlock", Name: "locks.ReentrantLock", Java: "reentrantlock-uncontended", F: func(b *testing.B) {
			var l locks.ReentrantLock
			for b.Loop() {
				l.Lock()
				l.Unlock()
			}
		}},
		{Group: "uncontended lock+unlock", Name: "locks.Monitor (synchronized)", Java: "synchronized-uncontended", F: func(b *testing.B) {
			var m locks.Monitor
			for b.Loop() {
				m.Enter()
				m.Exit()
			}
		}},

		{Group: "contended: 8 threads increment a counter", Name: "sync.Mutex, goroutines", Note: "per increment", F: func(b *testing.B) {
			var mu sync.Mutex
			n := 0
			contend(b, workers, func(f func()) func() {
				var wg sync.WaitGroup
				wg.Add(1)
				go func() { defer wg.Done(); f() }()
				return wg.Wait
			}, func() { mu.Lock(); n++; mu.Unlock() })
		}},
		{Group: "contended: 8 threads increment a counter", Name: "locks.ReentrantLock, virtual threads", Java: "reentrantlock-contended-8-virtual", Note: "per increment", F: func(b *testing.B) {
			var l locks.ReentrantLock
			n := 0
			contend(b, workers, func(f func()) func() {
				t := thread.StartVirtualThread(f)
				return func() { join(b, t) }
			}, func() { l.Lock(); n++; l.Unlock() })
		}},
	}
}

// contend runs b.N calls of op split over workers started with start, and waits for them.
func contend(b *testing.B, workers int, start func(func()) (wait func()), op func()) {
	var next atomic.Int64
	total := int64(b.N)
	b.ResetTimer()
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
	// transfer moves b.N ints from a producer to a consumer.
	return []Case{
		{Group: "1 producer → 1 consumer, capacity 128", Name: "buffered channel, goroutines", Note: "per element", F: func(b *testing.B) {
			ch := make(chan int, capacity)
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
		}},
		{Group: "1 producer → 1 consumer, capacity 128", Name: "queue.ArrayBlockingQueue, virtual threads", Java: "arrayblockingqueue-1-to-1", Note: "per element", F: func(b *testing.B) {
			q := queue.NewArrayBlockingQueue[int](capacity, false)
			transfer(b, q.Put, q.Take)
		}},
		{Group: "1 producer → 1 consumer, capacity 128", Name: "queue.LinkedBlockingQueue, virtual threads", Java: "linkedblockingqueue-1-to-1", Note: "per element", F: func(b *testing.B) {
			q := queue.NewLinkedBlockingQueue[int](capacity)
			transfer(b, q.Put, q.Take)
		}},
	}
}

func transfer(b *testing.B, put func(int) error, take func() (int, error)) {
	n := b.N
	c := thread.StartVirtualThread(func() {
		for range n {
			take()
		}
	})
	p := thread.StartVirtualThread(func() {
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
		{Group: "submit a task and wait for its result", Name: "virtual thread per task executor, Submit+Get", Java: "virtual-executor-submit-get", F: func(b *testing.B) {
			es := executors.NewVirtualThreadPerTaskExecutor()
			defer es.Close()
			for i := 0; b.Loop(); i++ {
				f, _ := executors.Submit(es, func() (int, error) { return i * 2, nil })
				if _, err := f.Get(); err != nil {
					b.Error(err)
				}
			}
		}},
		{Group: "submit a task and wait for its result", Name: "fixed pool of 2 platform threads, Submit+Get", Java: "fixed-pool-2-submit-get", F: func(b *testing.B) {
			es := executors.NewFixedThreadPool(2)
			defer es.Close()
			for i := 0; b.Loop(); i++ {
				f, _ := executors.Submit(es, func() (int, error) { return i * 2, nil })
				if _, err := f.Get(); err != nil {
					b.Error(err)
				}
			}
		}},
	}
}
