package locks

import (
	"fmt"
	"math"
	"sync"
	"sync/atomic"
	"time"

	"github.com/loomgo/loom/internal/rt"
	"github.com/loomgo/loom/internal/waitq"
	"github.com/loomgo/loom/thread"
)

// Phaser, as java.util.concurrent.Phaser.
//
// # Model
//
// A phaser's state is one 64-bit word, laid out as Java's:
//
//	bits 0-15   unarrived parties in this phase
//	bits 16-31  registered parties
//	bits 32-62  phase number (0 .. MaxInt32, then 0 again)
//	bit  63     terminated (so the phase, read as an int32, is negative)
//
// The counts word 1 (one unarrived, no parties) is the special value "empty": a phaser with no
// parties, whose arrivals would be illegal. Register, Arrive and ArriveAndDeregister are CASes
// on the word. The arrival that makes unarrived 0 advances: on the root phaser it calls
// onAdvance and stores the next phase with unarrived reset to the number of parties, in one
// CAS; on a child (a phaser with a parent) it arrives at the parent instead, since a child is
// one party of its parent, and the child catches up with the root's phase lazily
// (reconcileState) the next time anyone looks at it. Only the root's phase moves by itself.
//
// Waiting threads wait for the root's phase to differ from the one they saw. They queue on the
// root (one list for the whole tree, guarded by a mutex), each node holding its thread and the
// phase it waits out, and park (a virtual thread unmounts). An advance, and termination, CAS
// the root's word first and then take the list's mutex and unpark every node whose phase is no
// longer the current one.
//
// # Why nothing is lost
//
// A waiter appends its node under the mutex and only then re-reads the root's phase; the
// advancer changes the phase (a CAS) before it takes the mutex to look for nodes. If the waiter's
// re-read sees the old phase, that read precedes the advancing CAS in the (sequentially
// consistent) order of atomics, so the advancer's scan, which comes after its CAS and after the
// waiter released the mutex, finds the node. The park permit covers the window between the
// re-read and the park. A waiter that gives up (timeout, interrupt) removes its own node under
// the same mutex; removal and release are idempotent, so a node released just as it gives up is
// not lost either: the waiter then sees the new phase and returns it, as Java does.
//
// Counters do not wrap: registering past 65535 parties, or arriving with no unarrived party,
// panics with ErrIllegalState and leaves the phaser unchanged; the phase number wraps to 0 after
// MaxInt32, as Java's. If onAdvance panics (or calls runtime.Goexit), Java leaves the phaser in
// the middle of an advance forever; loom terminates it instead, so that parties waiting for the
// advance return (with a negative phase) rather than hang, and the panic goes on in the
// arriving thread.

// ErrIllegalState is Java's IllegalStateException from a Phaser: registering more than 65535
// parties, or arriving when no party is unarrived. It is raised by a panic whose value wraps it.
// It is [thread.ErrIllegalState], the one IllegalStateException of every loom package.
var ErrIllegalState = thread.ErrIllegalState

const (
	phMaxParties    = 0xffff
	phMaxPhase      = math.MaxInt32
	phPartiesShift  = 16
	phPhaseShift    = 32
	phUnarrivedMask = 0xffff
	phPartiesMask   = 0xffff0000
	phCountsMask    = 0xffffffff
	phTermination   = uint64(1) << 63
	phOneArrival    = 1
	phOneParty      = 1 << phPartiesShift
	phOneDeregister = phOneArrival | phOneParty
	phEmpty         = 1
)

func phaseOf(s uint64) int { return int(int32(s >> phPhaseShift)) }

func partiesOf(s uint64) int { return int(uint32(s) >> phPartiesShift) }

func unarrivedOf(s uint64) int {
	if c := uint32(s); c != phEmpty {
		return int(c & phUnarrivedMask)
	}
	return 0
}

func arrivedOf(s uint64) int {
	if c := uint32(s); c != phEmpty {
		return int(c>>phPartiesShift) - int(c&phUnarrivedMask)
	}
	return 0
}

// phaseBits is phase placed in the phase field (with the termination bit if it is negative).
func phaseBits(phase int) uint64 { return uint64(uint32(int32(phase))) << phPhaseShift }

// A Phaser is a reusable barrier for a varying number of parties: parties register, each
// arrives once per phase, and the phase advances when the last registered party arrives. A
// party may wait for the advance (ArriveAndAwaitAdvance, AwaitAdvance) or not (Arrive), and may
// leave (ArriveAndDeregister). It ports java.util.concurrent.Phaser. The zero value is Java's
// new Phaser(): phase 0, no parties, no parent. A Phaser must not be copied after first use.
//
// Phasers may be tiered: a phaser made with [WithParent] is registered as one party of its
// parent while it has parties of its own, so large groups can share one barrier without all
// contending on one word. Phase numbers are Java's ints: they wrap to 0 after [math.MaxInt32],
// and are negative (phase + [math.MinInt32]) once the phaser is terminated, which every method
// that returns a phase then reports. A virtual thread that waits unmounts. Actions before an
// arrival synchronize before the advance that the arrival (or a later one) triggers, which
// synchronizes before every wait for that advance returns.
type Phaser struct {
	_         noCopy
	enc       atomic.Uint64 // the state word XOR phEmpty, so that the zero value is an empty phaser
	parent    *Phaser
	root      *Phaser // nil: this phaser is a root
	onAdvance func(phase, registeredParties int) bool
	regLock   ReentrantLock // Java's synchronized(this) around a child's first registration
	waiters   phaserWaiters // used on roots only
}

// A PhaserOption configures [NewPhaser].
type PhaserOption interface{ apply(*Phaser) }

type phaserOption func(*Phaser)

func (f phaserOption) apply(p *Phaser) { f(p) }

// WithParent makes the new phaser a child of parent (nil: no parent), as Java's
// Phaser(Phaser parent, int parties). While the child has registered parties it is itself one
// registered party of parent.
func WithParent(parent *Phaser) PhaserOption {
	return phaserOption(func(p *Phaser) { p.parent = parent })
}

// WithOnAdvance sets the action run on each impending advance, as overriding Java's
// Phaser.onAdvance(int phase, int registeredParties): it is called by the party whose arrival
// advances the phaser, with the phase being completed and the number of parties registered for
// the next one, while no party can arrive; if it returns true the phaser terminates instead of
// advancing. Only the root of a tree of phasers calls its onAdvance. The default terminates
// when no parties are left (registeredParties == 0). If f panics or calls [runtime.Goexit], the
// phaser is terminated (see the type's documentation) and the panic goes on.
func WithOnAdvance(f func(phase, registeredParties int) bool) PhaserOption {
	return phaserOption(func(p *Phaser) { p.onAdvance = f })
}

// NewPhaser returns a phaser with parties registered, configured by opts. It panics with
// [thread.ErrIllegalArgument] if parties is negative or above 65535. It ports new Phaser(parties)
// and, with [WithParent], new Phaser(parent, parties).
func NewPhaser(parties int, opts ...PhaserOption) *Phaser {
	if parties < 0 || parties > phMaxParties {
		panicIAE("illegal number of parties %d", parties)
	}
	p := &Phaser{}
	for _, o := range opts {
		o.apply(p)
	}
	phase := 0
	if p.parent != nil {
		p.root = p.parent.rootPhaser()
		if parties != 0 {
			phase = p.parent.doRegister(1)
		}
	}
	if parties == 0 {
		p.store(phEmpty)
	} else {
		p.store(phaseBits(phase) | uint64(parties)<<phPartiesShift | uint64(parties))
	}
	return p
}

func (p *Phaser) load() uint64             { return p.enc.Load() ^ phEmpty }
func (p *Phaser) cas(old, new uint64) bool { return p.enc.CompareAndSwap(old^phEmpty, new^phEmpty) }
func (p *Phaser) store(s uint64)           { p.enc.Store(s ^ phEmpty) }

func (p *Phaser) rootPhaser() *Phaser {
	if p.root == nil {
		return p
	}
	return p.root
}

func (p *Phaser) isRoot() bool { return p.root == nil }

// reconcileState brings a child's phase up to its root's, returning its (possibly updated)
// state. A child lags after an advance its parent made; its unarrived count is reset to its
// parties.
func (p *Phaser) reconcileState() uint64 {
	s := p.load()
	if p.isRoot() {
		return s
	}
	root := p.root
	for {
		phase := phaseOf(root.load())
		if phase == phaseOf(s) {
			return s
		}
		var counts uint64
		switch parties := partiesOf(s); {
		case phase < 0:
			counts = s & phCountsMask
		case parties == 0:
			counts = phEmpty
		default:
			counts = s&phPartiesMask | uint64(parties)
		}
		if next := phaseBits(phase) | counts; p.cas(s, next) {
			return next
		}
		s = p.load()
	}
}

func (p *Phaser) stateNow() uint64 {
	if p.isRoot() {
		return p.load()
	}
	return p.reconcileState()
}

func (p *Phaser) badArrive(s uint64) {
	panic(fmt.Errorf("%w: attempted arrival of unregistered party for %s", ErrIllegalState, p.describe(s)))
}

func (p *Phaser) badRegister(s uint64) {
	panic(fmt.Errorf("%w: attempt to register more than %d parties for %s", ErrIllegalState, phMaxParties, p.describe(s)))
}

// nextState is the root's state after an advance from phase, whose arrival left s (all
// arrived), running onAdvance. If onAdvance panics or exits the goroutine, the phaser is
// terminated on the way out.
func (p *Phaser) nextState(s uint64, phase int) uint64 {
	n := s & phPartiesMask
	nextUnarrived := int(n >> phPartiesShift)
	ok := false
	defer func() {
		if !ok {
			p.ForceTermination()
		}
	}()
	terminate := nextUnarrived == 0
	if p.onAdvance != nil {
		terminate = p.onAdvance(phase, nextUnarrived)
	}
	ok = true
	switch {
	case terminate:
		n |= phTermination
	case nextUnarrived == 0:
		n |= phEmpty
	default:
		n |= uint64(nextUnarrived)
	}
	return n | phaseBits((phase+1)&phMaxPhase)
}

// arrival counts one arrival (adjust phOneArrival, or phOneDeregister to leave too) in the
// current phase. It returns the state it left, the arrival phase and the number of parties
// that were unarrived before it; or, on a terminated phaser, just the (negative) phase. It
// panics with ErrIllegalState, changing nothing, if no party is unarrived.
func (p *Phaser) arrival(adjust uint64) (s uint64, phase, unarrived int) {
	for {
		s = p.stateNow()
		if phase = phaseOf(s); phase < 0 {
			return s, phase, 0
		}
		if unarrived = unarrivedOf(s); unarrived <= 0 {
			p.badArrive(s)
		}
		if p.cas(s, s-adjust) {
			return s - adjust, phase, unarrived
		}
	}
}

// doArrive is Arrive (adjust phOneArrival) and ArriveAndDeregister (phOneDeregister).
func (p *Phaser) doArrive(adjust uint64) int {
	s, phase, unarrived := p.arrival(adjust)
	if phase < 0 || unarrived != 1 {
		return phase
	}
	switch nextUnarrived := partiesOf(s); {
	case p.isRoot():
		p.cas(s, p.nextState(s, phase))
		p.releaseWaiters()
	case nextUnarrived == 0: // the child has no parties left: leave the parent
		phase = p.parent.doArrive(phOneDeregister)
		p.cas(s, s|phEmpty)
	default:
		phase = p.parent.doArrive(phOneArrival)
	}
	return phase
}

// doRegister is Register and BulkRegister.
func (p *Phaser) doRegister(registrations int) int {
	adjust := uint64(registrations)<<phPartiesShift | uint64(registrations)
	for {
		var s uint64
		if p.parent == nil {
			s = p.load()
		} else {
			s = p.reconcileState()
		}
		counts := uint32(s)
		parties := int(counts >> phPartiesShift)
		unarrived := int(counts & phUnarrivedMask)
		if registrations > phMaxParties-parties {
			p.badRegister(s)
		}
		phase := phaseOf(s)
		if phase < 0 {
			return phase
		}
		switch {
		case counts != phEmpty: // not the first registration
			if p.parent == nil || p.reconcileState() == s {
				if unarrived == 0 { // an advance is under way: wait it out
					p.rootPhaser().internalAwaitAdvance(p, phase, false, -1)
				} else if p.cas(s, s+adjust) {
					return phase
				}
			}
		case p.parent == nil: // the first registration of a root
			if p.cas(s, phaseBits(phase)|adjust) {
				return phase
			}
		default: // the first registration of a child: register with the parent too
			if phase, done := p.firstChildRegistration(s, adjust); done {
				return phase
			}
		}
	}
}

// firstChildRegistration registers a child's first parties and the child itself with its
// parent, as one transaction under the child's lock. done is false if the state changed first.
func (p *Phaser) firstChildRegistration(s, adjust uint64) (phase int, done bool) {
	p.regLock.Lock()
	defer p.regLock.Unlock()
	if p.load() != s {
		return 0, false
	}
	phase = p.parent.doRegister(1)
	if phase < 0 {
		return phase, true
	}
	// Finish even if the tree terminated meanwhile: the parent registration succeeded and
	// both are one transaction.
	for !p.cas(s, phaseBits(phase)|adjust) {
		s = p.load()
		phase = phaseOf(p.root.load())
	}
	return phase, true
}

// Register adds one unarrived party and returns the phase it joins. If an advance is under
// way it first waits for it to finish (a virtual thread unmounts). A child phaser with no
// parties registers itself with its parent too. It panics with [ErrIllegalState] past 65535
// parties. On a terminated phaser it returns the negative phase and changes nothing. It ports
// Phaser.register().
func (p *Phaser) Register() int { return p.doRegister(1) }

// BulkRegister adds parties unarrived parties, as Register does, and returns the phase they
// join. It panics with [thread.ErrIllegalArgument] if parties is negative and [ErrIllegalState]
// past 65535 parties. It ports Phaser.bulkRegister.
func (p *Phaser) BulkRegister(parties int) int {
	if parties < 0 {
		panicIAE("parties %d < 0", parties)
	}
	if parties == 0 {
		return p.Phase()
	}
	return p.doRegister(parties)
}

// Arrive records the arrival of one party without waiting, and returns the arrival phase (the
// phase the arrival belongs to; negative if terminated). The last arrival of a phase advances
// the phaser and wakes the waiters. It panics with [ErrIllegalState] if no party is unarrived. It
// ports Phaser.arrive().
func (p *Phaser) Arrive() int { return p.doArrive(phOneArrival) }

// ArriveAndDeregister records the arrival of one party and removes it, without waiting, and
// returns the arrival phase. A child left with no parties deregisters from its parent; a root
// left with none terminates (unless onAdvance says otherwise). It panics with [ErrIllegalState]
// if no party is unarrived. It ports Phaser.arriveAndDeregister().
func (p *Phaser) ArriveAndDeregister() int { return p.doArrive(phOneDeregister) }

// ArriveAndAwaitAdvance records the arrival of one party and waits for the others, as
// [CyclicBarrier.Await] does. It returns the phase after the advance (negative if terminated).
// It is not interruptible: an interrupt while waiting sets the status on return. It panics with
// [ErrIllegalState] if no party is unarrived. It ports Phaser.arriveAndAwaitAdvance().
func (p *Phaser) ArriveAndAwaitAdvance() int {
	s, phase, unarrived := p.arrival(phOneArrival)
	switch {
	case phase < 0:
		return phase
	case unarrived > 1:
		next, _ := p.rootPhaser().internalAwaitAdvance(p, phase, false, -1)
		return next
	case !p.isRoot():
		return p.parent.ArriveAndAwaitAdvance()
	}
	n := p.nextState(s, phase)
	if !p.cas(s, n) {
		return phaseOf(p.load()) // terminated meanwhile
	}
	p.releaseWaiters()
	return phaseOf(n)
}

// AwaitAdvance waits until the phaser's phase is no longer phase, and returns the new phase.
// It returns at once if the phase is already another one, or if phase is negative. It is not
// interruptible: an interrupt while waiting sets the status on return. It ports
// Phaser.awaitAdvance.
func (p *Phaser) AwaitAdvance(phase int) int {
	got := phaseOf(p.stateNow())
	if phase < 0 {
		return phase
	}
	if got != phase {
		return got
	}
	next, _ := p.rootPhaser().internalAwaitAdvance(p, phase, false, -1)
	return next
}

// AwaitAdvanceInterruptibly is AwaitAdvance that gives up if the current thread is
// interrupted, before or while waiting: it then returns [thread.ErrInterrupted] and clears the
// status, leaving the phaser unchanged. It ports Phaser.awaitAdvanceInterruptibly(int).
func (p *Phaser) AwaitAdvanceInterruptibly(phase int) (int, error) {
	return p.awaitInterruptibly(phase, -1)
}

// AwaitAdvanceTimeout is AwaitAdvanceInterruptibly that gives up after d with [ErrTimeout]
// (d <= 0 only looks). It ports Phaser.awaitAdvanceInterruptibly(int, long, TimeUnit).
func (p *Phaser) AwaitAdvanceTimeout(phase int, d time.Duration) (int, error) {
	return p.awaitInterruptibly(phase, max(d, 0))
}

func (p *Phaser) awaitInterruptibly(phase int, d time.Duration) (int, error) {
	got := phaseOf(p.stateNow())
	if phase < 0 {
		return phase, nil
	}
	if got != phase {
		return got, nil
	}
	return p.rootPhaser().internalAwaitAdvance(p, phase, true, d)
}

// ForceTermination terminates the phaser (and, in a tree, every phaser of it) and wakes every
// waiting party; registered counts are kept. It does nothing on a terminated phaser. It ports
// Phaser.forceTermination().
func (p *Phaser) ForceTermination() {
	root := p.rootPhaser()
	for {
		s := root.load()
		if s&phTermination != 0 {
			return
		}
		if root.cas(s, s|phTermination) {
			root.releaseWaiters()
			return
		}
	}
}

// Phase returns the current phase: the root's phase, negative (phase + [math.MinInt32]) once
// terminated. It ports Phaser.getPhase().
func (p *Phaser) Phase() int { return phaseOf(p.rootPhaser().load()) }

// RegisteredParties returns the number of parties registered. It ports
// Phaser.getRegisteredParties().
func (p *Phaser) RegisteredParties() int { return partiesOf(p.load()) }

// ArrivedParties returns the number of registered parties that have arrived in the current
// phase. It ports Phaser.getArrivedParties().
func (p *Phaser) ArrivedParties() int { return arrivedOf(p.stateNow()) }

// UnarrivedParties returns the number of registered parties that have not arrived in the
// current phase. It ports Phaser.getUnarrivedParties().
func (p *Phaser) UnarrivedParties() int { return unarrivedOf(p.stateNow()) }

// Parent returns the phaser's parent, or nil. It ports Phaser.getParent().
func (p *Phaser) Parent() *Phaser { return p.parent }

// Root returns the root of the phaser's tree (the phaser itself if it has no parent). It ports
// Phaser.getRoot().
func (p *Phaser) Root() *Phaser { return p.rootPhaser() }

// IsTerminated reports whether the phaser has been terminated. It ports Phaser.isTerminated().
func (p *Phaser) IsTerminated() bool { return p.rootPhaser().load()&phTermination != 0 }

// String returns "Phaser@<addr>[phase = P parties = N arrived = A]", as Java's toString.
func (p *Phaser) String() string { return fmt.Sprintf("Phaser@%p%s", p, p.describe(p.stateNow())) }

func (p *Phaser) describe(s uint64) string {
	return fmt.Sprintf("[phase = %d parties = %d arrived = %d]", phaseOf(s), partiesOf(s), arrivedOf(s))
}

// phaserWaiters is a root's list of threads waiting for an advance.
type phaserWaiters struct {
	mu         sync.Mutex
	head, tail *phaserNode
}

type phaserNode struct {
	t          *thread.Thread
	phase      int
	prev, next *phaserNode
	queued     bool
}

func (w *phaserWaiters) add(n *phaserNode) {
	w.mu.Lock()
	n.queued = true
	n.prev = w.tail
	if w.tail == nil {
		w.head = n
	} else {
		w.tail.next = n
	}
	w.tail = n
	w.mu.Unlock()
}

// unlink removes n; w.mu must be held.
func (w *phaserWaiters) unlink(n *phaserNode) {
	if !n.queued {
		return
	}
	n.queued = false
	if n.prev == nil {
		w.head = n.next
	} else {
		n.prev.next = n.next
	}
	if n.next == nil {
		w.tail = n.prev
	} else {
		n.next.prev = n.prev
	}
	n.prev, n.next = nil, nil
}

func (w *phaserWaiters) remove(n *phaserNode) {
	w.mu.Lock()
	w.unlink(n)
	w.mu.Unlock()
}

// releaseWaiters unparks every thread of the root p waiting out a phase that is over (all of
// them once terminated).
func (p *Phaser) releaseWaiters() {
	w := &p.waiters
	w.mu.Lock()
	if w.head == nil {
		w.mu.Unlock()
		return
	}
	phase := phaseOf(p.load())
	var wake []*thread.Thread
	for n := w.head; n != nil; {
		next := n.next
		if n.phase != phase {
			w.unlink(n)
			wake = append(wake, n.t)
		}
		n = next
	}
	w.mu.Unlock()
	for _, t := range wake {
		rt.Unpark(t, rt.ParkWaiting)
	}
}

// internalAwaitAdvance waits, on root p, until the phase is no longer phase; phaser is the
// phaser the caller waits on (the blocker). Interruptible waits give up with
// thread.ErrInterrupted (status cleared); timed ones (d >= 0) with ErrTimeout. Others clear the
// status while they wait and set it again on return. It returns the current phase.
func (p *Phaser) internalAwaitAdvance(phaser *Phaser, phase int, interruptible bool, d time.Duration) (int, error) {
	if now := phaseOf(p.load()); now != phase {
		return now, nil
	}
	var deadline time.Time
	if d > 0 {
		deadline = time.Now().Add(d)
	}
	n := &phaserNode{t: waitq.Current(), phase: phase}
	p.waiters.add(n)
	reinterrupt := false
	defer func() {
		p.waiters.remove(n)
		if reinterrupt {
			n.t.Interrupt()
		}
	}()
	for {
		if now := phaseOf(p.load()); now != phase {
			return now, nil
		}
		if n.t.IsInterrupted() {
			thread.Interrupted()
			if interruptible {
				return phase, thread.ErrInterrupted
			}
			reinterrupt = true
		}
		timeout := time.Duration(-1)
		if d >= 0 {
			if timeout = time.Until(deadline); timeout <= 0 {
				return phase, ErrTimeout
			}
		}
		rt.Park(timeout, rt.ParkWaiting, phaser)
	}
}
