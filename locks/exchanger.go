package locks

import (
	"runtime"
	"sync/atomic"
	"time"

	"github.com/loomgo/loom/internal/rt"
	"github.com/loomgo/loom/internal/waitq"
	"github.com/loomgo/loom/thread"
)

// Exchanger, as java.util.concurrent.Exchanger.
//
// # Model
//
// One slot holds the node of the thread waiting for a partner, or nil. A thread that comes to
// exchange either claims the waiting node (a CAS of the slot from that node to nil), gives it
// its item, marks it matched and unparks its owner, and returns the owner's item at once; or,
// finding the slot empty, installs its own node (a CAS from nil) and waits: it spins a little
// on a platform thread (the partner is often about to come), then parks (a virtual thread
// unmounts) until its node is matched.
//
// # Why nothing is lost
//
// A waiter leaves without a partner (timeout, interrupt) only by CASing the slot from its own
// node back to nil. A partner claims the node by the same CAS, so exactly one of them wins: if
// the partner won, the waiter keeps waiting (uninterruptibly, leaving the interrupt status set)
// for the item the partner is about to hand over, and the exchange happens, as in Java; if the
// waiter won, no partner ever saw the node and the partner's item is not consumed. The partner
// publishes the item (an atomic store of matched) before it unparks, and the waiter reads it
// after loading matched; the park permit covers an unpark that comes before the park.
//
// Designs not taken: Java adds an arena of slots for heavy contention. With the few cores loom
// runs on, one slot is not the bottleneck (the park/unpark hand-off is), and it keeps the
// exchange order simple.

// exchangeSpins is how many times a waiter on a platform thread looks for its partner before
// it parks, on a machine with more than one CPU. Virtual threads do not spin: spinning would
// hold the carrier their partner may need.
const exchangeSpins = 1 << 7

var multiCPU = runtime.NumCPU() > 1

// An Exchanger is a point where pairs of threads swap values: each calls Exchange with its
// value and receives its partner's. It ports java.util.concurrent.Exchanger. The zero value is
// ready to use. An Exchanger must not be copied after first use.
//
// Each exchange pairs two threads; a third waits for a fourth. The actions of each thread
// before its Exchange synchronize before the partner's Exchange returns. A virtual thread that
// waits for its partner unmounts.
type Exchanger[T any] struct {
	_    noCopy
	slot atomic.Pointer[exchangeNode[T]]
}

type exchangeNode[T any] struct {
	item    T
	t       *thread.Thread
	match   T           // written by the partner before matched is set
	matched atomic.Bool // the partner has handed over match
}

// NewExchanger returns an Exchanger. It ports new Exchanger<V>(); the zero value works as well.
func NewExchanger[T any]() *Exchanger[T] { return &Exchanger[T]{} }

// Exchange waits for another thread to arrive at this exchange point (unless one is already
// waiting), transfers x to it, and returns the value it brought. A virtual thread unmounts while
// it waits. If the current thread is interrupted while it waits for a partner (or arrives with
// its status set and nobody waiting), Exchange returns [thread.ErrInterrupted] and clears the
// status, and x is not given to anyone; once a partner has taken x the exchange completes even
// if an interrupt comes (the status is then left set). It ports Exchanger.exchange(V).
func (e *Exchanger[T]) Exchange(x T) (T, error) { return e.exchange(x, -1) }

// ExchangeTimeout is Exchange that gives up with [ErrTimeout] once d has elapsed without a
// partner (d <= 0: only an already waiting partner is taken). It ports Exchanger.exchange(V,
// long, TimeUnit).
func (e *Exchanger[T]) ExchangeTimeout(x T, d time.Duration) (T, error) {
	return e.exchange(x, max(d, 0))
}

func (e *Exchanger[T]) exchange(x T, d time.Duration) (T, error) {
	var n *exchangeNode[T]
	for {
		if p := e.slot.Load(); p != nil {
			if e.slot.CompareAndSwap(p, nil) {
				p.match = x
				p.matched.Store(true)
				rt.Unpark(p.t, rt.ParkWaiting)
				return p.item, nil
			}
			continue
		}
		if n == nil {
			n = &exchangeNode[T]{item: x, t: waitq.Current()}
		}
		if e.slot.CompareAndSwap(nil, n) {
			return e.await(n, d)
		}
	}
}

// await waits on n, installed in the slot, for a partner.
func (e *Exchanger[T]) await(n *exchangeNode[T], d time.Duration) (T, error) {
	if multiCPU && !n.t.IsVirtual() {
		for range exchangeSpins {
			if n.matched.Load() {
				return n.match, nil
			}
			runtime.Gosched()
		}
	}
	var deadline time.Time
	if d > 0 {
		deadline = time.Now().Add(d)
	}
	var zero T
	for !n.matched.Load() {
		gaveUp := n.t.IsInterrupted()
		timeout := time.Duration(-1)
		if !gaveUp && d >= 0 {
			timeout = time.Until(deadline)
			gaveUp = timeout <= 0
		}
		if gaveUp {
			if e.slot.CompareAndSwap(n, nil) {
				if thread.Interrupted() {
					return zero, thread.ErrInterrupted
				}
				return zero, ErrTimeout
			}
			// A partner claimed n and is handing its item over: wait for it. Parks return at
			// once while the interrupt status is set, so this is a short spin at worst.
			runtime.Gosched()
			continue
		}
		rt.Park(timeout, rt.ParkWaiting, e)
	}
	return n.match, nil
}
