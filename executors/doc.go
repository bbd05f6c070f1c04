// Package executors ports java.util.concurrent's executors and futures: [ExecutorService],
// Future and [FutureTask], [ThreadPoolExecutor], [ScheduledThreadPoolExecutor], the factory methods of
// java.util.concurrent.Executors, and the Java 19+ thread-per-task executors.
//
// # Java names
//
//	Java                                          Go
//	ExecutorService, Executor.execute             ExecutorService, Execute
//	submit(Callable) / submit(Runnable)           Submit[T] / SubmitRunnable
//	invokeAll / invokeAny (and timed)             InvokeAll[T] / InvokeAny[T] (InvokeAllTimeout, InvokeAnyTimeout)
//	Future, FutureTask, Future.State              Future[T], FutureTask[T], FutureState
//	ExecutionException, CancellationException    *ExecutionError, ErrCancelled
//	TimeoutException, RejectedExecutionException  ErrTimeout, ErrRejected
//	InterruptedException                          thread.ErrInterrupted
//	Executors.newVirtualThreadPerTaskExecutor()   NewVirtualThreadPerTaskExecutor
//	Executors.newThreadPerTaskExecutor(f)         NewThreadPerTaskExecutor
//	Executors.newFixedThreadPool(n[, f])          NewFixedThreadPool, NewFixedThreadPoolWithFactory
//	Executors.newCachedThreadPool([f])            NewCachedThreadPool, NewCachedThreadPoolWithFactory
//	Executors.newSingleThreadExecutor([f])        NewSingleThreadExecutor, NewSingleThreadExecutorWithFactory
//	Executors.newScheduledThreadPool(n[, f])      NewScheduledThreadPool, NewScheduledThreadPoolWithFactory
//	Executors.defaultThreadFactory()              DefaultThreadFactory
//	ThreadPoolExecutor, its policies and hooks    ThreadPoolExecutor, AbortPolicy..., WithBeforeExecute...
//	Executors.newSingleThreadScheduledExecutor()  NewSingleThreadScheduledExecutor
//	ScheduledExecutorService.schedule(Callable)   ScheduleCallable[T]
//	ExecutorCompletionService                     ExecutorCompletionService[T]
//	CompletableFuture.supplyAsync, thenApply, ... SupplyAsync, ThenApply, ThenCompose, AllOf, AnyOf, Join
//	cf.thenApplyAsync(fn[, executor]), ...        ThenApplyAsync(cf, fn), ThenApplyAsyncOn(cf, ex, fn), ...
//	Executor, a lambda used as one                Executor, ExecutorFunc
//	CompletionStage, minimalCompletionStage()     CompletionStage[T], cf.MinimalCompletionStage()
//	orTimeout, completeOnTimeout                  cf.OrTimeout(d), cf.CompleteOnTimeout(v, d)
//	CompletableFuture.delayedExecutor(d[, e])     DelayedExecutor(d), DelayedExecutorOn(ex, d)
//	try (var e = ...) { }                         defer e.Close()
//
// Java's generic methods are package functions here (Submit[T], InvokeAll[T], ScheduleCallable[T])
// because Go methods cannot have type parameters. A task with a result is a func() (T, error):
// the error plays the checked exception, and a panic in a submitted task is caught and becomes
// the cause (a *PanicError with the value and the stack) of the *ExecutionError that Get
// returns. A panic in a task given to Execute is, as in Java, an uncaught exception of the thread
// that runs it.
//
// # Waiting
//
// Everything that waits here ([Future.Get], AwaitTermination, Close, a pool worker waiting for a
// task, [InvokeAny]) parks the calling thread through package thread, so a virtual thread
// unmounts while it waits, a thread's Interrupt makes the wait return [thread.ErrInterrupted]
// (clearing the interrupt status, as InterruptedException does), and thread dumps show the
// thread WAITING or TIMED_WAITING.
//
// # Which executor
//
// For tasks that block (I/O, sleeps, locks, queues) use [NewVirtualThreadPerTaskExecutor]: one
// cheap virtual thread per task and no pool to size. The pools run platform threads (goroutines
// locked to OS threads), as in Java, and exist for code being ported that relies on them: a
// fixed pool bounds concurrency, a cached pool starts a platform thread per concurrent task and
// fails with [thread.ErrThreadLimit] (wrapped in [ErrRejected]) when the process runs out, where a
// Java program gets "OutOfMemoryError: unable to create native thread". Go code that only needs
// "run these and wait" may prefer golang.org/x/sync/errgroup.
//
// # [CompletableFuture]
//
// [CompletableFuture] follows Java's rule for which thread runs a dependent action. A non-async
// stage ([ThenApply], WhenComplete, [ApplyToEither], ...) runs its action on the thread that
// completes the stage it depends on, or on the caller when that stage is complete already. An
// async stage ([ThenApplyAsync], ...) runs it on the executor given to its AsyncOn variant, or on
// the default executor ([CompletableFuture.DefaultExecutor]), and so do [SupplyAsync], [RunAsync] and
// CompleteAsync.
//
// The default executor is where loom departs from Java: Java uses the common ForkJoinPool (a
// thread per task when the pool has fewer than two workers); loom starts a new virtual thread
// per task. What Java programs hand to supplyAsync is as often blocking I/O as computation, and
// on the common pool a blocked task holds one of its GOMAXPROCS-1 platform workers, which is why
// Java code passes an executor of its own; on a virtual thread it gives its carrier back.
// Computation loses nothing, since virtual threads run on as many carriers as there are
// processors. To run a stage on the common pool as Java would, pass it:
// [SupplyAsyncOn](forkjoin.CommonPool(), task) (package forkjoin sits above this one, which never
// uses it on its own).
//
// OrTimeout, CompleteOnTimeout and [DelayedExecutor] are served by one daemon platform thread,
// "CompletableFutureDelayScheduler" as in Java 21 (JDK 25 uses the common pool's delay
// scheduler), started when a timeout is set and ending 100 ms after the last one fired or was
// withdrawn; a timed-out future's dependents run on it, as in Java. A timeout of
// [math.MaxInt64] (Java's Long.MAX_VALUE idiom) never fires and schedules nothing.
//
// Close an executor when done (Java 19's ExecutorService.close: shut down, then wait for every
// task); goroutines of its threads end once it has terminated.
package executors
