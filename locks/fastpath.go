package locks

import (
	"github.com/loomgo/loom/internal/rt"
	"github.com/loomgo/loom/internal/waitq"
	"github.com/petermattis/goid"
)

// The uncontended paths of ReentrantLock.Lock and Unlock and Monitor.Enter and Exit.
//
// Each of the four is a one-line method that calls a fast function (lockFast, unlockFast,
// enterFast, exitFast), so that the method is inlined where it is called and the call goes
// straight to the fast function. The fast function takes the lock with one CAS of the owner word
// (or releases it with one exchange), checks what exclusive.go says identifies the owner, and
// returns; anything else it hands, whole, to one of the Go functions below, which start over
// from the lock alone and so need nothing from the fast function.
//
// On amd64 (without the race detector, and unless built with the purego tag) the fast
// functions are written in assembly (fastpath_amd64.s): they read the goroutine id from the
// runtime's g (rt.GoidOffset) and jump to these functions, in a frame of their own and with no
// call of their own. Written in Go (fastpath_go.go: other architectures, the purego tag, and
// -race, whose detector does not see the atomics of assembly), the same function costs a
// second call, to read the goroutine id (goid.Get cannot be inlined), and a frame whose
// registers that call spills: an uncontended Lock/Unlock pair costs 2.2-2.6x a sync.Mutex pair
// in Go and 1.2-1.5x in assembly, measured side by side (bench_test.go's BenchmarkVsSyncMutex).
//
// What is left of the gap to sync.Mutex is the call and the owner checks. In a stand-alone model
// of lockFast and unlockFast (whose pair measured 1.5x a sync.Mutex pair there), the same code
// with a constant owner and no checks measured 1.2x; reading the goroutine id, 1.35x; also
// checking the recorded thread's state word, 1.5x.
//
// Designs not taken: a Go fast path that the compiler inlines whole needs the goroutine id
// without a call, and Go has no such thing; an Unlock that checks the owner by the address of
// a local variable against the owner's recorded stack bounds avoids reading the id but is
// unsound once the owner's stack has moved (its old memory may be another goroutine's by
// then); the g pointer as the owner word, with the id compared after the CAS, measured no
// faster (the loads after a locked instruction cost, whichever they are), and a g is reused
// by later goroutines.

// lockTook completes a Lock whose CAS took l when the taker changed: it records the current
// thread (see exclusive.took).
func lockTook(l *ReentrantLock) {
	l.s.recordCurrent(gid())
}

// lockContended is Lock when the CAS did not take l: l is fair, held (perhaps by the caller,
// which then adds a hold), or the goroutine id is read the slow way.
func lockContended(l *ReentrantLock) {
	if g := gid(); !l.s.lock(g, l.fair) && !l.s.spin(g, l.fair) {
		l.s.q.Acquire(&l.s, 1, false, waitq.Untimed(rt.ParkWaiting, l))
	}
}

// unlockChecked is Unlock with every check: the caller may not own l, or hold it more than
// once.
func unlockChecked(l *ReentrantLock) {
	if l.s.release(rt.Checked(goid.Get())) { // gid(), inlined
		unlockWake(l)
	}
}

// unlockWake completes an Unlock that freed l with threads queued.
func unlockWake(l *ReentrantLock) { l.s.q.WakeExclusive() }

// enterTook, enterContended, exitChecked and exitWake are the same for a Monitor, which also
// keeps the owner's count of monitors held (entered, exited).
func enterTook(m *Monitor) {
	m.s.recordCurrent(gid())
	m.entered()
}

func enterContended(m *Monitor) {
	if g := gid(); !m.s.lock(g, false) && !m.s.spin(g, false) {
		m.s.q.Acquire(&m.s, 1, false, waitq.Untimed(rt.ParkBlocked, m))
	}
	m.entered()
}

func exitChecked(m *Monitor) {
	g := rt.Checked(goid.Get()) // gid(), inlined
	if m.s.owner.Load() != g || !m.s.live() {
		panic(ErrIllegalMonitorState)
	}
	m.exited() // before the release: the count is the owner's, recorded with it
	if m.s.release(g) {
		exitWake(m)
	}
}

func exitWake(m *Monitor) { m.s.q.WakeExclusive() }
