package executors_test

import (
	"errors"
	"testing"
	"time"

	"github.com/loomgo/loom/executors"
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

func TestInterruptBeforeCloseInterruptsTasksAndKeepsStatus(t *testing.T) {
	for name, mk := range closeTestExecutors() {
		e := mk()
		f, _ := executors.Submit(e, func() (int, error) { return 0, thread.Sleep(time.Hour) })
		time.Sleep(10 * time.Millisecond) // let it start
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
		f, _ := executors.Submit(e, func() (int, error) { return 0, thread.Sleep(time.Hour) })
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
