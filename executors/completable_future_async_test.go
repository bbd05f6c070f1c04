package executors_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/loomgo/loom/executors"
	"github.com/loomgo/loom/thread"
)

// loom's side of the new CompletableFuture methods, beyond the TCK: the delay scheduler's thread,
// saturating timeouts, runtime.Goexit and panics in async actions and executors, stale
// completions, and either/both stages racing their sources.

// A timeout fires on the delay scheduler's thread, a daemon platform thread named as Java 21's,
// which then runs the dependents of the timed-out future; a delayed executor submits from it.
func TestTimeoutsFireOnTheDelaySchedulerThread(t *testing.T) {
	check := func(what string, th *thread.Thread) {
		t.Helper()
		if th == nil || th.Name() != "CompletableFutureDelayScheduler" || th.IsVirtual() || !th.IsDaemon() {
			t.Errorf("%s ran on %v, want the daemon platform thread CompletableFutureDelayScheduler", what, th)
		}
	}
	f := executors.NewCompletableFuture[int]().OrTimeout(time.Millisecond)
	g := executors.Handle(f, func(_ int, err error) (*thread.Thread, error) {
		if !errors.Is(err, executors.ErrTimeout) {
			t.Errorf("handle saw %v, want ErrTimeout", err)
		}
		return thread.Current(), nil
	})
	th, _ := g.Get()
	check("orTimeout's dependent", th)

	h := executors.ThenApply(executors.NewCompletableFuture[int]().CompleteOnTimeout(7, time.Millisecond),
		func(v int) (*thread.Thread, error) { return thread.Current(), nil })
	th, _ = h.Get()
	check("completeOnTimeout's dependent", th)

	submittedFrom := make(chan *thread.Thread, 1)
	direct := executors.ExecutorFunc(func(task func()) error { submittedFrom <- thread.Current(); task(); return nil })
	v, err := executors.SupplyAsyncOn(executors.DelayedExecutorOn(direct, time.Millisecond), func() (int, error) { return 1, nil }).Get()
	if v != 1 || err != nil {
		t.Errorf("delayed supplyAsync = %v, %v", v, err)
	}
	check("a delayed executor's submission", <-submittedFrom)

	// the default delayed executor hands the task to a new virtual thread
	k, _ := executors.SupplyAsyncOn(executors.DelayedExecutor(time.Millisecond), func() (*thread.Thread, error) { return thread.Current(), nil }).Get()
	if !k.IsVirtual() {
		t.Errorf("DelayedExecutor's task ran on %v, want a virtual thread", k)
	}
	awaitDelaySchedulerIdle(t)
}

// Timeouts fire in deadline order, whatever the order they were scheduled in.
func TestTimeoutsFireInDeadlineOrder(t *testing.T) {
	var mu sync.Mutex
	var order []int
	fs := make([]executors.Completion, 0, 5)
	for _, i := range []int{5, 1, 4, 2, 3} {
		f := executors.NewCompletableFuture[int]().CompleteOnTimeout(i, time.Duration(i)*20*time.Millisecond)
		fs = append(fs, f.ThenAccept(func(v int) { mu.Lock(); order = append(order, v); mu.Unlock() }))
	}
	executors.AllOf(fs...).Join()
	if diff := cmp.Diff([]int{1, 2, 3, 4, 5}, order); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
	awaitDelaySchedulerIdle(t)
}

// Saturating deadlines: math.MaxInt64 (Java's Long.MAX_VALUE idiom) and any delay too large to
// add to the clock never fire and schedule nothing, so no thread waits for them.
func TestMaxTimeoutsScheduleNothing(t *testing.T) {
	awaitDelaySchedulerIdle(t)
	f := executors.NewCompletableFuture[int]()
	for _, d := range []time.Duration{math.MaxInt64, math.MaxInt64 - 1, math.MaxInt64 / 2 * 2} {
		f.OrTimeout(d)
		f.CompleteOnTimeout(1, d)
		if err := executors.DelayedExecutor(d).Execute(func() { t.Error("a never-delayed task ran") }); err != nil {
			t.Errorf("Execute = %v", err)
		}
		g := executors.SupplyAsyncOn(executors.DelayedExecutor(d), func() (int, error) { return 1, nil })
		checkIncomplete(t, g)
		g.Cancel(false)
	}
	if n := executors.DelayQueueLen(); n != 0 || !executors.DelaySchedulerIdle() {
		t.Errorf("%d tasks scheduled, scheduler idle %v", n, executors.DelaySchedulerIdle())
	}
	if n := f.NumberOfDependents(); n != 0 {
		t.Errorf("%d dependents (Java registers a canceller even for a timeout that never fires)", n)
	}
	checkIncomplete(t, f)
	// a negative or zero delay fires at once
	checkCompletedExceptionally(t, executors.NewCompletableFuture[int]().OrTimeout(-time.Hour), executors.ErrTimeout)
	checkCompletedNormally(t, executors.NewCompletableFuture[int]().CompleteOnTimeout(3, 0), 3)
	awaitDelaySchedulerIdle(t)
}

// A future completed before its timeout withdraws it: the scheduler's queue empties and its thread
// ends, long before the hour.
func TestCompletedFutureWithdrawsItsTimeout(t *testing.T) {
	f := executors.NewCompletableFuture[int]().OrTimeout(time.Hour)
	g := executors.NewCompletableFuture[int]().CompleteOnTimeout(1, time.Hour)
	if executors.DelayQueueLen() < 2 || f.NumberOfDependents() != 1 {
		t.Errorf("queue %d, dependents %d", executors.DelayQueueLen(), f.NumberOfDependents())
	}
	f.Complete(1)
	g.Cancel(false)
	if n := executors.DelayQueueLen(); n != 0 {
		t.Errorf("%d tasks left", n)
	}
	awaitDelaySchedulerIdle(t)
	checkCompletedNormally(t, f, 1)
}

// An action run by the delay scheduler that interrupts its thread does not make it spin: it
// parks TIMED_WAITING for the next deadline.
func TestInterruptLeftOnTheDelaySchedulerThread(t *testing.T) {
	f := executors.NewCompletableFuture[int]().OrTimeout(time.Millisecond)
	f.WhenComplete(func(int, error) { thread.Current().Interrupt() })
	if _, err := f.Get(); !errors.Is(err, executors.ErrTimeout) {
		t.Fatalf("Get = %v", err)
	}
	g := executors.NewCompletableFuture[int]().OrTimeout(time.Hour)
	deadline := time.Now().Add(tckLongDelay)
	for {
		th := executors.DelaySchedulerThread()
		if th != nil && th.State() == thread.TimedWaiting && !th.IsInterrupted() {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the delay scheduler is %v, want TIMED_WAITING with its status clear", th)
		}
		time.Sleep(time.Millisecond)
	}
	g.Cancel(false)
	awaitDelaySchedulerIdle(t)
}

// A dependent of a timed-out future that calls runtime.Goexit fails its stage with ErrGoexit and
// ends the delay scheduler's thread; another thread takes over, and the other timeouts fire.
func TestGoexitOnTheDelaySchedulerThread(t *testing.T) {
	f := executors.NewCompletableFuture[int]().OrTimeout(time.Millisecond)
	later := executors.NewCompletableFuture[int]().CompleteOnTimeout(2, 50*time.Millisecond)
	exiting := f.WhenComplete(func(int, error) { runtimeGoexit() })
	sibling := f.Exceptionally(func(error) (int, error) { return 1, nil })
	within(t, tckLongDelay, "stages after a Goexit on the delay scheduler", func() {
		if _, err := exiting.Get(); !errors.Is(err, executors.ErrTimeout) || !errors.Is(exiting.Suppressed(), executors.ErrGoexit) {
			t.Errorf("exiting stage: %v, suppressed %v", err, exiting.Suppressed())
		}
		if v, err := sibling.Get(); v != 1 || err != nil {
			t.Errorf("sibling = %v, %v", v, err)
		}
		if v, err := later.Get(); v != 2 || err != nil {
			t.Errorf("the later timeout = %v, %v", v, err)
		}
		if v, err := executors.NewCompletableFuture[int]().CompleteOnTimeout(3, time.Millisecond).Get(); v != 3 || err != nil {
			t.Errorf("a new timeout = %v, %v", v, err)
		}
	})
	awaitDelaySchedulerIdle(t)
}

// A delayed submission whose executor refuses it fails the stage instead of leaving it
// incomplete for ever; a bare Execute on such an executor drops the task, as Java's does.
func TestDelayedExecutorRejectionFailsTheStage(t *testing.T) {
	e := newCountingRejectingExecutor()
	d := executors.DelayedExecutorOn(e, time.Millisecond)
	f := executors.SupplyAsyncOn(d, func() (int, error) { t.Error("task ran"); return 1, nil })
	checkCompletedExceptionally(t, f, e.ex)
	g := executors.ThenApplyAsyncOn(executors.CompletedFuture(1), d, func(v int) (int, error) { return v, nil })
	checkCompletedExceptionally(t, g, e.ex)
	if err := d.Execute(func() { t.Error("task ran") }); err != nil {
		t.Errorf("Execute = %v", err)
	}
	panicking := executors.DelayedExecutorOn(executors.ExecutorFunc(func(func()) error { panic("executor") }), time.Millisecond)
	h := executors.SupplyAsyncOn(panicking, func() (int, error) { return 1, nil })
	var pe *executors.PanicError
	if _, err := h.Get(); !errors.As(err, &pe) || pe.Value != "executor" {
		t.Errorf("a panicking delayed executor: %v", err)
	}
	awaitDelaySchedulerIdle(t)
}

// An executor that refuses a stage's action with a panic fails the stage with it; one that calls
// runtime.Goexit fails it with ErrGoexit (the caller's goroutine exits, as it must).
func TestExecutorPanicOrGoexitFailsTheStage(t *testing.T) {
	panicking := executors.ExecutorFunc(func(func()) error { panic("refused") })
	var pe *executors.PanicError
	f := executors.ThenApplyAsyncOn(executors.CompletedFuture(1), panicking, func(v int) (int, error) { return v, nil })
	if err := f.ExceptionNow(); !errors.As(err, &pe) || pe.Value != "refused" {
		t.Errorf("panicking executor: %v", err)
	}
	exiting := executors.ExecutorFunc(func(func()) error { runtimeGoexit(); return nil })
	src := executors.NewCompletableFuture[int]()
	g := executors.ThenApplyAsyncOn(src, exiting, func(v int) (int, error) { return v, nil })
	after := g.Exceptionally(func(error) (int, error) { return -1, nil })
	done := make(chan struct{})
	go func() { defer close(done); src.Complete(1) }()
	<-done
	if err := g.ExceptionNow(); !errors.Is(err, executors.ErrGoexit) {
		t.Errorf("Goexit in Execute: %v", err)
	}
	if v, _ := after.Join(); v != -1 {
		t.Errorf("the dependent of the failed stage = %d", v)
	}
}

// An async action that calls runtime.Goexit fails its own stage with ErrGoexit on the
// executor's thread, and the dependents of that stage run.
func TestGoexitInAsyncActionFailsItsStage(t *testing.T) {
	for _, onExecutor := range []bool{false, true} {
		ex := executors.Executor(executors.NewVirtualThreadPerTaskExecutor())
		if !onExecutor {
			ex = executors.NewCompletableFuture[int]().DefaultExecutor()
		}
		src := executors.NewCompletableFuture[int]()
		other := executors.NewCompletableFuture[int]()
		stages := map[string]*executors.CompletableFuture[int]{
			"thenApply":     executors.ThenApplyAsyncOn(src, ex, func(int) (int, error) { runtimeGoexit(); return 0, nil }),
			"handle":        executors.HandleAsyncOn(src, ex, func(int, error) (int, error) { runtimeGoexit(); return 0, nil }),
			"thenCompose":   executors.ThenComposeAsyncOn(src, ex, func(int) *executors.CompletableFuture[int] { runtimeGoexit(); return nil }),
			"thenCombine":   executors.ThenCombineAsyncOn(src, src, ex, func(int, int) (int, error) { runtimeGoexit(); return 0, nil }),
			"applyToEither": executors.ApplyToEitherAsyncOn(src, other, ex, func(int) (int, error) { runtimeGoexit(); return 0, nil }),
			"exceptionally": executors.FailedFuture[int](newCFException()).ExceptionallyAsyncOn(ex, func(error) (int, error) { runtimeGoexit(); return 0, nil }),
			"supplyAsync":   executors.SupplyAsyncOn(ex, func() (int, error) { runtimeGoexit(); return 0, nil }),
		}
		afters := map[string]*executors.CompletableFuture[int]{}
		for name, s := range stages {
			afters[name] = s.Exceptionally(func(err error) (int, error) {
				if !errors.Is(err, executors.ErrGoexit) {
					return 0, err
				}
				return -1, nil
			})
		}
		src.Complete(1)
		within(t, tckLongDelay, "async stages after a Goexit", func() {
			for name, s := range stages {
				if _, err := s.Get(); !errors.Is(err, executors.ErrGoexit) {
					t.Errorf("%s: %v, want ErrGoexit", name, err)
				}
				if v, err := afters[name].Get(); v != -1 || err != nil {
					t.Errorf("%s's dependent = %v, %v", name, v, err)
				}
			}
		})
		if es, ok := ex.(executors.ExecutorService); ok {
			es.Close()
		}
	}
}

// Stale completions are swept off a stack that keeps growing while its future stays incomplete;
// the live ones stay, in their order, and each runs once.
func TestStaleCompletionsAreSweptLiveOnesKept(t *testing.T) {
	f := executors.NewCompletableFuture[int]()
	var order []int
	for i := range 10_000 {
		if i%100 == 0 {
			f.ThenRun(func() { order = append(order, i) })
			continue
		}
		f.ThenRun(func() { t.Errorf("cancelled dependent %d ran", i) }).Cancel(false)
	}
	if d, n := executors.StackDepth(f), f.NumberOfDependents(); n != 100 || d > 2*100+64 {
		t.Errorf("depth %d, dependents %d; want 100 live, at most %d in all", d, n, 2*100+64)
	}
	f.Complete(1)
	want := make([]int, 0, 100)
	for i := 9_900; i >= 0; i -= 100 {
		want = append(want, i)
	}
	if diff := cmp.Diff(want, order); diff != "" {
		t.Errorf("live dependents ran (-want +got):\n%s", diff)
	}
}

// Either stages whose sources complete concurrently with their making, on many seeds: the action
// runs exactly once and sees one source's value; both stages run once with both values.
func TestStressEitherAndBothRaceTheirSources(t *testing.T) {
	exec := executors.NewVirtualThreadPerTaskExecutor()
	defer exec.Close()
	seeds := 300
	if testing.Short() {
		seeds = 50
	}
	for seed := range uint64(seeds) {
		r := rand.New(rand.NewPCG(seed, 7))
		f, g := executors.NewCompletableFuture[int](), executors.NewCompletableFuture[int]()
		n := 1 + r.IntN(20)
		either := make([]*executors.CompletableFuture[int], n)
		both := make([]*executors.CompletableFuture[int], n)
		eitherRuns := make([]atomic.Int32, n)
		bothRuns := make([]atomic.Int32, n)
		modes := make([]int, n)
		for i := range modes {
			modes[i] = r.IntN(3)
		}
		var wg sync.WaitGroup
		start := make(chan struct{})
		wg.Add(3)
		go func() {
			defer wg.Done()
			<-start
			for i := range n {
				act := func(v int) (int, error) { eitherRuns[i].Add(1); return v, nil }
				comb := func(x, y int) (int, error) { bothRuns[i].Add(1); return x + y, nil }
				switch modes[i] {
				case 0:
					either[i] = executors.ApplyToEither(f, g, act)
					both[i] = executors.ThenCombine(f, g, comb)
				case 1:
					either[i] = executors.ApplyToEitherAsync(g, f, act)
					both[i] = executors.ThenCombineAsync(g, f, comb)
				default:
					either[i] = executors.ApplyToEitherAsyncOn(f, g, exec, act)
					both[i] = executors.ThenCombineAsyncOn(f, g, exec, comb)
				}
			}
		}()
		go func() { defer wg.Done(); <-start; f.Complete(1) }()
		go func() { defer wg.Done(); <-start; g.Complete(2) }()
		close(start)
		wg.Wait()
		for i := range n {
			v, err := either[i].GetTimeout(tckLongDelay)
			if err != nil || v != 1 && v != 2 {
				t.Fatalf("seed %d, either %d (mode %d) = %v, %v", seed, i, modes[i], v, err)
			}
			if s, err := both[i].GetTimeout(tckLongDelay); s != 3 || err != nil {
				t.Fatalf("seed %d, both %d = %v, %v", seed, i, s, err)
			}
			if eitherRuns[i].Load() != 1 || bothRuns[i].Load() != 1 {
				t.Fatalf("seed %d, stage %d: either ran %d times, both %d", seed, i, eitherRuns[i].Load(), bothRuns[i].Load())
			}
		}
	}
}

// Either stages registered on two sources that complete at the same moment, from two threads:
// both sources fire each stage, and the action, slow enough for the two to overlap, runs once.
func TestStressEitherActionRunsOnceWhenBothSourcesFire(t *testing.T) {
	for seed := range uint64(100) {
		r := rand.New(rand.NewPCG(seed, 13))
		f, g := executors.NewCompletableFuture[int](), executors.NewCompletableFuture[int]()
		n := 1 + r.IntN(16)
		runs := make([]atomic.Int32, n)
		stages := make([]*executors.CompletableFuture[int], n)
		for i := range n {
			act := func(v int) (int, error) {
				runs[i].Add(1)
				for range 3 {
					runtime.Gosched()
				}
				return v, nil
			}
			if r.IntN(2) == 0 {
				stages[i] = executors.ApplyToEither(f, g, act)
			} else {
				stages[i] = executors.ApplyToEither(g, f, act)
			}
		}
		var wg sync.WaitGroup
		start := make(chan struct{})
		for _, src := range []*executors.CompletableFuture[int]{f, g} {
			wg.Add(1)
			go func() { defer wg.Done(); <-start; src.Complete(1) }()
		}
		close(start)
		wg.Wait()
		for i, s := range stages {
			if v, err := s.GetTimeout(tckLongDelay); v != 1 || err != nil || runs[i].Load() != 1 {
				t.Fatalf("seed %d, stage %d = %v, %v; its action ran %d times", seed, i, v, err, runs[i].Load())
			}
		}
	}
}

// Cancelling dependents while their sources complete: an action runs at most once; a dependent
// that was not cancelled ran it; a cancelled one may have (the cancel came while it ran, as in
// Java, where the action's result is then dropped) and stays cancelled.
func TestStressCancelRacesCompletion(t *testing.T) {
	for seed := range uint64(200) {
		r := rand.New(rand.NewPCG(seed, 11))
		f := executors.NewCompletableFuture[int]()
		n := 1 + r.IntN(30)
		runs := make([]atomic.Int32, n)
		deps := make([]*executors.CompletableFuture[struct{}], n)
		for i := range n {
			if r.IntN(2) == 0 {
				deps[i] = f.ThenRun(func() { runs[i].Add(1) })
			} else {
				deps[i] = f.RunAfterEither(executors.NewCompletableFuture[string](), func() { runs[i].Add(1) })
			}
		}
		cancelled := make([]bool, n)
		var wg sync.WaitGroup
		wg.Add(2)
		go func() {
			defer wg.Done()
			for i := range n {
				cancelled[i] = deps[i].Cancel(false)
			}
		}()
		go func() { defer wg.Done(); f.Complete(1) }()
		wg.Wait()
		for i := range n {
			ran := runs[i].Load()
			if !cancelled[i] && ran != 1 || ran > 1 || cancelled[i] != deps[i].IsCancelled() {
				t.Fatalf("seed %d, dependent %d: cancelled %v (now %v), ran %d times", seed, i, cancelled[i], deps[i].IsCancelled(), ran)
			}
		}
	}
}

// The package functions chain on a minimal view as on a future, and the stages they return are
// ordinary futures; the view itself cannot be completed through them.
func TestFunctionsChainOnAView(t *testing.T) {
	f := executors.NewCompletableFuture[int]()
	view := f.MinimalCompletionStage()
	g := executors.ThenApply(view, func(v int) (string, error) { return fmt.Sprint(v * 2), nil })
	h := executors.ThenCombine(view, executors.CompletedStage(3), func(x, y int) (int, error) { return x + y, nil })
	e := executors.ApplyToEither(view, executors.NewCompletableFuture[int]().MinimalCompletionStage(), func(v int) (int, error) { return -v, nil })
	all := executors.AllOf(view, g, h)
	f.Complete(21)
	checkCompletedNormally(t, g, "42")
	checkCompletedNormally(t, h, 24)
	checkCompletedNormally(t, e, -21)
	checkCompletedNormally(t, all, struct{}{})
	if s := fmt.Sprint(view); s != "CompletableFuture[Completed normally]" {
		t.Errorf("view prints %q", s)
	}
}

// A dependent completed by hand before its source completes never runs its action (Java's
// tryFire checks the dependent first), in every mode.
func TestActionOfADependentCompletedByHandNeverRuns(t *testing.T) {
	runTCK(t, func(c *tck) {
		for _, m := range executionModes {
			f, g := executors.NewCompletableFuture[*item](), executors.NewCompletableFuture[*item]()
			as := c.newActions(m, 6)
			stages := []interface{ Cancel(bool) bool }{
				m.thenApply(c, f, as[0].incFunction()),
				m.thenRun(c, f, as[1].noop()),
				m.handle(c, f, func(*item, error) (*item, error) { as[2].invoked(); return nil, nil }),
				m.applyToEither(c, f, g, as[3].incFunction()),
				m.thenCombine(c, f, f, as[4].subtractFunction()),
				m.whenComplete(c, f, func(*item, error) { as[5].invoked() }),
			}
			for _, s := range stages {
				s.Cancel(false)
			}
			f.Complete(one)
			time.Sleep(time.Millisecond) // an async action, wrongly dispatched, would have started
			for _, a := range as {
				a.assertNotInvoked()
			}
		}
	})
}

// The order of the dependents is Java's for async stages too: each is handed to its executor in
// the order the stack gives (last registered first).
func TestAsyncDependentsAreDispatchedInStackOrder(t *testing.T) {
	var order []int
	rec := executors.ExecutorFunc(func(task func()) error { task(); return nil })
	f := executors.NewCompletableFuture[int]()
	for i := range 5 {
		f.ThenRunAsyncOn(rec, func() { order = append(order, i) })
	}
	f.Complete(0)
	if !slices.Equal(order, []int{4, 3, 2, 1, 0}) {
		t.Errorf("order %v", order)
	}
}
