package carrierblock

import (
	"runtime"
	"sync"

	"github.com/loomgo/loom/executors"
	"github.com/loomgo/loom/structured"
	"github.com/loomgo/loom/thread"
)

var (
	mu   sync.Mutex
	rw   sync.RWMutex
	wg   sync.WaitGroup
	cond = sync.NewCond(&mu)
)

func channels(ch chan int, done chan struct{}) {
	t := thread.OfVirtual().Unstarted(func() {
		ch <- 1   // want `a channel send on a virtual thread \(in a task of \(\*thread.VirtualBuilder\).Unstarted\)`
		v := <-ch // want `a channel receive on a virtual thread`
		_ = v
		for range ch { // want `a range over a channel on a virtual thread`
		}
		select { // want `a select without default on a virtual thread`
		case <-ch:
		case ch <- 2:
		}
		select { // a select with default does not block
		case <-done:
		default:
		}
	})
	t.Start()
}

func syncs() {
	thread.StartVirtualThread(locked)
}

func locked() {
	mu.Lock() // want `\(\*sync.Mutex\).Lock on a virtual thread`
	defer mu.Unlock()
	rw.RLock() // want `\(\*sync.RWMutex\).RLock on a virtual thread`
	rw.RUnlock()
	wg.Wait()   // want `\(\*sync.WaitGroup\).Wait on a virtual thread`
	cond.Wait() // want `\(\*sync.Cond\).Wait on a virtual thread`
}

type server struct{ ch chan string }

func (s *server) serve() {
	s.ch <- "hello" // want `a channel send on a virtual thread \(in a task of \(\*thread.VirtualBuilder\).Start\)`
}

func methods(s *server) {
	thread.OfVirtual().Start(s.serve)
}

func factories(ch chan int) {
	f := thread.OfVirtual().Factory()
	f.NewThread(func() { <-ch }).Start() // want `a channel receive on a virtual thread \(in a task of NewThread of a virtual thread factory\)`
	es := executors.NewThreadPerTaskExecutor(f)
	es.Execute(func() { <-ch }) // want `a channel receive on a virtual thread \(in a task of \(\*executors.ThreadPerTaskExecutor\).Execute on a virtual-thread executor\)`
	pool := executors.NewFixedThreadPoolWithFactory(4, thread.OfVirtual().Factory())
	executors.SubmitRunnable(pool, func() { <-ch }) // want `a channel receive on a virtual thread`
	opts := executors.NewThreadPoolExecutor(1, 2, executors.WithThreadFactory(f))
	opts.Execute(func() { ch <- 1 }) // want `a channel send on a virtual thread`
	ecs := executors.NewExecutorCompletionService[int](executors.NewVirtualThreadPerTaskExecutor())
	ecs.Submit(func() (int, error) { return <-ch, nil }) // want `a channel receive on a virtual thread`
	tasks := []func() (int, error){
		func() (int, error) { return <-ch, nil }, // want `a channel receive on a virtual thread \(in a task of executors.InvokeAll on a virtual-thread executor\)`
	}
	tasks = append(tasks, func() (int, error) { ch <- 1; return 0, nil }) // want `a channel send on a virtual thread`
	executors.InvokeAll(executors.NewVirtualThreadPerTaskExecutor(), tasks)
	executors.InvokeAny(executors.NewVirtualThreadPerTaskExecutor(), []func() (int, error){
		func() (int, error) { return <-ch, nil }, // want `a channel receive on a virtual thread \(in a task of executors.InvokeAny`
	})
}

func futures(ch chan int) {
	executors.SupplyAsync(func() (int, error) { return <-ch, nil })                                                // want `a channel receive on a virtual thread \(in a task of executors.SupplyAsync\)`
	executors.RunAsync(func() { ch <- 1 })                                                                         // want `a channel send on a virtual thread \(in a task of executors.RunAsync\)`
	executors.SupplyAsyncOn(executors.NewVirtualThreadPerTaskExecutor(), func() (int, error) { return <-ch, nil }) // want `a channel receive on a virtual thread`
}

func scopes(ch chan int) {
	scope := structured.Open()
	defer scope.Close()
	structured.Fork(scope, func() (int, error) { return <-ch, nil }) // want `a channel receive on a virtual thread \(in a task of structured.Fork\)`
	vs := structured.OpenWith(structured.AwaitAll[int](), structured.WithThreadFactory(thread.OfVirtual().Factory()))
	structured.Fork(vs, func() (int, error) { return <-ch, nil }) // want `a channel receive on a virtual thread`
}

func helper(es executors.ExecutorService, ch chan int) {
	executors.SubmitRunnable(es, func() { <-ch }) // want `a channel receive on a virtual thread`
}

func passesVirtual(ch chan int) {
	helper(executors.NewVirtualThreadPerTaskExecutor(), ch)
}

func nested(ch chan int) {
	thread.StartVirtualThread(func() {
		defer func() { <-ch }()   // want `a channel receive on a virtual thread`
		m := func() { mu.Lock() } // want `\(\*sync.Mutex\).Lock on a virtual thread`
		m()
	})
}

func lockedOSThread() {
	thread.StartVirtualThread(func() {
		runtime.LockOSThread() // want `runtime.LockOSThread on a virtual thread \(in a task of thread.StartVirtualThread\) ends the process with a fatal error`
		defer runtime.UnlockOSThread()
	})
	thread.StartVirtualThread(func() {
		thread.Native(func() {
			runtime.LockOSThread() // inside Native: the thread parks in place, not reported
			defer runtime.UnlockOSThread()
		})
	})
}
