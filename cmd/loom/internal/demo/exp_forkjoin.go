package demo

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/loomgo/loom/forkjoin"
	"github.com/loomgo/loom/thread"
)

// workStealing loads one worker's deque, as the seeds explain the virtual-thread scheduler's
// ForkJoinPool: one task forks every subtask on its own worker and then joins them (newest
// first), while the pool's other workers, with empty deques, steal from the loaded one (oldest
// first). It reports who ran what, and the pool's StealCount.
func workStealing(c *Config) Outcome {
	const workers = 4
	n := c.n(2000, 200)
	p := forkjoin.NewPool(workers)
	defer p.Close()
	var mu sync.Mutex
	ran := map[string]int{}
	var owner string
	leaf := func() error {
		for start := time.Now(); time.Since(start) < 50*time.Microsecond; { // a CPU-bound leaf
		}
		mu.Lock()
		ran[thread.Current().Name()]++
		mu.Unlock()
		return nil
	}
	root := forkjoin.NewRecursiveAction(func() error {
		owner = thread.Current().Name()
		subs := make([]*forkjoin.Task[struct{}], n)
		for i := range subs {
			subs[i] = forkjoin.NewRecursiveAction(leaf).Fork()
		}
		for i := len(subs) - 1; i >= 0; i-- {
			if _, err := subs[i].Join(); err != nil {
				return err
			}
		}
		return nil
	})
	start := time.Now()
	if _, err := forkjoin.Invoke(p, root); err != nil {
		return Outcome{Err: err}
	}
	el := time.Since(start)
	steals := p.StealCount()
	byOwner := ran[owner]
	byOthers := n - byOwner
	var others []string
	for _, name := range slices.Sorted(maps.Keys(ran)) {
		if name != owner {
			others = append(others, fmt.Sprintf("%s: %s", shortWorker(name), commas(int64(ran[name]))))
		}
	}
	o := Outcome{
		Loom: fmt.Sprintf("%s tasks forked on %s: it ran %s, the others %s (%s); %s steals, %s",
			commas(int64(n)), shortWorker(owner), commas(int64(byOwner)), commas(int64(byOthers)),
			strings.Join(others, ", "), commas(steals), ms(el)),
		Same:    len(ran) >= 2 && byOthers > 0 && steals >= int64(byOthers),
		Verdict: fmt.Sprintf("%d workers ran tasks; steals %s ≥ the %s tasks others ran", len(ran), commas(steals), commas(int64(byOthers))),
		Figures: map[string]float64{"tasks": float64(n), "by_owner": float64(byOwner), "by_others": float64(byOthers),
			"steals": float64(steals), "workers_used": float64(len(ran)), "elapsed_ms": msf(el)},
	}
	if !c.full() {
		o.Scaling = fmt.Sprintf("ran %s tasks (full: 2,000)", commas(int64(n)))
	}
	return o
}

// shortWorker turns "ForkJoinPool-7-worker-2" into "worker-2".
func shortWorker(name string) string {
	var pool, k int
	if _, err := fmt.Sscanf(name, "ForkJoinPool-%d-worker-%d", &pool, &k); err == nil {
		return fmt.Sprintf("worker-%d", k)
	}
	return name
}
