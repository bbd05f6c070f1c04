package locks_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/loomgo/loom/locks"
	"github.com/loomgo/loom/thread"
)

// An exclusive lock counts only the holds beyond the owner's first, and that count must be 0
// whenever the lock is free, since a thread that takes a free lock writes nothing but the owner
// word (exclusive.go). Every way of letting go of the lock must leave it so: nested unlocks, a
// wait (which releases every hold and restores them), a hand-off to a queued thread, and the
// owner's own taking of the lock again. The next owner, on another goroutine, must then hold it
// exactly once.
func TestEveryReleaseLeavesNoHoldsForTheNextOwner(t *testing.T) {
	var l locks.ReentrantLock
	c := l.NewCondition()
	var m locks.Monitor
	for _, tc := range []struct {
		name         string
		lock, unlock func()
		wait         func() // with a short timeout, holding the lock
		holds        func() int
		locked       func() bool
		queued       func() bool
	}{
		{"ReentrantLock", l.Lock, l.Unlock, func() { _, _ = c.AwaitTimeout(time.Millisecond) }, l.HoldCount, l.IsLocked, l.HasQueuedThreads},
		{"Monitor", m.Enter, m.Exit, func() { _ = m.WaitTimeout(time.Millisecond) }, m.HoldCount, func() bool { return m.Owner() != nil }, func() bool { return m.QueueLength() > 0 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// on returns once fn has run on a virtual thread of its own.
			on := func(fn func()) {
				t.Helper()
				if err := endsSoon(thread.StartVirtualThread(fn)); err != nil {
					t.Fatal(err)
				}
			}
			once := func(step string) {
				t.Helper()
				on(func() {
					tc.lock()
					if got := tc.holds(); got != 1 {
						t.Errorf("after %s: the next owner's HoldCount %d, want 1", step, got)
					}
					tc.unlock()
					if tc.locked() {
						t.Errorf("after %s: still locked after the next owner's one Unlock", step)
					}
				})
			}

			on(func() {
				for range 3 {
					tc.lock()
				}
				for range 3 {
					tc.unlock()
				}
			})
			once("three nested unlocks")

			// A wait: another thread takes the lock while its owner waits with three holds.
			on(func() {
				for range 3 {
					tc.lock()
				}
				waited := make(chan struct{})
				other := thread.StartVirtualThread(func() {
					defer close(waited)
					tc.lock()
					if got := tc.holds(); got != 1 {
						t.Errorf("during a wait with three holds: the other thread's HoldCount %d, want 1", got)
					}
					tc.unlock()
				})
				for {
					tc.wait() // releases the lock, letting other in, and re-acquires it
					if got := tc.holds(); got != 3 {
						t.Errorf("HoldCount %d after a wait, want 3", got)
					}
					select {
					case <-waited:
					default:
						continue
					}
					break
				}
				for range 3 {
					tc.unlock()
				}
				if err := endsSoon(other); err != nil {
					t.Error(err)
				}
			})
			once("a wait with three holds")

			// A hand-off: the holder releases while another thread waits in the queue.
			on(func() {
				tc.lock()
				tc.lock()
				waiter := thread.StartVirtualThread(func() {
					tc.lock()
					if got := tc.holds(); got != 1 {
						t.Errorf("the queued thread's HoldCount %d, want 1", got)
					}
					tc.unlock()
				})
				for !tc.queued() {
					time.Sleep(time.Millisecond)
				}
				tc.unlock()
				tc.unlock()
				if err := endsSoon(waiter); err != nil {
					t.Error(err)
				}
			})
			once("a hand-off to a queued thread")
		})
	}
}

// endsSoon joins th, or reports that it is still blocked after a while (a lock left held).
func endsSoon(th *thread.Thread) error {
	ok, err := th.JoinTimeout(10 * time.Second)
	if !ok && err == nil {
		return fmt.Errorf("thread %v still running after 10s: blocked on a lock left held?", th)
	}
	return err
}
