package thread

import "github.com/loomgo/loom/internal/rt"

// State is a thread's state, as Java's Thread.State. A thread is in exactly one state at a time;
// the states say what the thread is doing, not whether it holds a carrier.
type State int32

// The states, as in java.lang.Thread.State.
const (
	// New is a thread that has not been started.
	New State = iota
	// Runnable is a thread that runs, or is ready to run and waits for a carrier (virtual) or a
	// CPU (platform).
	Runnable
	// Blocked is a thread waiting to enter a monitor (locks.Monitor), or to re-enter it after
	// Wait.
	Blocked
	// Waiting is a thread parked without a timeout: Park, Join, Condition.Await, Take, ...
	Waiting
	// TimedWaiting is a thread parked with a timeout: Sleep, [ParkNanos], JoinTimeout, ...
	TimedWaiting
	// Terminated is a thread whose task has returned or panicked.
	Terminated
)

var stateNames = [...]string{"NEW", "RUNNABLE", "BLOCKED", "WAITING", "TIMED_WAITING", "TERMINATED"}

// String returns the Java name of the state: "NEW", "RUNNABLE", "BLOCKED", "WAITING",
// "TIMED_WAITING" or "TERMINATED".
func (s State) String() string {
	if s >= 0 && int(s) < len(stateNames) {
		return stateNames[s]
	}
	return "State(" + itoa(int64(s)) + ")"
}

func itoa(n int64) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	neg := n < 0
	if neg {
		n = -n
	}
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	if neg {
		i--
		b[i] = '-'
	}
	return string(b[i:])
}

// The BLOCKED state of a notified monitor waiter.
//
// In Java a thread notified in Object.wait is BLOCKED from the notification on, while the
// notifier still holds the monitor, until it has re-entered; a timeout or an interrupt that
// comes meanwhile does not make it RUNNABLE (it still has to re-enter). The notifier therefore
// sets the waiter's state (notified), and the waiter keeps it through the rest of its wait:
//
//	WAITING/TIMED_WAITING/RUNNABLE --(Notify: notified)--> BLOCKED --(re-entered: waitEnded)--> RUNNABLE
//
// The waiter's own state changes during a monitor wait do not overwrite BLOCKED: the wait park
// takes WAITING or TIMED_WAITING only from RUNNABLE (enterParkState), and its end, or a timer or
// an interrupt resuming it, makes it RUNNABLE only from WAITING or TIMED_WAITING
// (runnableUnlessNotified). Only the release of the monitor, which wakes the waiter as the next to
// enter, makes it RUNNABLE (Java's unblocked virtual thread), as does the end of the wait.
//
// Why the notifier may change another thread's state: between joining the wait set and
// re-entering, the waiter runs only loom code and parks only in the wait itself or, BLOCKED, to
// re-enter; Notify holds the monitor, so the waiter is in that stretch, and whatever state it is
// in, the next thing it does is re-enter. A waiter about to park (RUNNABLE, not yet WAITING) is
// covered too: its CAS from RUNNABLE then fails, and it parks BLOCKED.

// notified makes t, whose wait has just been notified, BLOCKED, and reports whether it did; t is
// then left parked (if it is) until the monitor's release wakes it. It ports the state change of
// a notify in the JVM.
func (t *Thread) notified() bool {
	for {
		switch st := t.state.Load(); State(st) {
		case Waiting, TimedWaiting, Runnable:
			if t.state.CompareAndSwap(st, int32(Blocked)) {
				return true
			}
		default:
			return false
		}
	}
}

// enterParkState sets the state of a park about to begin; a monitor wait that has been notified
// meanwhile stays BLOCKED.
func (t *Thread) enterParkState(st State, reason int) {
	if reason == rt.ParkMonitorWait {
		t.state.CompareAndSwap(int32(Runnable), int32(st))
		return
	}
	t.state.Store(int32(st))
}

// runnableUnlessNotified makes t RUNNABLE at the end of a monitor wait's park, unless t has been
// notified (then it stays BLOCKED until it has re-entered).
func (t *Thread) runnableUnlessNotified() {
	for {
		st := t.state.Load()
		if st == int32(Blocked) || st == int32(Runnable) || t.state.CompareAndSwap(st, int32(Runnable)) {
			return
		}
	}
}

// waitEnded makes the current thread, back in the monitor after a wait, RUNNABLE.
func (t *Thread) waitEnded() { t.state.CompareAndSwap(int32(Blocked), int32(Runnable)) }

// isMonitorWait reports whether park word v is a monitor wait (Object.wait): a monitor park that
// an interrupt wakes.
func isMonitorWait(v uint64) bool { return v&(flagMonitor|flagNoIntr) == flagMonitor }
