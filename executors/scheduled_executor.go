package executors

import (
	"container/heap"
	"fmt"
	"iter"
	"math"
	"sync"
	"sync/atomic"
	"time"

	"github.com/loomgo/loom/queue"
	"github.com/loomgo/loom/thread"
)

// ScheduledExecutorService is an [ExecutorService] that can run tasks after a delay or
// periodically, as java.util.concurrent.ScheduledExecutorService. [ScheduleCallable] is the
// package function for delayed tasks with a result.
type ScheduledExecutorService interface {
	ExecutorService
	// Schedule runs task once after delay (negative delays are zero). The future completes when
	// the task has run. It returns an error wrapping [ErrRejected] if the executor is shut down.
	Schedule(task func(), delay time.Duration) (ScheduledFuture[struct{}], error)
	// ScheduleAtFixedRate runs task after initialDelay, then every period measured from the
	// scheduled start of each run (runs never overlap: a late run starts the next at once). It
	// repeats until the future is cancelled, the executor shuts down, or a run fails (panics):
	// the future then fails with that cause. It never completes normally. period <= 0 panics
	// with an error wrapping [thread.ErrIllegalArgument].
	ScheduleAtFixedRate(task func(), initialDelay, period time.Duration) (ScheduledFuture[struct{}], error)
	// ScheduleWithFixedDelay is ScheduleAtFixedRate with delay measured from the end of each run
	// to the start of the next. delay <= 0 panics with an error wrapping
	// [thread.ErrIllegalArgument].
	ScheduleWithFixedDelay(task func(), initialDelay, delay time.Duration) (ScheduledFuture[struct{}], error)
}

// ScheduledFuture is the Future of a delayed or periodic task, as
// java.util.concurrent.ScheduledFuture.
type ScheduledFuture[T any] interface {
	Future[T]
	// Delay returns the time left until the task's next run (negative once it is due).
	Delay() time.Duration
}

// epoch is the origin of the monotonic times of scheduled tasks.
var epoch = time.Now()

func nanoNow() int64 { return int64(time.Since(epoch)) }

// triggerTime is the time a task delayed by delay is due: now plus delay, negative delays being
// zero, saturated at math.MaxInt64 ("never": Java's Long.MAX_VALUE idiom).
func triggerTime(delay time.Duration) int64 {
	return addSat(nanoNow(), int64(max(delay, 0)))
}

// addSat returns t+d for d >= 0, or math.MaxInt64 where the sum overflows.
func addSat(t, d int64) int64 {
	if t > math.MaxInt64-d {
		return math.MaxInt64
	}
	return t + d
}

// delayed is what the delay queue holds: a scheduled task of any result type.
type delayed interface {
	when() int64
	seqNo() int64
	index() *int
	run()
	periodic() bool
	cancel(mayInterrupt bool) bool
	done() bool
}

var scheduleSeq atomic.Int64

// scheduledTask is a FutureTask with a time, as Java's ScheduledFutureTask. period > 0 is a
// fixed rate, period < 0 a fixed delay of -period, 0 a one-shot task.
type scheduledTask[T any] struct {
	*FutureTask[T]
	at     atomic.Int64
	period time.Duration
	seq    int64
	idx    int // position in the delay queue's heap, -1 when not queued (guarded by its mutex)
	pool   *ScheduledThreadPoolExecutor
}

func (s *scheduledTask[T]) when() int64    { return s.at.Load() }
func (s *scheduledTask[T]) seqNo() int64   { return s.seq }
func (s *scheduledTask[T]) index() *int    { return &s.idx }
func (s *scheduledTask[T]) periodic() bool { return s.period != 0 }
func (s *scheduledTask[T]) done() bool     { return s.IsDone() }
func (s *scheduledTask[T]) cancel(b bool) bool {
	return s.Cancel(b)
}

// Delay returns the time left until the next run.
func (s *scheduledTask[T]) Delay() time.Duration { return time.Duration(s.at.Load() - nanoNow()) }

// Cancel cancels the task; a periodic task does not run again. With the pool's
// RemoveOnCancelPolicy the task also leaves the queue at once.
func (s *scheduledTask[T]) Cancel(mayInterruptIfRunning bool) bool {
	ok := s.FutureTask.Cancel(mayInterruptIfRunning)
	if ok && s.pool != nil && s.pool.removeOnCancel.Load() {
		s.pool.dq.remove(s)
	}
	return ok
}

func (s *scheduledTask[T]) run() {
	p := s.pool
	if !p.canRunInCurrentRunState(s) {
		s.Cancel(false)
		return
	}
	if s.period == 0 {
		s.FutureTask.Run()
		return
	}
	if s.FutureTask.runAndReset() {
		if s.period > 0 {
			s.at.Store(addSat(s.at.Load(), int64(s.period))) // only the runner writes at
		} else {
			s.at.Store(triggerTime(-s.period))
		}
		p.reExecutePeriodic(s)
	}
}

// ScheduledThreadPoolExecutor is a [ThreadPoolExecutor] of a fixed number of core threads whose
// queue orders tasks by the time they are due, as java.util.concurrent.ScheduledThreadPoolExecutor.
// Make one with [NewScheduledThreadPool]. After Shutdown, delayed one-shot tasks still run and
// periodic ones are cancelled (see SetExecuteExistingDelayedTasksAfterShutdownPolicy and
// SetContinueExistingPeriodicTasksAfterShutdownPolicy). Execute and Submit schedule with no
// delay.
type ScheduledThreadPoolExecutor struct {
	*ThreadPoolExecutor
	dq *delayQueue

	continuePeriodic atomic.Bool // continueExistingPeriodicTasksAfterShutdown, default false
	stopDelayed      atomic.Bool // !executeExistingDelayedTasksAfterShutdown, default false
	removeOnCancel   atomic.Bool
}

// NewScheduledThreadPool returns a scheduled executor with core platform threads (started as
// tasks arrive). core < 0 panics with an error wrapping [thread.ErrIllegalArgument]. It ports
// Executors.newScheduledThreadPool.
func NewScheduledThreadPool(core int) *ScheduledThreadPoolExecutor {
	return NewScheduledThreadPoolWithFactory(core, DefaultThreadFactory())
}

// NewScheduledThreadPoolWithFactory is [NewScheduledThreadPool] with threads made by f; opts may
// also set a rejection handler.
func NewScheduledThreadPoolWithFactory(core int, f thread.Factory, opts ...PoolOption) *ScheduledThreadPoolExecutor {
	if core < 0 {
		panic(illegalArg("core pool size %d", core))
	}
	dq := &delayQueue{}
	opts = append([]PoolOption{WithThreadFactory(f)}, opts...)
	// Java: max = Integer.MAX_VALUE (unused: the queue is unbounded), keep-alive 10 ms (for
	// threads beyond the core, and core threads when core is 0).
	tpe := NewThreadPoolExecutor(core, math.MaxInt32, 10*time.Millisecond, dq, opts...)
	tpe.name = "ScheduledThreadPoolExecutor"
	s := &ScheduledThreadPoolExecutor{ThreadPoolExecutor: tpe, dq: dq}
	tpe.onShutdown = s.onShutdown
	return s
}

// SetContinueExistingPeriodicTasksAfterShutdownPolicy says whether periodic tasks go on after
// Shutdown (default false: they are cancelled).
func (s *ScheduledThreadPoolExecutor) SetContinueExistingPeriodicTasksAfterShutdownPolicy(on bool) {
	s.continuePeriodic.Store(on)
	if !on && s.IsShutdown() {
		s.mu.Lock()
		s.onShutdown()
		s.mu.Unlock()
		s.tryTerminate()
	}
}

// SetExecuteExistingDelayedTasksAfterShutdownPolicy says whether delayed one-shot tasks still
// run after Shutdown (default true). With false, Shutdown cancels the one-shot tasks that are not
// due yet; those already due (a task submitted with no delay just before) still run, as in Java.
func (s *ScheduledThreadPoolExecutor) SetExecuteExistingDelayedTasksAfterShutdownPolicy(on bool) {
	s.stopDelayed.Store(!on)
	if !on && s.IsShutdown() {
		s.mu.Lock()
		s.onShutdown()
		s.mu.Unlock()
		s.tryTerminate()
	}
}

// SetRemoveOnCancelPolicy says whether a cancelled task leaves the queue at once (default false:
// it stays until it is due, then is dropped).
func (s *ScheduledThreadPoolExecutor) SetRemoveOnCancelPolicy(on bool) { s.removeOnCancel.Store(on) }

// Purge removes the cancelled tasks from the queue at once (they would otherwise stay until
// due). It ports ThreadPoolExecutor.purge.
func (s *ScheduledThreadPoolExecutor) Purge() {
	for _, t := range s.dq.snapshot() {
		if t.done() {
			s.dq.remove(t)
		}
	}
	s.tryTerminate()
}

func (s *ScheduledThreadPoolExecutor) canRunInCurrentRunState(t delayed) bool {
	rs := s.runState()
	if rs == rsRunning {
		return true
	}
	if rs >= rsStop {
		return false
	}
	if t.periodic() {
		return s.continuePeriodic.Load()
	}
	return !s.stopDelayed.Load() || t.when() <= nanoNow()
}

// onShutdown cancels the queued tasks the shutdown policies say must not run; called under mu.
func (s *ScheduledThreadPoolExecutor) onShutdown() {
	keepDelayed := !s.stopDelayed.Load()
	keepPeriodic := s.continuePeriodic.Load()
	now := nanoNow()
	for _, t := range s.dq.snapshot() {
		// As Java's onShutdown: a one-shot task already due runs even when delayed tasks do not
		// (its delay is not > 0), so a task submitted just before Shutdown is not dropped.
		drop := t.done()
		if t.periodic() {
			drop = drop || !keepPeriodic
		} else {
			drop = drop || (!keepDelayed && t.when() > now)
		}
		if drop && s.dq.remove(t) {
			t.cancel(false)
		}
	}
}

// delayedExecute queues t and makes sure a worker will take it.
func (s *ScheduledThreadPoolExecutor) delayedExecute(t delayed) error {
	s.mu.Lock()
	if s.runState() != rsRunning {
		s.mu.Unlock()
		return s.reject(t.run)
	}
	s.dq.push(t)
	if s.wc >= s.core && !(s.core == 0 && s.wc == 0) {
		s.mu.Unlock()
		return nil
	}
	s.wc++
	s.mu.Unlock()
	if _, err := s.startWorker(nil); err != nil {
		s.mu.Lock()
		none := s.wc == 0
		s.mu.Unlock()
		if none && s.dq.remove(t) {
			return s.rejectedBy(err)
		}
	}
	return nil
}

// reExecutePeriodic queues a periodic task again for its next run, unless the pool's state no
// longer allows it.
func (s *ScheduledThreadPoolExecutor) reExecutePeriodic(t delayed) {
	s.mu.Lock()
	if !s.canRunInCurrentRunState(t) {
		s.mu.Unlock()
		t.cancel(false)
		return
	}
	s.dq.push(t)
	need := s.wc < s.core || s.wc == 0
	if need {
		s.wc++
	}
	s.mu.Unlock()
	if need {
		s.startWorker(nil)
	}
}

func newScheduled[T any](s *ScheduledThreadPoolExecutor, ft *FutureTask[T], at int64, period time.Duration) *scheduledTask[T] {
	st := &scheduledTask[T]{FutureTask: ft, period: period, seq: scheduleSeq.Add(1), idx: -1, pool: s}
	st.at.Store(at)
	return st
}

// Execute runs task as soon as a worker is free (Schedule with no delay). A panic in task is
// recorded in the scheduled task's future, which Execute does not return, and does not end the
// worker; use Schedule or Submit to see it.
func (s *ScheduledThreadPoolExecutor) Execute(task func()) error {
	_, err := s.Schedule(task, 0)
	return err
}

// Schedule runs task once after delay; see [ScheduledExecutorService.Schedule]. A nil task panics
// with an error wrapping [thread.ErrNilArgument]. It ports ScheduledThreadPoolExecutor.schedule.
func (s *ScheduledThreadPoolExecutor) Schedule(task func(), delay time.Duration) (ScheduledFuture[struct{}], error) {
	if task == nil {
		panic(nilArg("task"))
	}
	st := newScheduled(s, NewFutureTaskRunnable(task, struct{}{}), triggerTime(delay), 0)
	if err := s.delayedExecute(st); err != nil {
		return nil, err
	}
	return st, nil
}

// ScheduleAtFixedRate runs task periodically at a fixed rate; see
// [ScheduledExecutorService.ScheduleAtFixedRate]. It ports scheduleAtFixedRate.
func (s *ScheduledThreadPoolExecutor) ScheduleAtFixedRate(task func(), initialDelay, period time.Duration) (ScheduledFuture[struct{}], error) {
	if task == nil {
		panic(nilArg("task"))
	}
	if period <= 0 {
		panic(illegalArg("period %v", period))
	}
	st := newScheduled(s, NewFutureTaskRunnable(task, struct{}{}), triggerTime(initialDelay), period)
	if err := s.delayedExecute(st); err != nil {
		return nil, err
	}
	return st, nil
}

// ScheduleWithFixedDelay runs task periodically with a fixed delay between runs; see
// [ScheduledExecutorService.ScheduleWithFixedDelay]. It ports scheduleWithFixedDelay.
func (s *ScheduledThreadPoolExecutor) ScheduleWithFixedDelay(task func(), initialDelay, delay time.Duration) (ScheduledFuture[struct{}], error) {
	if task == nil {
		panic(nilArg("task"))
	}
	if delay <= 0 {
		panic(illegalArg("delay %v", delay))
	}
	st := newScheduled(s, NewFutureTaskRunnable(task, struct{}{}), triggerTime(initialDelay), -delay)
	if err := s.delayedExecute(st); err != nil {
		return nil, err
	}
	return st, nil
}

// ScheduleCallable runs task once after delay (negative delays are zero) and returns a future of
// its result. It returns an error wrapping [ErrRejected] if s refuses the task; a nil task panics
// with an error wrapping [thread.ErrNilArgument]. It ports ScheduledExecutorService.schedule(Callable).
func ScheduleCallable[T any](s ScheduledExecutorService, task func() (T, error), delay time.Duration) (ScheduledFuture[T], error) {
	if task == nil {
		panic(nilArg("task"))
	}
	sp, ok := s.(scheduledPool)
	if !ok {
		// another implementation: schedule a FutureTask run and wrap its delay
		ft := NewFutureTask(task)
		sf, err := s.Schedule(ft.Run, delay)
		if err != nil {
			return nil, err
		}
		return &foreignScheduled[T]{FutureTask: ft, sf: sf}, nil
	}
	stpe := sp.scheduledPool()
	st := newScheduled(stpe, NewFutureTask(task), triggerTime(delay), 0)
	if err := stpe.delayedExecute(st); err != nil {
		return nil, err
	}
	return st, nil
}

// foreignScheduled is the future of ScheduleCallable on a ScheduledExecutorService from outside
// this package.
type foreignScheduled[T any] struct {
	*FutureTask[T]
	sf ScheduledFuture[struct{}]
}

func (f *foreignScheduled[T]) Delay() time.Duration { return f.sf.Delay() }
func (f *foreignScheduled[T]) Cancel(b bool) bool {
	ok := f.FutureTask.Cancel(b)
	f.sf.Cancel(false)
	return ok
}

// ShutdownNow stops the pool and returns the tasks still queued, due or not, in time order;
// their futures stay as they are until a returned task is run, which cancels its future (the
// pool is stopped), as running a ScheduledFutureTask that Java's shutdownNow returns does. See
// [ThreadPoolExecutor.ShutdownNow].
func (s *ScheduledThreadPoolExecutor) ShutdownNow() []func() {
	return s.ThreadPoolExecutor.ShutdownNow()
}

// Close shuts down (cancelling periodic tasks, by default) and waits for the delayed tasks that
// still run; see [ExecutorService.Close].
func (s *ScheduledThreadPoolExecutor) Close() error { return closeService(s) }

// delayQueue is the work queue of a ScheduledThreadPoolExecutor: a heap of scheduled tasks by
// time (then by submission order), whose Take waits until the head is due. Waiting takers park
// with a timeout at the head's time; a push that makes a new head unparks them all to look
// again (a pool has few workers, so waking them all costs little and cannot lose a wake-up).
type delayQueue struct {
	_       noCopy
	mu      sync.Mutex
	h       delayHeap
	waiters []*thread.Thread
}

type delayHeap []delayed

func (h delayHeap) Len() int { return len(h) }
func (h delayHeap) Less(i, j int) bool {
	a, b := h[i].when(), h[j].when()
	if a != b {
		return a < b
	}
	return h[i].seqNo() < h[j].seqNo()
}
func (h delayHeap) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	*h[i].index() = i
	*h[j].index() = j
}
func (h *delayHeap) Push(x any) {
	d := x.(delayed)
	*d.index() = len(*h)
	*h = append(*h, d)
}
func (h *delayHeap) Pop() any {
	old := *h
	n := len(old)
	d := old[n-1]
	old[n-1] = nil
	*h = old[:n-1]
	*d.index() = -1
	return d
}

func (q *delayQueue) push(t delayed) {
	q.mu.Lock()
	heap.Push(&q.h, t)
	var ws []*thread.Thread
	if q.h[0] == t {
		ws = q.waiters
		q.waiters = nil
	}
	q.mu.Unlock()
	for _, w := range ws {
		thread.Unpark(w)
	}
}

func (q *delayQueue) remove(t delayed) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	i := *t.index()
	if i < 0 || i >= len(q.h) || q.h[i] != t {
		return false
	}
	heap.Remove(&q.h, i)
	return true
}

func (q *delayQueue) snapshot() []delayed {
	q.mu.Lock()
	defer q.mu.Unlock()
	return append([]delayed(nil), q.h...)
}

// The queue.BlockingQueue[func()] methods. The pool queues scheduled tasks with push; these are
// for the pool's worker loop and for callers of Queue(). Elements offered from outside are
// plain tasks due now. Take, Poll and friends only return tasks that are due; Len, Peek and All
// count every task, due or not, as Java's DelayedWorkQueue does.

func (q *delayQueue) offerNow(task func()) {
	if task == nil {
		panic(nilArg("task"))
	}
	q.push(&plainDelayed{fn: task, at: nanoNow(), seq: scheduleSeq.Add(1), idx: -1})
}

// Add queues task to run now; it never fails (the queue is unbounded).
func (q *delayQueue) Add(task func()) error { q.offerNow(task); return nil }

// Offer queues task to run now; it always succeeds.
func (q *delayQueue) Offer(task func()) bool { q.offerNow(task); return true }

// OfferTimeout is Offer (the queue never blocks an insert).
func (q *delayQueue) OfferTimeout(task func(), _ time.Duration) (bool, error) {
	q.offerNow(task)
	return true, nil
}

// Put is Offer (the queue never blocks an insert).
func (q *delayQueue) Put(task func()) error { q.offerNow(task); return nil }

// Poll removes the head if it is due.
func (q *delayQueue) Poll() (func(), bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.h) == 0 || q.h[0].when() > nanoNow() {
		return nil, false
	}
	return heap.Pop(&q.h).(delayed).run, true
}

// Remove removes the head if it is due, else returns queue.ErrEmpty.
func (q *delayQueue) Remove() (func(), error) {
	if t, ok := q.Poll(); ok {
		return t, nil
	}
	return nil, queue.ErrEmpty
}

// Peek returns the head (the task due first), due or not.
func (q *delayQueue) Peek() (func(), bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.h) == 0 {
		return nil, false
	}
	return q.h[0].run, true
}

// DrainTo moves at most max due tasks to dst; max <= 0 moves nothing.
func (q *delayQueue) DrainTo(dst []func(), max int) []func() {
	q.mu.Lock()
	defer q.mu.Unlock()
	now := nanoNow()
	for n := 0; n < max && len(q.h) > 0 && q.h[0].when() <= now; n++ {
		dst = append(dst, heap.Pop(&q.h).(delayed).run)
	}
	return dst
}

// All yields a snapshot of the queued tasks, in no particular order.
func (q *delayQueue) All() iter.Seq[func()] {
	snap := q.snapshot()
	return func(yield func(func()) bool) {
		for _, t := range snap {
			if !yield(t.run) {
				return
			}
		}
	}
}

// drainAll removes every queued task, due or not, in time order (for ShutdownNow).
func (q *delayQueue) drainAll() []func() {
	q.mu.Lock()
	defer q.mu.Unlock()
	var out []func()
	for len(q.h) > 0 {
		out = append(out, heap.Pop(&q.h).(delayed).run)
	}
	return out
}

// Take waits as long as necessary for a due task.
func (q *delayQueue) Take() (func(), error) {
	t, _, err := q.poll(-1)
	return t, err
}

// PollTimeout waits at most d for a due task (d <= 0: does not wait).
func (q *delayQueue) PollTimeout(d time.Duration) (func(), bool, error) {
	if d < 0 {
		d = 0
	}
	return q.poll(d)
}

// poll waits at most d (d < 0: no limit) for a due task.
func (q *delayQueue) poll(d time.Duration) (func(), bool, error) {
	me := thread.Current()
	var deadline int64
	if d >= 0 {
		deadline = addSat(nanoNow(), int64(d))
	}
	for {
		q.mu.Lock()
		now := nanoNow()
		wait := int64(-1)
		if len(q.h) > 0 {
			at := q.h[0].when()
			if at <= now {
				t := heap.Pop(&q.h).(delayed)
				q.removeWaiter(me)
				var ws []*thread.Thread
				if len(q.h) > 0 { // let another taker look at the new head
					ws = q.waiters
					q.waiters = nil
				}
				q.mu.Unlock()
				for _, w := range ws {
					thread.Unpark(w)
				}
				return t.run, true, nil
			}
			wait = at - now
		}
		if me.IsInterrupted() {
			q.removeWaiter(me)
			q.mu.Unlock()
			thread.Interrupted()
			return nil, false, thread.ErrInterrupted
		}
		if d >= 0 {
			left := deadline - now
			if left <= 0 {
				q.removeWaiter(me)
				q.mu.Unlock()
				return nil, false, nil
			}
			if wait < 0 || left < wait {
				wait = left
			}
		}
		q.addWaiter(me)
		q.mu.Unlock()
		if wait < 0 {
			thread.Park()
		} else {
			thread.ParkNanos(time.Duration(wait))
		}
	}
}

func (q *delayQueue) addWaiter(me *thread.Thread) {
	for _, w := range q.waiters {
		if w == me {
			return
		}
	}
	q.waiters = append(q.waiters, me)
}

func (q *delayQueue) removeWaiter(me *thread.Thread) { q.waiters = removeThread(q.waiters, me) }

func (q *delayQueue) Len() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.h)
}

func (q *delayQueue) RemainingCapacity() int { return math.MaxInt32 }

// plainDelayed is a task queued through Offer.
type plainDelayed struct {
	fn  func()
	at  int64
	seq int64
	idx int
}

func (p *plainDelayed) when() int64      { return p.at }
func (p *plainDelayed) seqNo() int64     { return p.seq }
func (p *plainDelayed) index() *int      { return &p.idx }
func (p *plainDelayed) run()             { p.fn() }
func (p *plainDelayed) periodic() bool   { return false }
func (p *plainDelayed) cancel(bool) bool { return false }
func (p *plainDelayed) done() bool       { return false }
func (p *plainDelayed) String() string   { return fmt.Sprintf("task@%d", p.seq) }

// scheduledPool is an executor whose Submit schedules the task itself rather than a FutureTask
// wrapped in a second task: a ScheduledThreadPoolExecutor, or a type that embeds one.
type scheduledPool interface {
	scheduledPool() *ScheduledThreadPoolExecutor
}

func (s *ScheduledThreadPoolExecutor) scheduledPool() *ScheduledThreadPoolExecutor { return s }

// submitScheduled is Submit on a scheduled pool: ScheduleCallable with no delay.
func submitScheduled[T any](s *ScheduledThreadPoolExecutor, task func() (T, error)) (Future[T], error) {
	f, err := ScheduleCallable[T](s, task, 0)
	if err != nil {
		return nil, err
	}
	return f, nil
}
