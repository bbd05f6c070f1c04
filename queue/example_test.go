package queue_test

import (
	"cmp"
	"errors"
	"fmt"
	"time"

	"github.com/loomgo/loom/queue"
	"github.com/loomgo/loom/thread"
)

// The classic bounded-buffer producer and consumer, on virtual threads: the producer blocks in
// Put while the buffer is full, the consumer in Take while it is empty; both unmount meanwhile.
func ExampleArrayBlockingQueue() {
	q := queue.NewArrayBlockingQueue[int](2, false)
	producer := thread.StartVirtualThread(func() {
		for i := 1; i <= 5; i++ {
			q.Put(i * i)
		}
		q.Put(-1) // poison pill: no more elements
	})
	for {
		e, _ := q.Take()
		if e < 0 {
			break
		}
		fmt.Println(e)
	}
	producer.Join()
	// Output:
	// 1
	// 4
	// 9
	// 16
	// 25
}

// The Go tour's "sum with a channel", with a LinkedBlockingQueue in place of the channel and
// virtual threads in place of goroutines.
func ExampleLinkedBlockingQueue_sum() {
	sum := func(s []int, q *queue.LinkedBlockingQueue[int]) {
		total := 0
		for _, v := range s {
			total += v
		}
		q.Put(total)
	}
	s := []int{7, 2, 8, -9, 4, 0}
	var q queue.LinkedBlockingQueue[int]
	a := thread.StartVirtualThread(func() { sum(s[:len(s)/2], &q) })
	b := thread.StartVirtualThread(func() { sum(s[len(s)/2:], &q) })
	x, _ := q.Take()
	y, _ := q.Take()
	a.Join()
	b.Join()
	fmt.Println(x + y)
	// Output: 12
}

// Take blocks until interrupted; the interrupt comes back as thread.ErrInterrupted and leaves
// the queue unchanged.
func ExampleArrayBlockingQueue_Take_interrupted() {
	q := queue.NewArrayBlockingQueue[string](1, false)
	consumer := thread.StartVirtualThread(func() {
		_, err := q.Take()
		fmt.Println(errors.Is(err, thread.ErrInterrupted), thread.Current().IsInterrupted())
	})
	for consumer.State() != thread.Waiting {
		time.Sleep(time.Millisecond)
	}
	consumer.Interrupt()
	consumer.Join()
	// Output: true false
}

// A SynchronousQueue is a rendezvous: Put returns only once a Take has received the element.
func ExampleSynchronousQueue() {
	var q queue.SynchronousQueue[string]
	fmt.Println(q.Offer("nobody waits"))
	done := thread.StartVirtualThread(func() {
		q.Put("ping")
		fmt.Println("handed over")
	})
	e, _ := q.Take()
	done.Join()
	fmt.Println(e)
	// Output:
	// false
	// handed over
	// ping
}

// Elements come out least first.
func ExamplePriorityBlockingQueue() {
	q := queue.NewPriorityBlockingQueue(cmp.Compare[string])
	for _, s := range []string{"pear", "apple", "fig"} {
		q.Put(s)
	}
	fmt.Println(q.DrainTo(nil, 10))
	// Output: [apple fig pear]
}

type task struct {
	name string
	at   time.Time
}

func (t task) Delay() time.Duration { return time.Until(t.at) }

// A DelayQueue hands out an element only once its delay has expired, soonest first.
func ExampleDelayQueue() {
	var q queue.DelayQueue[task]
	now := time.Now()
	q.Put(task{"later", now.Add(60 * time.Millisecond)})
	q.Put(task{"sooner", now.Add(20 * time.Millisecond)})
	_, ok := q.Poll()
	fmt.Println("expired yet:", ok)
	for range 2 {
		t, _ := q.Take()
		fmt.Println(t.name, time.Since(now) >= 20*time.Millisecond)
	}
	// Output:
	// expired yet: false
	// sooner true
	// later true
}

// A LinkedBlockingDeque used as a stack (Java's push and pop) and as a queue at its other end.
func ExampleLinkedBlockingDeque() {
	var d queue.LinkedBlockingDeque[int]
	d.Push(1)
	d.Push(2)
	d.OfferLast(3)
	top, _ := d.Pop()
	last, _ := d.PollLast()
	fmt.Println(top, last, d.ToSlice())
	// Output: 2 3 [1]
}

// Transfer waits until a consumer has received the element.
func ExampleLinkedTransferQueue_Transfer() {
	var q queue.LinkedTransferQueue[string]
	producer := thread.StartVirtualThread(func() {
		q.Transfer("parcel")
		fmt.Println("delivered")
	})
	for producer.State() != thread.Waiting {
		time.Sleep(time.Millisecond)
	}
	fmt.Println("waiting producers' elements:", q.Len())
	e, _ := q.Take()
	producer.Join()
	fmt.Println(e)
	// Output:
	// waiting producers' elements: 1
	// delivered
	// parcel
}
