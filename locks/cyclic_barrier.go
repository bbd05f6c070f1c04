package locks

import (
	"errors"
	"time"

	"github.com/loomgo/loom/thread"
)

// ErrBrokenBarrier is Java's BrokenBarrierException: a [CyclicBarrier] was broken (a party was
// interrupted or timed out, the barrier action panicked, or Reset was called) while, or before,
// the caller waited.
var ErrBrokenBarrier = errors.New("locks: broken barrier")

// ErrTimeout is Java's TimeoutException from CyclicBarrier.await(timeout) (the wait timed out and
// broke the barrier), Phaser.awaitAdvanceInterruptibly(phase, timeout) and
// Exchanger.exchange(x, timeout). It is [thread.ErrTimeout], the one TimeoutException of every
// loom package (a future's timed Get returns it too).
var ErrTimeout = thread.ErrTimeout

// A CyclicBarrier lets a fixed number of threads (parties) wait for each other: each calls
// Await, and all return once the last one arrives, after that one has run the optional barrier
// action. The barrier then resets for the next round. It ports
// java.util.concurrent.CyclicBarrier, built as Java builds it from a [ReentrantLock] and a
// Condition. A CyclicBarrier must not be copied after first use.
//
// All-or-none: if one party leaves early (interrupted, timed out) or the action panics, the
// barrier is broken: every waiting party and every later Await gets [ErrBrokenBarrier], until
// Reset. A virtual thread unmounts while it waits. Actions before Await in each party
// synchronize before the barrier action, which synchronizes before every Await returns.
type CyclicBarrier struct {
	_       noCopy
	lock    ReentrantLock
	trip    *Condition
	parties int
	action  func()
	gen     *generation
	count   int // parties still to arrive in this generation
}

type generation struct{ broken bool }

// NewCyclicBarrier returns a barrier for parties threads that runs action (which may be nil)
// in the last thread to arrive, before releasing the others. It panics with
// [thread.ErrIllegalArgument] if parties <= 0. It ports new [CyclicBarrier](parties, action).
func NewCyclicBarrier(parties int, action func()) *CyclicBarrier {
	if parties <= 0 {
		panicIAE("parties %d <= 0", parties)
	}
	b := &CyclicBarrier{parties: parties, action: action, gen: &generation{}, count: parties}
	b.trip = b.lock.NewCondition()
	return b
}

// Await waits until all parties have called Await on this barrier, and returns the caller's
// arrival index: Parties()-1 for the first to arrive, 0 for the last (which ran the action).
// It returns [ErrBrokenBarrier] if the barrier is or becomes broken while waiting, and
// [thread.ErrInterrupted] (status cleared, barrier broken) if the current thread is interrupted
// before or while waiting. If the action panics, the barrier is broken and the panic goes on in
// the thread that ran it; [runtime.Goexit] in the action breaks the barrier too. It ports
// CyclicBarrier.await().
func (b *CyclicBarrier) Await() (int, error) { return b.await(-1) }

// AwaitTimeout is Await that gives up after d: it then breaks the barrier and returns
// [ErrTimeout] (d <= 0 times out at once unless the caller is the last party). It ports
// CyclicBarrier.await(long, TimeUnit).
func (b *CyclicBarrier) AwaitTimeout(d time.Duration) (int, error) { return b.await(max(d, 0)) }

func (b *CyclicBarrier) await(d time.Duration) (int, error) {
	b.lock.Lock()
	defer b.lock.Unlock()
	g := b.gen
	if g.broken {
		return 0, ErrBrokenBarrier
	}
	if interrupted() {
		b.breakBarrier()
		return 0, thread.ErrInterrupted
	}
	b.count--
	index := b.count
	if index == 0 {
		ok := false
		defer func() {
			if !ok {
				b.breakBarrier() // the action panicked
			}
		}()
		if b.action != nil {
			b.action()
		}
		ok = true
		b.nextGeneration()
		return 0, nil
	}
	var deadline time.Time
	if d >= 0 {
		deadline = time.Now().Add(d)
	}
	for {
		var err error
		if d < 0 {
			err = b.trip.Await()
		} else if left := time.Until(deadline); left > 0 {
			_, err = b.trip.AwaitTimeout(left)
		}
		if err != nil {
			if g == b.gen && !g.broken {
				b.breakBarrier()
				return 0, err
			}
			// The round completed (or broke) before the interrupt: finish normally and keep
			// the interrupt for later, as Java does.
			thread.Current().Interrupt()
		}
		if g.broken {
			return 0, ErrBrokenBarrier
		}
		if g != b.gen {
			return index, nil
		}
		if d >= 0 && time.Until(deadline) <= 0 {
			b.breakBarrier()
			return 0, ErrTimeout
		}
	}
}

func (b *CyclicBarrier) nextGeneration() {
	b.trip.SignalAll()
	b.count = b.parties
	b.gen = &generation{}
}

func (b *CyclicBarrier) breakBarrier() {
	b.gen.broken = true
	b.count = b.parties
	b.trip.SignalAll()
}

// Parties returns the number of parties needed to trip the barrier. It ports getParties().
func (b *CyclicBarrier) Parties() int { return b.parties }

// IsBroken reports whether the barrier is broken. It ports isBroken().
func (b *CyclicBarrier) IsBroken() bool {
	b.lock.Lock()
	defer b.lock.Unlock()
	return b.gen.broken
}

// NumberWaiting returns the number of parties waiting at the barrier now. It ports
// getNumberWaiting().
func (b *CyclicBarrier) NumberWaiting() int {
	b.lock.Lock()
	defer b.lock.Unlock()
	return b.parties - b.count
}

// Reset breaks the current round, so its waiting parties return [ErrBrokenBarrier], and starts a
// fresh one. It ports reset().
func (b *CyclicBarrier) Reset() {
	b.lock.Lock()
	defer b.lock.Unlock()
	b.breakBarrier()
	b.nextGeneration()
}
