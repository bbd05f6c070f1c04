package forkjoin

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
)

// White-box tests of the work-stealing deque: a model-based fuzz of the owner's operations
// against a slice, and a stress test of one owner against concurrent thieves in which every
// task must be taken exactly once.

func newTasks(n int) []*task {
	ts := make([]*task, n)
	for i := range ts {
		ts[i] = &task{}
	}
	return ts
}

// FuzzDequeModel drives a deque with a random sequence of owner operations (push, pop,
// tryUnpush, poll, peeks) and checks each result against a slice used as the reference deque.
func FuzzDequeModel(f *testing.F) {
	f.Add([]byte{0, 0, 1, 0, 2, 3, 1, 1, 4, 5})
	f.Add(make([]byte, 300)) // many pushes: the array grows
	f.Fuzz(func(t *testing.T, ops []byte) {
		var d deque
		var model []*task
		pool := newTasks(len(ops) + 1)
		next := 0
		for i, op := range ops {
			switch op % 6 {
			case 0, 5: // push (twice as likely, so that the deque grows)
				x := pool[next]
				next++
				d.push(x)
				model = append(model, x)
			case 1: // pop (LIFO)
				var want *task
				if n := len(model); n > 0 {
					want, model = model[n-1], model[:n-1]
				}
				if got := d.pop(); got != want {
					t.Fatalf("op %d: pop = %p, want %p", i, got, want)
				}
			case 2: // poll (FIFO)
				var want *task
				if len(model) > 0 {
					want, model = model[0], model[1:]
				}
				if got := d.poll(); got != want {
					t.Fatalf("op %d: poll = %p, want %p", i, got, want)
				}
			case 3: // tryUnpush of the top, then of the bottom
				if n := len(model); n > 0 {
					if n > 1 && d.tryUnpush(model[0]) {
						t.Fatalf("op %d: tryUnpush of the bottom task succeeded", i)
					}
					if !d.tryUnpush(model[n-1]) {
						t.Fatalf("op %d: tryUnpush of the top task failed", i)
					}
					model = model[:n-1]
				}
			case 4: // peeks and size
				var top, bottom *task
				if n := len(model); n > 0 {
					top, bottom = model[n-1], model[0]
				}
				if d.peekTop() != top || d.peekBase() != bottom || d.size() != len(model) {
					t.Fatalf("op %d: peeks %p %p size %d, want %p %p %d", i, d.peekTop(), d.peekBase(), d.size(), top, bottom, len(model))
				}
			}
		}
	})
}

// One owner pushes and pops while thieves steal: every task is taken exactly once, whatever
// the interleaving (run it with -race too).
func TestDequeOwnerAgainstThievesTakesEachTaskOnce(t *testing.T) {
	for seed := range uint64(8) {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			const n, thieves = 20000, 3
			tasks := newTasks(n)
			index := make(map[*task]int, n)
			for i, x := range tasks {
				index[x] = i
			}
			var d deque
			taken := make([]atomic.Int32, n)
			var done atomic.Bool
			var wg sync.WaitGroup
			for range thieves {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for !done.Load() || d.size() > 0 {
						if x, _ := d.steal(); x != nil {
							taken[index[x]].Add(1)
						}
					}
				}()
			}
			r := rand.New(rand.NewPCG(seed, 1))
			for i := 0; i < n; {
				if r.IntN(3) > 0 {
					d.push(tasks[i])
					i++
				} else if x := d.pop(); x != nil {
					taken[index[x]].Add(1)
				}
			}
			for x := d.pop(); x != nil; x = d.pop() {
				taken[index[x]].Add(1)
			}
			done.Store(true)
			wg.Wait()
			for i := range taken {
				if c := taken[i].Load(); c != 1 {
					t.Fatalf("task %d taken %d times", i, c)
				}
			}
		})
	}
}
