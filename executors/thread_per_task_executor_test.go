package executors_test

import (
	"errors"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/loomgo/loom/executors"
	"github.com/loomgo/loom/locks"
	"github.com/loomgo/loom/thread"
)

// recordingFactory makes virtual threads and remembers them (jtreg ThreadPerTaskExecutorTest's
// factories).
type recordingFactory struct {
	mu      sync.Mutex
	threads []*thread.Thread
	inner   thread.Factory
	nilOut  bool
}

func (f *recordingFactory) NewThread(task func()) *thread.Thread {
	if f.nilOut {
		return nil
	}
	t := f.inner.NewThread(task)
	f.mu.Lock()
	f.threads = append(f.threads, t)
	f.mu.Unlock()
	return t
}

func TestThreadPerTaskRunsEachTaskInTheFactorysThread(t *testing.T) {
	f := &recordingFactory{inner: thread.OfVirtual().Factory()}
	e := executors.NewThreadPerTaskExecutor(f)
	var ran []*thread.Thread
	var mu sync.Mutex
	for range 5 {
		if err := e.Execute(func() {
			mu.Lock()
			ran = append(ran, thread.Current())
			mu.Unlock()
		}); err != nil {
			t.Fatal(err)
		}
	}
	e.Close()
	if len(f.threads) != 5 || len(ran) != 5 {
		t.Fatalf("factory made %d threads, tasks ran on %d", len(f.threads), len(ran))
	}
	made := map[*thread.Thread]bool{}
	for _, th := range f.threads {
		made[th] = true
	}
	for _, th := range ran {
		if !made[th] {
			t.Fatalf("task ran on %v, not a thread of the factory", th)
		}
	}
}

func TestVirtualThreadPerTaskExecutorUsesVirtualThreads(t *testing.T) {
	e := executors.NewVirtualThreadPerTaskExecutor()
	defer e.Close()
	f, err := executors.Submit(e, func() (bool, error) { return thread.Current().IsVirtual(), nil })
	if err != nil {
		t.Fatal(err)
	}
	if v, err := f.Get(); !v || err != nil {
		t.Fatalf("virtual=%v err=%v", v, err)
	}
}

func TestThreadPerTaskNilFactoryPanics(t *testing.T) {
	mustPanicWith(t, thread.ErrNilArgument, func() { executors.NewThreadPerTaskExecutor(nil) })
}

func TestThreadPerTaskNilTaskPanics(t *testing.T) {
	e := executors.NewVirtualThreadPerTaskExecutor()
	defer e.Close()
	mustPanicWith(t, thread.ErrNilArgument, func() { e.Execute(nil) })
	mustPanicWith(t, thread.ErrNilArgument, func() { executors.Submit[int](e, nil) })
	mustPanicWith(t, thread.ErrNilArgument, func() { executors.SubmitRunnable(e, nil) })
	mustPanicWith(t, thread.ErrNilArgument, func() {
		executors.InvokeAll(e, []func() (int, error){func() (int, error) { return 1, nil }, nil})
	})
	mustPanicWith(t, thread.ErrNilArgument, func() {
		executors.InvokeAny(e, []func() (int, error){nil})
	})
}

func TestThreadPerTaskFactoryReturningNilRejects(t *testing.T) {
	e := executors.NewThreadPerTaskExecutor(&recordingFactory{nilOut: true})
	defer e.Close()
	if err := e.Execute(func() {}); !errors.Is(err, executors.ErrRejected) {
		t.Fatalf("Execute = %v", err)
	}
	if _, err := executors.Submit(e, func() (int, error) { return 1, nil }); !errors.Is(err, executors.ErrRejected) {
		t.Fatalf("Submit = %v", err)
	}
	if _, err := executors.InvokeAll(e, []func() (int, error){func() (int, error) { return 1, nil }}); !errors.Is(err, executors.ErrRejected) {
		t.Fatalf("InvokeAll = %v", err)
	}
	if _, err := executors.InvokeAny(e, []func() (int, error){func() (int, error) { return 1, nil }}); !errors.Is(err, executors.ErrRejected) {
		t.Fatalf("InvokeAny = %v", err)
	}
}

func TestSubmitAfterShutdownRejected(t *testing.T) {
	e := executors.NewVirtualThreadPerTaskExecutor()
	e.Shutdown()
	if err := e.Execute(func() {}); !errors.Is(err, executors.ErrRejected) {
		t.Fatalf("Execute after shutdown = %v", err)
	}
	if _, err := executors.Submit(e, func() (int, error) { return 1, nil }); !errors.Is(err, executors.ErrRejected) {
		t.Fatalf("Submit after shutdown = %v", err)
	}
	if _, err := executors.InvokeAny(e, []func() (int, error){func() (int, error) { return 1, nil }}); !errors.Is(err, executors.ErrRejected) {
		t.Fatalf("InvokeAny after shutdown = %v", err)
	}
	if _, err := executors.InvokeAll(e, []func() (int, error){func() (int, error) { return 1, nil }}); !errors.Is(err, executors.ErrRejected) {
		t.Fatalf("InvokeAll after shutdown = %v", err)
	}
	if !e.IsTerminated() {
		t.Fatal("idle executor not terminated after shutdown")
	}
}

func TestShutdownLetsRunningTasksFinish(t *testing.T) {
	e := executors.NewVirtualThreadPerTaskExecutor()
	release := locks.NewCountDownLatch(1)
	f, _ := executors.Submit(e, func() (string, error) {
		if err := release.Await(); err != nil {
			return "", err
		}
		return "done", nil
	})
	e.Shutdown()
	if !e.IsShutdown() || e.IsTerminated() {
		t.Fatalf("shutdown=%v terminated=%v", e.IsShutdown(), e.IsTerminated())
	}
	if ok, err := e.AwaitTermination(10 * time.Millisecond); ok || err != nil {
		t.Fatalf("AwaitTermination(10ms) = %v, %v", ok, err)
	}
	release.CountDown()
	if ok, err := e.AwaitTermination(5 * time.Second); !ok || err != nil {
		t.Fatalf("AwaitTermination = %v, %v", ok, err)
	}
	if v, err := f.Get(); v != "done" || err != nil {
		t.Fatalf("task: %v, %v (shutdown must not interrupt)", v, err)
	}
}

func TestShutdownNowInterruptsTasksWhoseFuturesFailWithInterrupted(t *testing.T) {
	e := executors.NewVirtualThreadPerTaskExecutor()
	f, _ := executors.Submit(e, func() (int, error) { return 0, thread.Sleep(time.Hour) })
	time.Sleep(20 * time.Millisecond)
	if left := e.ShutdownNow(); len(left) != 0 {
		t.Fatalf("ShutdownNow returned %d tasks", len(left))
	}
	if ok, _ := e.AwaitTermination(5 * time.Second); !ok {
		t.Fatal("not terminated")
	}
	_, err := f.Get()
	var ee *executors.ExecutionError
	if !errors.As(err, &ee) || ee.Cause != thread.ErrInterrupted {
		t.Fatalf("Get = %v, want ExecutionError(ErrInterrupted)", err)
	}
	if f.IsCancelled() {
		t.Fatal("future is cancelled; Java completes it exceptionally")
	}
}

func TestAwaitTerminationNeverShutDownTimesOut(t *testing.T) {
	e := executors.NewVirtualThreadPerTaskExecutor()
	defer e.Close()
	if ok, err := e.AwaitTermination(20 * time.Millisecond); ok || err != nil {
		t.Fatalf("= %v, %v", ok, err)
	}
	if ok, err := e.AwaitTermination(-time.Second); ok || err != nil {
		t.Fatalf("negative = %v, %v", ok, err)
	}
}

func TestAwaitTerminationInterrupted(t *testing.T) {
	e := executors.NewVirtualThreadPerTaskExecutor()
	defer e.Close()
	thread.OfVirtual().Start(func() {
		thread.Current().Interrupt()
		if _, err := e.AwaitTermination(time.Hour); !errors.Is(err, thread.ErrInterrupted) {
			t.Errorf("err = %v", err)
		}
		if thread.Current().IsInterrupted() {
			t.Error("status not cleared")
		}
	}).Join()
}

func TestCloseWaitsForTasks(t *testing.T) {
	e := executors.NewVirtualThreadPerTaskExecutor()
	var done atomic.Bool
	e.Execute(func() { thread.Sleep(150 * time.Millisecond); done.Store(true) })
	start := time.Now()
	e.Close()
	if !done.Load() || time.Since(start) < 100*time.Millisecond {
		t.Fatalf("Close returned before the task finished (done=%v after %v)", done.Load(), time.Since(start))
	}
	if !e.IsShutdown() || !e.IsTerminated() {
		t.Fatal("not shut down and terminated after Close")
	}
	e.Close() // idempotent, returns at once
}

func TestInterruptDuringCloseShutsDownNowAndReassertsInterrupt(t *testing.T) {
	e := executors.NewVirtualThreadPerTaskExecutor()
	f, _ := executors.Submit(e, func() (int, error) { return 0, thread.Sleep(time.Hour) })
	var stillInterrupted bool
	closer := thread.OfVirtual().Start(func() {
		e.Close()
		stillInterrupted = thread.Current().IsInterrupted()
	})
	time.Sleep(50 * time.Millisecond)
	closer.Interrupt()
	within(t, 5*time.Second, "Close after interrupt", func() { closer.Join() })
	if !stillInterrupted {
		t.Fatal("Close did not re-assert the interrupt status")
	}
	if _, err := f.Get(); !errors.Is(err, thread.ErrInterrupted) {
		t.Fatalf("task: %v, want interrupted", err)
	}
}

func TestInterruptBeforeCloseShutsDownNow(t *testing.T) {
	e := executors.NewVirtualThreadPerTaskExecutor()
	f, _ := executors.Submit(e, func() (int, error) { return 0, thread.Sleep(time.Hour) })
	var stillInterrupted bool
	thread.OfVirtual().Start(func() {
		thread.Current().Interrupt()
		e.Close()
		stillInterrupted = thread.Current().IsInterrupted()
	}).Join()
	if !stillInterrupted || !e.IsTerminated() {
		t.Fatalf("interrupted=%v terminated=%v", stillInterrupted, e.IsTerminated())
	}
	if _, err := f.Get(); !errors.Is(err, thread.ErrInterrupted) {
		t.Fatalf("task: %v", err)
	}
}

func TestTerminateBeforeCloseReturnsAtOnce(t *testing.T) {
	e := executors.NewVirtualThreadPerTaskExecutor()
	e.Shutdown()
	e.AwaitTermination(time.Second)
	thread.OfVirtual().Start(func() {
		thread.Current().Interrupt()
		e.Close()
		if !thread.Interrupted() {
			t.Error("Close of a terminated executor cleared the interrupt")
		}
	}).Join()
}

func TestCancelTrueInterruptsTaskThread(t *testing.T) {
	e := executors.NewVirtualThreadPerTaskExecutor()
	defer e.Close()
	started := make(chan struct{})
	var got error
	f, _ := executors.Submit(e, func() (int, error) {
		close(started)
		got = thread.Sleep(time.Hour)
		return 0, got
	})
	<-started
	f.Cancel(true)
	e.Shutdown()
	e.AwaitTermination(5 * time.Second)
	if !errors.Is(got, thread.ErrInterrupted) {
		t.Fatalf("task's sleep = %v", got)
	}
}

func TestThreadPerTaskPanicInExecuteGoesToUncaughtHandler(t *testing.T) {
	got := make(chan any, 1)
	f := thread.OfVirtual().UncaughtExceptionHandler(func(_ *thread.Thread, v any) { got <- v }).Factory()
	e := executors.NewThreadPerTaskExecutor(f)
	e.Execute(func() { panic("oops") })
	e.Close()
	if v := <-got; v != "oops" {
		t.Fatalf("handler got %v", v)
	}
}

func TestThreadPerTaskString(t *testing.T) {
	e := executors.NewVirtualThreadPerTaskExecutor()
	if s := e.String(); !strings.Contains(s, "Running") {
		t.Fatalf("String = %q", s)
	}
	e.Close()
	if s := e.String(); !strings.Contains(s, "Terminated") {
		t.Fatalf("String = %q", s)
	}
}

func TestVirtualExecutorTasksOverlap(t *testing.T) {
	e := executors.NewVirtualThreadPerTaskExecutor()
	start := time.Now()
	for range 1000 {
		e.Execute(func() { thread.Sleep(100 * time.Millisecond) })
	}
	e.Close()
	if el := time.Since(start); el > 2*time.Second {
		t.Fatalf("1000 x 100ms sleeps took %v on virtual threads", el)
	}
}

func TestThreadPerTaskPlatformThreadLimitRejectsCleanly(t *testing.T) {
	thread.SetPlatformThreadLimit(thread.PlatformThreads() + 5)
	defer thread.SetPlatformThreadLimit(0)
	e := executors.NewThreadPerTaskExecutor(thread.OfPlatform().Factory())
	var g gate
	var limited int
	for range 20 {
		err := e.Execute(func() { g.wait() })
		if err != nil {
			if !errors.Is(err, executors.ErrRejected) || !errors.Is(err, thread.ErrThreadLimit) {
				t.Fatalf("Execute = %v", err)
			}
			limited++
		}
	}
	g.release()
	e.Close()
	if limited < 10 {
		t.Fatalf("only %d of 20 refused at a limit of ~5", limited)
	}
}

func TestThreadPerTaskClosedSchedulerRejects(t *testing.T) {
	s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 1})
	s.Close()
	e := executors.NewThreadPerTaskExecutor(thread.OfVirtual().Scheduler(s).Factory())
	defer e.Close()
	if err := e.Execute(func() {}); !errors.Is(err, executors.ErrRejected) || !errors.Is(err, thread.ErrRejected) {
		t.Fatalf("Execute = %v", err)
	}
}

// jtreg ThreadPerTaskExecutorTest runs with platform and virtual factories.
func TestThreadPerTaskPlatformAndVirtualFactories(t *testing.T) {
	for name, f := range map[string]thread.Factory{
		"platform": thread.OfPlatform().Factory(),
		"virtual":  thread.OfVirtual().Factory(),
	} {
		var made atomic.Int32
		e := executors.NewThreadPerTaskExecutor(factoryFunc(func(task func()) *thread.Thread {
			made.Add(1)
			return f.NewThread(task)
		}))
		var fs []executors.Future[int]
		for i := range 100 {
			fut, err := executors.Submit(e, func() (int, error) { return i, nil })
			if err != nil {
				t.Fatal(err)
			}
			fs = append(fs, fut)
		}
		sleeping, _ := executors.Submit(e, func() (int, error) { return 0, thread.Sleep(24 * time.Hour) })
		time.Sleep(20 * time.Millisecond)
		if left := e.ShutdownNow(); len(left) != 0 {
			t.Fatalf("%s: ShutdownNow returned tasks", name)
		}
		if _, err := sleeping.Get(); !errors.Is(err, thread.ErrInterrupted) {
			t.Fatalf("%s: sleeping task = %v", name, err)
		}
		if ok, _ := e.AwaitTermination(3 * time.Second); !ok {
			t.Fatalf("%s: not terminated", name)
		}
		if made.Load() != 101 {
			t.Fatalf("%s: factory called %d times for 101 tasks", name, made.Load())
		}
		for i, fut := range fs {
			if v, err := fut.Get(); v != i || err != nil {
				t.Fatalf("%s: task %d = %v, %v", name, i, v, err)
			}
		}
	}
}

type factoryFunc func(task func()) *thread.Thread

func (f factoryFunc) NewThread(task func()) *thread.Thread { return f(task) }

// The executor's lists of running tasks reuse the slots of tasks that have ended: after some of
// a batch of blocked tasks end and more start in their slots, String counts exactly the running
// ones and ShutdownNow interrupts every one of them (their futures fail with ErrInterrupted),
// for a virtual thread factory (whose tasks keep their index in themselves) and another factory
// (a closure per task), through Submit and Execute.
func TestShutdownNowInterruptsEveryTaskAfterSlotsAreReused(t *testing.T) {
	for _, c := range []struct {
		name string
		e    func() *executors.ThreadPerTaskExecutor
	}{
		{"virtual", executors.NewVirtualThreadPerTaskExecutor},
		{"other factory", func() *executors.ThreadPerTaskExecutor {
			return executors.NewThreadPerTaskExecutor(&recordingFactory{inner: thread.OfVirtual().Factory()})
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			const first, more = 300, 100
			e := c.e()
			var gates []*executors.CompletableFuture[int]
			var fs []executors.Future[int]
			var executed atomic.Int32 // Execute tasks that saw their interrupt
			start := func(i int) {
				g := executors.NewCompletableFuture[int]()
				gates = append(gates, g)
				if i%3 == 2 {
					if err := e.Execute(func() {
						if _, err := g.Get(); errors.Is(err, thread.ErrInterrupted) {
							executed.Add(1)
						}
					}); err != nil {
						t.Fatal(err)
					}
					fs = append(fs, nil)
					return
				}
				f, err := executors.Submit(e, func() (int, error) { return g.Get() })
				if err != nil {
					t.Fatal(err)
				}
				fs = append(fs, f)
			}
			for i := range first {
				start(i)
			}
			// end every third task of the first batch (a Submit task: i%3 == 0; not a pattern of
			// thread ids that empties whole lists), then start more in their slots
			for i := 0; i < first; i += 3 {
				gates[i].Complete(i)
				if v, err := fs[i].Get(); v != i || err != nil {
					t.Fatalf("task %d: %v, %v", i, v, err)
				}
			}
			running := first - first/3
			for deadline := time.Now().Add(10 * time.Second); !strings.Contains(e.String(), "threads = "+strconv.Itoa(running)+"]"); {
				if time.Now().After(deadline) {
					t.Fatalf("String = %q, want %d threads", e.String(), running)
				}
				time.Sleep(time.Millisecond)
			}
			for i := first; i < first+more; i++ {
				start(i)
			}
			running += more
			if s := e.String(); !strings.Contains(s, "threads = "+strconv.Itoa(running)+"]") {
				t.Fatalf("String = %q, want %d threads", s, running)
			}
			e.ShutdownNow()
			if ok, _ := e.AwaitTermination(10 * time.Second); !ok {
				t.Fatalf("not terminated after ShutdownNow: %v", e)
			}
			wantExecuted := int32(0)
			for i, f := range fs {
				if i < first && i%3 == 0 {
					continue
				}
				if f == nil {
					wantExecuted++
					continue
				}
				if _, err := f.Get(); !errors.Is(err, thread.ErrInterrupted) {
					t.Fatalf("task %d: Get = %v, want its interrupt", i, err)
				}
			}
			if got := executed.Load(); got != wantExecuted {
				t.Fatalf("%d of %d Execute tasks were interrupted", got, wantExecuted)
			}
		})
	}
}

// A future returned by Submit is a FutureTask, whose Run anyone may call: if a caller's Run wins
// the race with the task's own thread, that thread leaves the future alone (it must not clear
// the runner of a Run still in progress, which would let a third Run start the task again).
func TestSubmittedFutureRunByItsCallerFirstRunsOnce(t *testing.T) {
	s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 1})
	defer s.Close()
	e := executors.NewThreadPerTaskExecutor(thread.OfVirtual().Scheduler(s).Factory())
	defer e.Close()
	// hold the only carrier so that the task's thread cannot start yet
	var hold, holding atomic.Bool
	hold.Store(true)
	thread.OfVirtual().Scheduler(s).Start(func() {
		holding.Store(true)
		for hold.Load() {
		}
	})
	for !holding.Load() {
		time.Sleep(time.Millisecond)
	}
	var runs atomic.Int32
	release := make(chan struct{})
	f, err := executors.Submit(e, func() (int, error) {
		runs.Add(1)
		<-release
		return 7, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	ft := f.(*executors.FutureTask[int])
	first := make(chan struct{})
	go func() { defer close(first); ft.Run() }()
	for runs.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	hold.Store(false) // the task's thread runs now, finds the future taken and ends
	for deadline := time.Now().Add(10 * time.Second); !strings.Contains(e.String(), "threads = 0]"); {
		if time.Now().After(deadline) {
			t.Fatalf("the task's thread has not ended: %v", e)
		}
		time.Sleep(time.Millisecond)
	}
	third := make(chan struct{})
	go func() { defer close(third); ft.Run() }()
	select {
	case <-third:
	case <-time.After(5 * time.Second):
	}
	close(release)
	<-first
	<-third
	if n := runs.Load(); n != 1 {
		t.Fatalf("the task ran %d times, want 1", n)
	}
	if v, err := f.Get(); v != 7 || err != nil {
		t.Fatalf("Get = %v, %v, want 7", v, err)
	}
}

// ShutdownNow interrupts the threads of tasks that are started but not yet running (queued
// behind a busy carrier), as Java's interrupts every thread in its set: each task finds its
// interrupt status set when it runs.
func TestShutdownNowInterruptsTasksNotYetRunning(t *testing.T) {
	s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 1})
	defer s.Close()
	e := executors.NewThreadPerTaskExecutor(thread.OfVirtual().Scheduler(s).Factory())
	var hold, holding atomic.Bool
	hold.Store(true)
	thread.OfVirtual().Scheduler(s).Start(func() {
		holding.Store(true)
		for hold.Load() {
		}
	})
	for !holding.Load() {
		time.Sleep(time.Millisecond)
	}
	const n = 20
	fs := make([]executors.Future[bool], n)
	var executed atomic.Int32
	for i := range fs {
		f, err := executors.Submit(e, func() (bool, error) { return thread.Interrupted(), nil })
		if err != nil {
			t.Fatal(err)
		}
		fs[i] = f
		if err := e.Execute(func() {
			if thread.Interrupted() {
				executed.Add(1)
			}
		}); err != nil {
			t.Fatal(err)
		}
	}
	e.ShutdownNow()
	hold.Store(false)
	if ok, _ := e.AwaitTermination(10 * time.Second); !ok {
		t.Fatalf("not terminated: %v", e)
	}
	for i, f := range fs {
		if v, err := f.Get(); !v || err != nil {
			t.Fatalf("task %d: interrupted %v, %v; want true", i, v, err)
		}
	}
	if got := executed.Load(); got != n {
		t.Fatalf("%d of %d Execute tasks found their interrupt", got, n)
	}
}

// TestParkedTasksAreLiveThreads: the threads of a virtual thread-per-task executor's tasks, which
// package thread leaves out of its registry of parked virtual threads (the executor lists them),
// are listed by thread.LiveThreads and dumped by thread.DumpThreads while they park, whether
// started by Submit or Execute, and are gone from both once they have ended.
func TestParkedTasksAreLiveThreads(t *testing.T) {
	es := executors.NewVirtualThreadPerTaskExecutor()
	const n = 40
	var mu sync.Mutex
	var ts []*thread.Thread
	var parked sync.WaitGroup
	release := make(chan struct{})
	task := func() {
		mu.Lock()
		ts = append(ts, thread.Current())
		mu.Unlock()
		parked.Done()
		for {
			select {
			case <-release:
				return
			default:
				thread.ParkNanos(time.Millisecond)
			}
		}
	}
	parked.Add(n)
	for i := range n {
		if i%2 == 0 {
			if _, err := executors.Submit(es, func() (int, error) { task(); return i, nil }); err != nil {
				t.Fatal(err)
			}
		} else if err := es.Execute(task); err != nil {
			t.Fatal(err)
		}
	}
	parked.Wait()
	live := map[*thread.Thread]bool{}
	for _, th := range thread.LiveThreads() {
		live[th] = true
	}
	var dump strings.Builder
	if err := thread.DumpThreads(&dump, thread.DumpText); err != nil {
		t.Fatal(err)
	}
	for _, th := range ts {
		if !live[th] {
			t.Errorf("LiveThreads misses %v, a task's thread", th)
		}
		if id := "#" + strconv.FormatInt(th.ThreadID(), 10) + " \""; !strings.Contains(dump.String(), id) {
			t.Errorf("DumpThreads misses %v, a task's thread", th)
		}
	}
	close(release)
	es.Close()
	for _, th := range thread.LiveThreads() {
		for _, x := range ts {
			if th == x {
				t.Errorf("LiveThreads lists %v after it ended", th)
			}
		}
	}
}
