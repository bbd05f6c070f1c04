package locks_test

import (
	"errors"
	"testing"
	"time"

	"github.com/loomgo/loom/internal/rt"
	"github.com/loomgo/loom/locks"
	"github.com/loomgo/loom/thread"
)

// A lock's owner word is a goroutine id (see exclusive.go), and goroutines are reused: a virtual
// thread that never parked ran inline on a carrier's dispatching goroutine, and the next one
// runs on the same goroutine; a goroutine loom did not start gets a new Thread after Detach. A
// lock that an ended thread leaked must not look owned by the next thread on that goroutine: in
// Java it stays locked by the dead thread for ever (isHeldByCurrentThread false,
// getHoldCount 0, tryLock false, unlock throws IllegalMonitorStateException, getOwner the dead
// thread).

// exclusiveLock is what ReentrantLock and Monitor have in common, for the checks below.
type exclusiveLock struct {
	name           string
	lock           func()
	tryLock        func() bool
	tryLockTimeout func(time.Duration) bool
	unlock         func()
	held           func() bool
	holds          func() int
	owner          func() *thread.Thread
	locked         func() bool
	waitOrSignal   func() // must panic with ErrIllegalMonitorState unless held
}

func exclusiveLocks() []exclusiveLock {
	var l locks.ReentrantLock
	c := l.NewCondition()
	var m locks.Monitor
	return []exclusiveLock{
		{
			name: "ReentrantLock", lock: l.Lock, tryLock: l.TryLock,
			tryLockTimeout: func(d time.Duration) bool { ok, _ := l.TryLockTimeout(d); return ok },
			unlock:         l.Unlock, held: l.IsHeldByCurrentThread, holds: l.HoldCount,
			owner: l.Owner, locked: l.IsLocked, waitOrSignal: c.Signal,
		},
		{
			name: "Monitor", lock: m.Enter, tryLock: m.TryEnter,
			tryLockTimeout: func(time.Duration) bool { return m.TryEnter() },
			unlock:         m.Exit, held: m.IsHeldByCurrentThread, holds: m.HoldCount,
			owner: m.Owner, locked: func() bool { return m.Owner() != nil }, waitOrSignal: m.Notify,
		},
	}
}

// checkLeaked runs on a thread that is not dead, on the goroutine where dead locked l twice and
// ended: l must still be dead's, and only dead's.
func checkLeaked(t *testing.T, l exclusiveLock, dead *thread.Thread) {
	t.Helper()
	if l.held() {
		t.Errorf("%s: IsHeldByCurrentThread true for a lock a dead thread leaked", l.name)
	}
	if n := l.holds(); n != 0 {
		t.Errorf("%s: HoldCount %d, want 0", l.name, n)
	}
	if l.tryLock() {
		t.Errorf("%s: TryLock re-entered a lock a dead thread holds", l.name)
	}
	if l.tryLockTimeout(5 * time.Millisecond) {
		t.Errorf("%s: TryLockTimeout took a lock a dead thread holds", l.name)
	}
	if !l.locked() || l.owner() != dead {
		t.Errorf("%s: locked %v, owner %v; want locked by the dead %v", l.name, l.locked(), l.owner(), dead)
	}
	if r := recovered(l.unlock); !isIMSE(r) {
		t.Errorf("%s: Unlock by another thread panicked with %v, want ErrIllegalMonitorState", l.name, r)
	}
	if r := recovered(l.waitOrSignal); !isIMSE(r) {
		t.Errorf("%s: Signal/Notify by another thread panicked with %v, want ErrIllegalMonitorState", l.name, r)
	}
	if !l.locked() || l.owner() != dead {
		t.Errorf("%s: after the failed Unlock: locked %v, owner %v", l.name, l.locked(), l.owner())
	}
}

func isIMSE(r any) bool {
	err, ok := r.(error)
	return ok && errors.Is(err, locks.ErrIllegalMonitorState)
}

func recovered(fn func()) (r any) {
	defer func() { r = recover() }()
	fn()
	return nil
}

// Two virtual threads run inline, one after the other, on the same dispatching goroutine of a
// one-carrier scheduler: the first locks and ends without unlocking; the second, on the same
// goroutine, does not own the lock.
func TestLeakedLockOfEndedVirtualThreadOnSameGoroutine(t *testing.T) {
	for _, l := range exclusiveLocks() {
		t.Run(l.name, func(t *testing.T) {
			s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 1})
			defer s.Close()
			var deadG, nextG int64
			done := make(chan struct{})
			vb := thread.OfVirtual().Scheduler(s)
			th := vb.Start(func() {
				dead := thread.Current()
				deadG = rt.Goid()
				l.lock()
				l.lock()
				if n := l.holds(); n != 2 {
					t.Errorf("owner's HoldCount %d, want 2", n)
				}
				// Queued behind this thread on the only carrier: it runs once this one has
				// ended, inline on the same goroutine.
				vb.Start(func() {
					defer close(done)
					nextG = rt.Goid()
					if nextG != deadG {
						t.Errorf("the next virtual thread ran on goroutine %d, not %d: the case under test did not arise", nextG, deadG)
						return
					}
					checkLeaked(t, l, dead)
				})
			})
			if err := th.Join(); err != nil {
				t.Fatal(err)
			}
			<-done
		})
	}
}

// A goroutine loom did not start locks, detaches (its Thread terminates) and is attached again as
// a new Thread: the lock belongs to the first one, which has ended.
func TestLeakedLockOfDetachedGoroutine(t *testing.T) {
	for _, l := range exclusiveLocks() {
		t.Run(l.name, func(t *testing.T) {
			done := make(chan struct{})
			go func() {
				defer close(done)
				defer thread.Detach()
				first := thread.Current()
				l.lock()
				l.lock()
				thread.Detach()
				if first.State() != thread.Terminated {
					t.Errorf("detached thread is %v", first.State())
				}
				if thread.Current() == first {
					t.Error("no new Thread after Detach")
				}
				checkLeaked(t, l, first)
			}()
			<-done
		})
	}
}

// The lock's record of its last taker is a cache: threads taking turns, on the same goroutine or
// not, each see exactly their own holds.
func TestLockTakersTakingTurnsSeeOnlyTheirOwnHolds(t *testing.T) {
	for _, l := range exclusiveLocks() {
		t.Run(l.name, func(t *testing.T) {
			s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 1})
			defer s.Close()
			vb := thread.OfVirtual().Scheduler(s)
			for i := range 20 {
				th := vb.Start(func() {
					me := thread.Current()
					if l.held() || l.holds() != 0 {
						t.Errorf("turn %d: held before locking", i)
					}
					for range i%3 + 1 {
						l.lock()
					}
					if !l.held() || l.holds() != i%3+1 || l.owner() != me {
						t.Errorf("turn %d: held %v, holds %d, owner %v", i, l.held(), l.holds(), l.owner())
					}
					for range i%3 + 1 {
						l.unlock()
					}
					if l.held() || l.locked() {
						t.Errorf("turn %d: still held after unlocking", i)
					}
					if i%2 == 0 {
						thread.Yield() // park once: later turns run on other goroutines
					}
				})
				if err := th.Join(); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}
