package carrier

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// resumed is an item that says it is a resumption.
type resumed struct{ item }

func (*resumed) Resumption() bool { return true }

// classed returns x's class ("new" or "resumption") and its item.
func classed(x Runnable) (string, *item) {
	if r, ok := x.(*resumed); ok {
		return "resumption", &r.item
	}
	return "new", x.(*item)
}

// The two queues under concurrent producers of both classes and consumers, many seeds: every
// item comes out exactly once, each producer's items in the order it pushed them, and the counts
// agree.
func TestRunQueuesConcurrentExactlyOnceInOrderPerClass(t *testing.T) {
	for seed := range uint64(30) {
		r := rand.New(rand.NewPCG(seed, 3))
		producers, consumers := 2+r.IntN(5), 1+r.IntN(5)
		perProducer := 200 + r.IntN(2000)
		q := newRunQueues()
		total := int64(producers * perProducer)
		var popped atomic.Int64
		var mu sync.Mutex
		seen := map[string]bool{}
		var problems []string
		var wg sync.WaitGroup
		for range consumers {
			wg.Go(func() {
				last := map[string]int{}
				for popped.Load() < total {
					x, ok := q.pop()
					if !ok {
						runtime.Gosched()
						continue
					}
					class, it := classed(x)
					key := fmt.Sprint(class, it.producer)
					mu.Lock()
					if l, ok := last[key]; ok && it.seq <= l {
						problems = append(problems, fmt.Sprintf("%s %d after %d", key, it.seq, l))
					}
					if id := fmt.Sprint(key, "/", it.seq); seen[id] {
						problems = append(problems, "duplicate "+id)
					} else {
						seen[id] = true
					}
					mu.Unlock()
					last[key] = it.seq
					popped.Add(1)
				}
			})
		}
		for p := range producers {
			wg.Go(func() {
				for i := range perProducer {
					if p%2 == 0 {
						q.push(&item{p, i})
					} else {
						q.push(&resumed{item{p, i}})
					}
					if i%97 == 0 {
						runtime.Gosched()
					}
				}
			})
		}
		wg.Wait()
		if len(problems) > 0 {
			t.Fatalf("seed %d: %v", seed, problems[:min(len(problems), 5)])
		}
		if int64(len(seen)) != total || !q.empty() || q.len() != 0 || q.pushed() != total {
			t.Fatalf("seed %d: %d of %d seen, empty %v, len %d, pushed %d", seed, len(seen), total, q.empty(), q.len(), q.pushed())
		}
	}
}

// While both classes are queued, one consumer gets them in turns: neither waits behind the
// other's backlog. Once one class is empty, the other comes out in order.
func TestRunQueuesAlternateWhileBothHaveWork(t *testing.T) {
	q := newRunQueues()
	for i := range 3 {
		q.push(&item{0, i})
	}
	for i := range 6 {
		q.push(&resumed{item{1, i}})
	}
	var got []string
	for {
		x, ok := q.pop()
		if !ok {
			break
		}
		class, it := classed(x)
		got = append(got, fmt.Sprint(class, it.seq))
	}
	// the first pop takes whichever class the turn picks; from then on they alternate
	want := []string{"new0", "resumption0", "new1", "resumption1", "new2", "resumption2", "resumption3", "resumption4", "resumption5"}
	if got[0] == "resumption0" {
		want = []string{"resumption0", "new0", "resumption1", "new1", "resumption2", "new2", "resumption3", "resumption4", "resumption5"}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("pop order (-want +got):\n%s", diff)
	}
}

// After a Yield queues the yielding thread's resumption, the carrier takes anything else first:
// a new task, then an earlier resumption, and the yielder itself only when nothing else is left.
func TestRunQueuesPopAfterYieldTakesOthersFirst(t *testing.T) {
	q := newRunQueues()
	earlier, fresh, yielder := &resumed{item{1, 0}}, &item{0, 0}, &resumed{item{2, 0}}
	q.push(earlier)
	q.push(fresh)
	q.push(yielder)
	for i, want := range []Runnable{fresh, earlier, yielder} {
		if x, ok := q.popAfterYield(); !ok || x != want {
			t.Fatalf("pop %d after a yield = %v, want %v", i, x, want)
		}
	}
	if _, ok := q.popAfterYield(); ok || !q.empty() {
		t.Fatal("queue not empty")
	}
}
