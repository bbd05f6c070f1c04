// Package executors is a stub of loom's executors package for loomvet's tests.
package executors

import (
	"time"

	"github.com/loomgo/loom/thread"
)

type ExecutorService interface {
	Execute(task func()) error
	Shutdown()
	// AwaitTermination returns thread.ErrInterrupted if interrupted.
	AwaitTermination(d time.Duration) (bool, error)
	// Close waits; an interrupt makes it ShutdownNow and wait on. It returns nil.
	Close() error
}

type Future[T any] interface {
	Get() (T, error)
	GetTimeout(d time.Duration) (T, error)
	Cancel(bool) bool
}

type FutureTask[T any] struct {
	v   T
	err error
}

func (f *FutureTask[T]) wait(interruptible bool) (T, error) {
	var zero T
	if interruptible && thread.Current() == nil {
		return zero, thread.ErrInterrupted
	}
	return f.v, f.err
}

func (f *FutureTask[T]) Get() (T, error)                       { return f.wait(true) }
func (f *FutureTask[T]) GetTimeout(d time.Duration) (T, error) { return f.wait(true) }
func (f *FutureTask[T]) Cancel(bool) bool                      { return true }

type CompletableFuture[T any] struct{ FutureTask[T] }

func (c *CompletableFuture[T]) Get() (T, error) { return c.wait(true) }

// Join waits for the outcome without being interruptible.
func (c *CompletableFuture[T]) Join() (T, error) { return c.wait(false) }

type ThreadPerTaskExecutor struct{}

func (e *ThreadPerTaskExecutor) Execute(task func()) error { return nil }
func (e *ThreadPerTaskExecutor) Shutdown()                 {}
func (e *ThreadPerTaskExecutor) AwaitTermination(d time.Duration) (bool, error) {
	if _, err := thread.Current().JoinTimeout(d); err != nil {
		return false, err
	}
	return true, nil
}
func (e *ThreadPerTaskExecutor) Close() error {
	if _, err := e.AwaitTermination(time.Second); err != nil {
		thread.Current().Interrupt()
	}
	return nil
}

type ThreadPoolExecutor struct{ ThreadPerTaskExecutor }

func NewVirtualThreadPerTaskExecutor() *ThreadPerTaskExecutor                   { return nil }
func NewThreadPerTaskExecutor(f thread.Factory) *ThreadPerTaskExecutor          { return nil }
func NewFixedThreadPool(n int) *ThreadPoolExecutor                              { return nil }
func NewFixedThreadPoolWithFactory(n int, f thread.Factory) *ThreadPoolExecutor { return nil }
func NewSingleThreadExecutor() ExecutorService                                  { return nil }

type PoolOption func()

func WithThreadFactory(f thread.Factory) PoolOption                               { return nil }
func NewThreadPoolExecutor(core, max int, opts ...PoolOption) *ThreadPoolExecutor { return nil }

func Submit[T any](es ExecutorService, task func() (T, error)) (Future[T], error) { return nil, nil }
func SubmitRunnable(es ExecutorService, task func()) (Future[struct{}], error)    { return nil, nil }
func InvokeAll[T any](es ExecutorService, tasks []func() (T, error)) ([]Future[T], error) {
	return nil, nil
}
func InvokeAny[T any](es ExecutorService, tasks []func() (T, error)) (T, error) {
	var zero T
	return zero, thread.ErrInterrupted
}

func SupplyAsync[T any](task func() (T, error)) *CompletableFuture[T] { return nil }
func RunAsync(task func()) *CompletableFuture[struct{}]               { return nil }
func SupplyAsyncOn[T any](es ExecutorService, task func() (T, error)) *CompletableFuture[T] {
	return nil
}

type ExecutorCompletionService[T any] struct{}

func NewExecutorCompletionService[T any](es ExecutorService) *ExecutorCompletionService[T] {
	return nil
}
func (c *ExecutorCompletionService[T]) Submit(task func() (T, error)) (Future[T], error) {
	return nil, nil
}
