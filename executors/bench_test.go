package executors_test

import (
	"testing"

	"github.com/loomgo/loom/executors"
	"github.com/loomgo/loom/thread"
)

// Peer comparisons (go+chan, errgroup, ants, pond) are in bench/executors.

func BenchmarkSubmitGetVirtual(b *testing.B) {
	e := executors.NewVirtualThreadPerTaskExecutor()
	defer e.Close()
	for i := 0; b.Loop(); i++ {
		f, _ := executors.Submit(e, func() (int, error) { return i, nil })
		f.Get()
	}
}

func BenchmarkSubmitGetFixedPoolVirtualWorkers(b *testing.B) {
	e := executors.NewFixedThreadPoolWithFactory(2, thread.OfVirtual().Factory())
	defer e.Close()
	for i := 0; b.Loop(); i++ {
		f, _ := executors.Submit(e, func() (int, error) { return i, nil })
		f.Get()
	}
}

func BenchmarkFutureTaskRunGet(b *testing.B) {
	for i := 0; b.Loop(); i++ {
		f := executors.NewFutureTask(func() (int, error) { return i, nil })
		f.Run()
		f.Get()
	}
}

func BenchmarkCompletableThenApply(b *testing.B) {
	for i := 0; b.Loop(); i++ {
		f := executors.NewCompletableFuture[int]()
		g := executors.ThenApply(f, func(v int) (int, error) { return v + 1, nil })
		f.Complete(i)
		g.Join()
	}
}
