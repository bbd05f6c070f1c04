package carrier

import (
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
)

// item is a Runnable that only carries a producer and a sequence number.
type item struct{ producer, seq int }

func (*item) Carry(s *Slot) (*Slot, bool) { return s, true }
func (*item) Resumption() bool            { return false }

// The run queue under concurrent producers and consumers, many seeds: every item comes out
// exactly once, each producer's items in the order it pushed them (FIFO), the counts agree, and
// blocks go through the recycling protocol (several laps of blocks per run).
func TestRunQueueConcurrentExactlyOnceInOrder(t *testing.T) {
	seeds := 40
	if testing.Short() {
		seeds = 8
	}
	for seed := range uint64(seeds) {
		r := rand.New(rand.NewPCG(seed, 2))
		producers, consumers := 1+r.IntN(6), 1+r.IntN(6)
		perProducer := 200 + r.IntN(3000)
		q := newRunQueue()
		var wg sync.WaitGroup
		var popped atomic.Int64
		total := int64(producers * perProducer)
		seen := make([][]bool, producers)
		for p := range producers {
			seen[p] = make([]bool, perProducer)
		}
		var mu sync.Mutex
		last := make([][]int, consumers) // per consumer, the last seq seen from each producer
		fail := make(chan string, 1)
		report := func(msg string) {
			select {
			case fail <- msg:
			default:
			}
		}
		for c := range consumers {
			last[c] = make([]int, producers)
			for p := range last[c] {
				last[c][p] = -1
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				for popped.Load() < total {
					x, ok := q.pop()
					if !ok {
						runtime.Gosched()
						continue
					}
					it := x.(*item)
					if it.seq <= last[c][it.producer] {
						report("out of order")
					}
					last[c][it.producer] = it.seq
					mu.Lock()
					if seen[it.producer][it.seq] {
						report("duplicate")
					}
					seen[it.producer][it.seq] = true
					mu.Unlock()
					popped.Add(1)
				}
			}()
		}
		for p := range producers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range perProducer {
					q.push(&item{p, i})
					if i%97 == 0 {
						runtime.Gosched()
					}
				}
			}()
		}
		wg.Wait()
		select {
		case msg := <-fail:
			t.Fatalf("seed %d (%d producers, %d consumers, %d each): %s", seed, producers, consumers, perProducer, msg)
		default:
		}
		if _, ok := q.pop(); ok || !q.empty() || q.len() != 0 {
			t.Fatalf("seed %d: queue not empty after all were popped (len %d)", seed, q.len())
		}
		if got := q.pushed(); got != total {
			t.Fatalf("seed %d: pushed() = %d, want %d", seed, got, total)
		}
		for p := range seen {
			for i, ok := range seen[p] {
				if !ok {
					t.Fatalf("seed %d: item %d of producer %d lost", seed, i, p)
				}
			}
		}
	}
}

// One producer, one consumer: strictly FIFO, with len counting what is queued across block
// boundaries.
func TestRunQueueFIFOAndLen(t *testing.T) {
	q := newRunQueue()
	const n = 5 * lap
	items := make([]*item, n)
	for i := range items {
		items[i] = &item{0, i}
		q.push(items[i])
		if got := q.len(); got != i+1 {
			t.Fatalf("after %d pushes len = %d", i+1, got)
		}
	}
	for i := range items {
		x, ok := q.pop()
		if !ok || x != items[i] {
			t.Fatalf("pop %d = %v, %v; want item %d", i, x, ok, i)
		}
		if got := q.len(); got != n-i-1 {
			t.Fatalf("after %d pops len = %d", i+1, got)
		}
	}
	if _, ok := q.pop(); ok {
		t.Fatal("pop from an empty queue succeeded")
	}
}
