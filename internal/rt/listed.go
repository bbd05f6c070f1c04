package rt

// Threads listed by their owner.
//
// Package thread lists every virtual thread that has unmounted once in a registry of its own
// (a slot of 8 bytes per thread, and a lock taken at its first park and at its end), so that
// thread.LiveThreads, FindDeadlocked and DumpThreads find a parked thread. A thread-per-task
// executor lists the threads of its running tasks anyway (ShutdownNow interrupts them): a task
// that says so (Listed) is left out of package thread's registry, and its owner's list (a
// Lister, added with AddLister) is read instead. At 100,000 sleeping virtual threads started by
// executors.Submit that is 8 bytes and a lock pair less per thread.

// Listed is a Runner whose thread its owner lists from before the thread first unmounts until
// the Runner is Ended, in a Lister that was added ([AddLister]) before that. Package thread keeps
// such a thread out of its registry of virtual threads.
type Listed interface {
	Runner
	Listed() // a marker
}

// A Lister lists threads: Threads calls yield with each (a *thread.Thread) until yield returns
// false. It may be called from any goroutine, concurrently with the list's changes.
type Lister interface {
	Threads(yield func(t any) bool)
}

// AddLister makes package thread's listings of live threads read l too, until remove is called.
var AddLister func(l Lister) (remove func())
