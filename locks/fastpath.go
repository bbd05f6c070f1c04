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
// Neither side writes anything but the owner word: a free lock's hold count is 0 and means
// "one hold" to the thread that takes it (exclusive.go), so Lock stores no count after its CAS
// and Unlock tests it with a load before its exchange. That took a quarter of what was left of
// the gap: BenchmarkVsSyncMutex on a virtual thread, CPU-time ratio, medians of 5 alternating
// runs on the shared 2-core machine (load 3-4, which inflates sync.Mutex's pair to ~12 ns),
// ReentrantLock 1.102 -> 1.075 and Monitor 1.100 -> 1.074; the Go paths (-tags purego),
// ReentrantLock 1.255 -> 1.218 and Monitor 1.275 -> 1.210.
//
// What is left of the gap to sync.Mutex is the call and the owner checks. In a stand-alone model
// of lockFast and unlockFast on the same loaded machine, against sync.Mutex: the code as it is
// now, 1.075; with a holds store and decrement as before, 1.10; with no owner checks at all,
// only the goroutine id, the CAS, the exchange and the queue test, 1.05. Monitor's pinning count
// costs nothing measurable where it is nil (every scheduler but PinSynchronized): a Monitor
// Enter/Exit pair against a ReentrantLock Lock/Unlock pair measured 0.99-1.00.
//
// Designs not taken: a Go fast path that the compiler inlines whole needs the goroutine id
// without a call, and Go has no such thing; an Unlock that checks the owner by the address of
// a local variable against the owner's recorded stack bounds avoids reading the id but is
// unsound once the owner's stack has moved (its old memory may be another goroutine's by
// then); the g pointer as the owner word, with the id compared after the CAS, measured no
// faster (the loads after a locked instruction cost, whichever they are), and a g is reused
// by later goroutines.
//
// Also measured and not taken, in the stand-alone model (ratios to sync.Mutex as above):
//   - Unlock releasing with a CMPXCHG g->0, which checks the owner and frees the lock in one
//     instruction, instead of a load, a compare and an XCHG: 1.10 against 1.075 (a CMPXCHG
//     costs more than an XCHG here).
//   - The g from R14, where Go's internal ABI keeps it, instead of from TLS: 1.073 against
//     1.072, and an ABI0 function may not rely on it.
//   - Monitor's count kept out of the fast paths (a flag in the recorded taker that sends a
//     counting thread's Enter and Exit to Go): the nil test it would save costs nothing
//     measurable (above).
//
// And for the contended paths (two goroutines incrementing a counter under the lock, as loom
// bench's row, with the process at nice -19 so that both run at once; ratio of the lock's time
// to sync.Mutex's, medians of 20 rounds, in two or four batches). The spin as it is, 40 polls a
// few nanoseconds apart: 1.04-1.06.
//   - A PAUSE (~35 ns here) between polls, so that the spin lasts ~1.4 µs instead of ~0.1 µs:
//     1.80 and 1.89. A waiter that spins longer steals the lock more often from a holder that
//     takes it again and again, and every change of hands costs the new holder its record
//     (took) and both of them cache misses; the pair falls into a ping-pong of 70-100 ns an
//     increment (against ~35 for sync.Mutex), where the short spin gives up, parks, and leaves
//     the holder long runs. Ten PAUSEs a poll and 12 polls (sync.Mutex's length of spin):
//     1.99 and 1.38.
//   - A queued first thread spinning for the lock after a wake-up, before it parks again (what
//     AQS and sync.Mutex's woken waiter do; in waitq, with the woken flag left set meanwhile
//     so that releases skip the unpark): with the ten-PAUSE spin, 2x in 4 of 8 runs of
//     BenchmarkVsSyncMutex/Contended2; with one PAUSE, one run of 2.5x in 28.
//   - No spin at all (queue and park as soon as lock fails): 1.03-1.14, no better.
//   - Unlock testing the first queued node's woken flag in assembly, to skip the call to
//     WakeExclusive while a woken waiter has not run yet: no change measured.

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
