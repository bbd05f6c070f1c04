//go:build unix

package forkjoin_test

import (
	"syscall"
	"testing"
	"time"

	"github.com/loomgo/loom/forkjoin"
	"github.com/loomgo/loom/thread"
)

// processCPU returns the CPU time (user and system) the process has used so far.
func processCPU(t *testing.T) time.Duration {
	t.Helper()
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// cpuWindow is how long the CPU-use tests watch, and cpuBound the most CPU the process may use
// meanwhile: a quarter of one processor. One worker spinning instead of parking would use the
// whole window.
const (
	cpuWindow = 400 * time.Millisecond
	cpuBound  = cpuWindow / 4
)

// An idle pool parks its workers: once a computation is over, the process uses next to no
// CPU, although the workers stay alive for the keep-alive time.
func TestForkJoinPoolIdleWorkersUseNoCPU(t *testing.T) {
	p := forkjoin.NewPool(2)
	defer closePool(t, p)
	for range 3 {
		if v, err := forkjoin.Invoke(p, fib(20)); err != nil || v != 6765 {
			t.Fatal(v, err)
		}
	}
	time.Sleep(cpuWindow / 4) // not AwaitQuiescence: a worker spinning instead of parking is not idle
	if n := p.PoolSize(); n == 0 {
		t.Fatal("the workers ended: nothing left to check")
	}
	before := processCPU(t)
	time.Sleep(cpuWindow)
	if used := processCPU(t) - before; used > cpuBound {
		t.Errorf("the process used %v of CPU in %v with an idle pool of %d workers; want at most %v", used, cpuWindow, p.PoolSize(), cpuBound)
	}
}

// A worker that joins a task running long on another worker helps, looks for a short while,
// and then blocks: it does not spin for the length of the task.
func TestForkJoinPoolJoinOfALongTaskBlocks(t *testing.T) {
	p := forkjoin.NewPool(2)
	defer closePool(t, p)
	started := make(chan struct{})
	var used time.Duration
	root := forkjoin.NewRecursiveAction(func() error {
		long := forkjoin.NewRecursiveAction(func() error {
			close(started)
			return thread.Sleep(cpuWindow)
		}).Fork()
		<-started // the other worker stole it (the test's own wait, not the pool's)
		before := processCPU(t)
		_, err := long.Join()
		used = processCPU(t) - before
		return err
	})
	if _, err := forkjoin.Invoke(p, root); err != nil {
		t.Fatal(err)
	}
	if used > cpuBound {
		t.Errorf("the process used %v of CPU while a worker joined a task sleeping %v; want at most %v", used, cpuWindow, cpuBound)
	}
}
