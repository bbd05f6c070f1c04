package executors

// Executor runs tasks: java.util.concurrent.Executor, the one-method interface that
// [CompletableFuture]'s async methods take. Every [ExecutorService] is an Executor, and so are the
// executors [DelayedExecutor] and [CompletableFuture.DefaultExecutor] return, a
// forkjoin.Pool, and an [ExecutorFunc].
type Executor interface {
	// Execute runs task at some time in the future, on a thread the executor chooses, or returns
	// an error if it cannot take it (the executors of this package return one wrapping
	// [ErrRejected], Java's RejectedExecutionException).
	Execute(task func()) error
}

// ExecutorFunc is a function used as an Executor, as a Java lambda is one:
//
//	direct := executors.ExecutorFunc(func(task func()) error { task(); return nil }) // Runnable::run
type ExecutorFunc func(task func()) error

// Execute calls f(task).
func (f ExecutorFunc) Execute(task func()) error { return f(task) }
