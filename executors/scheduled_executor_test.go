package executors_test

import (
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/loomgo/loom/executors"
	"github.com/loomgo/loom/thread"
)

func newScheduled(n int) *executors.ScheduledThreadPoolExecutor {
	return executors.NewScheduledThreadPoolWithFactory(n, thread.OfVirtual().Factory())
}

func TestScheduleCallableRunsAfterDelay(t *testing.T) {
	s := newScheduled(1)
	defer s.Close()
	start := time.Now()
	f, err := executors.ScheduleCallable(s, func() (time.Duration, error) { return time.Since(start), nil }, 100*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	if d := f.Delay(); d <= 0 || d > 100*time.Millisecond {
		t.Fatalf("Delay = %v", d)
	}
	if f.IsDone() {
		t.Fatal("done before its delay")
	}
	v, err := f.Get()
	if err != nil || v < 95*time.Millisecond || v > 2*time.Second {
		t.Fatalf("ran after %v (%v), want ~100ms", v, err)
	}
	if f.Delay() > 0 {
		t.Fatalf("Delay after run = %v", f.Delay())
	}
}

func TestScheduleRunnableRunsAfterDelay(t *testing.T) {
	s := newScheduled(1)
	defer s.Close()
	start := time.Now()
	f, _ := s.Schedule(func() {}, 50*time.Millisecond)
	if _, err := f.Get(); err != nil || time.Since(start) < 45*time.Millisecond {
		t.Fatalf("%v after %v", err, time.Since(start))
	}
}

func TestScheduleNegativeDelayIsZero(t *testing.T) {
	s := newScheduled(1)
	defer s.Close()
	f, err := s.Schedule(func() {}, -time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	within(t, 5*time.Second, "negative-delay task", func() { f.Get() })
}

func TestScheduledTasksRunInTimeOrder(t *testing.T) {
	s := newScheduled(1)
	var order []int
	for _, d := range []int{3, 1, 2, 0} {
		s.Schedule(func() { order = append(order, d) }, time.Duration(d)*20*time.Millisecond)
	}
	s.Close()
	if len(order) != 4 || order[0] != 0 || order[1] != 1 || order[2] != 2 || order[3] != 3 {
		t.Fatalf("order %v", order)
	}
}

func TestExecuteAndSubmitRunWithoutDelay(t *testing.T) {
	s := newScheduled(2)
	defer s.Close()
	done := make(chan struct{})
	s.Execute(func() { close(done) })
	<-done
	f, _ := executors.Submit(s, func() (int, error) { return 4, nil })
	if v, err := f.Get(); v != 4 || err != nil {
		t.Fatalf("%v %v", v, err)
	}
}

func TestScheduleAtFixedRateRepeatsUntilCancelled(t *testing.T) {
	s := newScheduled(1)
	defer s.Close()
	var n atomic.Int32
	start := time.Now()
	f, err := s.ScheduleAtFixedRate(func() { n.Add(1) }, 0, 20*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	// at least 5 runs come (a loaded machine may take longer), and not faster than the rate
	// allows: the 5th run is due 80 ms after the first
	eventually(t, "5 runs", func() bool { return n.Load() >= 5 })
	elapsed := time.Since(start)
	if !f.Cancel(false) {
		t.Fatal("Cancel = false")
	}
	got := n.Load()
	if elapsed < 80*time.Millisecond || int64(got) > int64(elapsed/(20*time.Millisecond))+2 {
		t.Fatalf("ran %d times in %v at a 20ms rate", got, elapsed)
	}
	time.Sleep(60 * time.Millisecond)
	if n.Load() > got+1 {
		t.Fatalf("kept running after Cancel: %d -> %d", got, n.Load())
	}
	if _, err := f.Get(); !errors.Is(err, executors.ErrCancelled) {
		t.Fatalf("Get = %v", err)
	}
}

func TestScheduleWithFixedDelaySpacesRuns(t *testing.T) {
	s := newScheduled(1)
	defer s.Close()
	var times []time.Time
	done := make(chan struct{})
	var f executors.ScheduledFuture[struct{}]
	f, _ = s.ScheduleWithFixedDelay(func() {
		times = append(times, time.Now())
		thread.Sleep(20 * time.Millisecond)
		if len(times) == 4 {
			close(done)
		}
	}, 0, 30*time.Millisecond)
	<-done
	f.Cancel(false)
	for i := 1; i < len(times); i++ {
		if gap := times[i].Sub(times[i-1]); gap < 45*time.Millisecond {
			t.Fatalf("gap %v between runs, want >= 50ms (20ms run + 30ms delay)", gap)
		}
	}
}

func TestPeriodicTaskThatFailsStopsAndFutureFails(t *testing.T) {
	s := newScheduled(1)
	defer s.Close()
	var n atomic.Int32
	f, _ := s.ScheduleAtFixedRate(func() {
		if n.Add(1) == 3 {
			panic("third run fails")
		}
	}, 0, 10*time.Millisecond)
	_, err := f.Get()
	var pe *executors.PanicError
	if !errors.As(err, &pe) || pe.Value != "third run fails" {
		t.Fatalf("Get = %v", err)
	}
	time.Sleep(50 * time.Millisecond)
	if n.Load() != 3 {
		t.Fatalf("ran %d times, want 3", n.Load())
	}
	if f.State() != executors.Failed {
		t.Fatalf("state %v", f.State())
	}
}

func TestPeriodicFutureNeverCompletesNormally(t *testing.T) {
	s := newScheduled(1)
	defer s.Close()
	f, _ := s.ScheduleWithFixedDelay(func() {}, 0, 5*time.Millisecond)
	if _, err := f.GetTimeout(50 * time.Millisecond); !errors.Is(err, executors.ErrTimeout) {
		t.Fatalf("GetTimeout = %v", err)
	}
	f.Cancel(true)
}

func TestScheduleIllegalArguments(t *testing.T) {
	s := newScheduled(1)
	defer s.Close()
	mustPanicWith(t, thread.ErrNilArgument, func() { s.Schedule(nil, 0) })
	mustPanicWith(t, thread.ErrNilArgument, func() { s.ScheduleAtFixedRate(nil, 0, time.Second) })
	mustPanicWith(t, thread.ErrNilArgument, func() { s.ScheduleWithFixedDelay(nil, 0, time.Second) })
	mustPanicWith(t, thread.ErrNilArgument, func() { executors.ScheduleCallable[int](s, nil, 0) })
	mustPanicWith(t, thread.ErrNilArgument, func() { s.Execute(nil) })
	mustPanicWith(t, thread.ErrIllegalArgument, func() { s.ScheduleAtFixedRate(func() {}, 0, 0) })
	mustPanicWith(t, thread.ErrIllegalArgument, func() { s.ScheduleAtFixedRate(func() {}, 0, -time.Second) })
	mustPanicWith(t, thread.ErrIllegalArgument, func() { s.ScheduleWithFixedDelay(func() {}, 0, 0) })
}

func TestScheduleAfterShutdownRejected(t *testing.T) {
	s := newScheduled(1)
	s.Shutdown()
	if _, err := s.Schedule(func() {}, 0); !errors.Is(err, executors.ErrRejected) {
		t.Fatalf("Schedule = %v", err)
	}
	if _, err := executors.ScheduleCallable(s, func() (int, error) { return 1, nil }, 0); !errors.Is(err, executors.ErrRejected) {
		t.Fatalf("ScheduleCallable = %v", err)
	}
	if _, err := s.ScheduleAtFixedRate(func() {}, 0, time.Second); !errors.Is(err, executors.ErrRejected) {
		t.Fatalf("ScheduleAtFixedRate = %v", err)
	}
	if err := s.Execute(func() {}); !errors.Is(err, executors.ErrRejected) {
		t.Fatalf("Execute = %v", err)
	}
	s.Close()
}

func TestShutdownRunsDelayedTasksAndCancelsPeriodicByDefault(t *testing.T) {
	s := newScheduled(1)
	delayed, _ := s.Schedule(func() {}, 50*time.Millisecond)
	periodic, _ := s.ScheduleAtFixedRate(func() {}, 50*time.Millisecond, 10*time.Millisecond)
	s.Shutdown()
	if !periodic.IsCancelled() {
		t.Fatal("periodic task not cancelled by Shutdown")
	}
	if delayed.IsDone() {
		t.Fatal("delayed task cancelled by Shutdown")
	}
	if ok, _ := s.AwaitTermination(5 * time.Second); !ok {
		t.Fatal("not terminated")
	}
	if delayed.State() != executors.Success {
		t.Fatalf("delayed task %v, want it run after shutdown", delayed.State())
	}
}

func TestShutdownPolicyCancelDelayedAndContinuePeriodic(t *testing.T) {
	s := newScheduled(1)
	s.SetExecuteExistingDelayedTasksAfterShutdownPolicy(false)
	s.SetContinueExistingPeriodicTasksAfterShutdownPolicy(true)
	delayed, _ := s.Schedule(func() {}, time.Hour)
	var n atomic.Int32
	periodic, _ := s.ScheduleAtFixedRate(func() { n.Add(1) }, 0, 10*time.Millisecond)
	s.Shutdown()
	if !delayed.IsCancelled() || periodic.IsDone() {
		t.Fatalf("delayed cancelled=%v periodic done=%v", delayed.IsCancelled(), periodic.IsDone())
	}
	before := n.Load()
	time.Sleep(60 * time.Millisecond)
	if n.Load() <= before {
		t.Fatal("periodic task stopped after shutdown with continue policy")
	}
	if s.IsTerminated() {
		t.Fatal("terminated while a periodic task continues")
	}
	periodic.Cancel(false)
	s.ShutdownNow()
	if ok, _ := s.AwaitTermination(5 * time.Second); !ok {
		t.Fatal("not terminated after ShutdownNow")
	}
}

func TestScheduledShutdownNowReturnsPendingTasks(t *testing.T) {
	s := newScheduled(1)
	for range 3 {
		s.Schedule(func() {}, time.Hour)
	}
	if left := s.ShutdownNow(); len(left) != 3 {
		t.Fatalf("ShutdownNow returned %d tasks", len(left))
	}
	if ok, _ := s.AwaitTermination(5 * time.Second); !ok {
		t.Fatal("not terminated")
	}
}

func TestRemoveOnCancelPolicy(t *testing.T) {
	s := newScheduled(1)
	defer s.Close()
	f, _ := s.Schedule(func() {}, time.Hour)
	f.Cancel(false)
	if s.Queue().Len() != 1 {
		t.Fatalf("queue %d: a cancelled task stays queued by default", s.Queue().Len())
	}
	s.SetRemoveOnCancelPolicy(true)
	g, _ := s.Schedule(func() {}, time.Hour)
	g.Cancel(false)
	if s.Queue().Len() != 1 {
		t.Fatalf("queue %d: with RemoveOnCancel the task leaves at once", s.Queue().Len())
	}
}

func TestScheduledPoolWithZeroCoreStillRuns(t *testing.T) {
	s := newScheduled(0)
	defer s.Close()
	f, _ := executors.ScheduleCallable(s, func() (int, error) { return 1, nil }, 10*time.Millisecond)
	if v, err := f.Get(); v != 1 || err != nil {
		t.Fatalf("%v %v", v, err)
	}
}

func TestScheduledPoolIsCoreSized(t *testing.T) {
	s := newScheduled(2)
	defer s.Close()
	var g gate
	for range 5 {
		s.Execute(func() { g.wait() })
	}
	time.Sleep(20 * time.Millisecond)
	if s.PoolSize() != 2 {
		t.Fatalf("pool size %d, want the core size 2", s.PoolSize())
	}
	g.release()
}

func TestPurgeRemovesCancelledTasks(t *testing.T) {
	s := newScheduled(1)
	defer stopNow(s) // Close would wait an hour for the delayed tasks, as in Java
	var fs []executors.ScheduledFuture[struct{}]
	for range 5 {
		f, _ := s.Schedule(func() {}, time.Hour)
		fs = append(fs, f)
	}
	fs[1].Cancel(false)
	fs[3].Cancel(true)
	if s.Queue().Len() != 5 {
		t.Fatalf("queued %d", s.Queue().Len())
	}
	s.Purge()
	if s.Queue().Len() != 3 {
		t.Fatalf("after Purge: queued %d, want 3", s.Queue().Len())
	}
}

func TestDelayQueueAsBlockingQueue(t *testing.T) {
	s := newScheduled(1)
	defer stopNow(s) // Close would wait an hour for the delayed tasks, as in Java
	s.Schedule(func() {}, time.Hour)
	q := s.Queue()
	if _, ok := q.Peek(); !ok || q.Len() != 1 {
		t.Fatal("Peek finds nothing")
	}
	if _, ok := q.Poll(); ok {
		t.Fatal("Poll returned a task that is not due")
	}
	if got := q.DrainTo(nil, 10); len(got) != 0 {
		t.Fatal("DrainTo moved a task that is not due")
	}
	n := 0
	for range q.All() {
		n++
	}
	if n != 1 {
		t.Fatalf("All yielded %d", n)
	}
}

func stopNow(s *executors.ScheduledThreadPoolExecutor) {
	s.ShutdownNow()
	s.AwaitTermination(5 * time.Second)
}
