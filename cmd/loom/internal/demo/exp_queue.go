package demo

import (
	"fmt"

	"github.com/loomgo/loom/queue"
	"github.com/loomgo/loom/thread"
)

// queueSum is the Go tour's channel program — two goroutines sum the halves of a slice and send
// the sums on a channel — with virtual threads and a SynchronousQueue (an unbuffered channel).
func queueSum(c *Config) Outcome {
	s := []int{7, 2, 8, -9, 4, 0}
	q := queue.NewSynchronousQueue[int](false)
	sum := func(s []int) {
		total := 0
		for _, v := range s {
			total += v
		}
		if q.Put(total) != nil {
			thread.Current().Interrupt()
		} // blocks until main takes it, as `c <- sum` does
	}
	thread.StartVirtualThread(func() { sum(s[:len(s)/2]) })
	thread.StartVirtualThread(func() { sum(s[len(s)/2:]) })
	x, err1 := q.Take()
	y, err2 := q.Take()
	if err1 != nil || err2 != nil {
		return Outcome{Err: fmt.Errorf("take: %v, %v", err1, err2)}
	}
	ok := x+y == 12 && (x == 17 && y == -5 || x == -5 && y == 17)
	return Outcome{
		Loom:    fmt.Sprintf("%d %d %d", x, y, x+y),
		Same:    ok,
		Verdict: "the Go tour prints -5 17 12: the same two sums (either order) and 12",
	}
}
