// Package forkjoin ports Java's fork/join framework: a work-stealing pool of platform threads
// ([Pool], Java's ForkJoinPool) that runs tasks which split their work into subtasks, fork
// them, and join their results ([Task], Java's ForkJoinTask, RecursiveTask and
// RecursiveAction). It is for CPU-bound divide-and-conquer code, and for what Java runs on the
// common pool ([CommonPool]).
//
//	Java                                        loom
//	ForkJoinPool                                [Pool]: [NewPool], [NewPoolWithOptions]
//	ForkJoinPool.commonPool()                   [CommonPool]
//	Executors.newWorkStealingPool(n)            [NewWorkStealingPool]
//	pool.invoke(task)                           [Invoke](pool, task)
//	pool.execute(task), pool.submit(task)       [Pool.ExecuteTask]
//	pool.submit(callable)                       executors.Submit(pool, callable)
//	ForkJoinTask<V>                             *[Task][V]; [AnyTask] for a task of any type
//	RecursiveTask<V> { V compute() }            [NewRecursiveTask](func() (V, error))
//	RecursiveAction { void compute() }          [NewRecursiveAction](func() error)
//	ForkJoinTask.adapt(callable / runnable)     [Adapt], [AdaptRunnable]
//	ForkJoinTask subclass with exec()           [NewTask](func(*Task[V]) bool)
//	task.fork(), join(), invoke(), get()        [Task.Fork], [Task.Join], [Task.Invoke], [Task.Get]
//	ForkJoinTask.invokeAll(t1, t2, ...)         [InvokeAll], [InvokeAllTasks]
//	ForkJoinTask.helpQuiesce(), getPool(), ...  [HelpQuiesce], [CurrentPool], [InPool], [PoolIndex], ...
//	ForkJoinPool.managedBlock(blocker)          [ManagedBlock]
//	RuntimeException thrown by compute()        the error compute returns (or its panic)
//	RejectedExecutionException                  executors.ErrRejected (a returned error)
//
// # Writing tasks
//
// A RecursiveTask's compute() becomes a function returning (T, error); the task's fields
// become the variables the function closes over, so a constructor function reads like the
// Java class:
//
//	func sum(a []int64) *forkjoin.Task[int64] {
//		return forkjoin.NewRecursiveTask(func() (int64, error) {
//			if len(a) <= threshold {
//				return sequentialSum(a), nil
//			}
//			mid := len(a) / 2
//			left := sum(a[:mid]).Fork()
//			r, err := sum(a[mid:]).Invoke()
//			if err != nil {
//				return 0, err
//			}
//			l, err := left.Join()
//			return l + r, err
//		})
//	}
//
//	total, err := forkjoin.Invoke(pool, sum(data))
//
// Join returns the error of a failed subtask as it is (Java's join rethrows the subtask's
// exception), so failures propagate up the recursion as errors; Get wraps them in an
// [executors.ExecutionError], as Java's get does. A panic in a task completes it exceptionally
// with a *executors.PanicError; a task that calls [runtime.Goexit] ends the worker thread running
// it, and completes (with [executors.ErrGoexit]) together with any task that thread was running
// at the time, so that no joiner waits forever.
//
// # Blocking and threads
//
// Workers are platform threads, as Java's ForkJoinWorkerThreads. A worker that joins a task
// that is not done helps instead of blocking: it runs the task itself if it is still queued,
// or other queued tasks, so deep recursion runs on the workers there are. A worker that must
// block in a join, or that waits in [ManagedBlock], is compensated with a spare worker when
// queued tasks need one. Other blocking inside tasks (locks, I/O, sleeps) holds the worker, as
// in Java: blocking work belongs on virtual threads. Join, Get and the other waits may also be
// called from virtual threads, which unmount while they wait.
//
// The package sits above package executors: a Pool is an [executors.ExecutorService] and a Task
// an [executors.Future], and executors never refers to forkjoin. So a CompletableFuture stage runs
// on the common pool when it is asked to, [executors.SupplyAsyncOn]([CommonPool](), task),
// as Java's default async executor would run it.
//
// # When to use plain Go instead
//
// A [sync.WaitGroup] (or errgroup) with one goroutine per subtask and a sequential threshold is
// about as fast for coarse-grained recursion in Go, since goroutines are cheap. The pool adds
// what a Java port relies on: a bounded number of threads, work stealing with LIFO locality,
// helping joins, the statistics, and ForkJoinTask's API.
package forkjoin
