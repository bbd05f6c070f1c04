package executors

import (
	"container/heap"
	"math"
	"sync"
	"time"

	"github.com/loomgo/loom/internal/rt"
	"github.com/loomgo/loom/internal/usercode"
	"github.com/loomgo/loom/thread"
)

// The delay scheduler: Java's CompletableFuture.Delayer, the one thread that triggers the
// timeouts of OrTimeout and CompleteOnTimeout and the submissions of DelayedExecutor, "for
// triggering and cancelling actions, not for running them".
//
// The thread is a daemon platform thread named "CompletableFutureDelayScheduler", as in Java 21
// (JDK 25 moved the timeouts to the common pool's "ForkJoinPool.commonPool-delayScheduler",
// also a daemon platform thread); a platform thread, so that a timeout fires even while every
// carrier of the virtual-thread scheduler is busy. The dependents of a timed-out future run on
// it, as in Java. It parks until the earliest deadline (a min-heap of them, as Java's
// ScheduledThreadPoolExecutor with removeOnCancel), is unparked when an earlier one arrives or
// the earliest is withdrawn, and ends once it has had nothing to do for delayKeepAlive: an idle
// program holds no goroutine for it, and a steady trickle of timeouts does not start a thread
// each. If no platform thread can be made (thread.ErrThreadLimit), a virtual thread takes its
// place.
//
// Deadlines saturate (rt.Deadline): a delay too large to add (math.MaxInt64, Java's
// Long.MAX_VALUE idiom for "never") schedules nothing at all, so it holds no thread.

// delaySchedulerName is the name of the thread that fires the timeouts of OrTimeout and
// CompleteOnTimeout and makes the submissions of DelayedExecutor (Java 21's name).
const delaySchedulerName = "CompletableFutureDelayScheduler"

// delayKeepAlive is how long the delay scheduler's thread outlives its last task.
const delayKeepAlive = 100 * time.Millisecond

var delayer delayScheduler

type delayScheduler struct {
	mu    sync.Mutex
	queue delayHeap
	seq   int64
	th    *thread.Thread // the scheduler thread; nil when there is none
}

// delayTask is one scheduled action.
type delayTask struct {
	at  int64 // rt.Nanotime deadline
	seq int64
	idx int // position in the heap, -1 once out of it
	fn  func()
}

// schedule queues run to be called on the scheduler thread at deadline (rt.Nanotime), starting
// the thread if there is none.
func (s *delayScheduler) schedule(deadline int64, run func()) *delayTask {
	t := &delayTask{at: deadline, fn: run}
	s.mu.Lock()
	defer s.mu.Unlock()
	t.seq = s.seq
	s.seq++
	heap.Push(&s.queue, t)
	switch {
	case s.th == nil:
		s.start()
	case t.idx == 0: // a new earliest deadline: the thread must wake for it
		thread.Unpark(s.th)
	}
	return t
}

// cancel withdraws t if it has not run. Withdrawing the earliest task wakes the thread, so that
// it sleeps for the next deadline, or idles out, instead of waking for a task that is gone.
func (s *delayScheduler) cancel(t *delayTask) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if t.idx < 0 {
		return
	}
	first := t.idx == 0
	heap.Remove(&s.queue, t.idx)
	if first && s.th != nil {
		thread.Unpark(s.th)
	}
}

// start starts the scheduler thread; s.mu is held (the new thread waits for it before it looks
// at the queue, so an Unpark before it first parks is never needed).
func (s *delayScheduler) start() {
	t := thread.OfPlatform().Name(delaySchedulerName).Daemon(true).InheritInheritableThreadLocals(false).Unstarted(s.loop)
	if t.TryStart() != nil {
		t = thread.OfVirtual().Name(delaySchedulerName).InheritInheritableThreadLocals(false).Unstarted(s.loop)
		t.Start()
	}
	s.th = t
}

func (s *delayScheduler) loop() {
	var idleUntil int64 // when the thread ends if nothing comes; 0 while there are tasks
	for {
		// An action run here may have interrupted this thread; a status left set would make
		// every park return at once.
		thread.Interrupted()
		s.mu.Lock()
		now := rt.Nanotime()
		var wait int64
		if len(s.queue) > 0 {
			idleUntil = 0
			if t := s.queue[0]; t.when() <= now {
				heap.Pop(&s.queue)
				s.mu.Unlock()
				s.runTask(t)
				continue
			}
			wait = s.queue[0].when() - now
		} else {
			if idleUntil == 0 {
				idleUntil = now + int64(delayKeepAlive)
			}
			if now >= idleUntil {
				s.th = nil
				s.mu.Unlock()
				return
			}
			wait = idleUntil - now
		}
		s.mu.Unlock()
		thread.ParkNanos(time.Duration(wait))
	}
}

// runTask runs one task. Tasks complete futures and so run their dependents, which are user code:
// those catch their own panics (they fail their stages), but a runtime.Goexit in one ends this
// thread after its stage has failed, and another thread then takes over the queue.
func (s *delayScheduler) runTask(t delayed) {
	usercode.Call(func() (struct{}, error) { t.run(); return struct{}{}, nil }, func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.th = nil
		if len(s.queue) > 0 {
			s.start()
		}
	})
}

// delayTask is a delayed of the scheduled executors' delayHeap, which the delay scheduler
// shares; it is never periodic, and cancel withdraws it.
func (t *delayTask) when() int64    { return t.at }
func (t *delayTask) seqNo() int64   { return t.seq }
func (t *delayTask) index() *int    { return &t.idx }
func (t *delayTask) run()           { t.fn() }
func (t *delayTask) periodic() bool { return false }
func (t *delayTask) done() bool     { return t.idx < 0 }
func (t *delayTask) cancel(bool) bool {
	delayer.cancel(t)
	return true
}

// afterDelay arranges for fire to run on the delay scheduler's thread d from now, unless c
// completes first (Java's Delayer.delay with a Canceller on c, which counts as one of c's
// dependents). A delay that never passes schedules nothing.
func (c *CompletableFuture[T]) afterDelay(d time.Duration, fire func()) {
	if c.IsDone() {
		return
	}
	deadline := rt.Deadline(max(d, 0))
	if deadline == math.MaxInt64 {
		return
	}
	t := delayer.schedule(deadline, fire)
	c.push(&completion{fire: func() *completion { delayer.cancel(t); return nil }})
}

// OrTimeout fails c with [ErrTimeout] if it is not complete within d, and returns c. The timeout
// fires on the delay scheduler's thread (named "CompletableFutureDelayScheduler"), which then runs c's
// dependents; if c completes first, the timeout is withdrawn. d <= 0 fails c at once (on that
// thread); a d that saturates ([math.MaxInt64]) never fires. Get then returns an *ExecutionError
// whose cause is [ErrTimeout] (Java's ExecutionException caused by the TimeoutException). It
// ports CompletableFuture.orTimeout (Java 9).
func (c *CompletableFuture[T]) OrTimeout(d time.Duration) *CompletableFuture[T] {
	c.afterDelay(d, func() {
		if !c.IsDone() {
			c.CompleteExceptionally(ErrTimeout)
		}
	})
	return c
}

// CompleteOnTimeout completes c with v if it is not complete within d, and returns c; see
// OrTimeout. It ports CompletableFuture.completeOnTimeout (Java 9).
func (c *CompletableFuture[T]) CompleteOnTimeout(v T, d time.Duration) *CompletableFuture[T] {
	c.afterDelay(d, func() { c.Complete(v) })
	return c
}

// DelayedExecutor returns an executor that hands each task to the default executor (a new
// virtual thread per task) delay after Execute is called. See [DelayedExecutorOn]. It ports
// CompletableFuture.delayedExecutor(delay, unit) (Java 9).
func DelayedExecutor(delay time.Duration) Executor {
	return &delayedExecutor{delay: delay, ex: defaultAsync}
}

// DelayedExecutorOn returns an executor that hands each task to ex delay after Execute is called
// (at once if delay <= 0; never if it saturates, [math.MaxInt64]). The hand-off is made by the
// delay scheduler's thread; Execute itself never fails. A task ex refuses then is dropped, as in
// Java; but a stage run through the delayed executor ([SupplyAsyncOn], [ThenApplyAsyncOn], ...)
// fails with ex's error instead of waiting forever, and a stage completed before its delay has
// passed (cancelled, say) withdraws its hand-off. A nil ex panics with an error wrapping
// [thread.ErrNilArgument]. It ports CompletableFuture.delayedExecutor(delay, unit, executor).
func DelayedExecutorOn(ex Executor, delay time.Duration) Executor {
	return &delayedExecutor{delay: delay, ex: screen(ex)}
}

type delayedExecutor struct {
	delay time.Duration
	ex    Executor
}

// Execute schedules task to be handed to the base executor once the delay has passed. It never
// returns an error. A nil task panics with an error wrapping thread.ErrNilArgument.
func (e *delayedExecutor) Execute(task func()) error {
	if task == nil {
		panic(nilArg("task"))
	}
	e.schedule(task, nil)
	return nil
}

// schedule arranges for task to be handed to e.ex once e.delay has passed; if e.ex refuses it
// then, onReject (if not nil) gets the error. It returns the scheduled hand-off, or nil if the
// delay never passes.
func (e *delayedExecutor) schedule(task func(), onReject func(error)) *delayTask {
	deadline := rt.Deadline(max(e.delay, 0))
	if deadline == math.MaxInt64 {
		return nil
	}
	reject := func(err error) {
		if onReject != nil {
			onReject(err)
		}
	}
	return delayer.schedule(deadline, func() {
		if err := execute(e.ex, task, func() { reject(ErrGoexit) }); err != nil {
			reject(err)
		}
	})
}
