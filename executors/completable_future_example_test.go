package executors_test

import (
	"errors"
	"fmt"
	"time"

	"github.com/loomgo/loom/executors"
	"github.com/loomgo/loom/thread"
)

// An async stage runs on the executor it is given; without one, on a new virtual thread, so
// that blocking I/O in it costs no platform thread:
//
//	supplyAsync(() -> fetch(id), pool).thenApplyAsync(this::parse, pool)
func ExampleThenApplyAsyncOn() {
	pool := executors.NewFixedThreadPoolWithFactory(1, thread.OfPlatform().Name("parser").Factory())
	defer pool.Close()
	fetched := executors.SupplyAsync(func() (string, error) {
		fmt.Println("fetch on a virtual thread:", thread.Current().IsVirtual())
		return "42", nil
	})
	parsed := executors.ThenApplyAsyncOn(fetched, pool, func(s string) (int, error) {
		fmt.Println("parse on", thread.Current().Name())
		var n int
		_, err := fmt.Sscan(s, &n)
		return n, err
	})
	fmt.Println(parsed.Join())
	// Output:
	// fetch on a virtual thread: true
	// parse on parser
	// 42 <nil>
}

// OrTimeout fails a future that is not complete in time with ErrTimeout; CompleteOnTimeout
// completes it with a fallback instead:
//
//	slowCall().orTimeout(50, MILLISECONDS)
//	slowCall().completeOnTimeout("cached", 50, MILLISECONDS)
func ExampleCompletableFuture_OrTimeout() {
	slowCall := func() *executors.CompletableFuture[string] { return executors.NewCompletableFuture[string]() }

	_, err := slowCall().OrTimeout(50 * time.Millisecond).Join()
	fmt.Println(err, errors.Is(err, executors.ErrTimeout))

	v, err := slowCall().CompleteOnTimeout("cached", 50*time.Millisecond).Join()
	fmt.Println(v, err)
	// Output:
	// executors: task failed: thread: timed out true
	// cached <nil>
}

// ApplyToEither takes whichever of two stages completes first, the usual hedged request to two
// replicas; its function runs once:
//
//	replicaA.applyToEither(replicaB, String::length)
func ExampleApplyToEither() {
	replicaA, replicaB := executors.NewCompletableFuture[string](), executors.NewCompletableFuture[string]()
	first := executors.ApplyToEither(replicaA, replicaB, func(answer string) (string, error) {
		return "first answer: " + answer, nil
	})
	replicaB.Complete("from B")
	replicaA.Complete("from A") // too late
	fmt.Println(first.Join())
	// Output: first answer: from B <nil>
}

// ExceptionallyCompose recovers from a failure with another asynchronous computation, a retry:
//
//	call().exceptionallyCompose(ex -> callBackup())
func ExampleCompletableFuture_ExceptionallyCompose() {
	call := executors.SupplyAsync(func() (string, error) { return "", errors.New("connection refused") })
	recovered := call.ExceptionallyCompose(func(err error) *executors.CompletableFuture[string] {
		fmt.Println("primary failed:", err)
		return executors.SupplyAsync(func() (string, error) { return "from the backup", nil })
	})
	fmt.Println(recovered.Join())
	// Output:
	// primary failed: connection refused
	// from the backup <nil>
}

// ThenCombine waits for both stages; ThenAcceptBoth and RunAfterBoth do the same for an action
// without a result:
//
//	price.thenAcceptBoth(rate, (p, r) -> System.out.println(p * r))
func ExampleThenAcceptBoth() {
	price := executors.SupplyAsync(func() (float64, error) { return 12.5, nil })
	rate := executors.SupplyAsync(func() (float64, error) { return 0.8, nil })
	done := executors.ThenAcceptBoth(price, rate, func(p, r float64) { fmt.Println("in euros:", p*r) })
	done.Join()
	// Output: in euros: 10
}

// DelayedExecutor hands a task to an executor after a delay, without a scheduled pool:
//
//	supplyAsync(() -> "later", delayedExecutor(20, MILLISECONDS))
func ExampleDelayedExecutor() {
	start := time.Now()
	v, _ := executors.SupplyAsyncOn(executors.DelayedExecutor(20*time.Millisecond), func() (string, error) {
		return "later", nil
	}).Join()
	fmt.Println(v, time.Since(start) >= 20*time.Millisecond)
	// Output: later true
}

// A minimal stage lets code chain on a future without being able to complete it, cancel it or
// wait for it; ToCompletableFuture gives it a future of its own:
//
//	CompletionStage<String> view = result.minimalCompletionStage();
func ExampleCompletableFuture_MinimalCompletionStage() {
	result := executors.NewCompletableFuture[string]()
	var view executors.CompletionStage[string] = result.MinimalCompletionStage()
	length := executors.ThenApply(view, func(s string) (int, error) { return len(s), nil })
	mine := view.ToCompletableFuture()
	mine.Complete("not the result") // completes the copy only
	result.Complete("the result")
	fmt.Println(length.Join())
	fmt.Println(mine.Join())
	// Output:
	// 10 <nil>
	// not the result <nil>
}
