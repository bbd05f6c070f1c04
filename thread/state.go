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
