package forkjoin

import "time"

// The functions in this file port ForkJoinTask's and ForkJoinWorkerThread's static and
// protected methods: they act on the worker the current thread is, if it is one.

// InvokeAll runs the given tasks and waits for them all: it forks all but the first, runs the
// first in the current thread, and joins the others (helping, as Join does). If a task fails,
// the tasks not yet joined are cancelled and InvokeAll returns the failure's cause (the first
// one it finds), as Java's throws it. It panics with [thread.ErrNilArgument] if a task is nil,
// after cancelling the tasks it had forked. It ports ForkJoinTask.invokeAll(ForkJoinTask...).
func InvokeAll(tasks ...AnyTask) error {
	last := len(tasks) - 1
	var err error
	nilTask := false
	for i := last; i >= 0; i-- {
		if tasks[i] == nil {
			nilTask = true
			break
		}
		c := tasks[i].base()
		if i == 0 {
			execTask(c, currentWorker())
			if s := c.awaitDone(); s != normal {
				err = c.cause(s)
			}
			break
		}
		c.fork()
	}
	if err == nil && !nilTask {
		for _, t := range tasks[min(1, len(tasks)):] {
			if s := t.base().awaitDone(); s != normal {
				err = t.base().cause(s)
				break
			}
		}
	}
	if err != nil || nilTask {
		for _, t := range tasks[min(1, len(tasks)):] {
			if t != nil {
				t.Cancel(false)
			}
		}
	}
	if nilTask {
		panic(nilArg("task"))
	}
	return err
}

// InvokeAllTasks is [InvokeAll] for a slice of tasks of one type, Java's
// invokeAll(Collection<T>).
func InvokeAllTasks[T any](tasks []*Task[T]) error {
	all := make([]AnyTask, len(tasks))
	for i, t := range tasks {
		if t != nil {
			all[i] = t
		}
	}
	return InvokeAll(all...)
}

// HelpQuiesce runs queued tasks until the pool of the current worker is quiescent: no other
// worker is running a task and nothing is queued. Outside a pool it waits for the common pool
// to be quiescent. It ports ForkJoinTask.helpQuiesce().
func HelpQuiesce() {
	if w := currentWorker(); w != nil {
		w.helpQuiesce(forever)
		return
	}
	CommonPool().AwaitQuiescence(forever)
}

// InPool reports whether the current thread is a worker of a fork-join pool. It ports
// ForkJoinTask.inForkJoinPool().
func InPool() bool { return currentWorker() != nil }

// CurrentPool returns the pool of the current worker, or nil if the current thread is not a
// worker. It ports ForkJoinTask.getPool() and ForkJoinWorkerThread.getPool().
func CurrentPool() *Pool {
	if w := currentWorker(); w != nil {
		return w.pool
	}
	return nil
}

// PoolIndex returns the current worker's index in its pool (0 up to the pool's maximum size;
// indexes of ended workers are reused), or -1 if the current thread is not a worker. It ports
// ForkJoinWorkerThread.getPoolIndex().
func PoolIndex() int {
	if w := currentWorker(); w != nil {
		return w.index
	}
	return -1
}

// QueuedTaskCount returns the number of tasks forked by the current worker and not yet run,
// or 0 outside a pool. It ports ForkJoinTask.getQueuedTaskCount().
func QueuedTaskCount() int {
	if w := currentWorker(); w != nil {
		return w.q.size()
	}
	return 0
}

// SurplusQueuedTaskCount estimates how many more tasks the current worker holds queued than
// there are idle workers that might steal them (0 outside a pool): a task that finds it above
// a small threshold (Java suggests 3) does better to compute sequentially than to fork more.
// It ports ForkJoinTask.getSurplusQueuedTaskCount().
func SurplusQueuedTaskCount() int {
	w := currentWorker()
	if w == nil {
		return 0
	}
	n := w.q.size()
	p := w.pool.parallel
	a := w.pool.ActiveThreadCount()
	// Java's heuristic: the fewer workers are active, the more queued tasks others will steal.
	switch {
	case a > p>>1:
		return n
	case a > p>>2:
		return n - 1
	case a > p>>3:
		return n - 2
	case a > p>>4:
		return n - 4
	}
	return n - 8
}

// PeekNextLocalTask returns, without removing it, the task the current worker would run next
// from its own deque (the newest; the oldest in async mode), or nil. It ports
// ForkJoinTask.peekNextLocalTask().
func PeekNextLocalTask() AnyTask {
	w := currentWorker()
	if w == nil {
		return nil
	}
	var t *task
	if w.pool.async {
		t = w.q.peekBase()
	} else {
		t = w.q.peekTop()
	}
	if t == nil {
		return nil
	}
	return t.self
}

// PollNextLocalTask removes and returns, without running it, the task the current worker
// would run next from its own deque, or nil. It ports ForkJoinTask.pollNextLocalTask().
func PollNextLocalTask() AnyTask {
	if w := currentWorker(); w != nil {
		if t := w.localTask(); t != nil {
			return t.self
		}
	}
	return nil
}

// PollTask removes and returns, without running it, the current worker's next local task, or
// else a task stolen from another worker, or nil. It ports ForkJoinTask.pollTask().
func PollTask() AnyTask {
	w := currentWorker()
	if w == nil {
		return nil
	}
	t := w.localTask()
	if t == nil {
		t = w.scan(false)
	}
	if t == nil {
		return nil
	}
	return t.self
}

// forever is the longest wait.
const forever = time.Duration(1<<63 - 1)
