package executors

import (
	"sync"

	"github.com/loomgo/loom/thread"
)

// defaultAsyncThreads holds the threads that run a task of CompletableFuture's default executor,
// while they run it, so that a test can tell an action runs there (the TCK's checkExecutionMode
// for ASYNC: "the current thread is the common pool's").
var defaultAsyncThreads sync.Map

func init() { defaultAsync = markingExecutor{defaultAsync} }

type markingExecutor struct{ Executor }

func (m markingExecutor) Execute(task func()) error {
	if task == nil {
		panic(nilArg("task"))
	}
	return m.Executor.Execute(func() {
		t := thread.Current()
		defaultAsyncThreads.Store(t, struct{}{})
		defer defaultAsyncThreads.Delete(t)
		task()
	})
}

// RunsOnDefaultExecutor reports whether the calling thread runs a task of CompletableFuture's
// default executor.
func RunsOnDefaultExecutor() bool {
	_, ok := defaultAsyncThreads.Load(thread.Current())
	return ok
}

// DelaySchedulerIdle reports whether the delay scheduler has no thread (it ends once idle).
func DelaySchedulerIdle() bool {
	delayer.mu.Lock()
	defer delayer.mu.Unlock()
	return delayer.th == nil
}

// DelayQueueLen returns how many timed actions the delay scheduler holds.
func DelayQueueLen() int {
	delayer.mu.Lock()
	defer delayer.mu.Unlock()
	return len(delayer.queue)
}

// StackDepth returns how many completions c's stack holds, stale ones included.
func StackDepth[T any](c *CompletableFuture[T]) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for h := c.stack; h != nil; h = h.next {
		n++
	}
	return n
}

// DelaySchedulerThread returns the delay scheduler's thread, nil when it has none.
func DelaySchedulerThread() *thread.Thread {
	delayer.mu.Lock()
	defer delayer.mu.Unlock()
	return delayer.th
}

// StageOf returns the future a stage chains on (a view's own copy of its source).
func StageOf[T any](s CompletionStage[T]) *CompletableFuture[T] { return s.stage() }
