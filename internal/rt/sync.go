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

	// MonitorCount returns the count of monitors t (a *thread.Thread) holds, which a Monitor
	// bumps on Enter and drops on Exit, or nil if nothing ever reads it: t is not a virtual
	// thread, or its scheduler does not pin on monitors (only PinSynchronized parks read it).
	// A Monitor records the pointer with its owner, so its Enter and Exit pay one increment
	// through it, or a nil test, instead of a call. A thread's scheduler never changes, so the
	// answer stays right for t's whole life.
	MonitorCount func(t any) *int32
)
