package executors_test

import (
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"github.com/loomgo/loom/executors"
	"github.com/loomgo/loom/queue"
	"github.com/loomgo/loom/thread"
)

// The Java 21 try-with-resources idiom:
//
//	try (var executor = Executors.newVirtualThreadPerTaskExecutor()) {
//	    IntStream.range(0, 10_000).forEach(i -> executor.submit(() -> {
//	        Thread.sleep(Duration.ofSeconds(1));
//	        return i;
//	    }));
//	}  // executor.close() is called implicitly, and waits
func ExampleNewVirtualThreadPerTaskExecutor() {
	var done atomic.Int64
	func() {
		executor := executors.NewVirtualThreadPerTaskExecutor()
		defer executor.Close()
		for i := range 10_000 {
			executors.Submit(executor, func() (int, error) {
				if err := thread.Sleep(100 * time.Millisecond); err != nil {
					return 0, err
				}
				done.Add(1)
				return i, nil
			})
		}
	}() // Close waits for every task
	fmt.Println(done.Load(), "tasks done")
	// Output: 10000 tasks done
}

// Summing the results of futures, as Java's
// futures.stream().mapToLong(Future::resultNow).sum().
func ExampleSubmit() {
	executor := executors.NewVirtualThreadPerTaskExecutor()
	defer executor.Close()
	var futures []executors.Future[int]
	for id := range 1000 {
		f, _ := executors.Submit(executor, func() (int, error) { return id * 2, nil })
		futures = append(futures, f)
	}
	sum := 0
	for _, f := range futures {
		v, _ := f.Get()
		sum += v
	}
	fmt.Println(sum)
	// Output: 999000
}

// Get reports a task's failure as an ExecutionError (Java's ExecutionException) whose cause is
// the task's error.
func ExampleFuture_get() {
	executor := executors.NewVirtualThreadPerTaskExecutor()
	defer executor.Close()
	errNotFound := errors.New("not found")
	f, _ := executors.Submit(executor, func() (string, error) { return "", errNotFound })
	_, err := f.Get()
	var ee *executors.ExecutionError
	fmt.Println(errors.As(err, &ee), errors.Is(err, errNotFound), f.State())
	// Output: true true FAILED
}

// A FutureTask run by hand, cancelled before it runs.
func ExampleFutureTask() {
	task := executors.NewFutureTask(func() (string, error) { return "result", nil })
	fmt.Println(task.State(), task.IsDone())
	task.Cancel(true)
	task.Run() // does nothing: the task was cancelled
	_, err := task.Get()
	fmt.Println(task.State(), errors.Is(err, executors.ErrCancelled), task)
	// Output:
	// RUNNING false
	// CANCELLED true FutureTask[Cancelled]
}

// A fixed pool of platform threads, named as Java names them.
func ExampleNewFixedThreadPool() {
	pool := executors.NewFixedThreadPool(2)
	defer pool.Close()
	f, _ := executors.Submit(pool, func() (string, error) {
		me := thread.Current()
		return fmt.Sprint(strings.HasPrefix(me.Name(), "pool-"), strings.Contains(me.Name(), "-thread-"), me.IsVirtual()), nil
	})
	fmt.Println(f.Get())
	// Output: true true false <nil>
}

// InvokeAny returns the first result and interrupts the slower tasks.
func ExampleInvokeAny() {
	executor := executors.NewVirtualThreadPerTaskExecutor()
	defer executor.Close()
	fetch := func(name string, d time.Duration) func() (string, error) {
		return func() (string, error) {
			if err := thread.Sleep(d); err != nil {
				return "", err
			}
			return name, nil
		}
	}
	winner, err := executors.InvokeAny(executor, []func() (string, error){
		fetch("database", 300*time.Millisecond),
		fetch("cache", 50*time.Millisecond),
		fetch("remote", 150*time.Millisecond),
	})
	fmt.Println(winner, err)
	// Output: cache <nil>
}

// A periodic task at a fixed rate, stopped by cancelling its future.
func ExampleScheduledThreadPoolExecutor_ScheduleAtFixedRate() {
	scheduler := executors.NewScheduledThreadPool(1)
	defer scheduler.Close()
	var ticks atomic.Int32
	done := executors.NewFutureTaskRunnable(func() {}, struct{}{})
	f, _ := scheduler.ScheduleAtFixedRate(func() {
		if ticks.Add(1) == 3 {
			done.Run()
		}
	}, 0, 10*time.Millisecond)
	done.Get()
	f.Cancel(false)
	fmt.Println(ticks.Load() >= 3, f.IsCancelled())
	// Output: true true
}

// Close of Java 19: shut down, wait for the tasks to finish.
func ExampleThreadPoolExecutor_Close() {
	pool := executors.NewFixedThreadPool(4)
	var n atomic.Int32
	for range 100 {
		pool.Execute(func() { n.Add(1) })
	}
	pool.Close()
	fmt.Println(n.Load(), pool.IsTerminated())
	// Output: 100 true
}

// A CompletableFuture pipeline, as Java's
//
//	supplyAsync(() -> "loom").thenApply(String::toUpperCase).thenCombine(other, (a, b) -> a + b).join()
func ExampleCompletableFuture() {
	name := executors.SupplyAsync(func() (string, error) { return "loom", nil })
	upper := executors.ThenApply(name, func(s string) (string, error) { return strings.ToUpper(s), nil })
	version := executors.SupplyAsync(func() (int, error) { return 21, nil })
	both := executors.ThenCombine(upper, version, func(s string, v int) (string, error) {
		return fmt.Sprintf("%s %d", s, v), nil
	})
	fmt.Println(both.Join())
	// Output: LOOM 21 <nil>
}

// WhenComplete runs an action on the outcome and passes the outcome on. When the stage it
// depends on failed, the failure wins over a panic of the action, which is kept as the
// dependent's Suppressed error, as Java's whenComplete adds it to the exception; and the
// dependents of one stage run last-registered first, as in Java:
//
//	f.whenComplete((v, ex) -> { throw new IllegalStateException("cleanup"); })
func ExampleCompletableFuture_WhenComplete() {
	f := executors.NewCompletableFuture[int]()
	logged := f.WhenComplete(func(v int, err error) { fmt.Println("saw:", err) })
	cleanup := f.WhenComplete(func(int, error) { panic("cleanup failed") })
	fmt.Println(f)
	f.CompleteExceptionally(errors.New("disk full"))
	_, err := cleanup.Join()
	fmt.Println(err, "| suppressed:", cleanup.Suppressed())
	fmt.Println(logged.ExceptionNow())
	// Output:
	// CompletableFuture[Not completed, 2 dependents]
	// saw: disk full
	// executors: task failed: disk full | suppressed: panic: cleanup failed
	// disk full
}

// A pool with a bounded queue whose overflow runs on the submitting thread: the usual
// back-pressure set-up, as
//
//	new ThreadPoolExecutor(2, 2, 0L, MILLISECONDS, new ArrayBlockingQueue<>(10), new CallerRunsPolicy())
func ExampleCallerRunsPolicy() {
	pool := executors.NewThreadPoolExecutor(2, 2, 0, queue.NewArrayBlockingQueue[func()](10, false),
		executors.WithRejectionHandler(executors.CallerRunsPolicy))
	var n atomic.Int32
	for range 1000 {
		pool.Execute(func() { n.Add(1) })
	}
	pool.Close()
	fmt.Println(n.Load())
	// Output: 1000
}
