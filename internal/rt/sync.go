package rt

import "sync/atomic"

// Hooks for the synchronizers' fast paths (package locks), filled in by package thread
// (thread/rt_sync.go). A lock that knows the current *thread.Thread already must not look it up
// again, nor call through a hook on every Lock and Unlock.
var (
	// StateWord returns the word holding t's thread.State (t is a *thread.Thread): a lock that
	// recorded t reads it, with one load and no call, to tell whether t has terminated (see
	// locks' exclusive.go). A Thread is never reused for another thread, so the word stays t's.
	StateWord func(t any) *atomic.Int32

	// MonitorEnteredBy and [MonitorExitedBy] are [MonitorEntered] and [MonitorExited] for a caller
	// that has the current thread t (a *thread.Thread) at hand.
	MonitorEnteredBy func(t any)
	MonitorExitedBy  func(t any)
)
