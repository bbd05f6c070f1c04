package rt

// I/O waits: the hooks package vio uses to park a thread on something only Go can wait for (the
// runtime's network poller, a process, a channel, a context). Package thread fills them in; see
// thread/iopark.go for the model.

// IOWait describes one kind of I/O wait: what the thread waits in, for thread dumps, and what an
// interrupt does to it. It is Java's sun.nio.ch.Interruptible, the object Thread.blockedOn
// registers. An IOWait is owned by its resource and reused: a vio conn has one for reads and one
// for writes, so registering it costs no allocation.
type IOWait struct {
	// Op names the call, as a thread dump shows it: "read", "write", "accept", "receive", ...
	Op string
	// Blocker is what the thread waits on (the conn, the listener, the channel); Thread.Blocker
	// returns it while the thread waits.
	Blocker any
	// Interrupt is called by Thread.Interrupt of t (a *thread.Thread), on the interrupting
	// goroutine, while t has this wait registered, and by IOBegin when t starts the wait with its
	// interrupt status set. It must make t's wait end (close the socket, cancel the request, wake
	// the select), or, for a call that looks at the status itself before it parks (vio's sockets,
	// as java.net.Socket), end it only once the call is parking; and be safe to call more than
	// once and concurrently.
	Interrupt func(t any)
}

// How a thread parked in I/O shows while it waits (the how argument of IOPark).
const (
	IOWaiting      = iota // WAITING: a socket, a channel, a context with no deadline
	IOTimedWaiting        // TIMED_WAITING: a socket with a deadline (Java's setSoTimeout)
	IORunnable            // RUNNABLE, unmounted: a call Java shows as running native code
	IOCompensated         // RUNNABLE, keeps the carrier while the scheduler lends a temporary one (Java's file I/O)
)

// Hooks filled in by package thread.
var (
	// IOCurrent returns the current goroutine's thread, or nil if the goroutine is not a loom
	// thread (a goroutine loom did not start and that never called thread.Current: it is not
	// attached by this call). mounted reports a virtual thread that holds a carrier, which IOPark
	// can give back.
	IOCurrent func() (t any, mounted bool)
	// IOBegin registers w as t's I/O wait and returns the one it replaces (nested waits: a TLS
	// read over a vio conn). If t's interrupt status is set, w.Interrupt(t) is called at once.
	// Every IOBegin is balanced by IOEnd on the same goroutine.
	IOBegin func(t any, w *IOWait) (prev *IOWait)
	// IOPark tells t that it is about to wait: a mounted virtual thread gives its carrier back and
	// shows as how says; a pinned one keeps it (a pinned park, reported as such). It does nothing
	// for a platform thread, for a thread already parked by an enclosing wait, or when called
	// again in the same wait.
	IOPark func(t any, how int)
	// IOEnd ends the wait IOBegin started: a thread IOPark unmounted re-mounts (behind the
	// virtual threads already queued) and is RUNNABLE again, and prev is registered again.
	IOEnd func(t any, prev *IOWait)
)
