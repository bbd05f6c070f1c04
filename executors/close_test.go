package executors_test

import (
	"errors"
	"testing"
	"time"

	"github.com/loomgo/loom/executors"
	"github.com/loomgo/loom/locks"
	"github.com/loomgo/loom/thread"
)

// jtreg CloseTest, on each kind of executor.
func closeTestExecutors() map[string]func() executors.ExecutorService {
	return map[string]func() executors.ExecutorService{
		"virtual":   func() executors.ExecutorService { return executors.NewVirtualThreadPerTaskExecutor() },
		"cached":    func() executors.ExecutorService { return executors.NewCachedThreadPool() },
		"fixed":     func() executors.ExecutorService { return executors.NewFixedThreadPool(2) },
		"single":    func() executors.ExecutorService { return executors.NewSingleThreadExecutor() },
		"scheduled": func() executors.ExecutorService { return executors.NewScheduledThreadPool(2) },
	}
}

func TestCloseWithNoTasks(t *testing.T) {
	for name, mk := range closeTestExecutors() {
		e := mk()
		e.Close()
		if !e.IsShutdown() || !e.IsTerminated() {
			t.Errorf("%s: shutdown=%v terminated=%v", name, e.IsShutdown(), e.IsTerminated())
		}
		if ok, err := e.AwaitTermination(10 * time.Millisecond); !ok || err != nil {
			t.Errorf("%s: AwaitTermination after Close = %v, %v", name, ok, err)
		}
	}
}

func TestCloseWithRunningTasks(t *testing.T) {
	for name, mk := range closeTestExecutors() {
		e := mk()
		f, _ := executors.Submit(e, func() (string, error) {
			if err := thread.Sleep(100 * time.Millisecond); err != nil {
				return "", err
			}
			return "foo", nil
		})
		e.Close()
		if !e.IsTerminated() || f.ResultNow() != "foo" {
			t.Errorf("%s: terminated=%v state=%v", name, e.IsTerminated(), f.State())
		}
	}
}

func TestShutdownBeforeClose(t *testing.T) {
	for name, mk := range closeTestExecutors() {
		e := mk()
		f, _ := executors.Submit(e, func() (string, error) { thread.Sleep(50 * time.Millisecond); return "foo", nil })
		e.Shutdown()
		e.Close()
		if !e.IsTerminated() || f.State() != executors.Success {
			t.Errorf("%s: terminated=%v state=%v", name, e.IsTerminated(), f.State())
		}
	}
}

// submitSleeper submits a task that sleeps an hour (until interrupted) and waits until it has
// started: a task that has not started when the executor is shut down now is returned by
// ShutdownNow, unrun, and its future never completes (as in Java), so the tests below must not
// race its start (a fixed sleep did, on a loaded machine).
func submitSleeper(t *testing.T, e executors.ExecutorService) executors.Future[int] {
	t.Helper()
	started := locks.NewCountDownLatch(1)
	f, err := executors.Submit(e, func() (int, error) { started.CountDown(); return 0, thread.Sleep(time.Hour) })
	if err != nil {
		t.Fatal(err)
	}
	if ok, _ := started.AwaitTimeout(time.Minute); !ok {
		t.Fatal("the task did not start")
	}
	return f
}

func TestInterruptBeforeCloseInterruptsTasksAndKeepsStatus(t *testing.T) {
	for name, mk := range closeTestExecutors() {
		e := mk()
		f := submitSleeper(t, e)
		var kept bool
		within(t, 10*time.Second, name+" Close", func() {
			thread.OfVirtual().Start(func() {
				thread.Current().Interrupt()
				e.Close()
				kept = thread.Interrupted()
			}).Join()
		})
		if !kept || !e.IsTerminated() {
			t.Errorf("%s: interrupt kept=%v terminated=%v", name, kept, e.IsTerminated())
		}
		if _, err := f.Get(); !errors.Is(err, thread.ErrInterrupted) {
			t.Errorf("%s: task = %v, want interrupted", name, err)
		}
	}
}

func TestInterruptDuringCloseInterruptsTasksAndKeepsStatus(t *testing.T) {
	for name, mk := range closeTestExecutors() {
		e := mk()
		f := submitSleeper(t, e)
		var kept bool
		closer := thread.OfVirtual().Start(func() {
			e.Close()
			kept = thread.Interrupted()
		})
		time.Sleep(30 * time.Millisecond)
		closer.Interrupt()
		within(t, 10*time.Second, name+" Close", func() { closer.Join() })
		if !kept || !e.IsTerminated() {
			t.Errorf("%s: interrupt kept=%v terminated=%v", name, kept, e.IsTerminated())
		}
		if _, err := f.Get(); !errors.Is(err, thread.ErrInterrupted) {
			t.Errorf("%s: task = %v, want interrupted", name, err)
		}
	}
}
