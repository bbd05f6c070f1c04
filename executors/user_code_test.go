package executors_test

import (
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/loomgo/loom/executors"
	"github.com/loomgo/loom/locks"
	"github.com/loomgo/loom/thread"
)

// User code that the executors run besides tasks (issue 15, defects 4 and 7): pool hooks,
// rejection handlers and thread factories that panic or call runtime.Goexit leave the pool's
// bookkeeping whole, and a panic goes where Java sends the exception.

// recovered runs fn and returns what it panicked with (nil if it returned or called Goexit:
// fn then runs on its own goroutine, which exits).
func recovered(fn func()) (r any) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer func() { r = recover() }()
		fn()
	}()
	<-done
	return r
}

// handlerFactory makes virtual threads whose uncaught panics are sent on the returned channel.
func handlerFactory() (thread.Factory, chan any) {
	ch := make(chan any, 16)
	return thread.OfVirtual().UncaughtExceptionHandler(func(_ *thread.Thread, v any) { ch <- v }).Factory(), ch
}

// Java's runWorker: if beforeExecute throws, the task does not run, the worker dies with the
// exception (its thread's uncaught-exception handler gets it) and is replaced; the task counts
// as completed. A Goexit does the same without the handler.
func TestBeforeExecutePanicOrGoexitSkipsTaskAndWorkerIsReplaced(t *testing.T) {
	for _, how := range []string{"panic", "goexit"} {
		t.Run(how, func(t *testing.T) {
			f, uncaught := handlerFactory()
			var calls atomic.Int32
			p := executors.NewThreadPoolExecutor(1, 1, 0, linkedQ(0), executors.WithThreadFactory(f),
				executors.WithBeforeExecute(func(*thread.Thread, func()) {
					if calls.Add(1) == 1 {
						if how == "panic" {
							panic("before boom")
						}
						runtimeGoexit()
					}
				}))
			defer p.Close()
			var ran atomic.Bool
			p.Execute(func() { ran.Store(true) })
			g, _ := executors.Submit(p, func() (int, error) { return 2, nil })
			within(t, 10*time.Second, "a task after the hook failed", func() {
				if v, err := g.Get(); v != 2 || err != nil {
					t.Errorf("Get = %v, %v", v, err)
				}
			})
			if ran.Load() {
				t.Error("the task ran although beforeExecute failed")
			}
			if how == "panic" {
				if v := <-uncaught; v != "before boom" {
					t.Errorf("uncaught handler got %v", v)
				}
			}
			eventually(t, "2 completed tasks", func() bool { return p.CompletedTaskCount() == 2 })
			if n := p.PoolSize(); n != 1 {
				t.Errorf("PoolSize = %d, want 1", n)
			}
		})
	}
}

// afterExecute that panics ends the worker with that panic; the pool replaces it.
func TestAfterExecutePanicEndsWorkerAndPoolGoesOn(t *testing.T) {
	f, uncaught := handlerFactory()
	var calls atomic.Int32
	p := executors.NewThreadPoolExecutor(1, 1, 0, linkedQ(0), executors.WithThreadFactory(f),
		executors.WithAfterExecute(func(func(), error) {
			if calls.Add(1) == 1 {
				panic("after boom")
			}
		}))
	defer p.Close()
	var ran atomic.Int32
	p.Execute(func() { ran.Add(1) })
	if v := <-uncaught; v != "after boom" {
		t.Errorf("uncaught handler got %v", v)
	}
	g, _ := executors.Submit(p, func() (int, error) { ran.Add(1); return 2, nil })
	within(t, 10*time.Second, "a task after afterExecute panicked", func() {
		if v, err := g.Get(); v != 2 || err != nil {
			t.Errorf("Get = %v, %v", v, err)
		}
	})
	if ran.Load() != 2 {
		t.Errorf("%d tasks ran", ran.Load())
	}
}

// Java's tryTerminate: if terminated() throws, the pool is TERMINATED all the same (the state
// is set and the waiters released in a finally), and the exception goes to the thread that
// made the pool terminate: the caller of Shutdown, or the last worker.
func TestTerminatedHookPanicOrGoexitStillTerminates(t *testing.T) {
	for _, how := range []string{"panic", "goexit"} {
		t.Run(how+"/in Shutdown", func(t *testing.T) {
			p := newPool(1, 1, 0, linkedQ(0), executors.WithTerminated(func() {
				if how == "panic" {
					panic("terminated boom")
				}
				runtimeGoexit()
			}))
			r := recovered(p.Shutdown)
			if how == "panic" && r != "terminated boom" {
				t.Errorf("Shutdown panicked with %v", r)
			}
			if ok, err := p.AwaitTermination(10 * time.Second); !ok || err != nil || !p.IsTerminated() {
				t.Errorf("AwaitTermination = %v, %v; terminated %v", ok, err, p.IsTerminated())
			}
		})
	}
	t.Run("panic/in the last worker", func(t *testing.T) {
		f, uncaught := handlerFactory()
		p := executors.NewThreadPoolExecutor(1, 1, 0, linkedQ(0), executors.WithThreadFactory(f),
			executors.WithTerminated(func() { panic("terminated boom") }))
		release := locks.NewCountDownLatch(1)
		p.Execute(func() { release.Await() })
		p.Shutdown()
		release.CountDown()
		if ok, _ := p.AwaitTermination(10 * time.Second); !ok {
			t.Fatal("not terminated")
		}
		if v := <-uncaught; v != "terminated boom" {
			t.Errorf("uncaught handler got %v", v)
		}
	})
}

// A rejection handler that panics (or calls Goexit) leaves Execute with its panic, as Java's
// handler's exception leaves execute; the pool is unchanged and takes tasks again.
func TestRejectionHandlerPanicOrGoexitLeavesPoolIntact(t *testing.T) {
	for _, how := range []string{"panic", "goexit"} {
		t.Run(how, func(t *testing.T) {
			p := newPool(1, 1, 0, linkedQ(1), executors.WithRejectionHandler(func(func(), *executors.ThreadPoolExecutor) error {
				if how == "panic" {
					panic("handler boom")
				}
				runtimeGoexit()
				return nil
			}))
			defer p.Close()
			started := locks.NewCountDownLatch(1)
			release := locks.NewCountDownLatch(1)
			p.Execute(func() { started.CountDown(); release.Await() })
			started.Await()
			p.Execute(func() {}) // queued: the queue is full now
			r := recovered(func() { p.Execute(func() {}) })
			if how == "panic" && r != "handler boom" {
				t.Errorf("Execute panicked with %v", r)
			}
			release.CountDown()
			eventually(t, "the queued task taken", func() bool { return p.Queue().Len() == 0 })
			p.SetRejectedExecutionHandler(executors.AbortPolicy)
			g, err := executors.Submit(p, func() (int, error) { return 3, nil })
			if err != nil {
				t.Fatal(err)
			}
			within(t, 10*time.Second, "a task after the handler failed", func() {
				if v, err := g.Get(); v != 3 || err != nil {
					t.Errorf("Get = %v, %v", v, err)
				}
			})
			if n := p.PoolSize(); n != 1 {
				t.Errorf("PoolSize = %d, want 1", n)
			}
		})
	}
}

// A thread factory that calls Goexit (as one that panics) releases the worker slot it was
// asked for: the pool starts a worker for the next task.
func TestGoexitInThreadFactoryReleasesWorkerSlot(t *testing.T) {
	var calls atomic.Int32
	vf := thread.OfVirtual().Factory()
	f := factoryFunc(func(task func()) *thread.Thread {
		if calls.Add(1) == 1 {
			runtimeGoexit()
		}
		return vf.NewThread(task)
	})
	p := executors.NewThreadPoolExecutor(1, 1, 0, linkedQ(0), executors.WithThreadFactory(f))
	defer p.Close()
	recovered(func() { p.Execute(func() {}) })
	g, err := executors.Submit(p, func() (int, error) { return 4, nil })
	if err != nil {
		t.Fatal(err)
	}
	within(t, 10*time.Second, "a task after the factory's Goexit", func() {
		if v, err := g.Get(); v != 4 || err != nil {
			t.Errorf("Get = %v, %v", v, err)
		}
	})
}

// A thread-per-task executor whose factory panics or calls Goexit has counted no thread: it
// still terminates.
func TestThreadPerTaskFactoryPanicOrGoexitCountsNoThread(t *testing.T) {
	for _, how := range []string{"panic", "goexit"} {
		e := executors.NewThreadPerTaskExecutor(factoryFunc(func(func()) *thread.Thread {
			if how == "panic" {
				panic("factory boom")
			}
			runtimeGoexit()
			return nil
		}))
		if r := recovered(func() { e.Execute(func() {}) }); how == "panic" && r != "factory boom" {
			t.Errorf("Execute panicked with %v", r)
		}
		within(t, 10*time.Second, "Close after a failing factory", func() { e.Close() })
		if !e.IsTerminated() {
			t.Errorf("%s: not terminated", how)
		}
	}
}

// A task that calls Goexit still reaches a completion service's queue (its future fails with
// ErrGoexit) and InvokeAny's.
func TestGoexitInTaskReachesCompletionQueues(t *testing.T) {
	e := executors.NewVirtualThreadPerTaskExecutor()
	defer e.Close()
	cs := executors.NewExecutorCompletionService[int](e)
	cs.Submit(func() (int, error) { runtimeGoexit(); return 0, nil })
	within(t, 10*time.Second, "Take after a Goexit", func() {
		f, err := cs.Take()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.Get(); !errors.Is(err, executors.ErrGoexit) {
			t.Errorf("Get = %v, want ErrGoexit", err)
		}
	})
	within(t, 10*time.Second, "InvokeAny of tasks that Goexit", func() {
		_, err := executors.InvokeAny(e, []func() (int, error){
			func() (int, error) { runtimeGoexit(); return 0, nil },
			func() (int, error) { runtimeGoexit(); return 0, nil },
		})
		if !errors.Is(err, executors.ErrGoexit) {
			t.Errorf("InvokeAny = %v, want ErrGoexit", err)
		}
	})
}
