package forkjoin_test

import (
	"errors"
	"fmt"

	"github.com/loomgo/loom/forkjoin"
	"github.com/loomgo/loom/locks"
)

// fibonacci ports the RecursiveTask example of Java's documentation:
//
//	class Fibonacci extends RecursiveTask<Integer> {
//	    final int n;
//	    Fibonacci(int n) { this.n = n; }
//	    protected Integer compute() {
//	        if (n <= 1)
//	            return n;
//	        Fibonacci f1 = new Fibonacci(n - 1);
//	        f1.fork();
//	        Fibonacci f2 = new Fibonacci(n - 2);
//	        return f2.compute() + f1.join();
//	    }
//	}
//
// The class's field becomes the closure's variable, compute() the function, and f2.compute()
// an Invoke (which runs the subtask in the current thread, as the direct call does).
func fibonacci(n int) *forkjoin.Task[int] {
	return forkjoin.NewRecursiveTask(func() (int, error) {
		if n <= 1 {
			return n, nil
		}
		f1 := fibonacci(n - 1)
		f1.Fork()
		f2 := fibonacci(n - 2)
		r2, err := f2.Invoke()
		if err != nil {
			return 0, err
		}
		r1, err := f1.Join()
		return r2 + r1, err
	})
}

// Java's new ForkJoinPool().invoke(new Fibonacci(20)).
func ExampleNewRecursiveTask() {
	pool := forkjoin.NewPool(4)
	defer pool.Close()

	n, err := forkjoin.Invoke(pool, fibonacci(20))
	fmt.Println(n, err)
	// Output: 6765 <nil>
}

// A parallel sum with a sequential threshold: the shape of most fork/join code. The common
// pool runs it; Fork on a thread that is not a worker goes there too.
func ExampleInvoke_parallelSum() {
	data := make([]int64, 1_000_000)
	for i := range data {
		data[i] = int64(i)
	}
	const threshold = 10_000
	var sum func(a []int64) *forkjoin.Task[int64]
	sum = func(a []int64) *forkjoin.Task[int64] {
		return forkjoin.NewRecursiveTask(func() (int64, error) {
			if len(a) <= threshold {
				var s int64
				for _, v := range a {
					s += v
				}
				return s, nil
			}
			mid := len(a) / 2
			left := sum(a[:mid]).Fork()
			r, err := sum(a[mid:]).Invoke()
			if err != nil {
				return 0, err
			}
			l, err := left.Join()
			return l + r, err
		})
	}
	total, err := forkjoin.Invoke(forkjoin.CommonPool(), sum(data))
	fmt.Println(total, err)
	// Output: 499999500000 <nil>
}

// A subtask's error comes back from Join as it is, and travels up the recursion like the
// exception a Java subtask throws; Get wraps it in an executors.ExecutionError.
func ExampleTask_Join_error() {
	errOdd := errors.New("odd leaf")
	var walk func(lo, hi int) *forkjoin.Task[int]
	walk = func(lo, hi int) *forkjoin.Task[int] {
		return forkjoin.NewRecursiveTask(func() (int, error) {
			if hi-lo == 1 {
				if lo == 13 {
					return 0, fmt.Errorf("leaf %d: %w", lo, errOdd)
				}
				return 1, nil
			}
			mid := (lo + hi) / 2
			left := walk(lo, mid).Fork()
			r, err := walk(mid, hi).Invoke()
			l, lerr := left.Join()
			return l + r, errors.Join(lerr, err)
		})
	}
	pool := forkjoin.NewPool(2)
	defer pool.Close()
	_, err := forkjoin.Invoke(pool, walk(0, 32))
	fmt.Println(err, errors.Is(err, errOdd))
	// Output: leaf 13: odd leaf true
}

// A RecursiveAction with InvokeAll: Java's
//
//	invokeAll(new IncrementTask(array, lo, mid), new IncrementTask(array, mid, hi));
func ExampleInvokeAll() {
	array := make([]int, 100)
	var increment func(lo, hi int) *forkjoin.Task[struct{}]
	increment = func(lo, hi int) *forkjoin.Task[struct{}] {
		return forkjoin.NewRecursiveAction(func() error {
			if hi-lo < 10 {
				for i := lo; i < hi; i++ {
					array[i]++
				}
				return nil
			}
			mid := (lo + hi) / 2
			return forkjoin.InvokeAll(increment(lo, mid), increment(mid, hi))
		})
	}
	pool := forkjoin.NewPool(2)
	defer pool.Close()
	_, err := forkjoin.Invoke(pool, increment(0, len(array)))
	sum := 0
	for _, v := range array {
		sum += v
	}
	fmt.Println(sum, err)
	// Output: 100 <nil>
}

// A work-stealing pool is an ExecutorService in async (FIFO) mode: Java's
// Executors.newWorkStealingPool(n).
func ExampleNewWorkStealingPool() {
	pool := forkjoin.NewWorkStealingPool(2)
	done := locks.NewCountDownLatch(3)
	for i := range 3 {
		_ = pool.Execute(func() {
			_ = i // some independent piece of work
			done.CountDown()
		})
	}
	_ = done.Await()
	pool.Close()
	fmt.Println(pool.IsTerminated(), pool.AsyncMode())
	// Output: true true
}
