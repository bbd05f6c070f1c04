package oracle_test

import (
	"strings"
	"sync/atomic"
	"time"

	"github.com/loomgo/loom/executors"
	"github.com/loomgo/loom/locks"
	"github.com/loomgo/loom/queue"
	"github.com/loomgo/loom/thread"
)

// Executors and futures: the twins of java/ExecutorScenarios.java.
func executorScenarios() []scenario {
	const suite = "ExecutorScenarios"
	return []scenario{
		{suite, "exec_thread_per_task_lifecycle", execThreadPerTaskLifecycle},
		{suite, "exec_thread_per_task_shutdown_now", execThreadPerTaskShutdownNow},
		{suite, "exec_fixed_pool_shutdown_now", execFixedPoolShutdownNow},
		{suite, "exec_rejection_policies", execRejectionPolicies},
		{suite, "exec_future_states", execFutureStates},
		{suite, "exec_cancel_running_task", execCancelRunningTask},
		{suite, "exec_future_task", execFutureTask},
		{suite, "exec_invoke_all", execInvokeAll},
		{suite, "exec_invoke_any", execInvokeAny},
		{suite, "exec_invoke_any_timeout", execInvokeAnyTimeout},
		{suite, "exec_close_interrupted", execCloseInterrupted},
		{suite, "exec_await_termination_interrupted", execAwaitTerminationInterrupted},
		{suite, "exec_scheduled_shutdown_policy", execScheduledShutdownPolicy},
		{suite, "exec_scheduled_periodic_failure", execScheduledPeriodicFailure},
		{suite, "exec_completion_service", execCompletionService},
		{suite, "exec_pool_sizes", execPoolSizes},
		{suite, "exec_default_thread_factory", execDefaultThreadFactory},
		{suite, "exec_hooks", execHooks},
	}
}

// status is the status word of a future's String(): "[Completed normally]", "[Not completed]".
func status(s interface{ String() string }) string {
	x := state(s)
	if i := strings.IndexAny(x, ":,]"); i >= 0 {
		x = x[:i]
	}
	return x + "]"
}

// gated is a task that blocks on gate and returns v.
func gated(gate *locks.CountDownLatch, v string) func() (string, error) {
	return func() (string, error) {
		if err := gate.Await(); err != nil {
			return "", err
		}
		return v, nil
	}
}

// blockForever waits on a latch nobody counts down, until interrupted.
func blockForever() error { return locks.NewCountDownLatch(1).Await() }

func execThreadPerTaskLifecycle(lg *Log) {
	es := executors.NewVirtualThreadPerTaskExecutor()
	gate := locks.NewCountDownLatch(1)
	f, _ := executors.Submit(es, gated(gate, "done"))
	lg.P("shutdown %s terminated %s", es.IsShutdown(), es.IsTerminated())
	es.Shutdown()
	lg.P("after shutdown: shutdown %s terminated %s", es.IsShutdown(), es.IsTerminated())
	lg.Call("submit after shutdown", func() error {
		_, err := executors.Submit(es, func() (string, error) { return "x", nil })
		return err
	})
	lg.Call("execute after shutdown", func() error { return es.Execute(func() {}) })
	lg.Val("awaitTermination(1 ms) with a task running", func() (any, error) { return es.AwaitTermination(time.Millisecond) })
	gate.CountDown()
	lg.Val("awaitTermination(1 h)", func() (any, error) { return es.AwaitTermination(hour) })
	v, _ := f.Get()
	lg.P("terminated %s; the task's result %s", es.IsTerminated(), v)
	lg.Call("close a terminated executor", es.Close)
	lg.Call("shutdown again", ok(es.Shutdown))
}

func execThreadPerTaskShutdownNow(lg *Log) {
	es := executors.NewVirtualThreadPerTaskExecutor()
	var seen atomic.Value
	started := locks.NewCountDownLatch(1)
	f, _ := executors.Submit(es, func() (struct{}, error) {
		started.CountDown()
		if err := thread.Sleep(hour); err != nil {
			seen.Store("task saw " + exName(err))
			return struct{}{}, err
		}
		return struct{}{}, nil
	})
	started.Await()
	lg.P("shutdownNow returned %s never-started tasks", len(es.ShutdownNow()))
	lg.Val("get", func() (any, error) { _, err := f.Get(); return null{}, err })
	lg.Val("awaitTermination(1 h)", func() (any, error) { return es.AwaitTermination(hour) })
	lg.P("%s; state %s", seen.Load(), f.State())
}

func execFixedPoolShutdownNow(lg *Log) {
	es := executors.NewFixedThreadPool(1)
	started := locks.NewCountDownLatch(1)
	running, _ := executors.Submit(es, func() (struct{}, error) {
		started.CountDown()
		return struct{}{}, thread.Sleep(hour)
	})
	started.Await()
	queued1, _ := executors.Submit(es, func() (string, error) { return "never", nil })
	queued2, _ := executors.Submit(es, func() (string, error) { return "never", nil })
	lg.P("shutdownNow returned %s never-started tasks", len(es.ShutdownNow()))
	lg.Val("the running task's get", func() (any, error) { _, err := running.Get(); return null{}, err })
	lg.P("queued futures: done %s %s, state %s", queued1.IsDone(), queued2.IsDone(), queued1.State())
	lg.Val("awaitTermination(1 h)", func() (any, error) { return es.AwaitTermination(hour) })
	lg.Call("execute after shutdownNow", func() error { return es.Execute(func() {}) })
}

func execRejectionPolicies(lg *Log) {
	for _, p := range []struct {
		name string
		h    executors.RejectedExecutionHandler
	}{
		{"AbortPolicy", executors.AbortPolicy},
		{"CallerRunsPolicy", executors.CallerRunsPolicy},
		{"DiscardPolicy", executors.DiscardPolicy},
		{"DiscardOldestPolicy", executors.DiscardOldestPolicy},
	} {
		es := executors.NewThreadPoolExecutor(1, 1, 0, queue.NewArrayBlockingQueue[func()](1, false), executors.WithRejectionHandler(p.h))
		gate := locks.NewCountDownLatch(1)
		var ran list
		es.Execute(func() { gate.Await(); ran.add("A") })
		await(lg, "A running", func() bool { return es.ActiveCount() == 1 })
		es.Execute(func() { ran.add("B") })
		lg.Call(p.name+": execute C on a saturated pool", func() error {
			return es.Execute(func() { ran.add("C in %s", thread.Current().Name()) })
		})
		gate.CountDown()
		es.Shutdown()
		es.AwaitTermination(hour)
		lg.P("%s: ran %s", p.name, &ran)
		var after list
		lg.Call(p.name+": execute after shutdown", func() error { return es.Execute(func() { after.add("D") }) })
		lg.P("%s: after shutdown ran %s", p.name, &after)
	}
}

func execFutureStates(lg *Log) {
	es := executors.NewVirtualThreadPerTaskExecutor()
	gate := locks.NewCountDownLatch(1)
	running, _ := executors.Submit(es, gated(gate, "v"))
	lg.P("running: state %s done %s cancelled %s", running.State(), running.IsDone(), running.IsCancelled())
	lg.Val("running resultNow", func() (any, error) { return running.ResultNow(), nil })
	lg.Val("running exceptionNow", func() (any, error) { return running.ExceptionNow(), nil })
	lg.Val("running get(1 ms)", valErr(func() (string, error) { return running.GetTimeout(time.Millisecond) }))
	gate.CountDown()
	lg.Val("get", valErr(running.Get))
	lg.P("succeeded: state %s done %s resultNow %s", running.State(), running.IsDone(), running.ResultNow())
	lg.Val("succeeded exceptionNow", func() (any, error) { return running.ExceptionNow(), nil })
	lg.Val("cancel a succeeded future", func() (any, error) { return running.Cancel(true), nil })
	failed, _ := executors.Submit(es, func() (string, error) { return "", boom("failed") })
	lg.Val("get of a failed task", valErr(failed.Get))
	lg.P("failed: state %s exceptionNow %s", failed.State(), failed.ExceptionNow())
	lg.Val("failed resultNow", func() (any, error) { return failed.ResultNow(), nil })
	never := locks.NewCountDownLatch(1)
	cancelled, _ := executors.Submit(es, gated(never, "never"))
	lg.Val("cancel(false)", func() (any, error) { return cancelled.Cancel(false), nil })
	lg.P("cancelled: state %s done %s cancelled %s", cancelled.State(), cancelled.IsDone(), cancelled.IsCancelled())
	lg.Val("get of a cancelled future", valErr(cancelled.Get))
	lg.Val("cancelled resultNow", func() (any, error) { return cancelled.ResultNow(), nil })
	lg.Val("cancelled exceptionNow", func() (any, error) { return cancelled.ExceptionNow(), nil })
	lg.Val("cancel again", func() (any, error) { return cancelled.Cancel(true), nil })
	never.CountDown()
	es.Close()
}

func execCancelRunningTask(lg *Log) {
	es := executors.NewVirtualThreadPerTaskExecutor()
	var seen atomic.Value
	started := locks.NewCountDownLatch(1)
	f, _ := executors.Submit(es, func() (string, error) {
		started.CountDown()
		if err := thread.Sleep(hour); err != nil {
			seen.Store("the task saw " + exName(err) + ", interrupted after " + str(thread.Current().IsInterrupted()))
			return "", err
		}
		return "slept", nil
	})
	started.Await()
	lg.Val("cancel(true) of a running task", func() (any, error) { return f.Cancel(true), nil })
	lg.Val("get", valErr(f.Get))
	es.Shutdown()
	es.AwaitTermination(hour)
	lg.P("%s; state %s", seen.Load(), f.State())
	es2 := executors.NewVirtualThreadPerTaskExecutor()
	gate, started2 := locks.NewCountDownLatch(1), locks.NewCountDownLatch(1)
	var finished atomic.Bool
	g, _ := executors.Submit(es2, func() (string, error) {
		started2.CountDown()
		if err := gate.Await(); err != nil {
			return "", err
		}
		finished.Store(true)
		return "ran", nil
	})
	started2.Await()
	lg.Val("cancel(false) of a running task", func() (any, error) { return g.Cancel(false), nil })
	gate.CountDown()
	es2.Close()
	lg.P("cancel(false) let it run to the end: %s; get -> %s", finished.Load(), of(func() error { _, err := g.Get(); return err }))
}

func execFutureTask(lg *Log) {
	var runs atomic.Int64
	inc := func() (int64, error) { return runs.Add(1), nil }
	ft := executors.NewFutureTask(inc)
	lg.P("%s", status(ft))
	ft.Run()
	ft.Run()
	v, _ := ft.Get()
	lg.P("run twice: ran %s time(s), get %s, %s", runs.Load(), v, status(ft))
	cancelled := executors.NewFutureTask(inc)
	lg.Val("cancel before run", func() (any, error) { return cancelled.Cancel(false), nil })
	cancelled.Run()
	lg.P("run after cancel: ran %s time(s) in all, %s", runs.Load(), status(cancelled))
	withResult := executors.NewFutureTaskRunnable(func() { runs.Add(1) }, "given")
	withResult.Run()
	lg.Val("FutureTask(runnable, result) get", valErr(withResult.Get))
	pending := executors.NewFutureTask(func() (string, error) { return "never run", nil })
	lg.Val("get(1 ms) of a task never run", valErr(func() (string, error) { return pending.GetTimeout(time.Millisecond) }))
	thread.Current().Interrupt()
	lg.Val("get with the status set", valErr(pending.Get))
	lg.P("interrupted after: %s", thread.Current().IsInterrupted())
	failing := executors.NewFutureTask(func() (string, error) { return "", boom("in run") })
	failing.Run()
	lg.Val("get of a task that threw", valErr(failing.Get))
	lg.P("%s", status(failing))
}

func execInvokeAll(lg *Log) {
	es := executors.NewVirtualThreadPerTaskExecutor()
	tasks := []func() (string, error){
		func() (string, error) { return "one", nil },
		func() (string, error) { return "", boom("two") },
		func() (string, error) { return "three", nil },
	}
	fs, _ := executors.InvokeAll(es, tasks)
	var out []string
	for _, f := range fs {
		out = append(out, str(f.IsDone())+" "+f.State().String()+" "+of(func() error { _, err := f.Get(); return err }))
	}
	lg.P("invokeAll: %s", out)
	empty, _ := executors.InvokeAll(es, []func() (string, error){})
	lg.P("invokeAll(empty): %s", len(empty))
	es.Shutdown()
	lg.Call("invokeAll after shutdown", func() error { _, err := executors.InvokeAll(es, tasks); return err })
	es.Close()
}

func execInvokeAny(lg *Log) {
	es := executors.NewVirtualThreadPerTaskExecutor()
	var loser atomic.Value
	loser.Store("not interrupted")
	loserStarted, failed := locks.NewCountDownLatch(1), locks.NewCountDownLatch(1)
	tasks := []func() (string, error){
		func() (string, error) { failed.CountDown(); return "", boom("fails") },
		func() (string, error) {
			loserStarted.CountDown()
			if err := blockForever(); err != nil {
				loser.Store("interrupted")
				return "", err
			}
			return "never", nil
		},
		func() (string, error) { failed.Await(); loserStarted.Await(); return "wins", nil },
	}
	lg.Val("invokeAny", valErr(func() (string, error) { return executors.InvokeAny(es, tasks) }))
	es.Close()
	lg.P("the blocked task: %s", loser.Load())
	es2 := executors.NewVirtualThreadPerTaskExecutor()
	fail := func() (string, error) { return "", boom("all") }
	lg.Val("invokeAny, all fail", valErr(func() (string, error) {
		return executors.InvokeAny(es2, []func() (string, error){fail, fail})
	}))
	lg.Val("invokeAny(empty)", valErr(func() (string, error) { return executors.InvokeAny(es2, []func() (string, error){}) }))
	thread.Current().Interrupt()
	lg.Val("invokeAny with the status set", valErr(func() (string, error) {
		return executors.InvokeAny(es2, []func() (string, error){func() (string, error) { return "x", nil }})
	}))
	lg.P("interrupted after: %s", thread.Current().IsInterrupted())
	es2.Close()
}

// execInvokeAnyTimeout: whether a task starts before the timeout cancels it depends on time, so
// the log says that every task that started was interrupted, not how many started. The invokeAll
// gets a second, in which the quick task finishes (the other never does).
func execInvokeAnyTimeout(lg *Log) {
	es := executors.NewVirtualThreadPerTaskExecutor()
	var started, interrupted atomic.Int64
	blocker := func() (string, error) {
		started.Add(1)
		if err := blockForever(); err != nil {
			interrupted.Add(1)
			return "", err
		}
		return "never", nil
	}
	lg.Val("invokeAny(1 ms) with nothing finishing", valErr(func() (string, error) {
		return executors.InvokeAnyTimeout(es, []func() (string, error){blocker, blocker}, time.Millisecond)
	}))
	es.Close()
	lg.P("every task that started was interrupted: %s", started.Load() == interrupted.Load())
	es2 := executors.NewVirtualThreadPerTaskExecutor()
	fs, _ := executors.InvokeAllTimeout(es2, []func() (string, error){func() (string, error) { return "quick", nil }, blocker}, time.Second)
	lg.P("invokeAll(1 s): %s %s, %s %s", fs[0].State(), of(func() error { _, err := fs[0].Get(); return err }), fs[1].State(), fs[1].IsCancelled())
	es2.Close()
	lg.P("every task that started was interrupted: %s", started.Load() == interrupted.Load())
}

func execCloseInterrupted(lg *Log) {
	es := executors.NewVirtualThreadPerTaskExecutor()
	var seen atomic.Value
	started := locks.NewCountDownLatch(1)
	executors.Submit(es, func() (struct{}, error) {
		started.CountDown()
		if err := blockForever(); err != nil {
			seen.Store("task saw " + exName(err))
		}
		return struct{}{}, nil
	})
	started.Await()
	thread.Current().Interrupt()
	lg.Call("close with the status set", es.Close)
	lg.P("%s; terminated %s; interrupted after close %s", seen.Load(), es.IsTerminated(), thread.Interrupted())
}

func execAwaitTerminationInterrupted(lg *Log) {
	es := executors.NewVirtualThreadPerTaskExecutor()
	gate := locks.NewCountDownLatch(1)
	executors.Submit(es, gated(gate, "x"))
	es.Shutdown()
	self := thread.Current()
	self.Interrupt()
	lg.Val("awaitTermination(1 h) with the status set", func() (any, error) { return es.AwaitTermination(hour) })
	lg.P("interrupted after: %s", self.IsInterrupted())
	gate.CountDown()
	es.AwaitTermination(hour)
	self.Interrupt()
	lg.Val("awaitTermination(1 h) of a terminated executor with the status set", func() (any, error) { return es.AwaitTermination(hour) })
	lg.P("interrupted after: %s", thread.Interrupted())
	pool := executors.NewFixedThreadPool(1)
	lg.Val("awaitTermination(1 ms) of a pool never shut down", func() (any, error) { return pool.AwaitTermination(time.Millisecond) })
	pool.Shutdown()
	lg.Val("awaitTermination(1 h) of an idle pool shut down", func() (any, error) { return pool.AwaitTermination(hour) })
}

func execScheduledShutdownPolicy(lg *Log) {
	ses := executors.NewScheduledThreadPool(1)
	var oneShotRan atomic.Bool
	oneShot, _ := ses.Schedule(func() { oneShotRan.Store(true) }, 20*time.Millisecond)
	periodic, _ := ses.ScheduleAtFixedRate(func() {}, hour, hour)
	negative, _ := ses.Schedule(func() {}, -time.Second)
	lg.P("delay of the periodic task > 59 min: %s", periodic.Delay() >= 59*time.Minute)
	ses.Shutdown()
	lg.P("after shutdown: periodic cancelled %s, one-shot cancelled %s", periodic.IsCancelled(), oneShot.IsCancelled())
	lg.Val("awaitTermination(1 h)", func() (any, error) { return ses.AwaitTermination(hour) })
	lg.P("the delayed one-shot still ran: %s; negative delay ran: %s", oneShotRan.Load(), negative.IsDone() && !negative.IsCancelled())
	s2 := executors.NewSingleThreadScheduledExecutor()
	lg.Call("scheduleAtFixedRate(period 0)", func() error { _, err := s2.ScheduleAtFixedRate(func() {}, 0, 0); return err })
	lg.Call("scheduleWithFixedDelay(delay 0)", func() error { _, err := s2.ScheduleWithFixedDelay(func() {}, 0, 0); return err })
	lg.Call("scheduleAtFixedRate(period -1)", func() error { _, err := s2.ScheduleAtFixedRate(func() {}, 0, -time.Millisecond); return err })
	s2.Shutdown()
	lg.Call("schedule after shutdown", func() error { _, err := s2.Schedule(func() {}, 0); return err })
	s2.AwaitTermination(hour)
}

func execScheduledPeriodicFailure(lg *Log) {
	ses := executors.NewSingleThreadScheduledExecutor()
	var runs atomic.Int64
	f, _ := ses.ScheduleAtFixedRate(func() {
		if runs.Add(1) == 3 {
			panic(boom("third run"))
		}
	}, 0, time.Millisecond)
	lg.Val("get of the periodic task", func() (any, error) { _, err := f.Get(); return null{}, err })
	lg.P("runs %s done %s cancelled %s", runs.Load(), f.IsDone(), f.IsCancelled())
	ses.Shutdown()
	ses.AwaitTermination(hour)
	lg.P("no run after the failure: %s", runs.Load())
}

func execCompletionService(lg *Log) {
	es := executors.NewVirtualThreadPerTaskExecutor()
	cs := executors.NewExecutorCompletionService[string](es)
	lg.Val("poll with nothing submitted", func() (any, error) { f, ok := cs.Poll(); return opt(f, ok), nil })
	a, b := locks.NewCountDownLatch(1), locks.NewCountDownLatch(1)
	cs.Submit(gated(a, "A"))
	cs.Submit(gated(b, "B"))
	lg.Val("poll(1 ms) with nothing complete", func() (any, error) {
		f, ok, err := cs.PollTimeout(time.Millisecond)
		return opt(f, ok), err
	})
	b.CountDown()
	f1, _ := cs.Take()
	first, _ := f1.Get()
	a.CountDown()
	f2, _ := cs.Take()
	second, _ := f2.Get()
	lg.P("completion order %s, %s", first, second)
	cs.Submit(func() (string, error) { return "", boom("in a completion service") })
	lg.Val("take then get of a failed task", valErr(func() (string, error) {
		f, err := cs.Take()
		if err != nil {
			return "", err
		}
		return f.Get()
	}))
	es.Close()
}

func execPoolSizes(lg *Log) {
	es := executors.NewThreadPoolExecutor(2, 4, time.Minute, queue.NewLinkedBlockingQueue[func()](0))
	lg.P("new: pool size %s core %s max %s %s", es.PoolSize(), es.CorePoolSize(), es.MaximumPoolSize(), state(es))
	all := es.PrestartAllCoreThreads()
	lg.P("prestartAllCoreThreads %s, then %s, pool size %s", all, es.PrestartCoreThread(), es.PoolSize())
	lg.Call("setCorePoolSize(5) > max", ok(func() { es.SetCorePoolSize(5) }))
	lg.Call("setMaximumPoolSize(1) < core", ok(func() { es.SetMaximumPoolSize(1) }))
	lg.Call("setCorePoolSize(-1)", ok(func() { es.SetCorePoolSize(-1) }))
	lg.Call("setKeepAliveTime(-1)", ok(func() { es.SetKeepAliveTime(-time.Second) }))
	gate := locks.NewCountDownLatch(1)
	for range 3 {
		es.Execute(func() { gate.Await() })
	}
	await(lg, "2 active, 1 queued", func() bool { return es.ActiveCount() == 2 && es.Queue().Len() == 1 })
	lg.P("3 tasks on 2 core threads: %s", state(es))
	gate.CountDown()
	es.Shutdown()
	es.AwaitTermination(hour)
	lg.P("terminated: %s largest %s tasks %s completed %s", status(es), es.LargestPoolSize(), es.TaskCount(), es.CompletedTaskCount())
	newPool := func(core, max int, keepAlive time.Duration) func() error {
		return ok(func() { executors.NewThreadPoolExecutor(core, max, keepAlive, queue.NewLinkedBlockingQueue[func()](0)) })
	}
	lg.Call("new ThreadPoolExecutor(-1, 1)", newPool(-1, 1, 0))
	lg.Call("new ThreadPoolExecutor(2, 1)", newPool(2, 1, 0))
	lg.Call("new ThreadPoolExecutor(0, 0)", newPool(0, 0, 0))
	lg.Call("new ThreadPoolExecutor(1, 1, keepAlive -1)", newPool(1, 1, -time.Second))
	lg.Call("newFixedThreadPool(0)", ok(func() { executors.NewFixedThreadPool(0) }))
	lg.Call("newScheduledThreadPool(-1)", ok(func() { executors.NewScheduledThreadPool(-1) }))
}

func execDefaultThreadFactory(lg *Log) {
	f := executors.DefaultThreadFactory()
	a, b := f.NewThread(func() {}), f.NewThread(func() {})
	lg.P("%s, %s: daemon %s priority %s virtual %s", a.Name(), b.Name(), a.IsDaemon(), a.Priority(), a.IsVirtual())
}

func execHooks(lg *Log) {
	var calls list
	quiet := thread.OfPlatform().UncaughtExceptionHandler(func(*thread.Thread, any) {}).Factory()
	es := executors.NewThreadPoolExecutor(1, 1, 0, queue.NewLinkedBlockingQueue[func()](0),
		executors.WithThreadFactory(quiet),
		executors.WithBeforeExecute(func(*thread.Thread, func()) { calls.add("before") }),
		executors.WithAfterExecute(func(_ func(), err error) {
			if err == nil {
				calls.add("after ok")
			} else {
				calls.add("after %s", exName(err))
			}
		}),
		executors.WithTerminated(func() { calls.add("terminated") }))
	es.Execute(func() { calls.add("task 1") })
	es.Execute(func() { calls.add("task 2"); panic(boom("task 2")) })
	es.Execute(func() { calls.add("task 3") })
	es.Shutdown()
	es.AwaitTermination(hour)
	lg.P("%s", &calls)
	lg.P("completed %s", es.CompletedTaskCount())
}
