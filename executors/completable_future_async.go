package executors

import "github.com/loomgo/loom/thread"

// defaultAsync is the executor of the async methods given none: a new virtual thread per task.
//
// Java's is the common ForkJoinPool (a new platform thread per task when its parallelism is
// below two). loom's is a virtual thread per task because what a Java program hands to
// supplyAsync is as often blocking I/O as computation: on a virtual thread a blocked task
// gives its carrier back, where on the common pool it holds one of GOMAXPROCS-1 workers and
// starves the others, the reason Java programs pass their own executor. Computation loses
// nothing: virtual threads run on as many carriers as there are processors. And package
// executors cannot use the common pool without importing package forkjoin, which sits above
// it. To run a stage on the common pool as Java would, pass it: SupplyAsyncOn(forkjoin.CommonPool(), task).
var defaultAsync Executor = virtualThreadPerTask{}

// virtualThreadPerTask starts a virtual thread per task, as the executor of
// Executors.newVirtualThreadPerTaskExecutor() does, without its lifecycle: nothing to shut down.
type virtualThreadPerTask struct{}

func (virtualThreadPerTask) Execute(task func()) error {
	if task == nil {
		panic(nilArg("task"))
	}
	thread.StartVirtualThread(task)
	return nil
}

// String names the executor.
func (virtualThreadPerTask) String() string { return "VirtualThreadPerTaskExecutor" }

// dispatch hands task, which completes d, to ex, and returns d's dependents if ex refused it: d
// then fails with ex's error, as a Java stage fails with the RejectedExecutionException its
// executor threw. A panic in Execute is a refusal too (with a *PanicError); a runtime.Goexit in
// it fails d with ErrGoexit. A DelayedExecutor's submissions are also withdrawn when d completes
// first, and fail d if the executor they go to refuses them.
func dispatch[T any](ex Executor, d *CompletableFuture[T], task func()) *completion {
	if de, ok := ex.(*delayedExecutor); ok {
		if t := de.schedule(task, func(err error) { postComplete(d.fail(err)) }); t != nil {
			d.push(&completion{hidden: true, fire: func() *completion { delayer.cancel(t); return nil }})
		}
		return nil
	}
	if err := execute(ex, task, func() { postComplete(d.fail(ErrGoexit)) }); err != nil {
		return d.fail(err)
	}
	return nil
}

// execute calls ex.Execute(task) and returns its error, or a *PanicError if it panics; if it
// calls runtime.Goexit, onGoexit runs as the goroutine exits.
func execute(ex Executor, task func(), onGoexit func()) error {
	_, err := protect(func() (struct{}, error) { return struct{}{}, ex.Execute(task) }, onGoexit)
	return err
}

// SupplyAsync runs task on the default executor (a new virtual thread) and returns a future of
// its outcome. A nil task panics with an error wrapping [thread.ErrNilArgument]. It ports
// CompletableFuture.supplyAsync(Supplier), with a virtual thread per task in the place of the
// common ForkJoinPool (see DefaultExecutor).
func SupplyAsync[T any](task func() (T, error)) *CompletableFuture[T] {
	return supplyAsync(defaultAsync, task)
}

// SupplyAsyncOn is [SupplyAsync] running task on ex. If ex refuses it, the future fails with ex's
// error (Java's supplyAsync throws the RejectedExecutionException instead). It ports
// CompletableFuture.supplyAsync(Supplier, Executor).
func SupplyAsyncOn[T any](ex Executor, task func() (T, error)) *CompletableFuture[T] {
	return supplyAsync(screen(ex), task)
}

func supplyAsync[T any](ex Executor, task func() (T, error)) *CompletableFuture[T] {
	if task == nil {
		panic(nilArg("task"))
	}
	d := NewCompletableFuture[T]()
	postComplete(dispatch(ex, d, func() { postComplete(d.complete(task)) }))
	return d
}

// RunAsync runs task on the default executor (a new virtual thread); the future completes with
// struct{}{} when it returns. It ports CompletableFuture.runAsync(Runnable).
func RunAsync(task func()) *CompletableFuture[struct{}] {
	return supplyAsync(defaultAsync, asTask(task))
}

// RunAsyncOn is [RunAsync] running task on ex; see [SupplyAsyncOn]. It ports
// CompletableFuture.runAsync(Runnable, Executor).
func RunAsyncOn(ex Executor, task func()) *CompletableFuture[struct{}] {
	return supplyAsync(screen(ex), asTask(task))
}

// asTask makes a task with a result of a task without one.
func asTask(task func()) func() (struct{}, error) {
	if task == nil {
		panic(nilArg("task"))
	}
	return func() (struct{}, error) { task(); return struct{}{}, nil }
}

// CompleteAsync completes c with the outcome of task, run on the default executor (a new
// virtual thread), unless c is complete by then, and returns c. A nil task panics with an error
// wrapping [thread.ErrNilArgument]. It ports CompletableFuture.completeAsync(Supplier) (Java 9).
func (c *CompletableFuture[T]) CompleteAsync(task func() (T, error)) *CompletableFuture[T] {
	return c.completeAsync(defaultAsync, task)
}

// CompleteAsyncOn is CompleteAsync running task on ex; if ex refuses it, c fails with ex's
// error. It ports CompletableFuture.completeAsync(Supplier, Executor).
func (c *CompletableFuture[T]) CompleteAsyncOn(ex Executor, task func() (T, error)) *CompletableFuture[T] {
	return c.completeAsync(screen(ex), task)
}

func (c *CompletableFuture[T]) completeAsync(ex Executor, task func() (T, error)) *CompletableFuture[T] {
	if task == nil {
		panic(nilArg("task"))
	}
	postComplete(dispatch(ex, c, func() { postComplete(c.complete(task)) }))
	return c
}
