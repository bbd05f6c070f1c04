package executors_test

import (
	"errors"
	"fmt"
	"math"
	"sync/atomic"
	"testing"
	"time"

	"github.com/loomgo/loom/executors"
	"github.com/loomgo/loom/locks"
	"github.com/loomgo/loom/thread"
)

// Ports of the JSR-166 TCK's ScheduledExecutorTest (test/jdk/java/util/concurrent/tck). Its
// sibling ScheduledExecutorSubclassTest runs the same scenarios through a subclass that decorates
// every task (decorateTask); loom has no decorateTask hook, so the subclass form is the embedding
// test below (TestScheduledExecutorSubclassTest_embeddedPoolSubmit).

const (
	tckTimeout   = 50 * time.Millisecond // the TCK's timeoutMillis()
	tckLongDelay = 10 * time.Second      // LONG_DELAY_MS, widened for a shared machine
)

func await(t *testing.T, l *locks.CountDownLatch) {
	t.Helper()
	if ok, err := l.AwaitTimeout(tckLongDelay); !ok || err != nil {
		t.Fatalf("latch not released in time (%v)", err)
	}
}

// cleaner is the TCK's PoolCleaner: it releases the latches (so blocked tasks end), then shuts
// the pool down now and waits for it to terminate.
func cleaner(t *testing.T, p *executors.ScheduledThreadPoolExecutor, release ...*locks.CountDownLatch) {
	t.Helper()
	for _, l := range release {
		l.CountDown()
	}
	p.ShutdownNow()
	if ok, err := p.AwaitTermination(tckLongDelay); !ok || err != nil {
		t.Errorf("pool not terminated (%v)", err)
	}
}

func TestScheduledExecutorTest_testExecute(t *testing.T) {
	p := executors.NewScheduledThreadPool(1)
	defer cleaner(t, p)
	done := locks.NewCountDownLatch(1)
	p.Execute(done.CountDown)
	await(t, done)
}

func TestScheduledExecutorTest_testSchedule1(t *testing.T) {
	p := executors.NewScheduledThreadPool(1)
	defer cleaner(t, p)
	start := time.Now()
	f, err := executors.ScheduleCallable(p, func() (bool, error) {
		if time.Since(start) < tckTimeout {
			t.Error("ran before its delay")
		}
		return true, nil
	}, tckTimeout)
	if err != nil {
		t.Fatal(err)
	}
	if v, err := f.Get(); !v || err != nil {
		t.Fatalf("Get = %v, %v", v, err)
	}
}

func TestScheduledExecutorTest_testSchedule4and5(t *testing.T) {
	for _, fixedRate := range []bool{true, false} {
		p := executors.NewScheduledThreadPool(1)
		start := time.Now()
		done := locks.NewCountDownLatch(1)
		task := func() {
			if time.Since(start) < tckTimeout {
				t.Error("ran before its initial delay")
			}
			done.CountDown()
		}
		var f executors.ScheduledFuture[struct{}]
		if fixedRate {
			f, _ = p.ScheduleAtFixedRate(task, tckTimeout, tckLongDelay)
		} else {
			f, _ = p.ScheduleWithFixedDelay(task, tckTimeout, tckLongDelay)
		}
		await(t, done)
		f.Cancel(true)
		cleaner(t, p)
	}
}

// scheduleAtFixedRate keeps its rate: eventually cycles-1 <= elapsed/delay < cycles (retrying
// with longer delays on a slow machine, as the TCK does).
func TestScheduledExecutorTest_testFixedRateSequence(t *testing.T) {
	p := executors.NewScheduledThreadPool(1)
	defer cleaner(t, p)
	for delay := time.Millisecond; delay <= tckLongDelay; delay *= 3 {
		const cycles = 8
		start := time.Now()
		done := locks.NewCountDownLatch(cycles)
		f, _ := p.ScheduleAtFixedRate(done.CountDown, 0, delay)
		total := (cycles - 1) * delay
		if ok, _ := done.AwaitTimeout(total + tckLongDelay); !ok {
			t.Fatal("periodic task did not run 8 times")
		}
		f.Cancel(true)
		elapsed := time.Since(start)
		if elapsed < total {
			t.Fatalf("8 runs in %v, before %v", elapsed, total)
		}
		if elapsed <= cycles*delay {
			return
		}
	}
	t.Fatal("unexpected execution rate")
}

// scheduleWithFixedDelay spaces runs by at least delay from the end of one to the start of the
// next.
func TestScheduledExecutorTest_testFixedDelaySequence(t *testing.T) {
	p := executors.NewScheduledThreadPool(1)
	defer cleaner(t, p)
	for delay := time.Millisecond; delay <= tckLongDelay; delay *= 3 {
		const cycles = 8
		start := time.Now()
		var previous atomic.Int64
		previous.Store(start.UnixNano())
		var tryLonger atomic.Bool
		done := locks.NewCountDownLatch(cycles)
		f, _ := p.ScheduleWithFixedDelay(func() {
			now := time.Now().UnixNano()
			elapsed := time.Duration(now - previous.Load())
			if done.Count() == cycles {
				if elapsed >= delay {
					tryLonger.Store(true)
				}
			} else {
				if elapsed < delay {
					t.Errorf("run %v after the previous, want >= %v", elapsed, delay)
				}
				if elapsed >= 2*delay {
					tryLonger.Store(true)
				}
			}
			previous.Store(time.Now().UnixNano())
			done.CountDown()
		}, 0, delay)
		if ok, _ := done.AwaitTimeout((cycles-1)*delay + cycles*tckLongDelay); !ok {
			t.Fatal("periodic task did not run 8 times")
		}
		f.Cancel(true)
		if time.Since(start) < (cycles-1)*delay {
			t.Fatal("ran too fast")
		}
		if !tryLonger.Load() {
			return
		}
	}
	t.Fatal("unexpected execution rate")
}

func TestScheduledExecutorTest_testSubmittedTasksRejectedWhenShutdown(t *testing.T) {
	for round := range 8 {
		p := executors.NewScheduledThreadPool(1)
		started := locks.NewCountDownLatch(1)
		done := locks.NewCountDownLatch(1)
		blocker := func() {
			started.CountDown()
			for done.Await() != nil { // ShutdownNow's interrupt is deliberately ignored
			}
		}
		switch round % 3 {
		case 0:
			p.Execute(blocker)
		case 1:
			f, _ := executors.SubmitRunnable(p, blocker)
			if f.IsDone() {
				t.Fatal("submitted task done at once")
			}
		case 2:
			f, _ := executors.Submit(p, func() (bool, error) { blocker(); return true, nil })
			if f.IsDone() {
				t.Fatal("submitted task done at once")
			}
		}
		await(t, started)
		if round%2 == 0 {
			p.ShutdownNow()
		} else {
			p.Shutdown()
		}
		assertRejected := func() {
			if err := p.Execute(func() {}); !errors.Is(err, executors.ErrRejected) {
				t.Errorf("Execute after shutdown = %v", err)
			}
			if _, err := executors.Submit(p, func() (int, error) { return 0, nil }); !errors.Is(err, executors.ErrRejected) {
				t.Errorf("Submit after shutdown = %v", err)
			}
			if _, err := p.Schedule(func() {}, time.Second); !errors.Is(err, executors.ErrRejected) {
				t.Errorf("Schedule after shutdown = %v", err)
			}
		}
		assertRejected()
		if p.IsTerminated() {
			t.Fatal("terminated while a task runs")
		}
		done.CountDown()
		if ok, _ := p.AwaitTermination(tckLongDelay); !ok {
			t.Fatal("not terminated")
		}
		assertRejected()
		if n := p.CompletedTaskCount(); n != 1 {
			t.Errorf("CompletedTaskCount = %d, want 1", n)
		}
	}
}

func TestScheduledExecutorTest_testCounts(t *testing.T) {
	const threads = 3
	p := executors.NewScheduledThreadPool(threads)
	started := locks.NewCountDownLatch(threads)
	done := locks.NewCountDownLatch(1)
	if p.ActiveCount() != 0 || p.LargestPoolSize() != 0 || p.PoolSize() != 0 || p.TaskCount() != 0 {
		t.Fatal("counts of a new pool")
	}
	for range threads {
		p.Execute(func() { started.CountDown(); done.Await() })
	}
	await(t, started)
	if p.ActiveCount() != threads || p.LargestPoolSize() != threads || p.PoolSize() != threads {
		t.Errorf("active %d largest %d size %d, want %d", p.ActiveCount(), p.LargestPoolSize(), p.PoolSize(), threads)
	}
	p.Execute(func() { done.Await() }) // queued
	if n := p.TaskCount(); n != threads+1 {
		t.Errorf("TaskCount = %d, want %d", n, threads+1)
	}
	if n := p.CompletedTaskCount(); n != 0 {
		t.Errorf("CompletedTaskCount = %d", n)
	}
	cleaner(t, p, done)
	if p.LargestPoolSize() != threads {
		t.Errorf("LargestPoolSize after close = %d", p.LargestPoolSize())
	}
}

func TestScheduledExecutorTest_testIsTerminating(t *testing.T) {
	p := executors.NewScheduledThreadPool(1)
	started := locks.NewCountDownLatch(1)
	done := locks.NewCountDownLatch(1)
	if p.IsTerminating() || p.IsTerminated() {
		t.Fatal("new pool terminating")
	}
	p.Execute(func() {
		if p.IsTerminated() {
			t.Error("terminated while running")
		}
		started.CountDown()
		done.Await()
	})
	await(t, started)
	if p.IsTerminating() {
		t.Fatal("terminating before Shutdown")
	}
	done.CountDown()
	p.Shutdown()
	if ok, _ := p.AwaitTermination(tckLongDelay); !ok || !p.IsTerminated() || p.IsTerminating() {
		t.Fatalf("terminated %v terminating %v", p.IsTerminated(), p.IsTerminating())
	}
}

func TestScheduledExecutorTest_testPurge(t *testing.T) {
	p := executors.NewScheduledThreadPool(1)
	defer cleaner(t, p)
	var tasks []executors.ScheduledFuture[struct{}]
	for range 5 {
		f, _ := p.Schedule(func() {}, tckLongDelay)
		tasks = append(tasks, f)
	}
	want := int64(5)
	if tasks[4].Cancel(true) {
		want--
	}
	if tasks[3].Cancel(true) {
		want--
	}
	p.Purge()
	if n := p.TaskCount(); n != want {
		t.Fatalf("TaskCount after Purge = %d, want %d", n, want)
	}
}

func TestScheduledExecutorTest_testShutdownNow(t *testing.T) {
	const poolSize, count = 2, 5
	var ran atomic.Int32
	p := executors.NewScheduledThreadPool(poolSize)
	started := locks.NewCountDownLatch(poolSize)
	for range count {
		p.Execute(func() {
			started.CountDown()
			thread.Sleep(time.Minute) // interrupted by ShutdownNow
			ran.Add(1)
		})
	}
	await(t, started)
	if p.ActiveCount() != poolSize || p.CompletedTaskCount() != 0 {
		t.Fatalf("active %d completed %d", p.ActiveCount(), p.CompletedTaskCount())
	}
	queued := p.ShutdownNow()
	if !p.IsShutdown() || p.Queue().Len() != 0 || len(queued) != count-poolSize {
		t.Fatalf("shut down %v, queue %d, returned %d", p.IsShutdown(), p.Queue().Len(), len(queued))
	}
	if ok, _ := p.AwaitTermination(tckLongDelay); !ok {
		t.Fatal("not terminated")
	}
	if ran.Load() != poolSize || p.CompletedTaskCount() != poolSize {
		t.Fatalf("ran %d, completed %d", ran.Load(), p.CompletedTaskCount())
	}
}

func TestScheduledExecutorTest_testShutdownNow_delayedTasks(t *testing.T) {
	p := executors.NewScheduledThreadPool(1)
	var tasks []executors.ScheduledFuture[struct{}]
	for range 3 {
		f1, _ := p.Schedule(func() {}, 9*time.Second)
		f2, _ := p.ScheduleAtFixedRate(func() {}, 9*time.Second, 9*time.Second)
		f3, _ := p.ScheduleWithFixedDelay(func() {}, 9*time.Second, 9*time.Second)
		tasks = append(tasks, f1, f2, f3)
	}
	queued := p.ShutdownNow()
	if !p.IsShutdown() || p.Queue().Len() != 0 || len(queued) != len(tasks) {
		t.Fatalf("shut down %v, queue %d, returned %d", p.IsShutdown(), p.Queue().Len(), len(queued))
	}
	for _, f := range tasks {
		if f.IsDone() || f.IsCancelled() {
			t.Fatal("a task ShutdownNow returned is done")
		}
	}
	if ok, _ := p.AwaitTermination(tckLongDelay); !ok {
		t.Fatal("not terminated")
	}
	// running a returned task on a stopped pool cancels it, as running Java's
	// ScheduledFutureTask does
	for _, r := range queued {
		r()
	}
	for _, f := range tasks {
		if !f.IsCancelled() {
			t.Fatal("running a task ShutdownNow returned did not cancel its future")
		}
	}
}

// By default, periodic tasks are cancelled at shutdown and delayed tasks keep running; the
// policies change that. Every combination of the policies is run (the TCK picks one at
// random); "immediates" are Submit'ed tasks, which Java's submit schedules with no delay: they
// run after Shutdown whatever the delayed-task policy says (issue 15, defect 5).
func TestScheduledExecutorTest_testShutdown_cancellation(t *testing.T) {
	for combo := range 16 {
		delayedPolicy, periodicPolicy := combo&1 == 0, combo&2 != 0
		removePolicy, periodicContinue := combo&4 != 0, combo&8 != 0 && combo&2 != 0
		t.Run(fmt.Sprintf("delayed=%v,periodic=%v,remove=%v,continue=%v", delayedPolicy, periodicPolicy, removePolicy, periodicContinue), func(t *testing.T) {
			shutdownCancellation(t, delayedPolicy, periodicPolicy, removePolicy, periodicContinue)
		})
	}
}

func shutdownCancellation(t *testing.T, delayedPolicy, periodicPolicy, removePolicy, periodicContinue bool) {
	const poolSize = 4
	p := executors.NewScheduledThreadPool(poolSize)
	p.SetExecuteExistingDelayedTasksAfterShutdownPolicy(delayedPolicy)
	p.SetContinueExistingPeriodicTasksAfterShutdownPolicy(periodicPolicy)
	p.SetRemoveOnCancelPolicy(removePolicy)
	q := p.Queue()
	var ran atomic.Int32
	poolBlocked := locks.NewCountDownLatch(poolSize)
	unblock := locks.NewCountDownLatch(1)
	exception := errors.New("periodic task ends")
	task := func() {
		ran.Add(1)
		poolBlocked.CountDown()
		unblock.Await()
	}
	periodic := func(rounds int) func() {
		return func() {
			rounds--
			if rounds == 0 {
				task()
			}
			if rounds == -1 { // end this periodic task, in a run of its own and detectably
				panic(exception)
			}
		}
	}
	const delay = time.Millisecond
	var immediates []executors.Future[struct{}]
	var delayeds, periodics []executors.ScheduledFuture[struct{}]
	submit := func() {
		f, err := executors.SubmitRunnable(p, task)
		if err != nil {
			t.Fatal(err)
		}
		immediates = append(immediates, f)
	}
	submit()
	d, _ := p.Schedule(task, delay)
	delayeds = append(delayeds, d)
	r1, _ := p.ScheduleAtFixedRate(periodic(1), delay, time.Millisecond)
	r2, _ := p.ScheduleWithFixedDelay(periodic(1), delay, time.Millisecond)
	periodics = append(periodics, r1, r2)
	await(t, poolBlocked)
	if ran.Load() != poolSize || p.ActiveCount() != poolSize || q.Len() != 0 {
		t.Fatalf("ran %d active %d queued %d", ran.Load(), p.ActiveCount(), q.Len())
	}

	// the second wave waits in the queue
	submit()
	second := delay
	if !delayedPolicy {
		second = tckLongDelay
	}
	d, _ = p.Schedule(task, second)
	delayeds = append(delayeds, d)
	r1, _ = p.ScheduleAtFixedRate(periodic(1), delay, time.Millisecond)
	r2, _ = p.ScheduleWithFixedDelay(periodic(1), delay, time.Millisecond)
	periodics = append(periodics, r1, r2)
	if q.Len() != poolSize || ran.Load() != poolSize {
		t.Fatalf("queued %d ran %d", q.Len(), ran.Load())
	}
	for _, f := range immediates {
		if sf, ok := f.(executors.ScheduledFuture[struct{}]); !ok || sf.Delay() > 0 {
			t.Fatal("a submitted task is not a scheduled task with no delay")
		}
	}
	// an immediate task becomes due a little after it is submitted: make sure the second one
	// is, so that the shutdown below finds it due, as the TCK's assertion on getDelay does
	for immediates[1].(executors.ScheduledFuture[struct{}]).Delay() > 0 {
		time.Sleep(time.Millisecond)
	}

	p.Shutdown()
	if !p.IsShutdown() || !p.IsTerminating() || p.IsTerminated() {
		t.Fatal("pool state after Shutdown")
	}
	if immediates[1].IsDone() || immediates[0].IsDone() {
		t.Fatal("an immediate task was cancelled by Shutdown")
	}
	if delayeds[0].IsDone() {
		t.Fatal("the running delayed task is done")
	}
	if delayedPolicy == delayeds[1].IsDone() || (!delayedPolicy && !delayeds[1].IsCancelled()) {
		t.Fatalf("queued delayed task: done %v with policy %v", delayeds[1].IsDone(), delayedPolicy)
	}
	if periodicPolicy {
		for _, f := range periodics {
			if f.IsDone() {
				t.Fatal("a periodic task is done under the continue policy")
			}
			if !periodicContinue && (!f.Cancel(false) || !f.IsCancelled()) {
				t.Fatal("Cancel of a periodic task failed")
			}
		}
	} else {
		for _, f := range periodics[:2] {
			if f.IsDone() {
				t.Fatal("a running periodic task is done")
			}
		}
		for _, f := range periodics[2:] {
			if !f.IsCancelled() {
				t.Fatal("a queued periodic task was not cancelled by Shutdown")
			}
		}
	}

	unblock.CountDown()
	if ok, _ := p.AwaitTermination(tckLongDelay); !ok {
		t.Fatal("not terminated")
	}
	if p.IsTerminating() || !p.IsTerminated() || q.Len() != 0 {
		t.Fatalf("terminating %v terminated %v queued %d", p.IsTerminating(), p.IsTerminated(), q.Len())
	}
	for _, f := range immediates {
		if _, err := f.GetTimeout(tckLongDelay); err != nil {
			t.Errorf("immediate task: %v", err)
		}
	}
	if _, err := delayeds[0].Get(); err != nil {
		t.Errorf("first delayed task: %v", err)
	}
	if delayedPolicy {
		if _, err := delayeds[1].Get(); err != nil {
			t.Errorf("second delayed task: %v", err)
		}
	} else if !delayeds[1].IsCancelled() {
		t.Error("second delayed task not cancelled")
	}
	for _, f := range periodics {
		if periodicContinue {
			var pe *executors.PanicError
			if _, err := f.Get(); !errors.As(err, &pe) || pe.Value != exception {
				t.Errorf("periodic task: %v, want its panic", err)
			}
		} else if !f.IsCancelled() {
			t.Error("periodic task not cancelled")
		}
	}
	want := poolSize + 1
	if delayedPolicy {
		want++
	}
	if periodicContinue {
		want += 2
	}
	if got := int(ran.Load()); got != want {
		t.Errorf("ran %d tasks, want %d", got, want)
	}
}

func TestScheduledExecutorTest_testSubmitCallableAndRunnable(t *testing.T) {
	p := executors.NewScheduledThreadPool(2)
	defer cleaner(t, p)
	f, _ := executors.Submit(p, func() (string, error) { return "test", nil })
	if v, err := f.Get(); v != "test" || err != nil {
		t.Fatalf("Submit: %q %v", v, err)
	}
	g, _ := executors.SubmitRunnable(p, func() {})
	if _, err := g.Get(); err != nil || !g.IsDone() {
		t.Fatalf("SubmitRunnable: %v", err)
	}
}

func TestScheduledExecutorTest_testInvokeAnyAndAll(t *testing.T) {
	p := executors.NewScheduledThreadPool(2)
	defer cleaner(t, p)
	npe := errors.New("NullPointerException")
	fail := func() (string, error) { return "", npe }
	str := func() (string, error) { return "test", nil }
	if _, err := executors.InvokeAny(p, []func() (string, error){fail}); !errors.Is(err, npe) {
		t.Errorf("InvokeAny of a failing task = %v", err)
	}
	if v, err := executors.InvokeAny(p, []func() (string, error){str, str}); v != "test" || err != nil {
		t.Errorf("InvokeAny = %q %v", v, err)
	}
	if v, err := executors.InvokeAnyTimeout(p, []func() (string, error){str, str}, tckLongDelay); v != "test" || err != nil {
		t.Errorf("InvokeAnyTimeout = %q %v", v, err)
	}
	fs, err := executors.InvokeAll(p, []func() (string, error){fail})
	if err != nil || len(fs) != 1 {
		t.Fatalf("InvokeAll = %v, %v", fs, err)
	}
	if _, err := fs[0].Get(); !errors.Is(err, npe) {
		t.Errorf("failed task's Get = %v", err)
	}
	fs, err = executors.InvokeAllTimeout(p, []func() (string, error){str, str}, tckLongDelay)
	if err != nil || len(fs) != 2 {
		t.Fatalf("InvokeAllTimeout = %v, %v", fs, err)
	}
	for _, f := range fs {
		if v, err := f.Get(); v != "test" || err != nil {
			t.Errorf("Get = %q %v", v, err)
		}
	}
}

// timed invokeAll cancels the tasks not completed by the timeout.
func TestScheduledExecutorTest_testTimedInvokeAll6(t *testing.T) {
	for timeout := tckTimeout; ; timeout *= 2 {
		done := locks.NewCountDownLatch(1)
		p := executors.NewScheduledThreadPool(2)
		waiter := func() (string, error) { done.AwaitTimeout(tckLongDelay); return "1", nil }
		start := time.Now()
		fs, err := executors.InvokeAllTimeout(p, []func() (string, error){
			func() (string, error) { return "0", nil }, waiter, func() (string, error) { return "2", nil },
		}, timeout)
		if err != nil || len(fs) != 3 || time.Since(start) < timeout {
			t.Fatalf("InvokeAllTimeout = %v, %v after %v", fs, err, time.Since(start))
		}
		for _, f := range fs {
			if !f.IsDone() {
				t.Fatal("a future InvokeAllTimeout returned is not done")
			}
		}
		if !fs[1].IsCancelled() {
			t.Fatal("the waiting task was not cancelled")
		}
		v0, err0 := fs[0].Get()
		v2, err2 := fs[2].Get()
		cleaner(t, p, done)
		if err0 == nil && err2 == nil {
			if v0 != "0" || v2 != "2" {
				t.Fatalf("results %q %q", v0, v2)
			}
			return
		}
		if timeout >= tckLongDelay/2 {
			t.Fatal("expected exactly one task to be cancelled")
		}
	}
}

// A fixed-delay or fixed-rate task whose period overflows the clock does not keep the pool
// from running a one-shot task, and does not run again (JDK-8051859; issue 15, defect 1: the
// period saturates, it does not wrap to a time in the past).
func TestScheduledExecutorTest_testScheduleWithFixedDelay_overflow(t *testing.T) {
	for _, fixedRate := range []bool{false, true} {
		p := executors.NewScheduledThreadPool(1)
		delayedDone := locks.NewCountDownLatch(1)
		immediateDone := locks.NewCountDownLatch(1)
		var runs atomic.Int32
		delayed := func() {
			runs.Add(1)
			delayedDone.CountDown()
			executors.SubmitRunnable(p, immediateDone.CountDown)
		}
		var f executors.ScheduledFuture[struct{}]
		if fixedRate {
			f, _ = p.ScheduleAtFixedRate(delayed, 0, math.MaxInt64)
		} else {
			f, _ = p.ScheduleWithFixedDelay(delayed, 0, math.MaxInt64)
		}
		await(t, delayedDone)
		await(t, immediateDone)
		time.Sleep(50 * time.Millisecond)
		if n := runs.Load(); n != 1 {
			t.Errorf("fixed rate %v: a task with a period of math.MaxInt64 ran %d times", fixedRate, n)
		}
		if d := f.Delay(); d < time.Duration(math.MaxInt64/2) {
			t.Errorf("fixed rate %v: Delay = %v, want about forever", fixedRate, d)
		}
		f.Cancel(false)
		cleaner(t, p)
	}
}

// issue 15, defect 5: Submit on a ScheduledThreadPoolExecutor returns the scheduled task
// itself, so what the pool does to the task settles the caller's future: ShutdownNow returns
// tasks whose run cancels it, and the remove-on-cancel policy takes a cancelled one out of the
// queue.
func TestSubmitOnScheduledPoolReturnsTheScheduledTask(t *testing.T) {
	p := executors.NewScheduledThreadPool(1)
	started := locks.NewCountDownLatch(1)
	release := locks.NewCountDownLatch(1)
	p.Execute(func() { started.CountDown(); release.Await() })
	await(t, started)

	f, err := executors.Submit(p, func() (int, error) { return 1, nil })
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := f.(executors.ScheduledFuture[int]); !ok {
		t.Errorf("Submit returned a %T, not a ScheduledFuture", f)
	}
	p.SetRemoveOnCancelPolicy(true)
	g, _ := executors.SubmitRunnable(p, func() {})
	if n := p.Queue().Len(); n != 2 {
		t.Fatalf("queued %d, want 2", n)
	}
	if !g.Cancel(false) || p.Queue().Len() != 1 {
		t.Fatalf("cancelled submitted task still queued (%d)", p.Queue().Len())
	}
	left := p.ShutdownNow()
	if len(left) != 1 {
		t.Fatalf("ShutdownNow returned %d tasks, want 1", len(left))
	}
	left[0]() // on a stopped pool: cancels the task, and so the caller's future
	within(t, 10*time.Second, "Get of a submitted task that ShutdownNow returned and was run", func() {
		if _, err := f.Get(); !errors.Is(err, executors.ErrCancelled) {
			t.Errorf("Get = %v, want ErrCancelled", err)
		}
	})
	release.CountDown()
	if ok, _ := p.AwaitTermination(tckLongDelay); !ok {
		t.Fatal("not terminated")
	}
}

// issue 15, defect 5: with the delayed-task policy off, a task submitted with no delay just
// before Shutdown still runs (Java's onShutdown drops only tasks whose delay is > 0), and its
// Get returns its value.
func TestSubmitJustBeforeShutdownRunsWithoutDelayedTaskPolicy(t *testing.T) {
	p := executors.NewScheduledThreadPool(1)
	p.SetExecuteExistingDelayedTasksAfterShutdownPolicy(false)
	started := locks.NewCountDownLatch(1)
	release := locks.NewCountDownLatch(1)
	p.Execute(func() { started.CountDown(); release.Await() })
	await(t, started)
	f, err := executors.Submit(p, func() (int, error) { return 42, nil })
	if err != nil {
		t.Fatal(err)
	}
	later, _ := p.Schedule(func() {}, time.Hour)
	time.Sleep(5 * time.Millisecond) // f is due now, as in Java, where nanoTime has moved on
	if sf, ok := f.(executors.ScheduledFuture[int]); !ok || sf.Delay() > 0 {
		t.Errorf("Submit returned %T, not a scheduled task that is due", f)
	}
	p.Shutdown()
	if !later.IsCancelled() {
		t.Error("a task delayed an hour was not cancelled by Shutdown")
	}
	release.CountDown()
	within(t, 10*time.Second, "Get of a task submitted just before Shutdown", func() {
		if v, err := f.Get(); v != 42 || err != nil {
			t.Errorf("Get = %v, %v; want 42", v, err)
		}
	})
	if ok, _ := p.AwaitTermination(tckLongDelay); !ok {
		t.Fatal("not terminated")
	}
}

// The subclass form of ScheduledExecutorSubclassTest: a type that embeds the pool is still a
// scheduled pool to Submit.
func TestScheduledExecutorSubclassTest_embeddedPoolSubmit(t *testing.T) {
	type customPool struct {
		*executors.ScheduledThreadPoolExecutor
	}
	p := customPool{executors.NewScheduledThreadPool(1)}
	defer cleaner(t, p.ScheduledThreadPoolExecutor)
	f, err := executors.Submit(p, func() (string, error) { return "sub", nil })
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := f.(executors.ScheduledFuture[string]); !ok {
		t.Errorf("Submit through an embedding type returned a %T", f)
	}
	if v, err := f.Get(); v != "sub" || err != nil {
		t.Fatalf("Get = %q %v", v, err)
	}
}

// issue 15, defect 1: the scheduled pool's own clock arithmetic saturates. A worker whose
// keep-alive is math.MaxInt64 waits for work instead of timing out at once, and PollTimeout on
// the pool's queue with math.MaxInt64 waits (until interrupted).
func TestScheduledPoolTimeoutsOfMaxInt64MeanForever(t *testing.T) {
	s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 1})
	defer s.Close()
	p := executors.NewScheduledThreadPoolWithFactory(1, thread.OfVirtual().Scheduler(s).Factory())
	defer cleaner(t, p)
	p.SetKeepAliveTime(math.MaxInt64)
	p.AllowCoreThreadTimeOut(true)
	f, _ := p.Schedule(func() {}, 0)
	f.Get()
	eventually(t, "the worker waiting for work", func() bool { return p.ActiveCount() == 0 && s.Stats().Mounted == 0 })
	before := s.Stats().Submitted
	time.Sleep(100 * time.Millisecond)
	if n := p.PoolSize(); n != 1 {
		t.Errorf("PoolSize = %d after an idle moment, want 1 (keep-alive math.MaxInt64)", n)
	}
	if n := s.Stats().Submitted - before; n != 0 {
		t.Errorf("the idle worker was resumed %d times in 100 ms (a spin)", n)
	}

	var err error
	returned := make(chan struct{})
	th := thread.OfVirtual().Start(func() {
		defer close(returned)
		_, _, err = p.Queue().PollTimeout(math.MaxInt64)
	})
	select {
	case <-returned:
		t.Fatalf("PollTimeout(math.MaxInt64) returned at once (%v)", err)
	case <-time.After(100 * time.Millisecond):
	}
	th.Interrupt()
	<-returned
	if !errors.Is(err, thread.ErrInterrupted) {
		t.Errorf("interrupted PollTimeout = %v", err)
	}
}
