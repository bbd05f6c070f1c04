package demo

import (
	"github.com/loomgo/loom/executors"
	"github.com/loomgo/loom/thread"
)

// executor is the part of executors.ExecutorService the experiments use.
type executor interface {
	Execute(task func()) error
	Close() error
}

// newVirtualPerTask is Executors.newVirtualThreadPerTaskExecutor on scheduler s (the
// experiments use a scheduler of their own so that its counters are theirs).
func newVirtualPerTask(s *thread.Scheduler) executors.ExecutorService {
	return executors.NewThreadPerTaskExecutor(thread.OfVirtual().Scheduler(s).Factory())
}

// newFixed is Executors.newFixedThreadPool(n): n platform threads.
func newFixed(n int) executors.ExecutorService { return executors.NewFixedThreadPool(n) }

// newCached is Executors.newCachedThreadPool(): a platform thread for every task that finds no
// idle one.
func newCached() *executors.ThreadPoolExecutor { return executors.NewCachedThreadPool() }
