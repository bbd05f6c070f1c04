package executors_test

import (
	"errors"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"weak"

	"github.com/loomgo/loom/executors"
	"github.com/loomgo/loom/thread"
)

func TestFutureTaskNilTaskPanicsNilArgument(t *testing.T) {
	mustPanicWith(t, thread.ErrNilArgument, func() { executors.NewFutureTask[int](nil) })
	mustPanicWith(t, thread.ErrNilArgument, func() { executors.NewFutureTaskRunnable[int](nil, 1) })
}

func TestFutureTaskIsDoneAfterRun(t *testing.T) {
	f := executors.NewFutureTask(func() (int, error) { return 42, nil })
	if f.IsDone() || f.State() != executors.Running {
		t.Fatalf("before run: done=%v state=%v", f.IsDone(), f.State())
	}
	f.Run()
	v, err := f.Get()
	if v != 42 || err != nil || !f.IsDone() || f.IsCancelled() || f.State() != executors.Success {
		t.Fatalf("got %v, %v, done=%v cancelled=%v state=%v", v, err, f.IsDone(), f.IsCancelled(), f.State())
	}
	if f.ResultNow() != 42 {
		t.Fatalf("ResultNow = %v", f.ResultNow())
	}
	if got := f.String(); got != "FutureTask[Completed normally]" {
		t.Fatalf("String = %q", got)
	}
}

func TestFutureTaskRunnableYieldsGivenResult(t *testing.T) {
	ran := false
	f := executors.NewFutureTaskRunnable(func() { ran = true }, "v")
	f.Run()
	if v, err := f.Get(); v != "v" || err != nil || !ran {
		t.Fatalf("got %q, %v, ran=%v", v, err, ran)
	}
}

func TestFutureTaskRunTwiceRunsOnce(t *testing.T) {
	var n atomic.Int32
	f := executors.NewFutureTask(func() (int, error) { return int(n.Add(1)), nil })
	f.Run()
	f.Run()
	if n.Load() != 1 {
		t.Fatalf("task ran %d times", n.Load())
	}
}

func TestGetExecutionExceptionCarriesCause(t *testing.T) {
	boom := errors.New("boom")
	f := executors.NewFutureTask(func() (int, error) { return 0, boom })
	f.Run()
	_, err := f.Get()
	var ee *executors.ExecutionError
	if !errors.As(err, &ee) || ee.Cause != boom || !errors.Is(err, boom) {
		t.Fatalf("Get error = %v", err)
	}
	if f.State() != executors.Failed || f.ExceptionNow() != boom {
		t.Fatalf("state %v, ExceptionNow %v", f.State(), f.ExceptionNow())
	}
	if !strings.HasPrefix(f.String(), "FutureTask[Completed exceptionally: boom") {
		t.Fatalf("String = %q", f.String())
	}
	mustPanicWith(t, executors.ErrIllegalState, func() { f.ResultNow() })
}

func TestPanicInTaskFailsFutureWithValueAndStack(t *testing.T) {
	f := executors.NewFutureTask(func() (int, error) { panic("kaboom") })
	f.Run() // must not propagate
	_, err := f.Get()
	var pe *executors.PanicError
	if !errors.As(err, &pe) || pe.Value != "kaboom" {
		t.Fatalf("Get error = %v", err)
	}
	if !strings.Contains(string(pe.Stack), "future_task_test.go") {
		t.Fatalf("stack does not show the panicking frame:\n%s", pe.Stack)
	}
}

func TestPanicWithErrorValueUnwraps(t *testing.T) {
	boom := errors.New("boom")
	f := executors.NewFutureTask(func() (int, error) { panic(boom) })
	f.Run()
	if _, err := f.Get(); !errors.Is(err, boom) {
		t.Fatalf("Get error = %v, want wrapping boom", err)
	}
}

func TestGoexitInTaskFailsFutureAndWaitersDoNotHang(t *testing.T) {
	f := executors.NewFutureTask(func() (int, error) { runtimeGoexit(); return 1, nil })
	th := thread.OfVirtual().Start(f.Run)
	within(t, 5*time.Second, "Get after Goexit", func() {
		if _, err := f.Get(); !errors.Is(err, executors.ErrGoexit) {
			t.Errorf("Get error = %v, want ErrGoexit", err)
		}
	})
	th.Join()
}

func TestCancelBeforeRunMeansTaskNeverRuns(t *testing.T) {
	ran := false
	f := executors.NewFutureTask(func() (int, error) { ran = true; return 1, nil })
	if !f.Cancel(false) {
		t.Fatal("Cancel = false")
	}
	f.Run()
	if ran || !f.IsCancelled() || !f.IsDone() || f.State() != executors.Cancelled {
		t.Fatalf("ran=%v cancelled=%v done=%v state=%v", ran, f.IsCancelled(), f.IsDone(), f.State())
	}
	if _, err := f.Get(); !errors.Is(err, executors.ErrCancelled) {
		t.Fatalf("Get error = %v", err)
	}
	if f.String() != "FutureTask[Cancelled]" {
		t.Fatalf("String = %q", f.String())
	}
	mustPanicWith(t, executors.ErrIllegalState, func() { f.ResultNow() })
	mustPanicWith(t, executors.ErrIllegalState, func() { f.ExceptionNow() })
}

func TestCancelAfterRunReturnsFalse(t *testing.T) {
	f := executors.NewFutureTask(func() (int, error) { return 1, nil })
	f.Run()
	if f.Cancel(true) || f.Cancel(false) || f.IsCancelled() {
		t.Fatal("Cancel of a completed task succeeded")
	}
}

func TestCancelInterruptInterruptsRunner(t *testing.T) {
	started := make(chan struct{})
	var sawInterrupt atomic.Bool
	f := executors.NewFutureTask(func() (int, error) {
		close(started)
		err := thread.Sleep(10 * time.Second)
		sawInterrupt.Store(errors.Is(err, thread.ErrInterrupted))
		return 0, err
	})
	th := thread.OfVirtual().Start(f.Run)
	<-started
	if !f.Cancel(true) {
		t.Fatal("Cancel = false")
	}
	th.Join()
	if !sawInterrupt.Load() {
		t.Fatal("task was not interrupted")
	}
	if f.State() != executors.Cancelled {
		t.Fatalf("state %v", f.State())
	}
}

func TestCancelNoInterruptLetsTaskFinishButDiscardsResult(t *testing.T) {
	started := make(chan struct{})
	release := make(chan struct{})
	var interrupted atomic.Bool
	f := executors.NewFutureTask(func() (int, error) {
		close(started)
		thread.Blocking(func() { <-release })
		interrupted.Store(thread.Current().IsInterrupted())
		return 7, nil
	})
	th := thread.OfVirtual().Start(f.Run)
	<-started
	if !f.Cancel(false) {
		t.Fatal("Cancel = false")
	}
	close(release)
	th.Join()
	if interrupted.Load() {
		t.Fatal("Cancel(false) interrupted the task")
	}
	if _, err := f.Get(); !errors.Is(err, executors.ErrCancelled) {
		t.Fatalf("Get error = %v", err)
	}
}

func TestResultNowAndExceptionNowOnRunningTaskPanic(t *testing.T) {
	f := executors.NewFutureTask(func() (int, error) { return 1, nil })
	mustPanicWith(t, executors.ErrIllegalState, func() { f.ResultNow() })
	mustPanicWith(t, executors.ErrIllegalState, func() { f.ExceptionNow() })
	if f.String() != "FutureTask[Not completed]" {
		t.Fatalf("String = %q", f.String())
	}
	f.Run()
	mustPanicWith(t, executors.ErrIllegalState, func() { f.ExceptionNow() })
}

func TestResultNowKeepsInterruptStatus(t *testing.T) {
	th := thread.OfVirtual().Start(func() {
		f := executors.NewFutureTask(func() (int, error) { return 1, nil })
		f.Run()
		thread.Current().Interrupt()
		if f.ResultNow() != 1 || !thread.Current().IsInterrupted() {
			t.Error("ResultNow cleared the interrupt status or lost the result")
		}
		thread.Interrupted()
	})
	th.Join()
}

func TestGetTimeoutExpires(t *testing.T) {
	f := executors.NewFutureTask(func() (int, error) { return 1, nil })
	start := time.Now()
	if _, err := f.GetTimeout(50 * time.Millisecond); !errors.Is(err, executors.ErrTimeout) {
		t.Fatalf("err = %v", err)
	}
	if el := time.Since(start); el < 45*time.Millisecond || el > 2*time.Second {
		t.Fatalf("waited %v", el)
	}
	if f.IsDone() {
		t.Fatal("timeout changed the future")
	}
}

func TestGetNegativeTimeoutBehavesAsZero(t *testing.T) {
	f := executors.NewFutureTask(func() (int, error) { return 1, nil })
	if _, err := f.GetTimeout(-time.Duration(1 << 62)); !errors.Is(err, executors.ErrTimeout) {
		t.Fatalf("err = %v", err)
	}
	f.Run()
	if v, err := f.GetTimeout(-time.Hour); v != 1 || err != nil {
		t.Fatalf("done future with negative timeout: %v, %v", v, err)
	}
}

func TestGetInterruptibleWhileWaiting(t *testing.T) {
	f := executors.NewFutureTask(func() (int, error) { return 1, nil })
	var got error
	waiter := thread.OfVirtual().Start(func() {
		_, got = f.Get()
		if thread.Current().IsInterrupted() {
			t.Error("interrupt status not cleared")
		}
	})
	for waiter.State() != thread.Waiting {
		time.Sleep(time.Millisecond)
	}
	waiter.Interrupt()
	waiter.Join()
	if !errors.Is(got, thread.ErrInterrupted) {
		t.Fatalf("Get error = %v", got)
	}
}

func TestGetTimeoutInterruptible(t *testing.T) {
	f := executors.NewFutureTask(func() (int, error) { return 1, nil })
	var got error
	waiter := thread.OfVirtual().Start(func() { _, got = f.GetTimeout(time.Hour) })
	for waiter.State() != thread.TimedWaiting {
		time.Sleep(time.Millisecond)
	}
	waiter.Interrupt()
	waiter.Join()
	if !errors.Is(got, thread.ErrInterrupted) {
		t.Fatalf("Get error = %v", got)
	}
}

func TestGetOnDoneFutureWithInterruptSetReturnsResult(t *testing.T) {
	thread.OfVirtual().Start(func() {
		f := executors.NewFutureTask(func() (int, error) { return 3, nil })
		f.Run()
		thread.Current().Interrupt()
		if v, err := f.Get(); v != 3 || err != nil {
			t.Errorf("Get = %v, %v", v, err)
		}
		thread.Interrupted()
	}).Join()
}

func TestManyWaitersAllWokenByCompletion(t *testing.T) {
	f := executors.NewFutureTask(func() (int, error) { return 5, nil })
	var ok atomic.Int32
	var ths []*thread.Thread
	for range 50 {
		ths = append(ths, thread.OfVirtual().Start(func() {
			if v, err := f.Get(); v == 5 && err == nil {
				ok.Add(1)
			}
		}))
	}
	time.Sleep(20 * time.Millisecond)
	thread.OfVirtual().Start(f.Run).Join()
	for _, th := range ths {
		th.Join()
	}
	if ok.Load() != 50 {
		t.Fatalf("%d of 50 waiters got the result", ok.Load())
	}
}

func TestFutureStateString(t *testing.T) {
	want := []string{"RUNNING", "SUCCESS", "FAILED", "CANCELLED"}
	for i, s := range []executors.FutureState{executors.Running, executors.Success, executors.Failed, executors.Cancelled} {
		if s.String() != want[i] {
			t.Errorf("%d: %q", i, s.String())
		}
	}
}

func TestTimedGetCancellation(t *testing.T) {
	f := executors.NewFutureTask(func() (int, error) { return 1, nil })
	var got error
	waiter := thread.OfVirtual().Start(func() { _, got = f.GetTimeout(time.Hour) })
	for waiter.State() != thread.TimedWaiting {
		time.Sleep(time.Millisecond)
	}
	f.Cancel(false)
	waiter.Join()
	if !errors.Is(got, executors.ErrCancelled) {
		t.Fatalf("timed Get = %v, want ErrCancelled", got)
	}
}

func TestCompletedWithZeroResultIsSuccess(t *testing.T) {
	f := executors.NewFutureTask(func() (*int, error) { return nil, nil })
	f.Run()
	if f.State() != executors.Success || f.ResultNow() != nil {
		t.Fatalf("state %v", f.State())
	}
}

// A future that completed normally no longer holds its task, as Java's FutureTask drops its
// callable: what the task's closure captured can be collected while the future is kept for its
// result. (A failed one keeps only its error; a periodic task keeps its task to run again.)
func TestDoneFutureDropsItsTask(t *testing.T) {
	for _, via := range []string{"Run", "Submit"} {
		t.Run(via, func(t *testing.T) {
			w, task := bigTask()
			var f executors.Future[int]
			switch via {
			case "Run":
				ft := executors.NewFutureTask(task)
				ft.Run()
				f = ft
			case "Submit":
				es := executors.NewVirtualThreadPerTaskExecutor()
				var err error
				if f, err = executors.Submit(es, task); err != nil {
					t.Fatal(err)
				}
				es.Close()
			}
			task = nil
			if v, err := f.Get(); v != 42 || err != nil {
				t.Fatalf("Get = %d, %v; want 42, nil", v, err)
			}
			runtime.GC()
			runtime.GC()
			if w.Value() != nil {
				t.Error("the done future still holds what its task captured")
			}
			runtime.KeepAlive(f)
		})
	}
}

// bigTask returns a task whose closure holds a large array, and a weak pointer to the array.
func bigTask() (weak.Pointer[[1 << 16]byte], func() (int, error)) {
	big := new([1 << 16]byte)
	big[0] = 42
	return weak.Make(big), func() (int, error) { return int(big[0]), nil }
}
