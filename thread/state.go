package thread

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
	// TimedWaiting is a thread parked with a timeout: Sleep, ParkNanos, JoinTimeout, ...
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

// notified moves t, parked in a monitor wait (Object.wait) that has just been notified, from
// WAITING or TIMED_WAITING to BLOCKED with the monitor as its blocker: as in Java, a notified
// thread waits to re-enter the monitor from the moment of the notification, while the notifier
// still holds it, and it is not woken until the monitor is released. It reports false, changing
// nothing, if t is not (or no longer) parked in the wait; the notifier then wakes t, and t shows
// BLOCKED once it parks to re-enter.
//
// Why this cannot leave a stale state: t stores WAITING or TIMED_WAITING only on its way into a
// park, and every park ends with t itself storing RUNNABLE (afterPark), so a CAS that finds the
// waiting state is always followed by t's own RUNNABLE store. The blocker is changed before the
// state and put back if the state CAS fails; afterPark clears it after its RUNNABLE store.
// Between joining the wait set and re-entering, the waiter parks only in the wait itself or,
// BLOCKED, to re-enter, so the waiting state found is the wait's.
func (t *Thread) notified(blocker any) bool {
	b := &blockerBox{blocker}
	for {
		st := t.state.Load()
		if st != int32(Waiting) && st != int32(TimedWaiting) {
			return false
		}
		old := t.blocker.Load()
		if !t.blocker.CompareAndSwap(old, b) {
			continue
		}
		if t.state.CompareAndSwap(st, int32(Blocked)) {
			return true
		}
		t.blocker.CompareAndSwap(b, old)
	}
}
