package oracle_test

import (
	"sync"
	"time"

	"github.com/loomgo/loom/locks"
	"github.com/loomgo/loom/thread"
)

// Monitors (synchronized, wait/notify), Semaphore, CountDownLatch, CyclicBarrier: the twins of
// java/SyncScenarios.java.
func syncScenarios() []scenario {
	const suite = "SyncScenarios"
	return []scenario{
		{suite, "monitor_without_owner", monitorWithoutOwner},
		{suite, "monitor_wait_releases_all_holds", monitorWaitReleasesAllHolds},
		{suite, "monitor_notify_one_at_a_time", monitorNotifyOneAtATime},
		{suite, "monitor_wait_with_status_set", monitorWaitWithStatusSet},
		{suite, "monitor_interrupted_waiter_reacquires", monitorInterruptedWaiterReacquires},
		{suite, "monitor_notified_then_interrupted", monitorNotifiedThenInterrupted},
		{suite, "monitor_wait_timeout", monitorWaitTimeout},
		{suite, "semaphore_basics", semaphoreBasics},
		{suite, "semaphore_fair_queue", func(lg *Log) { semaphoreQueue(lg, true) }},
		{suite, "semaphore_nonfair_queue", func(lg *Log) { semaphoreQueue(lg, false) }},
		{suite, "semaphore_interrupts", semaphoreInterrupts},
		{suite, "latch_basics", latchBasics},
		{suite, "latch_interrupts", latchInterrupts},
		{suite, "barrier_indices_and_action", barrierIndicesAndAction},
		{suite, "barrier_broken_by_interrupt", barrierBrokenByInterrupt},
		{suite, "barrier_timeout", barrierTimeout},
		{suite, "barrier_reset", barrierReset},
		{suite, "barrier_action_throws", barrierActionThrows},
	}
}

// of runs fn and returns "ok" or the name of the exception it ends with (Java: Ex.of).
func of(fn func() error) string {
	return outcome(func() (string, error) { return "ok", fn() })
}

// valOf runs fn and returns its value, or the name of the exception it ends with (Java: Ex.val).
func valOf(fn func() (any, error)) string {
	return outcome(func() (string, error) {
		v, err := fn()
		return str(v), err
	})
}

func awaitErr(b *locks.CyclicBarrier) func() error {
	return func() error { _, err := b.Await(); return err }
}

func monitorWithoutOwner(lg *Log) {
	var m locks.Monitor
	lg.Call("wait without the monitor", m.Wait)
	lg.Call("notify without the monitor", ok(m.Notify))
	lg.Call("notifyAll without the monitor", ok(m.NotifyAll))
	lg.P("holdsLock outside: %s", m.IsHeldByCurrentThread())
	m.Synchronized(func() {
		lg.P("holdsLock inside: %s", m.IsHeldByCurrentThread())
		m.Notify()
		m.NotifyAll()
	})
	other := thread.StartVirtualThread(func() {
		m.Synchronized(func() { lg.P("another thread enters: holdsLock %s", m.IsHeldByCurrentThread()) })
	})
	other.Join()
}

func monitorWaitReleasesAllHolds(lg *Log) {
	var m locks.Monitor
	m.Enter()
	m.Enter()
	m.Enter()
	notifier := thread.StartVirtualThread(func() {
		m.Synchronized(func() {
			lg.P("another thread entered while the owner waited")
			m.Notify()
		})
	})
	m.Wait()
	lg.P("wait returned: holdsLock %s", m.IsHeldByCurrentThread())
	m.Exit()
	lg.P("one exit: holdsLock %s", m.IsHeldByCurrentThread())
	m.Exit()
	lg.P("two exits: holdsLock %s", m.IsHeldByCurrentThread())
	m.Exit()
	lg.P("three exits: holdsLock %s", m.IsHeldByCurrentThread())
	notifier.Join()
}

func monitorNotifyOneAtATime(lg *Log) {
	var m locks.Monitor
	var woke list
	var ts []*thread.Thread
	for _, name := range []string{"A", "B", "C"} {
		t := thread.OfVirtual().Name(name).Start(func() {
			m.Synchronized(func() {
				if err := m.Wait(); err != nil {
					woke.add("%s interrupted", thread.Current().Name())
					return
				}
				woke.add("%s", thread.Current().Name())
			})
		})
		awaitState(lg, t, thread.Waiting)
		ts = append(ts, t)
	}
	for i := range 3 {
		m.Synchronized(m.Notify)
		n := i + 1
		await(lg, str(n)+" woken", func() bool {
			woke.mu.Lock()
			defer woke.mu.Unlock()
			return len(woke.xs) == n
		})
		lg.P("notify %s woke %s", n, &woke)
	}
	join(lg, ts...)
}

func monitorWaitWithStatusSet(lg *Log) {
	var m locks.Monitor
	self := thread.Current()
	m.Synchronized(func() {
		self.Interrupt()
		lg.Call("wait with the status set", m.Wait)
		lg.P("holdsLock %s interrupted %s", m.IsHeldByCurrentThread(), self.IsInterrupted())
		self.Interrupt()
		lg.Call("wait(1 ms) with the status set", func() error { return m.WaitTimeout(time.Millisecond) })
		lg.P("holdsLock %s interrupted %s", m.IsHeldByCurrentThread(), self.IsInterrupted())
	})
}

func monitorInterruptedWaiterReacquires(lg *Log) {
	var m locks.Monitor
	t := thread.StartVirtualThread(func() {
		m.Synchronized(func() {
			lg.Call("wait, interrupted", m.Wait)
			lg.P("holdsLock %s interrupted %s", m.IsHeldByCurrentThread(), thread.Current().IsInterrupted())
		})
	})
	awaitState(lg, t, thread.Waiting)
	m.Synchronized(func() {
		t.Interrupt()
		awaitState(lg, t, thread.Blocked)
		lg.P("interrupted waiter while the monitor is held: %s", t.State())
	})
	t.Join()
}

func monitorNotifiedThenInterrupted(lg *Log) {
	var m locks.Monitor
	t := thread.StartVirtualThread(func() {
		m.Synchronized(func() {
			lg.Call("wait, notified then interrupted", m.Wait)
			lg.P("interrupted %s", thread.Current().IsInterrupted())
		})
	})
	awaitState(lg, t, thread.Waiting)
	m.Synchronized(func() {
		m.Notify()
		t.Interrupt()
	})
	t.Join()
}

func monitorWaitTimeout(lg *Log) {
	var m locks.Monitor
	m.Synchronized(func() {
		lg.Call("wait(1 ms), nobody notifies", func() error { return m.WaitTimeout(time.Millisecond) })
		lg.Call("wait(-1)", func() error { return m.WaitTimeout(-time.Millisecond) })
		lg.P("holdsLock %s", m.IsHeldByCurrentThread())
	})
}

func semaphoreBasics(lg *Log) {
	s := locks.NewSemaphore(2, false)
	lg.P("fair %s, %s", s.IsFair(), state(s))
	s.Acquire()
	a, b := s.TryAcquire(), s.TryAcquire()
	lg.P("tryAcquire %s, tryAcquire %s, available %s", a, b, s.AvailablePermits())
	s.ReleaseN(3)
	lg.P("release(3): available %s", s.AvailablePermits())
	d := s.DrainPermits()
	lg.P("drainPermits %s, then available %s", d, s.AvailablePermits())
	s.ReducePermits(2)
	lg.P("reducePermits(2): available %s, tryAcquire %s, %s", s.AvailablePermits(), s.TryAcquire(), state(s))
	lg.P("new Semaphore(-1): available %s", locks.NewSemaphore(-1, false).AvailablePermits())
	lg.Call("release(-1)", ok(func() { s.ReleaseN(-1) }))
	lg.Call("acquire(-1)", func() error { return s.AcquireN(-1) })
	lg.Call("tryAcquire(-1)", ok(func() { s.TryAcquireN(-1) }))
	lg.Call("reducePermits(-1)", ok(func() { s.ReducePermits(-1) }))
	lg.Call("release(0)", ok(func() { s.ReleaseN(0) }))
	lg.Val("tryAcquire(3) with 1 available", func() (any, error) {
		s.ReleaseN(3)
		got := s.TryAcquireN(3)
		return str(got) + " leaves " + str(s.AvailablePermits()), nil
	})
	lg.Val("tryAcquire(2, 1 ms) with 1 available", func() (any, error) { return s.TryAcquireNTimeout(2, time.Millisecond) })
}

func semaphoreQueue(lg *Log, fair bool) {
	s := locks.NewSemaphore(0, fair)
	var got list
	var ts []*thread.Thread
	for _, spec := range []string{"A2", "B1", "C1"} {
		n := int(spec[1] - '0')
		t := thread.OfVirtual().Name(spec).Start(func() {
			s.AcquireUninterruptiblyN(n)
			got.add("%s", thread.Current().Name())
		})
		queued := len(ts) + 1
		await(lg, spec+" queued", func() bool { return s.QueueLength() == queued })
		ts = append(ts, t)
	}
	s.Release()
	lg.P("release(1) with A2 at the head: got %s, available %s, queued %s", &got, s.AvailablePermits(), s.QueueLength())
	barger := thread.StartVirtualThread(func() { lg.P("a newcomer's tryAcquire(): %s", s.TryAcquire()) })
	barger.Join()
	s.ReleaseN(2)
	await(lg, "A2 served", func() bool { got.mu.Lock(); defer got.mu.Unlock(); return len(got.xs) >= 1 })
	lg.P("release(2): got %s", &got)
	s.ReleaseN(2)
	join(lg, ts...)
	lg.P("release(2): got %s, available %s", &got, s.AvailablePermits())
}

func semaphoreInterrupts(lg *Log) {
	s := locks.NewSemaphore(1, false)
	self := thread.Current()
	self.Interrupt()
	lg.Call("acquire with a permit free and the status set", s.Acquire)
	lg.P("available %s interrupted %s", s.AvailablePermits(), self.IsInterrupted())
	self.Interrupt()
	lg.Val("tryAcquire(1 h) with the status set", func() (any, error) { return s.TryAcquireTimeout(hour) })
	self.Interrupt()
	lg.Call("acquireUninterruptibly with the status set", ok(s.AcquireUninterruptibly))
	lg.P("available %s interrupted %s", s.AvailablePermits(), thread.Interrupted())
	t := thread.StartVirtualThread(func() {
		lg.Call("acquire(2) waiting, interrupted", func() error { return s.AcquireN(2) })
		lg.P("interrupted after: %s", thread.Current().IsInterrupted())
	})
	awaitState(lg, t, thread.Waiting)
	t.Interrupt()
	t.Join()
	s.Release()
	lg.P("available %s, queued %s", s.AvailablePermits(), s.QueueLength())
}

func latchBasics(lg *Log) {
	l := locks.NewCountDownLatch(2)
	lg.P("count %s %s", l.Count(), state(l))
	lg.Val("await(1 ms) at 2", func() (any, error) { return l.AwaitTimeout(time.Millisecond) })
	l.CountDown()
	l.CountDown()
	l.CountDown()
	lg.P("three countDowns: count %s %s", l.Count(), state(l))
	lg.Call("await at 0", l.Await)
	lg.Val("await(0) at 0", func() (any, error) { return l.AwaitTimeout(0) })
	lg.Call("new CountDownLatch(-1)", ok(func() { locks.NewCountDownLatch(-1) }))
	g := locks.NewCountDownLatch(1)
	var ts []*thread.Thread
	for range 3 {
		ts = append(ts, thread.StartVirtualThread(func() { g.Await() }))
	}
	for _, t := range ts {
		awaitState(lg, t, thread.Waiting)
	}
	g.CountDown()
	join(lg, ts...)
	lg.P("one countDown released all 3 waiters")
}

func latchInterrupts(lg *Log) {
	open := locks.NewCountDownLatch(0)
	self := thread.Current()
	self.Interrupt()
	lg.Call("await at count 0 with the status set", open.Await)
	lg.P("interrupted after: %s", self.IsInterrupted())
	self.Interrupt()
	lg.Val("await(1 h) at count 0 with the status set", func() (any, error) { return open.AwaitTimeout(hour) })
	closed := locks.NewCountDownLatch(1)
	t := thread.StartVirtualThread(func() {
		lg.Call("await, interrupted while waiting", closed.Await)
		lg.P("interrupted after: %s", thread.Current().IsInterrupted())
	})
	awaitState(lg, t, thread.Waiting)
	t.Interrupt()
	t.Join()
}

func barrierIndicesAndAction(lg *Log) {
	var actionRanIn string
	b := locks.NewCyclicBarrier(3, func() { actionRanIn = thread.Current().Name() })
	lg.P("parties %s waiting %s broken %s", b.Parties(), b.NumberWaiting(), b.IsBroken())
	var mu sync.Mutex
	idx := map[string]any{}
	var ts []*thread.Thread
	for _, name := range []string{"A", "B", "C"} {
		before := len(ts)
		t := thread.OfVirtual().Name(name).Start(func() {
			i, err := b.Await()
			if err != nil {
				lg.P("%s", err)
				return
			}
			mu.Lock()
			idx[thread.Current().Name()] = i
			mu.Unlock()
		})
		if before < 2 {
			await(lg, name+" waiting", func() bool { return b.NumberWaiting() == before+1 })
		}
		ts = append(ts, t)
	}
	join(lg, ts...)
	lg.P("arrival indices A=%s B=%s C=%s; the action ran in %s", idx["A"], idx["B"], idx["C"], actionRanIn)
	lg.P("after the trip: waiting %s broken %s", b.NumberWaiting(), b.IsBroken())
	lg.Call("new CyclicBarrier(0)", ok(func() { locks.NewCyclicBarrier(0, nil) }))
}

func barrierBrokenByInterrupt(lg *Log) {
	b := locks.NewCyclicBarrier(3, nil)
	var out [2]string
	a := thread.OfVirtual().Name("A").Start(func() { out[0] = of(awaitErr(b)) })
	await(lg, "A waiting", func() bool { return b.NumberWaiting() == 1 })
	c := thread.OfVirtual().Name("B").Start(func() { out[1] = of(awaitErr(b)) })
	await(lg, "B waiting", func() bool { return b.NumberWaiting() == 2 })
	a.Interrupt()
	join(lg, a, c)
	lg.P("A, interrupted: %s; B: %s", out[0], out[1])
	lg.P("broken %s waiting %s", b.IsBroken(), b.NumberWaiting())
	lg.Call("await on a broken barrier", awaitErr(b))
	b.Reset()
	lg.P("after reset: broken %s", b.IsBroken())
}

func barrierTimeout(lg *Log) {
	b := locks.NewCyclicBarrier(3, nil)
	var out string
	a := thread.StartVirtualThread(func() { out = of(awaitErr(b)) })
	await(lg, "a party waiting", func() bool { return b.NumberWaiting() == 1 })
	timedOut := of(func() error { _, err := b.AwaitTimeout(time.Millisecond); return err })
	a.Join()
	lg.P("await(1 ms), no third party: %s; the waiting party: %s; broken %s", timedOut, out, b.IsBroken())
	lg.Call("await(1 h) on the broken barrier", func() error { _, err := b.AwaitTimeout(hour); return err })
}

func barrierReset(lg *Log) {
	b := locks.NewCyclicBarrier(2, nil)
	a := thread.StartVirtualThread(func() { lg.Call("waiting party, barrier reset", awaitErr(b)) })
	await(lg, "a party waiting", func() bool { return b.NumberWaiting() == 1 })
	b.Reset()
	a.Join()
	lg.P("after reset: broken %s waiting %s", b.IsBroken(), b.NumberWaiting())
	var out string
	c := thread.StartVirtualThread(func() { out = of(awaitErr(b)) })
	await(lg, "a party waiting", func() bool { return b.NumberWaiting() == 1 })
	second := of(awaitErr(b))
	c.Join()
	lg.P("next generation: first party %s, second party %s", out, second)
}

func barrierActionThrows(lg *Log) {
	b := locks.NewCyclicBarrier(2, func() { panic(boom("action")) })
	var out string
	a := thread.StartVirtualThread(func() { out = of(awaitErr(b)) })
	await(lg, "a party waiting", func() bool { return b.NumberWaiting() == 1 })
	last := of(awaitErr(b))
	a.Join()
	lg.P("last party, which runs the failing action: %s; first party: %s; broken %s", last, out, b.IsBroken())
}
