package queue_test

import (
	"fmt"
	"runtime"
	"sync"
	"testing"

	"github.com/loomgo/loom/internal/testutil"
	"github.com/loomgo/loom/queue"
	"github.com/loomgo/loom/thread"
)

// Producer/consumer throughput: b.N elements pass from P producers to C consumers through a
// queue of capacity benchCap, on virtual threads, against the same traffic through a buffered Go
// channel of the same capacity between plain goroutines (the idiomatic Go baseline; channel
// operations on virtual threads would hold their carriers). ns/op is the cost of moving one
// element.

const benchCap = 64

var benchShapes = []struct{ p, c int }{{1, 1}, {2, 2}, {8, 8}}

// runPC moves b.N elements from p producers to c consumers; put and take are the queue's
// operations, spawn starts a worker and returns a function that waits for it.
func runPC(b *testing.B, p, c int, spawn func(func()) func(), put func(int), take func() int) {
	b.ReportAllocs()
	b.ResetTimer()
	var waits []func()
	for i := range p {
		n := b.N / p
		if i < b.N%p {
			n++
		}
		waits = append(waits, spawn(func() {
			for j := range n {
				put(j)
			}
		}))
	}
	var cw []func()
	for range c {
		cw = append(cw, spawn(func() {
			for take() >= 0 {
			}
		}))
	}
	for _, w := range waits {
		w()
	}
	for range c {
		put(-1) // one poison pill per consumer
	}
	for _, w := range cw {
		w()
	}
}

func spawnVirtual(fn func()) func() {
	th := thread.StartVirtualThread(fn)
	return func() { th.Join() }
}

func spawnGoroutine(fn func()) func() {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); fn() }()
	return wg.Wait
}

func BenchmarkProducerConsumer(b *testing.B) {
	for _, s := range benchShapes {
		shape := fmt.Sprintf("P%dC%d", s.p, s.c)
		b.Run("Chan/"+shape, func(b *testing.B) {
			ch := make(chan int, benchCap)
			runPC(b, s.p, s.c, spawnGoroutine, func(e int) { ch <- e }, func() int { return <-ch })
		})
		b.Run("UnbufferedChan/"+shape, func(b *testing.B) {
			ch := make(chan int)
			runPC(b, s.p, s.c, spawnGoroutine, func(e int) { ch <- e }, func() int { return <-ch })
		})
		queues := []struct {
			name string
			mk   func() queue.BlockingQueue[int]
		}{
			{"ArrayBlockingQueue", func() queue.BlockingQueue[int] { return queue.NewArrayBlockingQueue[int](benchCap, false) }},
			{"ArrayBlockingQueueFair", func() queue.BlockingQueue[int] { return queue.NewArrayBlockingQueue[int](benchCap, true) }},
			{"LinkedBlockingQueue", func() queue.BlockingQueue[int] { return queue.NewLinkedBlockingQueue[int](benchCap) }},
			{"LinkedBlockingDeque", func() queue.BlockingQueue[int] { return queue.NewLinkedBlockingDeque[int](benchCap) }},
			{"LinkedTransferQueue", func() queue.BlockingQueue[int] { return queue.NewLinkedTransferQueue[int]() }},
			{"SynchronousQueue", func() queue.BlockingQueue[int] { return queue.NewSynchronousQueue[int](false) }},
			{"SynchronousQueueFair", func() queue.BlockingQueue[int] { return queue.NewSynchronousQueue[int](true) }},
		}
		for _, qq := range queues {
			b.Run(qq.name+"/"+shape, func(b *testing.B) {
				q := qq.mk()
				runPC(b, s.p, s.c, spawnVirtual, func(e int) { q.Put(e) }, func() int { e, _ := q.Take(); return e })
			})
			b.Run(qq.name+"OnGoroutines/"+shape, func(b *testing.B) {
				q := qq.mk()
				runPC(b, s.p, s.c, spawnGoroutine, func(e int) { q.Put(e) }, func() int { e, _ := q.Take(); return e })
			})
		}
	}
}

// The cost of one uncontended Offer and Poll on one thread, against a non-blocking send and
// receive on a buffered channel: the floor under the producer/consumer figures.
func BenchmarkOfferPollUncontended(b *testing.B) {
	b.Run("Chan", func(b *testing.B) {
		ch := make(chan int, benchCap)
		for i := 0; b.Loop(); i++ {
			select {
			case ch <- i:
			default:
			}
			select {
			case <-ch:
			default:
			}
		}
	})
	for _, qq := range []struct {
		name string
		q    queue.BlockingQueue[int]
	}{
		{"ArrayBlockingQueue", queue.NewArrayBlockingQueue[int](benchCap, false)},
		{"LinkedBlockingQueue", queue.NewLinkedBlockingQueue[int](benchCap)},
		{"LinkedBlockingDeque", queue.NewLinkedBlockingDeque[int](benchCap)},
		{"PriorityBlockingQueue", queue.NewPriorityBlockingQueue(func(a, b int) int { return a - b })},
		{"LinkedTransferQueue", queue.NewLinkedTransferQueue[int]()},
	} {
		b.Run(qq.name, func(b *testing.B) {
			for i := 0; b.Loop(); i++ {
				qq.q.Offer(i)
				qq.q.Poll()
			}
		})
	}
}

// Issue 14's queue row: one producer and one consumer moving n ints through a queue of
// capacity 128 on virtual threads, against a buffered channel of the same capacity between
// goroutines, in alternating rounds (testutil.Pair). Target: ratio <= 1.5, on two carriers and
// on one (the OneCarrier cases: GOMAXPROCS=1, as cmd/loom bench runs them).
func BenchmarkOneToOneVsChannel(b *testing.B) {
	const capacity = 128
	channel := func(n int) {
		ch := make(chan int, capacity)
		done := make(chan struct{})
		go func() {
			defer close(done)
			for range n {
				<-ch
			}
		}()
		for i := range n {
			ch <- i
		}
		<-done
	}
	for _, qq := range []struct {
		name string
		mk   func() queue.BlockingQueue[int]
	}{
		{"ArrayBlockingQueue", func() queue.BlockingQueue[int] { return queue.NewArrayBlockingQueue[int](capacity, false) }},
		{"LinkedBlockingQueue", func() queue.BlockingQueue[int] { return queue.NewLinkedBlockingQueue[int](capacity) }},
	} {
		transfer := func(vb *thread.VirtualBuilder) func(n int) {
			return func(n int) {
				q := qq.mk()
				c := vb.Start(func() {
					for range n {
						q.Take()
					}
				})
				p := vb.Start(func() {
					for i := range n {
						q.Put(i)
					}
				})
				p.Join()
				c.Join()
			}
		}
		b.Run(qq.name, func(b *testing.B) {
			testutil.Pair(b, channel, transfer(thread.OfVirtual()))
		})
		b.Run(qq.name+"OneCarrier", func(b *testing.B) {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
			s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 1})
			defer s.Close()
			testutil.Pair(b, channel, transfer(thread.OfVirtual().Scheduler(s)))
		})
	}
}
