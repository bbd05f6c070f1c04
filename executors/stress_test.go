package executors_test

import (
	"errors"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/loomgo/loom/executors"
	"github.com/loomgo/loom/thread"
)

func spin(r *rand.Rand) {
	switch r.IntN(4) {
	case 0:
	case 1:
		thread.Yield()
	case 2:
		thread.Sleep(time.Duration(r.IntN(200)) * time.Microsecond)
	default:
		for range r.IntN(2000) {
		}
	}
}

// Cancel racing completion racing Get (timed, untimed, interrupted): the future completes
// exactly once, every observer sees that one outcome, at most one Cancel wins, and no waiter
// hangs.
func TestStressCancelRacesCompletionAndGet(t *testing.T) {
	seeds := 1000
	if testing.Short() {
		seeds = 50
	}
	for seed := range seeds {
		r := rand.New(rand.NewPCG(uint64(seed), 7))
		var runs atomic.Int32
		work := time.Duration(r.IntN(300)) * time.Microsecond
		f := executors.NewFutureTask(func() (int, error) {
			runs.Add(1)
			thread.Sleep(work)
			return 42, nil
		})
		nCancel, nGet := 1+r.IntN(3), 1+r.IntN(4)
		seeds := make([]uint64, nCancel+nGet+1)
		for i := range seeds {
			seeds[i] = r.Uint64()
		}
		var wins atomic.Int32
		type outcome struct {
			v   int
			err error
		}
		outcomes := make([]outcome, nGet)
		var ths []*thread.Thread
		ths = append(ths, thread.OfVirtual().Start(func() {
			spin(rand.New(rand.NewPCG(seeds[0], 1)))
			f.Run()
		}))
		for i := range nCancel {
			rr := rand.New(rand.NewPCG(seeds[1+i], 2))
			ths = append(ths, thread.OfVirtual().Start(func() {
				spin(rr)
				if f.Cancel(rr.IntN(2) == 0) {
					wins.Add(1)
				}
			}))
		}
		getters := make([]*thread.Thread, nGet)
		for i := range nGet {
			rr := rand.New(rand.NewPCG(seeds[1+nCancel+i], 3))
			timed := rr.IntN(2) == 0
			d := time.Duration(rr.IntN(500)) * time.Microsecond
			getters[i] = thread.OfVirtual().Start(func() {
				spin(rr)
				if timed {
					outcomes[i].v, outcomes[i].err = f.GetTimeout(d)
				} else {
					outcomes[i].v, outcomes[i].err = f.Get()
				}
			})
		}
		if r.IntN(3) == 0 {
			getters[r.IntN(nGet)].Interrupt()
		}
		done := make(chan struct{})
		go func() {
			for _, th := range append(ths, getters...) {
				th.Join()
			}
			close(done)
		}()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatalf("seed %d: a thread hangs", seed)
		}
		if !f.IsDone() {
			t.Fatalf("seed %d: not done after run and cancels", seed)
		}
		st := f.State()
		if w := wins.Load(); w > 1 || (w == 1) != (st == executors.Cancelled) {
			t.Fatalf("seed %d: %d cancels won, state %v", seed, w, st)
		}
		if st == executors.Success && runs.Load() != 1 {
			t.Fatalf("seed %d: success with %d runs", seed, runs.Load())
		}
		for i, o := range outcomes {
			switch {
			case errors.Is(o.err, executors.ErrTimeout), errors.Is(o.err, thread.ErrInterrupted):
				// it gave up before the end; fine
			case o.err == nil:
				if st != executors.Success || o.v != 42 {
					t.Fatalf("seed %d getter %d: got %d but state %v", seed, i, o.v, st)
				}
			case errors.Is(o.err, executors.ErrCancelled):
				if st != executors.Cancelled {
					t.Fatalf("seed %d getter %d: cancelled but state %v", seed, i, st)
				}
			default:
				t.Fatalf("seed %d getter %d: %v", seed, i, o.err)
			}
		}
		// afterwards every Get agrees
		v, err := f.Get()
		if (st == executors.Success) != (err == nil && v == 42) {
			t.Fatalf("seed %d: final Get %v %v, state %v", seed, v, err, st)
		}
	}
}

// Submitters racing Shutdown/ShutdownNow: every accepted task either runs exactly once or is
// returned by ShutdownNow; a rejected task never runs; the pool terminates.
func TestStressExecuteRacesShutdown(t *testing.T) {
	for seed := range 150 {
		r := rand.New(rand.NewPCG(uint64(seed), 11))
		var p executors.ExecutorService
		switch seed % 3 {
		case 0:
			p = newPool(2, 4, time.Millisecond, linkedQ(8), executors.WithRejectionHandler(executors.AbortPolicy))
		case 1:
			p = newPool(0, 3, time.Millisecond, syncQ())
		default:
			p = executors.NewVirtualThreadPerTaskExecutor()
		}
		const n = 200
		var ran [n]atomic.Int32
		accepted := make([]bool, n)
		returned := map[int]bool{}
		var mu sync.Mutex
		var wg sync.WaitGroup
		for w := range 4 {
			wg.Add(1)
			thread.OfVirtual().Start(func() {
				defer wg.Done()
				for i := w; i < n; i += 4 {
					id := i
					err := p.Execute(func() { ran[id].Add(1) })
					mu.Lock()
					accepted[id] = err == nil
					mu.Unlock()
				}
			})
		}
		time.Sleep(time.Duration(r.IntN(500)) * time.Microsecond)
		var left []func()
		if r.IntN(2) == 0 {
			p.Shutdown()
		} else {
			left = p.ShutdownNow()
		}
		wg.Wait()
		if ok, _ := p.AwaitTermination(10 * time.Second); !ok {
			t.Fatalf("seed %d: not terminated", seed)
		}
		// run the returned tasks: each must belong to an accepted, not yet run task
		before := make([]int32, n)
		for i := range ran {
			before[i] = ran[i].Load()
		}
		for _, task := range left {
			task()
		}
		for i := range ran {
			if ran[i].Load() != before[i] {
				returned[i] = true
			}
		}
		for i := range n {
			runs := ran[i].Load()
			switch {
			case !accepted[i] && runs != 0:
				t.Fatalf("seed %d: rejected task %d ran", seed, i)
			case accepted[i] && runs != 1:
				t.Fatalf("seed %d: accepted task %d ran %d times (returned by ShutdownNow: %v)", seed, i, runs, returned[i])
			case returned[i] && before[i] != 0:
				t.Fatalf("seed %d: task %d both ran and was returned", seed, i)
			}
		}
	}
}

// Virtual submitters and virtual workers sharing one carrier: every wait in the pool (its main
// lock, the queue's locks, Get) must unmount, or the carrier is held by a thread waiting for a
// thread that needs it.
func TestStressPoolOnOneCarrierNeverDeadlocks(t *testing.T) {
	s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 1})
	defer s.Close()
	vf := thread.OfVirtual().Scheduler(s)
	for _, q := range []func() executors.ExecutorService{
		func() executors.ExecutorService { return executors.NewFixedThreadPoolWithFactory(3, vf.Factory()) },
		func() executors.ExecutorService { return executors.NewCachedThreadPoolWithFactory(vf.Factory()) },
		func() executors.ExecutorService { return executors.NewScheduledThreadPoolWithFactory(2, vf.Factory()) },
	} {
		p := q()
		var sum atomic.Int64
		within(t, 30*time.Second, "submitters on one carrier", func() {
			var subs []*thread.Thread
			for w := range 20 {
				subs = append(subs, vf.Start(func() {
					var fs []executors.Future[int]
					for i := range 100 {
						f, err := executors.Submit(p, func() (int, error) { return w*100 + i, nil })
						if err != nil {
							t.Error(err)
							return
						}
						fs = append(fs, f)
					}
					for _, f := range fs {
						v, _ := f.Get()
						sum.Add(int64(v))
					}
				}))
			}
			for _, th := range subs {
				th.Join()
			}
			p.Close()
		})
		if want := int64(2000 * 1999 / 2); sum.Load() != want {
			t.Fatalf("sum %d, want %d", sum.Load(), want)
		}
	}
}
