package forkjoin

import "github.com/loomgo/loom/thread"

// A ManagedBlocker is a wait that a fork-join pool can compensate for: Java's
// ForkJoinPool.ManagedBlocker. [ManagedBlock] calls IsReleasable first and calls Block only if
// it must.
type ManagedBlocker interface {
	// Block blocks the current thread until the wait is over or may be over, and reports
	// whether no more blocking is needed. It returns an error (typically
	// [thread.ErrInterrupted]) to give up.
	Block() (bool, error)
	// IsReleasable reports whether blocking is unnecessary (it never blocks itself).
	IsReleasable() bool
}

// ManagedBlock runs blocker until it is released. On a worker of a pool, the worker counts as
// blocked while Block runs, and the pool starts a spare worker if queued tasks would otherwise
// lack one (up to its maximum size), so that a task that waits does not starve the pool. On a
// virtual thread, Block runs inside [thread.Blocking]: the thread's carrier is released
// meanwhile, which is the virtual-thread scheduler's version of the same compensation. On
// other threads it just runs the blocker. It returns the error Block returned, if any. It ports
// ForkJoinPool.managedBlock.
func ManagedBlock(blocker ManagedBlocker) error {
	if blocker == nil {
		panic(nilArg("blocker"))
	}
	if w := currentWorker(); w != nil {
		for !blocker.IsReleasable() {
			w.pool.beginBlock()
			done, err := blocker.Block()
			w.pool.endBlock()
			if err != nil || done {
				return err
			}
		}
		return nil
	}
	if thread.Current().IsVirtual() {
		var err error
		thread.Blocking(func() { err = unmanagedBlock(blocker) })
		return err
	}
	return unmanagedBlock(blocker)
}

func unmanagedBlock(b ManagedBlocker) error {
	for !b.IsReleasable() {
		if done, err := b.Block(); err != nil || done {
			return err
		}
	}
	return nil
}
