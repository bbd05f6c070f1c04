package locks

import (
	"fmt"
	"runtime"
	"sync"
	"time"
	"unsafe"
	"weak"

	"github.com/loomgo/loom/internal/rt"
	"github.com/loomgo/loom/internal/waitq"
	"github.com/loomgo/loom/thread"
)

// A Monitor is Java's per-object monitor: the lock that synchronized blocks take, with its
// wait set (Object.wait, notify, notifyAll). The zero value is a free monitor with no waiters;
// [MonitorOf] gives the monitor of any pointer, as synchronized (obj) does. A Monitor must not be
// copied after first use.
//
// A Monitor is reentrant and owned by a thread ([thread.Current](), which also works on
// goroutines loom did not start). Entering a monitor another thread holds blocks, in the
// BLOCKED state, and is not interruptible. Wait releases every hold, waits for Notify,
// NotifyAll, a timeout or an interrupt, and re-enters with the same hold count.
//
// What a monitor does to a virtual thread depends on the scheduler's pinning mode:
//
//   - [thread.PinNone] (Java 24+, JEP 491, the default): nothing special; a virtual thread
//     unmounts while blocked entering, while waiting, and while it parks (sleeps, locks, ...)
//     inside the monitor.
//   - [thread.PinSynchronized] (Java 21-23): a virtual thread that holds a monitor is pinned: if
//     it parks (a Sleep, a [ReentrantLock], a queue) it keeps its carrier, and so does a
//     contended Enter. Wait keeps the carrier too, but the scheduler compensates with a
//     temporary extra carrier. Pinned parks longer than the threshold are reported to
//     SchedulerOptions.OnPinned with reason "MONITOR".
//
// Misuse panics with [ErrIllegalMonitorState]: Exit, Wait, Notify or NotifyAll by a thread that
// does not hold the monitor. Exit synchronizes before the Enter that next acquires it.
type Monitor struct {
	_ noCopy
	s exclusive
	c waitq.Cond
}

// Enter acquires the monitor, blocking (state BLOCKED) while another thread holds it, and adds
// a hold if the current thread already does: the start of a synchronized block. It is not
// interruptible: an interrupt while blocked is kept as the thread's status. Under
// [thread.PinSynchronized] a blocked virtual thread keeps its carrier; otherwise it unmounts.
func (m *Monitor) Enter() { enterFast(m) } // see fastpath.go

// entered and exited keep the core's count of monitors a virtual thread holds, which decides
// whether its parks pin under PinSynchronized. They are called by the owner, which recorded the
// count's address (s.mc, nil where nothing reads it: platform threads never pin, and only
// PinSynchronized parks look) when it took the monitor.
func (m *Monitor) entered() {
	if mc := m.s.mc; mc != nil {
		*mc++
	}
}

func (m *Monitor) exited() {
	if mc := m.s.mc; mc != nil {
		*mc--
	}
}

// TryEnter acquires the monitor only if it is free or already held by the current thread, and
// reports whether it did. It never blocks.
func (m *Monitor) TryEnter() bool {
	if m.s.lock(gid(), false) {
		m.entered()
		return true
	}
	return false
}

// Exit releases one hold: the end of a synchronized block. The monitor is free when the last
// hold is released, and a thread blocked in Enter is then woken. It panics with
// [ErrIllegalMonitorState] if the current thread does not hold the monitor.
func (m *Monitor) Exit() { exitFast(m) }

// Synchronized runs fn holding the monitor, as a synchronized (obj) { ... } block: Enter, fn,
// then Exit, also when fn panics.
func (m *Monitor) Synchronized(fn func()) {
	m.Enter()
	defer m.Exit()
	fn()
}

// Wait releases the monitor (every hold) and waits until another thread calls Notify or
// NotifyAll, or the current thread is interrupted, then re-enters the monitor (BLOCKED while
// another thread holds it) with the same hold count before it returns. It may return
// spuriously, so wait in a loop on a condition. It ports Object.wait().
//
// Interrupts: if the interrupt status is already set, Wait returns [thread.ErrInterrupted] at once
// (still holding the monitor) and clears it; if the thread is interrupted while waiting, Wait
// re-enters the monitor and then returns [thread.ErrInterrupted] with the status cleared; if the
// interrupt comes after a notification, Wait returns nil and leaves the status set. A
// notification is never lost to an interrupt: Notify skips a waiter that has already given up.
//
// Under [thread.PinSynchronized] a virtual thread keeps its carrier while it waits and the
// scheduler adds a temporary carrier in compensation; otherwise it unmounts. It panics with
// [ErrIllegalMonitorState] if the current thread does not hold the monitor.
func (m *Monitor) Wait() error { return m.wait(-1) }

// WaitTimeout is Wait that also returns (with nil) once d has elapsed without a notification.
// As Java's wait(0), WaitTimeout(0) waits without a timeout. It panics with
// [thread.ErrIllegalArgument] if d < 0 ("timeout value is negative"). It ports Object.wait(long).
func (m *Monitor) WaitTimeout(d time.Duration) error {
	if d < 0 {
		panicIAE("timeout value is negative")
	}
	if d == 0 {
		d = -1
	}
	return m.wait(d)
}

func (m *Monitor) wait(d time.Duration) error {
	if !m.s.heldByCurrent() {
		panicIMSE()
	}
	if interrupted() {
		return thread.ErrInterrupted
	}
	_, err := m.s.q.Await(&m.c, &m.s,
		waitq.Wait{Timeout: d, Interruptible: true, Reason: rt.ParkMonitorWait, Blocker: (*monitorWaitSet)(m)},
		waitq.Untimed(rt.ParkBlocked, m))
	return err
}

// Notify wakes one thread waiting on the monitor (the longest-waiting), if any; it returns from
// Wait after re-entering the monitor, once the caller has released it. From the notification on
// it waits to re-enter: it is BLOCKED, with the monitor as its Blocker, while the caller still
// holds the monitor. A Notify with no waiter is lost. It panics with [ErrIllegalMonitorState] if the current thread does not hold the
// monitor. It ports Object.notify().
func (m *Monitor) Notify() {
	if !m.s.heldByCurrent() {
		panicIMSE()
	}
	m.s.q.Signal(&m.c, true)
}

// NotifyAll wakes every thread waiting on the monitor; each is BLOCKED until it re-enters in
// turn, as after Notify. It panics with [ErrIllegalMonitorState]
// if the current thread does not hold the monitor. It ports Object.notifyAll().
func (m *Monitor) NotifyAll() {
	if !m.s.heldByCurrent() {
		panicIMSE()
	}
	m.s.q.SignalAll(&m.c, true)
}

// IsHeldByCurrentThread reports whether the current thread holds the monitor. It ports
// Thread.holdsLock(obj).
func (m *Monitor) IsHeldByCurrentThread() bool { return m.s.heldByCurrent() }

// HoldCount returns how many times the current thread has entered the monitor without exiting
// (0 if it does not hold it).
func (m *Monitor) HoldCount() int { return m.s.holdCount() }

// Owner returns the thread that holds the monitor, or nil (a snapshot). Deadlock detection
// follows it from a BLOCKED thread's Blocker.
func (m *Monitor) Owner() *thread.Thread { return m.s.ownerThread() }

// QueueLength returns the number of threads blocked entering the monitor, and those notified
// and waiting to re-enter (an estimate).
func (m *Monitor) QueueLength() int { return m.s.q.Len() }

// WaitingThreads returns the threads in the monitor's wait set, longest-waiting first.
func (m *Monitor) WaitingThreads() []*thread.Thread { return m.s.q.WaitingThreads(&m.c) }

// String returns "Monitor@<addr>[Unlocked]" or "...[Locked by thread <name>]".
func (m *Monitor) String() string {
	return fmt.Sprintf("Monitor@%p%s", m, lockState(m.s.ownerThread(), m.s.isLocked()))
}

// monitorWaitSet is the blocker of a thread in Wait: the monitor's wait set. It has no Owner
// method, because a waiting thread waits for a notification, not for the monitor's owner, so
// deadlock detection must not follow it (a thread that re-enters after the wait is BLOCKED on
// the Monitor itself).
type monitorWaitSet Monitor

// String returns "Monitor@<addr> (wait set)".
func (w *monitorWaitSet) String() string { return fmt.Sprintf("Monitor@%p (wait set)", w) }

// Monitor implements rt.WaitSet: a notified waiter, BLOCKED, shows the monitor as its blocker.
func (w *monitorWaitSet) Monitor() any { return (*Monitor)(w) }

// The monitors of arbitrary objects, keyed by a weak pointer to the object so that the table
// does not keep it alive; a cleanup attached to the object drops its entry once it is
// collected. (A map keyed by the plain pointer would pin every object ever synchronized on, and
// a finalizer would delay collection by a cycle and forbid finalizers of the caller's own.)
var objectMonitors struct {
	mu sync.Mutex
	m  map[any]*Monitor // weak.Pointer[T] -> monitor
}

// MonitorOf returns the monitor of the object p points to, the same one for the object's
// whole life: MonitorOf(obj).Synchronized(fn) is synchronized (obj) { fn() }. The table of
// monitors does not keep the object alive, and forgets the monitor once the object has been
// collected. It panics with [thread.ErrNilArgument] if p is nil.
//
// T must not be zero-size: Go may give every zero-size allocation (new(struct{}), a [0]int) the
// same address, so distinct objects would share one monitor and a Notify would wake the wrong
// waiter. MonitorOf panics with [thread.ErrIllegalArgument] for a zero-size T. Java's
// `final Object lock = new Object()` ports to `lock := new(locks.Monitor)` (a Monitor is its
// own lock object); to synchronize on a value of your own, give its type a field.
func MonitorOf[T any](p *T) *Monitor {
	if p == nil {
		panicNil("object")
	}
	if unsafe.Sizeof(*p) == 0 {
		panicIAE("MonitorOf of a zero-size %T: distinct zero-size values may share one address, "+
			"so they would share a monitor; use new(locks.Monitor) or a type with a field", *p)
	}
	key := any(weak.Make(p))
	objectMonitors.mu.Lock()
	defer objectMonitors.mu.Unlock()
	if m, ok := objectMonitors.m[key]; ok {
		return m
	}
	if objectMonitors.m == nil {
		objectMonitors.m = make(map[any]*Monitor)
	}
	m := new(Monitor)
	objectMonitors.m[key] = m
	runtime.AddCleanup(p, forgetMonitor, key)
	return m
}

func forgetMonitor(key any) {
	objectMonitors.mu.Lock()
	delete(objectMonitors.m, key)
	objectMonitors.mu.Unlock()
}

// objectMonitorCount returns the number of live entries in the MonitorOf table (for tests).
func objectMonitorCount() int {
	objectMonitors.mu.Lock()
	defer objectMonitors.mu.Unlock()
	return len(objectMonitors.m)
}
