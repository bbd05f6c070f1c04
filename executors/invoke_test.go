package executors_test

import (
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/loomgo/loom/executors"
	"github.com/loomgo/loom/thread"
)

func sleeper(d time.Duration, v int) func() (int, error) {
	return func() (int, error) {
		if err := thread.Sleep(d); err != nil {
			return 0, err
		}
		return v, nil
	}
}

func TestInvokeAllEmptyReturnsEmpty(t *testing.T) {
	e := executors.NewVirtualThreadPerTaskExecutor()
	defer e.Close()
	fs, err := executors.InvokeAll(e, []func() (int, error){})
	if err != nil || len(fs) != 0 {
		t.Fatalf("%v %v", fs, err)
	}
}

func TestInvokeAllReturnsDoneFuturesInOrder(t *testing.T) {
	e := executors.NewVirtualThreadPerTaskExecutor()
	defer e.Close()
	boom := errors.New("boom")
	fs, err := executors.InvokeAll(e, []func() (int, error){
		sleeper(50*time.Millisecond, 1),
		func() (int, error) { return 0, boom },
		sleeper(10*time.Millisecond, 3),
	})
	if err != nil || len(fs) != 3 {
		t.Fatalf("%v %v", fs, err)
	}
	for _, f := range fs {
		if !f.IsDone() {
			t.Fatal("InvokeAll returned an unfinished future")
		}
	}
	if fs[0].ResultNow() != 1 || fs[2].ResultNow() != 3 || fs[1].ExceptionNow() != boom {
		t.Fatal("wrong outcomes")
	}
}

func TestTimedInvokeAllCancelsUnfinished(t *testing.T) {
	e := executors.NewVirtualThreadPerTaskExecutor()
	defer e.Close()
	start := time.Now()
	fs, err := executors.InvokeAllTimeout(e, []func() (int, error){sleeper(0, 1), sleeper(time.Hour, 2)}, 100*time.Millisecond)
	if err != nil || len(fs) != 2 {
		t.Fatalf("%v %v", fs, err)
	}
	if el := time.Since(start); el < 90*time.Millisecond || el > 3*time.Second {
		t.Fatalf("took %v", el)
	}
	if fs[0].State() != executors.Success || !fs[1].IsCancelled() {
		t.Fatalf("states %v %v", fs[0].State(), fs[1].State())
	}
}

func TestInvokeAllInterruptedCancelsTasks(t *testing.T) {
	e := executors.NewVirtualThreadPerTaskExecutor()
	defer e.Close()
	var fsErr error
	var interruptedTasks atomic.Int32
	task := func() (int, error) {
		err := thread.Sleep(time.Hour)
		if errors.Is(err, thread.ErrInterrupted) {
			interruptedTasks.Add(1)
		}
		return 0, err
	}
	caller := thread.OfVirtual().Start(func() {
		_, fsErr = executors.InvokeAll(e, []func() (int, error){task, task})
	})
	time.Sleep(50 * time.Millisecond)
	caller.Interrupt()
	caller.Join()
	if !errors.Is(fsErr, thread.ErrInterrupted) {
		t.Fatalf("InvokeAll = %v", fsErr)
	}
	e.Shutdown()
	e.AwaitTermination(5 * time.Second)
	if interruptedTasks.Load() != 2 {
		t.Fatalf("%d tasks interrupted", interruptedTasks.Load())
	}
}

func TestInvokeAnyEmptyPanicsIllegalArgument(t *testing.T) {
	e := executors.NewVirtualThreadPerTaskExecutor()
	defer e.Close()
	mustPanicWith(t, thread.ErrIllegalArgument, func() { executors.InvokeAny(e, []func() (int, error){}) })
}

func TestInvokeAnyReturnsFirstSuccessAndInterruptsOthers(t *testing.T) {
	e := executors.NewVirtualThreadPerTaskExecutor()
	var slowInterrupted atomic.Bool
	v, err := executors.InvokeAny(e, []func() (int, error){
		func() (int, error) {
			err := thread.Sleep(time.Hour)
			slowInterrupted.Store(errors.Is(err, thread.ErrInterrupted))
			return 0, err
		},
		sleeper(30*time.Millisecond, 2),
		func() (int, error) { return 0, errors.New("fails fast") },
	})
	if v != 2 || err != nil {
		t.Fatalf("InvokeAny = %v, %v", v, err)
	}
	e.Close()
	if !slowInterrupted.Load() {
		t.Fatal("the slow task was not interrupted")
	}
}

func TestInvokeAnyAllFailReturnsExecutionError(t *testing.T) {
	e := executors.NewVirtualThreadPerTaskExecutor()
	defer e.Close()
	boom := errors.New("boom")
	_, err := executors.InvokeAny(e, []func() (int, error){
		func() (int, error) { return 0, boom },
		func() (int, error) { panic(boom) },
	})
	var ee *executors.ExecutionError
	if !errors.As(err, &ee) || !errors.Is(err, boom) {
		t.Fatalf("err = %v", err)
	}
}

func TestInvokeAnyWithTimeoutTimesOut(t *testing.T) {
	e := executors.NewVirtualThreadPerTaskExecutor()
	defer e.Close()
	start := time.Now()
	_, err := executors.InvokeAnyTimeout(e, []func() (int, error){sleeper(time.Hour, 1)}, 50*time.Millisecond)
	if !errors.Is(err, executors.ErrTimeout) || time.Since(start) > 3*time.Second {
		t.Fatalf("err = %v after %v", err, time.Since(start))
	}
}

func TestInvokeAnyWithInterruptSetThrowsInterrupted(t *testing.T) {
	e := executors.NewVirtualThreadPerTaskExecutor()
	defer e.Close()
	thread.OfVirtual().Start(func() {
		thread.Current().Interrupt()
		_, err := executors.InvokeAny(e, []func() (int, error){sleeper(0, 1)})
		if !errors.Is(err, thread.ErrInterrupted) || thread.Current().IsInterrupted() {
			t.Errorf("err = %v, status %v", err, thread.Current().IsInterrupted())
		}
	}).Join()
}

func TestInvokeAnyOnFixedPool(t *testing.T) {
	p := executors.NewFixedThreadPoolWithFactory(2, thread.OfVirtual().Factory())
	defer p.Close()
	v, err := executors.InvokeAny(p, []func() (int, error){sleeper(10*time.Millisecond, 5), sleeper(10*time.Millisecond, 5)})
	if v != 5 || err != nil {
		t.Fatalf("%v %v", v, err)
	}
}
