package oracle_test

import (
	"runtime"
	"sync/atomic"
	"time"

	"github.com/loomgo/loom/executors"
	"github.com/loomgo/loom/locks"
	"github.com/loomgo/loom/queue"
	"github.com/loomgo/loom/thread"
)

// Threads, builders, interrupts, LockSupport: the twins of java/ThreadScenarios.java.
func threadScenarios() []scenario {
	const suite = "ThreadScenarios"
	return []scenario{
		{suite, "thread_lifecycle_virtual", func(lg *Log) { threadLifecycle(lg, thread.OfVirtual()) }},
		{suite, "thread_lifecycle_platform", func(lg *Log) { threadLifecycle(lg, thread.OfPlatform()) }},
		{suite, "thread_states_while_blocked_virtual", func(lg *Log) { threadStatesWhileBlocked(lg, thread.OfVirtual()) }},
		{suite, "thread_states_while_blocked_platform", func(lg *Log) { threadStatesWhileBlocked(lg, thread.OfPlatform()) }},
		{suite, "thread_sleep_interrupted", threadSleepInterrupted},
		{suite, "thread_interrupt_before_sleep", threadInterruptBeforeSleep},
		{suite, "thread_interrupt_unstarted_and_terminated", threadInterruptUnstartedAndTerminated},
		{suite, "thread_park_permit", threadParkPermit},
		{suite, "thread_park_interrupted", threadParkInterrupted},
		{suite, "thread_park_nonpositive_keeps_permit", threadParkNonPositive},
		{suite, "thread_sleep_and_yield_keep_permit", threadSleepAndYieldKeepPermit},
		{suite, "thread_join_unstarted", threadJoinUnstarted},
		{suite, "thread_join_interrupted", threadJoinInterrupted},
		{suite, "thread_join_timeout", threadJoinTimeout},
		{suite, "thread_start_twice", threadStartTwice},
		{suite, "thread_virtual_daemon_priority", threadVirtualDaemonPriority},
		{suite, "thread_platform_daemon_priority", threadPlatformDaemonPriority},
		{suite, "thread_builder_names", threadBuilderNames},
		{suite, "thread_tostring", threadToStrings},
		{suite, "thread_set_name_any_state", threadSetNameAnyState},
		{suite, "thread_uncaught_handler", threadUncaughtHandler},
		{suite, "thread_current_and_ids", threadCurrentAndIDs},
	}
}

// builder is what OfVirtual and OfPlatform have in common (Java's Thread.Builder).
type builder interface {
	Start(task func()) *thread.Thread
	Unstarted(task func()) *thread.Thread
}

var (
	_ builder = (*thread.VirtualBuilder)(nil)
	_ builder = (*thread.PlatformBuilder)(nil)
)

const hour = time.Hour

func threadLifecycle(lg *Log, b builder) {
	gate := locks.NewCountDownLatch(1)
	t := b.Unstarted(func() { gate.Await() })
	lg.P("new: %s alive=%s interrupted=%s", t.State(), t.IsAlive(), t.IsInterrupted())
	t.Start()
	awaitState(lg, t, thread.Waiting)
	lg.P("waiting on a latch: %s alive=%s", t.State(), t.IsAlive())
	gate.CountDown()
	t.Join()
	lg.P("joined: %s alive=%s", t.State(), t.IsAlive())
}

func threadStatesWhileBlocked(lg *Log, b builder) {
	sleeper := b.Start(func() { thread.Sleep(hour) })
	lg.P("sleep: %s", blocked(lg, sleeper))
	sleeper.Interrupt()
	join(lg, sleeper)

	parker := b.Start(func() { thread.Park() })
	lg.P("park: %s", blocked(lg, parker))
	thread.Unpark(parker)
	join(lg, parker)

	timedParker := b.Start(func() { thread.ParkNanos(hour) })
	lg.P("parkNanos: %s", blocked(lg, timedParker))
	thread.Unpark(timedParker)
	join(lg, timedParker)

	never := locks.NewCountDownLatch(1)
	target := b.Start(func() { never.Await() })
	joiner := b.Start(func() { target.Join() })
	lg.P("join: %s", blocked(lg, joiner))
	timedJoiner := b.Start(func() { target.JoinTimeout(hour) })
	lg.P("join(Duration): %s", blocked(lg, timedJoiner))
	joiner.Interrupt()
	timedJoiner.Interrupt()
	target.Interrupt()
	join(lg, joiner, timedJoiner, target)

	var lock locks.ReentrantLock
	lock.Lock()
	//lint:ignore SA2001 the Java scenario's thread is `lock.lock(); lock.unlock()`: it only blocks on the lock.
	locker := b.Start(func() { lock.Lock(); lock.Unlock() })
	lg.P("ReentrantLock.lock: %s", blocked(lg, locker))
	lock.Unlock()
	join(lg, locker)

	var monitor locks.Monitor
	var entering *thread.Thread
	monitor.Synchronized(func() {
		entering = b.Start(func() { monitor.Synchronized(func() {}) })
		lg.P("synchronized enter: %s", blocked(lg, entering))
	})
	join(lg, entering)

	waiter := b.Start(func() { monitor.Synchronized(func() { monitor.Wait() }) })
	lg.P("Object.wait: %s", blocked(lg, waiter))
	waiter.Interrupt()
	join(lg, waiter)

	timedWaiter := b.Start(func() { monitor.Synchronized(func() { monitor.WaitTimeout(hour) }) })
	lg.P("Object.wait(ms): %s", blocked(lg, timedWaiter))
	timedWaiter.Interrupt()
	join(lg, timedWaiter)

	q := queue.NewLinkedBlockingQueue[string](0)
	taker := b.Start(func() { q.Take() })
	lg.P("BlockingQueue.take: %s", blocked(lg, taker))
	poller := b.Start(func() { q.PollTimeout(hour) })
	lg.P("BlockingQueue.poll(timeout): %s", blocked(lg, poller))
	taker.Interrupt()
	poller.Interrupt()
	join(lg, taker, poller)

	f := executors.NewCompletableFuture[string]()
	getter := b.Start(func() { f.Get() })
	lg.P("Future.get: %s", blocked(lg, getter))
	f.Complete("x")
	join(lg, getter)
}

func threadSleepInterrupted(lg *Log) {
	t := thread.StartVirtualThread(func() {
		lg.Call("sleep 1 h", func() error { return thread.Sleep(hour) })
		lg.P("interrupted after: %s", thread.Current().IsInterrupted())
	})
	awaitState(lg, t, thread.TimedWaiting)
	t.Interrupt()
	t.Join()
	lg.P("state %s, interrupted %s", t.State(), t.IsInterrupted())
}

func threadInterruptBeforeSleep(lg *Log) {
	t := thread.StartVirtualThread(func() {
		self := thread.Current()
		self.Interrupt()
		lg.Call("sleep with the status set", func() error { return thread.Sleep(hour) })
		lg.P("interrupted after: %s", self.IsInterrupted())
		self.Interrupt()
		lg.Call("sleep(0) with the status set", func() error { return thread.Sleep(0) })
		lg.P("interrupted after: %s", self.IsInterrupted())
		self.Interrupt()
		lg.Call("sleep(-1 ms) with the status set", func() error { return thread.Sleep(-time.Millisecond) })
		lg.P("interrupted after: %s", self.IsInterrupted())
		a := thread.Interrupted()
		lg.P("Thread.interrupted: %s, then %s", a, thread.Interrupted())
	})
	t.Join()
}

func threadInterruptUnstartedAndTerminated(lg *Log) {
	var seen atomic.Bool
	t := thread.OfVirtual().Unstarted(func() { seen.Store(thread.Current().IsInterrupted()) })
	t.Interrupt()
	lg.P("interrupted before start: %s", t.IsInterrupted())
	t.Start()
	t.Join()
	lg.P("the task saw interrupted=%s; after: %s", seen.Load(), t.IsInterrupted())
	u := thread.StartVirtualThread(func() {})
	u.Join()
	u.Interrupt()
	lg.P("interrupt a terminated thread: %s", u.IsInterrupted())
}

func threadParkPermit(lg *Log) {
	thread.Unpark(thread.Current())
	thread.Park()
	lg.P("park with a permit returned at once")
	var goAhead atomic.Bool
	t := thread.StartVirtualThread(func() {
		for !goAhead.Load() {
			runtime.Gosched()
		}
		thread.Park()
		lg.P("first park returned (two unparks left one permit)")
		thread.Park()
		lg.P("second park returned")
	})
	thread.Unpark(t)
	thread.Unpark(t)
	goAhead.Store(true)
	awaitState(lg, t, thread.Waiting)
	lg.P("second park blocks: %s", t.State())
	thread.Unpark(t)
	t.Join()
}

func threadParkInterrupted(lg *Log) {
	t := thread.StartVirtualThread(func() {
		thread.Park()
		lg.P("park returned, interrupted=%s", thread.Current().IsInterrupted())
		thread.Park()
		lg.P("park with the status set returned at once, interrupted=%s", thread.Current().IsInterrupted())
		thread.ParkNanos(hour)
		lg.P("parkNanos with the status set returned at once")
		a := thread.Interrupted()
		lg.P("Thread.interrupted: %s, then %s", a, thread.Interrupted())
	})
	awaitState(lg, t, thread.Waiting)
	t.Interrupt()
	t.Join()
}

func threadParkNonPositive(lg *Log) {
	t := thread.StartVirtualThread(func() {
		thread.ParkNanos(0)
		thread.ParkNanos(-1)
		lg.P("parkNanos(0), parkNanos(-1) returned")
		thread.Unpark(thread.Current())
		thread.ParkNanos(0)
		thread.ParkNanos(-1)
		thread.Park()
	})
	ended := awaitState(lg, t, thread.Terminated)
	lg.P("the permit survived parkNanos(0): %s", ended)
	thread.Unpark(t)
	t.Join()
}

func threadSleepAndYieldKeepPermit(lg *Log) {
	phase := locks.NewCountDownLatch(1)
	t := thread.StartVirtualThread(func() {
		thread.Unpark(thread.Current())
		thread.Sleep(time.Millisecond)
		thread.Yield()
		thread.Park()
		lg.P("park after sleep and yield used the permit")
		phase.CountDown()
		thread.Yield()
		thread.Park()
		lg.P("second park returned after unpark")
	})
	phase.Await()
	awaitState(lg, t, thread.Waiting)
	lg.P("second park blocks: %s", t.State())
	thread.Unpark(t)
	t.Join()
}

func threadJoinUnstarted(lg *Log) {
	t := thread.OfVirtual().Unstarted(func() {})
	lg.Call("join() of an unstarted thread", t.Join)
	lg.Val("join(Duration) of an unstarted thread", func() (any, error) { return t.JoinTimeout(time.Millisecond) })
	p := thread.OfPlatform().Unstarted(func() {})
	lg.Call("join() of an unstarted platform thread", p.Join)
	lg.Val("join(Duration) of an unstarted platform thread", func() (any, error) { return p.JoinTimeout(time.Millisecond) })
}

func threadJoinInterrupted(lg *Log) {
	gate := locks.NewCountDownLatch(1)
	t := thread.StartVirtualThread(func() { gate.Await() })
	self := thread.Current()
	self.Interrupt()
	lg.Call("join with the status set", t.Join)
	lg.P("interrupted after: %s", self.IsInterrupted())
	interrupter := thread.StartVirtualThread(func() {
		awaitState(lg, self, thread.Waiting)
		self.Interrupt()
	})
	lg.Call("join interrupted while waiting", t.Join)
	lg.P("interrupted after: %s", self.IsInterrupted())
	interrupter.Join()
	gate.CountDown()
	t.Join()
}

func threadJoinTimeout(lg *Log) {
	gate := locks.NewCountDownLatch(1)
	t := thread.StartVirtualThread(func() { gate.Await() })
	lg.Val("join(0) while alive", func() (any, error) { return t.JoinTimeout(0) })
	lg.Val("join(1 ms) while alive", func() (any, error) { return t.JoinTimeout(time.Millisecond) })
	lg.Val("join(-1 ms) while alive", func() (any, error) { return t.JoinTimeout(-time.Millisecond) })
	gate.CountDown()
	lg.Val("join(1 h)", func() (any, error) { return t.JoinTimeout(hour) })
	lg.Val("join(-1 ms) after termination", func() (any, error) { return t.JoinTimeout(-time.Millisecond) })
}

func threadStartTwice(lg *Log) {
	gate := locks.NewCountDownLatch(1)
	for _, b := range []builder{thread.OfVirtual(), thread.OfPlatform()} {
		t := b.Start(func() { gate.Await() })
		lg.Call("start while alive", func() error { t.Start(); return nil })
		t.Interrupt()
		t.Join()
		lg.Call("start after termination", func() error { t.Start(); return nil })
		lg.P("state %s", t.State())
	}
}

func threadVirtualDaemonPriority(lg *Log) {
	gate := locks.NewCountDownLatch(1)
	t := thread.OfVirtual().Unstarted(func() { gate.Await() })
	lg.P("new: daemon=%s priority=%s", t.IsDaemon(), t.Priority())
	lg.Call("setDaemon(true) while new", func() error { t.SetDaemon(true); return nil })
	lg.Call("setDaemon(false) while new", func() error { t.SetDaemon(false); return nil })
	lg.Call("setPriority(1)", func() error { t.SetPriority(1); return nil })
	lg.P("priority after setPriority(1): %s", t.Priority())
	lg.Call("setPriority(11)", func() error { t.SetPriority(11); return nil })
	lg.Call("setPriority(0)", func() error { t.SetPriority(0); return nil })
	t.Start()
	lg.Call("setDaemon(true) while alive", func() error { t.SetDaemon(true); return nil })
	lg.Call("setDaemon(false) while alive", func() error { t.SetDaemon(false); return nil })
	gate.CountDown()
	t.Join()
	lg.Call("setDaemon(true) after termination", func() error { t.SetDaemon(true); return nil })
	lg.P("terminated: daemon=%s priority=%s", t.IsDaemon(), t.Priority())
}

func threadPlatformDaemonPriority(lg *Log) {
	gate := locks.NewCountDownLatch(1)
	t := thread.OfPlatform().Unstarted(func() { gate.Await() })
	lg.P("new: daemon=%s priority=%s", t.IsDaemon(), t.Priority())
	lg.Call("setPriority(7)", func() error { t.SetPriority(7); return nil })
	lg.Call("setPriority(11)", func() error { t.SetPriority(11); return nil })
	lg.Call("setDaemon(true) while new", func() error { t.SetDaemon(true); return nil })
	lg.P("after: daemon=%s priority=%s", t.IsDaemon(), t.Priority())
	t.Start()
	lg.Call("setDaemon(false) while alive", func() error { t.SetDaemon(false); return nil })
	gate.CountDown()
	t.Join()
	lg.Call("setDaemon(false) after termination", func() error { t.SetDaemon(false); return nil })
	lg.P("terminated: daemon=%s", t.IsDaemon())
	d := thread.OfPlatform().Daemon(true).Priority(3).Unstarted(func() {})
	lg.P("builder daemon(true).priority(3): daemon=%s priority=%s", d.IsDaemon(), d.Priority())
	lg.Call("builder priority(0)", func() error { thread.OfPlatform().Priority(0); return nil })
	lg.Call("builder stackSize(-1)", func() error { thread.OfPlatform().StackSize(-1); return nil })
}

func threadBuilderNames(lg *Log) {
	b := thread.OfVirtual().NameCounter("duke-", 100)
	var names []string
	for range 3 {
		names = append(names, b.Unstarted(func() {}).Name())
	}
	f := b.Factory()
	for range 2 {
		names = append(names, f.NewThread(func() {}).Name())
	}
	names = append(names, b.Unstarted(func() {}).Name())
	lg.P("builder, builder, builder, factory, factory, builder: %s", names)
	lg.P("fixed name: %s", thread.OfPlatform().Name("fixed").Unstarted(func() {}).Name())
	lg.P("virtual default name: \"%s\"", thread.OfVirtual().Unstarted(func() {}).Name())
	lg.Call("name(prefix, -1)", func() error { thread.OfVirtual().NameCounter("x-", -1); return nil })
	lg.P("isVirtual: %s %s", thread.OfVirtual().Unstarted(func() {}).IsVirtual(),
		thread.OfPlatform().Unstarted(func() {}).IsVirtual())
}

func threadToStrings(lg *Log) {
	lg.P("scenario thread: %s", thread.Current())
	gate := locks.NewCountDownLatch(1)
	var inside atomic.Value
	v := thread.OfVirtual().Unstarted(func() {
		inside.Store(thread.Current().String())
		gate.Await()
	})
	lg.P("unstarted virtual: %s", v)
	v.Start()
	awaitState(lg, v, thread.Waiting)
	lg.P("running virtual, seen by itself: %s", inside.Load())
	lg.P("waiting virtual: %s", v)
	gate.CountDown()
	v.Join()
	lg.P("terminated virtual: %s", v)
	named := thread.OfVirtual().Name("fred").Unstarted(func() {})
	lg.P("named virtual: %s", named)
	p := thread.OfPlatform().Name("plat").Unstarted(func() {})
	lg.P("unstarted platform: %s", p)
	p.Start()
	p.Join()
	lg.P("terminated platform: %s", p)
}

func threadSetNameAnyState(lg *Log) {
	for _, b := range []builder{thread.OfVirtual().Name("a"), thread.OfPlatform().Name("a")} {
		t := b.Start(func() {})
		t.Join()
		t.SetName("renamed")
		lg.P("renamed after termination: %s", t.Name())
	}
}

func threadUncaughtHandler(lg *Log) {
	var seen atomic.Value
	var t *thread.Thread
	t = thread.OfVirtual().UncaughtExceptionHandler(func(th *thread.Thread, v any) {
		seen.Store("handler ran in the failing thread: " + str(th == thread.Current() && th == t) + ", got " + panicName(v))
	}).Unstarted(func() { panic(boom("uncaught")) })
	t.Start()
	t.Join()
	lg.P("%s; state %s", seen.Load(), t.State())
}

func threadCurrentAndIDs(lg *Log) {
	var v, p atomic.Value
	var ts [2]*thread.Thread
	ts[0] = thread.OfVirtual().Unstarted(func() {
		v.Store("virtual: isVirtual=" + str(thread.Current().IsVirtual()) + " current is itself=" + str(thread.Current() == ts[0]))
	})
	ts[1] = thread.OfPlatform().Unstarted(func() {
		p.Store("platform: isVirtual=" + str(thread.Current().IsVirtual()) + " current is itself=" + str(thread.Current() == ts[1]))
	})
	lg.P("ids positive: %s, distinct: %s, increasing: %s", ts[0].ThreadID() > 0,
		ts[0].ThreadID() != ts[1].ThreadID(), ts[1].ThreadID() > ts[0].ThreadID())
	ts[0].Start()
	ts[1].Start()
	ts[0].Join()
	ts[1].Join()
	lg.P("%s; %s", v.Load(), p.Load())
}
