package executors_test

import (
	"math"
	"testing"
	"time"

	"github.com/loomgo/loom/executors"
	"github.com/loomgo/loom/locks"
	"github.com/loomgo/loom/thread"
)

// issue 15, defect 1: a timeout of math.MaxInt64 means "forever" (Java's Long.MAX_VALUE idiom).
// Every timed wait of the package, given one, waits until what it waits for happens, and then
// returns it: the deadline arithmetic neither overflows into the past (returning at once, or
// spinning) nor misreports a time-out. The waiting thread runs alone on a scheduler of its own,
// so the scheduler's count of resumptions shows a spin: it must not move while it waits.
func TestTimeoutsOfMaxInt64MeanForever(t *testing.T) {
	const forever = time.Duration(math.MaxInt64)
	type waitCase struct {
		name    string
		prepare func() (wait func() error, release func())
	}
	cases := []waitCase{
		{"FutureTask.GetTimeout", func() (func() error, func()) {
			f := executors.NewFutureTask(func() (int, error) { return 1, nil })
			return func() error { _, err := f.GetTimeout(forever); return err }, f.Run
		}},
		{"CompletableFuture.GetTimeout", func() (func() error, func()) {
			c := executors.NewCompletableFuture[int]()
			return func() error { _, err := c.GetTimeout(forever); return err }, func() { c.Complete(1) }
		}},
		{"AwaitTermination", func() (func() error, func()) {
			e := executors.NewVirtualThreadPerTaskExecutor()
			gate := locks.NewCountDownLatch(1)
			e.Execute(func() { gate.Await() })
			e.Shutdown()
			return func() error {
				if ok, err := e.AwaitTermination(forever); !ok || err != nil {
					t.Errorf("AwaitTermination = %v, %v", ok, err)
				}
				return nil
			}, gate.CountDown
		}},
		{"InvokeAllTimeout", func() (func() error, func()) {
			e := onDefaultScheduler()
			gate := locks.NewCountDownLatch(1)
			return func() error {
				defer e.Close()
				fs, err := executors.InvokeAllTimeout(e, []func() (int, error){func() (int, error) { gate.Await(); return 1, nil }}, forever)
				if err == nil && (len(fs) != 1 || fs[0].IsCancelled()) {
					t.Errorf("InvokeAllTimeout cancelled its task")
				}
				return err
			}, gate.CountDown
		}},
		{"InvokeAnyTimeout", func() (func() error, func()) {
			e := onDefaultScheduler()
			gate := locks.NewCountDownLatch(1)
			return func() error {
				defer e.Close()
				_, err := executors.InvokeAnyTimeout(e, []func() (int, error){func() (int, error) { gate.Await(); return 1, nil }}, forever)
				return err
			}, gate.CountDown
		}},
		{"ExecutorCompletionService.PollTimeout", func() (func() error, func()) {
			e := executors.NewVirtualThreadPerTaskExecutor()
			cs := executors.NewExecutorCompletionService[int](e)
			gate := locks.NewCountDownLatch(1)
			cs.Submit(func() (int, error) { gate.Await(); return 1, nil })
			return func() error {
				defer e.Close()
				if _, ok, err := cs.PollTimeout(forever); !ok || err != nil {
					t.Errorf("PollTimeout = %v, %v", ok, err)
				}
				return nil
			}, gate.CountDown
		}},
		{"ScheduledFuture.GetTimeout", func() (func() error, func()) {
			s := executors.NewScheduledThreadPoolWithFactory(1, thread.OfVirtual().Factory())
			gate := locks.NewCountDownLatch(1)
			f, _ := executors.ScheduleCallable(s, func() (int, error) { gate.Await(); return 1, nil }, 0)
			return func() error {
				defer s.Close()
				_, err := f.GetTimeout(forever)
				return err
			}, gate.CountDown
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			wait, release := c.prepare()
			var err error
			returned := make(chan struct{})
			s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 1})
			defer s.Close()
			th := thread.OfVirtual().Scheduler(s).Start(func() { defer close(returned); err = wait() })
			for th.State() != thread.TimedWaiting {
				select {
				case <-returned:
					t.Fatalf("returned before the wait was over (%v)", err)
				case <-time.After(time.Millisecond):
				}
			}
			before := s.Stats().Submitted
			select {
			case <-returned:
				t.Fatalf("returned before the wait was over (%v)", err)
			case <-time.After(100 * time.Millisecond):
			}
			if n := s.Stats().Submitted - before; n != 0 {
				t.Errorf("resumed %d times in 100 ms while it should wait (a spin)", n)
			}
			release()
			if ok, _ := th.JoinTimeout(10 * time.Second); !ok {
				t.Fatal("did not return after the wait was over")
			}
			if err != nil {
				t.Errorf("error %v after the wait was over", err)
			}
		})
	}
}

// onDefaultScheduler is a virtual-thread-per-task executor whose threads run on the default
// scheduler even when a thread of another scheduler submits to it.
func onDefaultScheduler() *executors.ThreadPerTaskExecutor {
	return executors.NewThreadPerTaskExecutor(thread.OfVirtual().Scheduler(thread.DefaultScheduler()).Factory())
}
