package oracle_test

import (
	"strings"
	"time"

	"github.com/loomgo/loom/locks"
	"github.com/loomgo/loom/thread"
)

// ReentrantLock, Condition, ReentrantReadWriteLock: the twins of java/LockScenarios.java.
func lockScenarios() []scenario {
	const suite = "LockScenarios"
	return []scenario{
		{suite, "lock_reentrant_hold_counts", lockHoldCounts},
		{suite, "lock_fair_order", func(lg *Log) { lockQueuedOrder(lg, true) }},
		{suite, "lock_nonfair_queued_order", func(lg *Log) { lockQueuedOrder(lg, false) }},
		{suite, "lock_interruptible_status_set", lockInterruptibleStatusSet},
		{suite, "lock_interruptibly_while_waiting", lockInterruptiblyWhileWaiting},
		{suite, "lock_trylock_when_held", lockTryLockWhenHeld},
		{suite, "condition_without_lock", conditionWithoutLock},
		{suite, "condition_signal_fifo", conditionSignalFifo},
		{suite, "condition_await_restores_holds", conditionAwaitRestoresHolds},
		{suite, "condition_interrupt_before_and_after_signal", conditionInterruptBeforeAndAfterSignal},
		{suite, "condition_await_uninterruptibly", conditionAwaitUninterruptibly},
		{suite, "rwlock_hold_counts", rwHoldCounts},
		{suite, "rwlock_queued_writer_blocks_readers", rwQueuedWriterBlocksReaders},
		{suite, "rwlock_fair_order", rwFairOrder},
	}
}

// state is the part of a String() from its first '[': Java's toString after the class name and
// identity hash ("[Unlocked]").
func state(s interface{ String() string }) string {
	x := s.String()
	if i := strings.IndexByte(x, '['); i >= 0 {
		return x[i:]
	}
	return x
}

func ok(fn func()) func() error { return func() error { fn(); return nil } }

func lockHoldCounts(lg *Log) {
	var l locks.ReentrantLock
	lg.P("new: locked=%s held=%s holds=%s fair=%s %s", l.IsLocked(), l.IsHeldByCurrentThread(), l.HoldCount(), l.IsFair(), state(&l))
	l.Lock()
	l.Lock()
	lg.P("locked twice: locked=%s held=%s holds=%s %s", l.IsLocked(), l.IsHeldByCurrentThread(), l.HoldCount(), state(&l))
	other := thread.StartVirtualThread(func() {
		lg.P("another thread: held=%s holds=%s tryLock=%s", l.IsHeldByCurrentThread(), l.HoldCount(), l.TryLock())
		lg.Call("another thread unlocks", ok(l.Unlock))
	})
	other.Join()
	tl := l.TryLock()
	lg.P("tryLock by the owner: %s, holds %s", tl, l.HoldCount())
	l.Unlock()
	l.Unlock()
	lg.P("unlocked twice: holds=%s", l.HoldCount())
	l.Unlock()
	lg.P("unlocked three times: locked=%s holds=%s %s", l.IsLocked(), l.HoldCount(), state(&l))
	lg.Call("unlock an unlocked lock", ok(l.Unlock))
}

func lockQueuedOrder(lg *Log, fair bool) {
	l := locks.NewReentrantLock(fair)
	var order list
	l.Lock()
	var ts []*thread.Thread
	for _, name := range []string{"A", "B", "C"} {
		t := thread.OfVirtual().Name(name).Start(func() {
			l.Lock()
			order.add("%s", thread.Current().Name())
			l.Unlock()
		})
		await(lg, name+" queued", func() bool { return l.HasQueuedThread(t) })
		ts = append(ts, t)
	}
	lg.P("fair=%s queue length %s, hasQueuedThreads %s", l.IsFair(), l.QueueLength(), l.HasQueuedThreads())
	l.Unlock()
	join(lg, ts...)
	lg.P("served in order %s; queue length %s", &order, l.QueueLength())
}

func lockInterruptibleStatusSet(lg *Log) {
	var l locks.ReentrantLock
	self := thread.Current()
	self.Interrupt()
	lg.Call("lockInterruptibly of a free lock with the status set", l.LockInterruptibly)
	lg.P("locked=%s interrupted=%s", l.IsLocked(), self.IsInterrupted())
	self.Interrupt()
	lg.Val("tryLock(1 h) of a free lock with the status set", func() (any, error) { return l.TryLockTimeout(hour) })
	lg.P("locked=%s interrupted=%s", l.IsLocked(), self.IsInterrupted())
	self.Interrupt()
	lg.Val("tryLock() with the status set", func() (any, error) { return l.TryLock(), nil })
	lg.P("locked=%s interrupted=%s", l.IsLocked(), thread.Interrupted())
	l.Unlock()
	self.Interrupt()
	lg.Call("lock() with the status set", ok(l.Lock))
	lg.P("locked=%s interrupted=%s", l.IsLocked(), thread.Interrupted())
	l.Unlock()
}

func lockInterruptiblyWhileWaiting(lg *Log) {
	var l locks.ReentrantLock
	l.Lock()
	t := thread.StartVirtualThread(func() {
		lg.Call("lockInterruptibly while held elsewhere, interrupted", l.LockInterruptibly)
		lg.P("interrupted after: %s", thread.Current().IsInterrupted())
	})
	await(lg, "t queued", func() bool { return l.HasQueuedThread(t) })
	t.Interrupt()
	t.Join()
	lg.P("still queued: %s; holds %s", l.HasQueuedThread(t), l.HoldCount())
	u := thread.StartVirtualThread(func() {
		lg.Val("tryLock(1 ms) while held elsewhere", func() (any, error) { return l.TryLockTimeout(time.Millisecond) })
		lg.Val("tryLock(0) while held elsewhere", func() (any, error) { return l.TryLockTimeout(0) })
	})
	u.Join()
	l.Unlock()
}

func lockTryLockWhenHeld(lg *Log) {
	fair := locks.NewReentrantLock(true)
	holder := thread.OfVirtual().Name("holder").Start(func() {
		fair.Lock()
		thread.Park()
		fair.Unlock()
	})
	await(lg, "the holder to lock", fair.IsLocked)
	lg.P("%s", state(fair))
	lg.P("tryLock of a fair lock held elsewhere: %s", fair.TryLock())
	thread.Unpark(holder)
	holder.Join()
	tl := fair.TryLock()
	lg.P("tryLock of the free fair lock: %s, %s", tl, state(fair))
	fair.Unlock()
}

func conditionWithoutLock(lg *Log) {
	var l locks.ReentrantLock
	c := l.NewCondition()
	lg.Call("await without the lock", c.Await)
	lg.Call("signal without the lock", ok(c.Signal))
	lg.Call("signalAll without the lock", ok(c.SignalAll))
	lg.Call("awaitNanos without the lock", func() error { _, err := c.AwaitNanos(1); return err })
	lg.Call("hasWaiters without the lock", ok(func() { l.HasWaiters(c) }))
	l.Lock()
	lg.P("hasWaiters %s, waitQueueLength %s", l.HasWaiters(c), l.WaitQueueLength(c))
	c.Signal()
	lg.Val("await(1 ms) after a signal with no waiter", func() (any, error) { return c.AwaitTimeout(time.Millisecond) })
	lg.Val("awaitNanos(1 ms) <= 0", func() (any, error) {
		left, err := c.AwaitNanos(time.Millisecond)
		return left <= 0, err
	})
	lg.Val("awaitUntil(a past deadline)", func() (any, error) { return c.AwaitUntil(time.Now().Add(-time.Second)) })
	l.Unlock()
}

func conditionSignalFifo(lg *Log) {
	var l locks.ReentrantLock
	c := l.NewCondition()
	var woke list
	var ts []*thread.Thread
	for _, name := range []string{"A", "B", "C"} {
		t := thread.OfVirtual().Name(name).Start(func() {
			l.Lock()
			defer l.Unlock()
			if err := c.Await(); err != nil {
				woke.add("%s interrupted", thread.Current().Name())
				return
			}
			woke.add("%s", thread.Current().Name())
		})
		awaitState(lg, t, thread.Waiting)
		ts = append(ts, t)
	}
	l.Lock()
	lg.P("waiters %s", l.WaitQueueLength(c))
	c.Signal()
	l.Unlock()
	join(lg, ts[0])
	lg.P("one signal woke %s", &woke)
	l.Lock()
	lg.P("waiters %s", l.WaitQueueLength(c))
	c.SignalAll()
	lg.P("waiters after signalAll %s", l.WaitQueueLength(c))
	l.Unlock()
	join(lg, ts...)
	lg.P("woken in order %s", &woke)
}

func conditionAwaitRestoresHolds(lg *Log) {
	var l locks.ReentrantLock
	c := l.NewCondition()
	l.Lock()
	l.Lock()
	l.Lock()
	t := thread.StartVirtualThread(func() {
		l.Lock()
		lg.P("another thread got the lock while the owner awaited: holds %s", l.HoldCount())
		c.Signal()
		l.Unlock()
	})
	c.Await()
	lg.P("await returned with holds %s", l.HoldCount())
	t.Join()
	l.Unlock()
	l.Unlock()
	l.Unlock()
}

func conditionInterruptBeforeAndAfterSignal(lg *Log) {
	var l locks.ReentrantLock
	c := l.NewCondition()
	waiter := func() {
		l.Lock()
		defer l.Unlock()
		name := thread.Current().Name()
		lg.Call(name+" await", c.Await)
		lg.P("%s: held=%s interrupted=%s", name, l.IsHeldByCurrentThread(), thread.Current().IsInterrupted())
	}
	a := thread.OfVirtual().Name("interrupted-before-signal").Start(waiter)
	awaitState(lg, a, thread.Waiting)
	a.Interrupt()
	a.Join()
	b := thread.OfVirtual().Name("interrupted-after-signal").Start(waiter)
	awaitState(lg, b, thread.Waiting)
	l.Lock()
	c.Signal()
	b.Interrupt()
	l.Unlock()
	b.Join()
}

func conditionAwaitUninterruptibly(lg *Log) {
	var l locks.ReentrantLock
	c := l.NewCondition()
	t := thread.StartVirtualThread(func() {
		l.Lock()
		c.AwaitUninterruptibly()
		lg.P("awaitUninterruptibly returned: interrupted=%s", thread.Current().IsInterrupted())
		l.Unlock()
	})
	awaitState(lg, t, thread.Waiting)
	t.Interrupt()
	l.Lock()
	lg.P("after the interrupt it still waits: hasWaiters %s", l.HasWaiters(c))
	c.Signal()
	l.Unlock()
	t.Join()
}

func rwHoldCounts(lg *Log) {
	rw := locks.NewReentrantReadWriteLock(false)
	rw.ReadLock().Lock()
	rw.ReadLock().Lock()
	lg.P("read twice: readLocks %s readHolds %s writeLocked %s %s", rw.ReadLockCount(), rw.ReadHoldCount(), rw.IsWriteLocked(), state(rw))
	lg.P("write tryLock while reading (no upgrade): %s", rw.WriteLock().TryLock())
	rw.ReadLock().Unlock()
	rw.ReadLock().Unlock()
	rw.WriteLock().Lock()
	rw.WriteLock().Lock()
	lg.P("write twice: writeHolds %s byCurrent %s held %s", rw.WriteHoldCount(), rw.IsWriteLockedByCurrentThread(), rw.WriteLock().IsHeldByCurrentThread())
	rw.ReadLock().Lock()
	lg.P("read under write: readHolds %s readLocks %s", rw.ReadHoldCount(), rw.ReadLockCount())
	other := thread.StartVirtualThread(func() {
		r, w := rw.ReadLock().TryLock(), rw.WriteLock().TryLock()
		lg.P("another thread: read tryLock %s, write tryLock %s, readHolds %s writeHolds %s", r, w, rw.ReadHoldCount(), rw.WriteHoldCount())
	})
	other.Join()
	rw.WriteLock().Unlock()
	rw.WriteLock().Unlock()
	lg.P("write released, read kept: writeLocked %s readLocks %s", rw.IsWriteLocked(), rw.ReadLockCount())
	rw.ReadLock().Unlock()
	lg.Call("read unlock when not held", ok(rw.ReadLock().Unlock))
	lg.Call("write unlock when not held", ok(rw.WriteLock().Unlock))
}

func rwQueuedWriterBlocksReaders(lg *Log) {
	rw := locks.NewReentrantReadWriteLock(false)
	var order list
	rw.ReadLock().Lock()
	w := thread.StartVirtualThread(func() {
		rw.WriteLock().Lock()
		order.add("writer")
		rw.WriteLock().Unlock()
	})
	await(lg, "the writer queued", func() bool { return rw.HasQueuedThread(w) })
	r := thread.StartVirtualThread(func() {
		rw.ReadLock().Lock()
		order.add("reader")
		rw.ReadLock().Unlock()
	})
	await(lg, "the reader queued", func() bool { return rw.HasQueuedThread(r) })
	lg.P("a new reader queues behind the writer: queue length %s", rw.QueueLength())
	barger := thread.StartVirtualThread(func() {
		got := rw.ReadLock().TryLock()
		lg.P("tryLock barges past the queue: %s", got)
		if got {
			rw.ReadLock().Unlock()
		}
	})
	barger.Join()
	rw.ReadLock().Unlock()
	join(lg, w, r)
	lg.P("served %s", &order)
}

func rwFairOrder(lg *Log) {
	rw := locks.NewReentrantReadWriteLock(true)
	var order list
	rw.WriteLock().Lock()
	var ts []*thread.Thread
	for _, name := range []string{"R1", "W1", "R2", "R3", "W2"} {
		var lk interface {
			Lock()
			Unlock()
		} = rw.WriteLock()
		if strings.HasPrefix(name, "R") {
			lk = rw.ReadLock()
		}
		t := thread.OfVirtual().Name(name).Start(func() {
			lk.Lock()
			order.add("%s", thread.Current().Name())
			lk.Unlock()
		})
		await(lg, name+" queued", func() bool { return rw.HasQueuedThread(t) })
		ts = append(ts, t)
	}
	lg.P("fair=%s queue length %s", rw.IsFair(), rw.QueueLength())
	rw.WriteLock().Unlock()
	join(lg, ts...)
	lg.P("served %s", &order)
}
