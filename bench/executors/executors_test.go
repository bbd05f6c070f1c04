package executors_test

import (
	"context"
	"runtime"
	"sync"
	"testing"

	"github.com/alitto/pond/v2"
	"github.com/loomgo/loom/executors"
	"github.com/loomgo/loom/thread"
	"github.com/panjf2000/ants/v2"
	"golang.org/x/sync/errgroup"
)

// Submit one trivial task and wait for its result, b.N times.

func BenchmarkSubmitGet(b *testing.B) {
	limit := runtime.GOMAXPROCS(0)
	b.Run("loom-virtual-per-task", func(b *testing.B) {
		e := executors.NewVirtualThreadPerTaskExecutor()
		defer e.Close()
		for i := 0; b.Loop(); i++ {
			f, _ := executors.Submit(e, func() (int, error) { return i, nil })
			f.Get()
		}
	})
	b.Run("loom-fixed-pool-virtual-workers", func(b *testing.B) {
		e := executors.NewFixedThreadPoolWithFactory(limit, thread.OfVirtual().Factory())
		defer e.Close()
		for i := 0; b.Loop(); i++ {
			f, _ := executors.Submit(e, func() (int, error) { return i, nil })
			f.Get()
		}
	})
	b.Run("loom-fixed-pool-platform", func(b *testing.B) {
		e := executors.NewFixedThreadPool(limit)
		defer e.Close()
		for i := 0; b.Loop(); i++ {
			f, _ := executors.Submit(e, func() (int, error) { return i, nil })
			f.Get()
		}
	})
	b.Run("go-chan", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			ch := make(chan int, 1)
			go func() { ch <- i }()
			<-ch
		}
	})
	b.Run("errgroup-limit", func(b *testing.B) {
		var g errgroup.Group
		g.SetLimit(limit)
		for i := 0; b.Loop(); i++ {
			var v int
			g.Go(func() error { v = i; return nil })
			g.Wait()
			_ = v
		}
	})
	b.Run("ants", func(b *testing.B) {
		p, _ := ants.NewPool(limit)
		defer p.Release()
		for i := 0; b.Loop(); i++ {
			ch := make(chan int, 1)
			p.Submit(func() { ch <- i })
			<-ch
		}
	})
	b.Run("pond", func(b *testing.B) {
		p := pond.NewResultPool[int](limit)
		defer p.StopAndWait()
		for i := 0; b.Loop(); i++ {
			p.Submit(func() int { return i }).Wait()
		}
	})
}

// Submit 1,000 trivial tasks, then wait for all their results: throughput rather than latency.

const batch = 1000

func BenchmarkBatch1000(b *testing.B) {
	limit := runtime.GOMAXPROCS(0)
	b.Run("loom-virtual-per-task", func(b *testing.B) {
		e := executors.NewVirtualThreadPerTaskExecutor()
		defer e.Close()
		fs := make([]executors.Future[int], batch)
		for b.Loop() {
			for i := range batch {
				fs[i], _ = executors.Submit(e, func() (int, error) { return i, nil })
			}
			for _, f := range fs {
				f.Get()
			}
		}
	})
	b.Run("loom-fixed-pool-platform", func(b *testing.B) {
		e := executors.NewFixedThreadPool(limit)
		defer e.Close()
		fs := make([]executors.Future[int], batch)
		for b.Loop() {
			for i := range batch {
				fs[i], _ = executors.Submit(e, func() (int, error) { return i, nil })
			}
			for _, f := range fs {
				f.Get()
			}
		}
	})
	b.Run("go-waitgroup", func(b *testing.B) {
		res := make([]int, batch)
		for b.Loop() {
			var wg sync.WaitGroup
			for i := range batch {
				wg.Go(func() { res[i] = i })
			}
			wg.Wait()
		}
	})
	b.Run("errgroup-limit", func(b *testing.B) {
		res := make([]int, batch)
		for b.Loop() {
			g, _ := errgroup.WithContext(context.Background())
			g.SetLimit(limit)
			for i := range batch {
				g.Go(func() error { res[i] = i; return nil })
			}
			g.Wait()
		}
	})
	b.Run("ants", func(b *testing.B) {
		p, _ := ants.NewPool(limit)
		defer p.Release()
		res := make([]int, batch)
		for b.Loop() {
			var wg sync.WaitGroup
			wg.Add(batch)
			for i := range batch {
				p.Submit(func() { res[i] = i; wg.Done() })
			}
			wg.Wait()
		}
	})
	b.Run("pond", func(b *testing.B) {
		p := pond.NewResultPool[int](limit)
		defer p.StopAndWait()
		for b.Loop() {
			g := p.NewGroup()
			for i := range batch {
				g.Submit(func() int { return i })
			}
			g.Wait()
		}
	})
}
