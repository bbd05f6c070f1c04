// Package executors ports java.util.concurrent's executors and futures: ExecutorService,
// Future and FutureTask, ThreadPoolExecutor, ScheduledThreadPoolExecutor, the factory methods of
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
// Everything that waits here (Future.Get, AwaitTermination, Close, a pool worker waiting for a
// task, InvokeAny) parks the calling thread through package thread, so a virtual thread
// unmounts while it waits, a thread's Interrupt makes the wait return thread.ErrInterrupted
// (clearing the interrupt status, as InterruptedException does), and thread dumps show the
// thread WAITING or TIMED_WAITING.
//
// # Which executor
//
// For tasks that block (I/O, sleeps, locks, queues) use NewVirtualThreadPerTaskExecutor: one
// cheap virtual thread per task and no pool to size. The pools run platform threads (goroutines
// locked to OS threads), as in Java, and exist for code being ported that relies on them: a
// fixed pool bounds concurrency, a cached pool starts a platform thread per concurrent task and
// fails with thread.ErrThreadLimit (wrapped in ErrRejected) when the process runs out, where a
// Java program gets "OutOfMemoryError: unable to create native thread". Go code that only needs
// "run these and wait" may prefer golang.org/x/sync/errgroup.
//
// Close an executor when done (Java 19's ExecutorService.close: shut down, then wait for every
// task); goroutines of its threads end once it has terminated.
package executors
