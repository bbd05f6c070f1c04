package threadlocal_test

import (
	"sync"
	"sync/atomic"
	"testing"

	"github.com/loomgo/loom/internal/rt"
	"github.com/loomgo/loom/thread"
	"github.com/loomgo/loom/threadlocal"
)

// Get finds the current thread's values through a cache indexed by goroutine id (internal/rt's
// CurrentLocals). These tests give it the cases where the thread behind a goroutine id changes.

// A foreign goroutine that detaches and then uses a ThreadLocal again is a new Thread on the
// same goroutine: it starts with the initial value, not the detached Thread's.
func TestDetachedGoroutineStartsAfreshOnSameGoroutine(t *testing.T) {
	tl := threadlocal.WithInitial(func() int { return -1 })
	var stale, lost int
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer thread.Detach()
		for i := range 100 {
			if tl.Get() != -1 {
				stale++ // the detached Thread's value
			}
			tl.Set(i)
			if tl.Get() != i {
				lost++
			}
			thread.Detach() // the Thread ends; the goroutine goes on as a new one
		}
	}()
	<-done
	if stale != 0 || lost != 0 {
		t.Errorf("of 100 Threads on one goroutine, %d saw a detached one's value and %d lost their own", stale, lost)
	}
}

// joinAll joins ths, failing t if one of them ends with an error.
func joinAll(t *testing.T, ths []*thread.Thread) {
	t.Helper()
	for _, th := range ths {
		if err := th.Join(); err != nil {
			t.Fatal(err)
		}
	}
}

// Virtual threads queued on one carrier run one after another on the dispatching goroutine
// (a new thread runs inline there, and the next one after it unless it parked): each sees only
// its own values.
func TestSuccessiveThreadsOnOneCarrierDoNotShareValues(t *testing.T) {
	const threads = 2000
	s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 1})
	defer s.Close()
	vb := thread.OfVirtual().Scheduler(s)
	tl := threadlocal.WithInitial(func() int { return -1 })
	var release atomic.Bool
	gate := vb.Start(func() { // holds the carrier until every thread is queued behind it
		tl.Set(-2)
		for !release.Load() {
		}
	})
	gids := make([]int64, threads)
	var bad atomic.Int64
	ths := make([]*thread.Thread, threads)
	for i := range ths {
		ths[i] = vb.Start(func() {
			gids[i] = rt.Goid()
			if tl.Get() != -1 {
				bad.Add(1)
			}
			tl.Set(i)
			if i%3 == 0 {
				thread.Yield() // this one parks: its goroutine becomes its own
			}
			if tl.Get() != i {
				bad.Add(1)
			}
		})
	}
	release.Store(true)
	gate.Join()
	joinAll(t, ths)
	if bad.Load() != 0 {
		t.Errorf("%d reads saw another thread's value or lost their own", bad.Load())
	}
	distinct := map[int64]bool{}
	for _, g := range gids {
		distinct[g] = true
	}
	t.Logf("%d threads ran on %d goroutines", threads, len(distinct))
}

// More threads than the cache has entries, each with its own values, all alive at once and
// taking turns: entries collide and are taken back all the time, and no thread ever sees
// another's value.
func TestCacheCollisionsKeepValuesApart(t *testing.T) {
	const threads = 3 * 4096
	const rounds = 4
	tl := threadlocal.New[int]()
	other := threadlocal.WithInitial(func() int { return -1 })
	var bad atomic.Int64
	var start sync.WaitGroup
	start.Add(1)
	ths := make([]*thread.Thread, threads)
	for i := range ths {
		ths[i] = thread.OfVirtual().Start(func() {
			start.Wait()
			for r := range rounds {
				want := i*rounds + r - 1 // what this thread set last round
				if r == 0 {
					want = 0 // the initial value
				}
				if tl.Get() != want {
					bad.Add(1)
				}
				tl.Set(i*rounds + r)
				if other.Get() != -1 {
					bad.Add(1)
				}
				thread.Yield()
			}
		})
	}
	start.Done()
	joinAll(t, ths)
	if bad.Load() != 0 {
		t.Errorf("%d reads saw a value not their thread's own", bad.Load())
	}
}
