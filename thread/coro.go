package thread

import (
	"iter"
	"slices"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/loomgo/loom/internal/carrier"
)

// Continuations. A virtual thread runs on a coroutine (iter.Pull), a continuation in the JDK's
// terms, and a carrier is a goroutine, the driver, that resumes continuations (coro.next) until
// they yield back to it: because a thread parked, yielded, gave its carrier away (Blocking, an
// I/O park), or because the continuation found nothing more to run. A switch between the two is
// a direct switch of goroutines on one OS thread that bypasses the Go scheduler, which is what
// makes a park and its wake cheap: see park.go ("The floor of two designs").
//
// A continuation runs the dispatch loop itself (coro.loop): it runs new tasks inline, one after
// the other, as long as the carrier's next Runnable is a new task, so a burst of tasks that never
// park costs no switch at all. When a task parks, the continuation is that thread's from then on:
// it yields to its driver, which publishes the park and goes on with another continuation (one it
// keeps, or a new one). When the parked thread is resumed, a driver resumes its continuation;
// when the thread ends, the continuation goes back to dispatching on whatever carrier it then
// holds. When the next Runnable is a resumption, the loop yields it to its driver (whyResume),
// which resumes that thread's continuation: only a driver can switch to a continuation.
//
// Only the driver that resumed a continuation may resume it again after it yields, and only once
// it has yielded: a park is published (the park word's parked phase) by the driver after the
// switch (publishPark), as the JDK's VirtualThread.afterYield does, so that no waker can queue a
// continuation that is still running.
//
// A continuation that is free (it yielded whyResume or whyIdle) is kept for the next new task
// (coroCache, coroPool): making one costs iter.Pull's six allocations and a goroutine. Those
// nobody takes for a while end (coroPool.sweep), so that an idle scheduler soon holds no
// goroutine.

// Why a continuation yielded (coro.why).
const (
	whyParked   = iota // its thread parks: publish the park (publishPark)
	whyYield           // its thread yields (Thread.yield): queue it behind the others
	whyDetached        // its thread gave its carrier away (Blocking, I/O) and now wants one
	whyResume          // the next Runnable is a resumption (other): resume it; this one is free
	whyIdle            // nothing to run: the carrier went idle; this one is free
)

// coro is a continuation: the coroutine virtual threads run on, and what it tells its driver
// when it yields.
type coro struct {
	next func() (struct{}, bool)
	stop func()
	yld  func(struct{}) bool
	sc   *Scheduler
	t    *Thread // the thread it runs, nil while it dispatches or is free
	gid  int64   // the coroutine's goroutine
	pk   *parker // for the parks that keep the carrier (parkInPlace), made on first use

	why   uint8
	back  bool          // publishPark took the park back (a permit or interrupt came)
	slot  *carrier.Slot // in: the carrier to dispatch on (free); out: the carrier held at the yield
	other *Thread       // in: the new task to run first (free); out: the thread to resume (whyResume)

	// the park to publish (whyParked): its word, and its deadline if it is timed (flagQueued)
	parked   uint64
	deadline int64
}

// newCoro makes a continuation. It is called by a driver.
//
//go:noinline
func newCoro(sc *Scheduler) *coro {
	co := &coro{sc: sc}
	sc.coros.made.Add(1)
	co.next, co.stop = iter.Pull(co.body)
	return co
}

func (co *coro) body(yield func(struct{}) bool) {
	cp := &co.sc.coros
	for n := cp.live.Add(1); n > cp.peak.Load(); {
		if p := cp.peak.Load(); n <= p || cp.peak.CompareAndSwap(p, n) {
			break
		}
	}
	defer cp.live.Add(-1)
	co.yld = yield
	co.gid = gidFunc()
	co.loop()
}

// loop is the dispatch loop of a continuation: run the new task given, then the carrier's next
// ones inline; yield a resumption or an idle carrier to the driver, and start again with the next
// new task given. It returns when the continuation is stopped.
func (co *coro) loop() {
	for {
		t := co.other
		co.other = nil
		t.run(co, co.slot)
		s := co.slot // the carrier t ended on
		r := s.Pool().Next(s)
		for {
			if r == nil {
				co.why, co.slot = whyIdle, nil
			} else if r.Resumption() {
				co.why, co.slot, co.other = whyResume, s, (*Thread)(r.(*resumption))
			} else {
				co.other, co.slot = (*Thread)(r.(*newTask)), s
				break
			}
			if !co.yld(struct{}{}) {
				return // stopped
			}
			if co.other != nil { // a new task: run it
				break
			}
		}
	}
}

// yield switches back to the driver with reason why, on behalf of the thread it runs.
func (co *coro) yield(why uint8) {
	co.why = why
	co.yld(struct{}{})
}

// coroKeep is how many free continuations a carrier keeps for itself; beyond that it moves
// them, a batch at a time, to its scheduler's pool (coroPool).
const coroKeep = 8

// coroCache is a carrier's own continuations (Slot.Spare), used only by the goroutine that holds
// the carrier.
type coroCache struct {
	free [coroKeep]*coro
	n    int
}

// coroPool is a scheduler's free continuations beside its carriers' own. It keeps every one it
// is given, and ends those nobody needed for a while: a sweep, every coroKeepAlive while it holds
// any, ends as many as the fewest it held since the sweep before (its low-water mark: what the
// whole interval did not need), the oldest first. So the continuations a burst of parked threads
// ended on serve the next burst, as the runtime's free list of dead goroutines serves the next go
// statements; a pool nobody takes from is empty after two sweeps, so an idle scheduler soon holds
// no goroutine; and a pool larger than what its scheduler's threads take shrinks to that.
//
// Measured with batches of 100,000 sleepers × 100 ms, each started as soon as the one before
// had ended (a probe outside loom bench, one run each, 2 cores; figures of the batches after
// the first): keeping at most 64 and ending the rest (the first engine on continuations) made a
// new continuation for most threads of every batch, six allocations and a goroutine each
// (6.3-10.1 allocations a thread; 197-266 ms a batch); this pool, swept every 100 ms, makes few
// (2.0-5.4 allocations a thread; 175-231 ms a batch, goroutines 163-223 ms). Rejected: the
// same sweep every 50 ms (4.2-7.1 allocations a thread), and ending at each sweep all those
// given before the sweep before (two generations; 5.2-9.1 swept every 20 ms, 3.6-7.5 every 50
// ms): a burst of threads ends over about as long as it took to start, so the first ones to end
// were gone by the time the next burst started. loom bench's sleeper rows do not show this: it
// lets a scheduler end what it keeps before each case, so every batch there starts cold.
type coroPool struct {
	mu     sync.Mutex
	free   []*coro // oldest first
	low    int     // the fewest in free since the last sweep
	armed  bool    // a sweep is pending
	closed bool    // the scheduler is closed: a continuation given now ends at once

	live atomic.Int64 // continuations started and not ended (Stats)
	peak atomic.Int64 // the most of them live at once
	made atomic.Int64 // continuations ever made (for tests)
}

// coroKeepAlive is how often a pool that holds free continuations is swept: one nobody takes is
// kept at least that long and at most twice that. A ForkJoinPool keeps an idle worker for a
// keep-alive time too (the JDK's is 30 s; this one is short so that an idle scheduler soon holds
// no goroutine: goleak gives up after about 0.4 s).
const coroKeepAlive = 100 * time.Millisecond

// takeCoro returns a free continuation for carrier s, or a new one; it refills the carrier's own
// from the scheduler's when it has none.
func (sc *Scheduler) takeCoro(s *carrier.Slot) *coro {
	c := (*coroCache)(s.Spare)
	if c == nil {
		c = new(coroCache)
		s.Spare = unsafe.Pointer(c)
	}
	if c.n == 0 {
		cp := &sc.coros
		cp.mu.Lock()
		n := len(cp.free)
		k := min(n, coroKeep)
		c.n = copy(c.free[:], cp.free[n-k:])
		clear(cp.free[n-k:])
		cp.free = cp.free[:n-k]
		cp.low = min(cp.low, n-k)
		cp.mu.Unlock()
		if c.n == 0 {
			return newCoro(sc)
		}
	}
	c.n--
	co := c.free[c.n]
	c.free[c.n] = nil
	return co
}

// putCoro keeps co, free, for carrier s's next threads, or its scheduler's when s keeps enough.
func (sc *Scheduler) putCoro(s *carrier.Slot, co *coro) {
	c := (*coroCache)(s.Spare)
	if c == nil {
		c = new(coroCache)
		s.Spare = unsafe.Pointer(c)
	}
	if c.n < coroKeep {
		c.free[c.n] = co
		c.n++
		return
	}
	sc.coros.give(c.free[:c.n], co)
	clear(c.free[:c.n])
	c.n = 0
}

// give adds cos and co (if not nil) to the pool's free continuations, and arms a sweep; once
// the scheduler is closed, it ends them instead (the driver a thread's end left on a carrier
// gives its continuation back after the carrier went idle, which Close may have seen already).
func (cp *coroPool) give(cos []*coro, co *coro) {
	cp.mu.Lock()
	if cp.closed {
		cp.mu.Unlock()
		for _, c := range cos {
			c.stop()
		}
		if co != nil {
			co.stop()
		}
		return
	}
	if !cp.armed {
		cp.low = len(cp.free)
	}
	cp.free = append(cp.free, cos...)
	if co != nil {
		cp.free = append(cp.free, co)
	}
	arm := !cp.armed
	cp.armed = true
	cp.mu.Unlock()
	if arm {
		time.AfterFunc(coroKeepAlive, cp.sweep)
	}
}

// sweep ends the continuations nobody needed since the last sweep (see coroPool), and arms the
// next one if any are left.
func (cp *coroPool) sweep() {
	cp.mu.Lock()
	end := slices.Clone(cp.free[:cp.low])
	cp.free = cp.free[:copy(cp.free, cp.free[cp.low:])]
	clear(cp.free[len(cp.free):cap(cp.free)])
	cp.low = len(cp.free)
	cp.armed = cp.low > 0
	arm := cp.armed
	cp.mu.Unlock()
	for _, co := range end {
		co.stop()
	}
	if arm {
		time.AfterFunc(coroKeepAlive, cp.sweep)
	}
}

// slotIdle moves the continuations of s, which is about to go idle, to its scheduler's.
func (sc *Scheduler) slotIdle(s *carrier.Slot) {
	c := (*coroCache)(s.Spare)
	if c == nil || c.n == 0 {
		return
	}
	sc.coros.give(c.free[:c.n], nil)
	clear(c.free[:c.n])
	c.n = 0
}

// dropCoros ends the continuations the scheduler keeps, and those given to it later (Close).
func (sc *Scheduler) dropCoros() {
	cp := &sc.coros
	cp.mu.Lock()
	free := cp.free
	cp.free, cp.low, cp.closed = nil, 0, true
	cp.mu.Unlock()
	for _, co := range free {
		co.stop()
	}
}

// run runs the new thread t on co, on carrier s, inline; co.slot is the carrier t ended on.
func (t *Thread) run(co *coro, s *carrier.Slot) {
	co.t = t
	t.wait = unsafe.Pointer(co)
	t.gid = co.gid
	t.mount(s)
	t.traceRunning()
	defer t.endUnfinished()
	if f, ok := t.task.(funcTask); ok {
		f() // not through Run: one frame less under a parked thread
	} else {
		t.task.Run()
	}
	co.slot = t.finish()
}

// drive resumes the continuation co on carrier s until a thread parks, yields or gives its
// carrier away, or the continuation has nothing more to run, and acts on it. It is Carry, for a
// new task and a resumption alike.
func drive(co *coro, s *carrier.Slot) (*carrier.Slot, bool) {
	ok := false
	defer func() {
		if !ok { // runtime.Goexit in a thread, which ended its continuation and, through it, us
			if co.slot != nil {
				co.slot.Pool().Release(co.slot)
			}
			s.Pool().GoroutineExiting()
		}
	}()
	for {
		co.next()
		switch co.why {
		case whyParked:
			t := co.t
			s = co.slot
			if t.publishPark(co, s) {
				ok = true
				return s, true
			}
			// taken back: resume it at once
		case whyResume:
			t := co.other
			co.other = nil
			s = co.slot
			co.sc.putCoro(s, co)
			co = t.coro()
			t.slot.Store(s)
			co.slot = nil
		case whyIdle: // the carrier went idle in the loop's Next
			co.sc.coros.give(nil, co)
			ok = true
			return nil, false
		case whyYield:
			t := co.t
			s = co.slot
			s.Pool().Yielded(s, t.resumption())
			ok = true
			return s, true
		default: // whyDetached
			t := co.t
			ok = true
			if err := t.sched.pool.Submit(t.resumption()); err != nil {
				panic(err) // resumptions are accepted even by a closed pool
			}
			return nil, false
		}
	}
}

// publishPark publishes the park t's continuation co yielded for, on carrier s, now that it has
// switched out. It reports false if the permit or an interrupt came meanwhile: t then holds s
// again and is RUNNABLE, and the caller resumes it.
func (t *Thread) publishPark(co *coro, s *carrier.Slot) bool {
	parked, deadline := co.parked, co.deadline
	co.back = false
	t.park.Store(parked)
	permit := uint32(bitPermit)
	if parked&flagMonitor != 0 {
		permit = bitMonitorPermit // see permitFor
	}
	if t.bits.get(permit) || parked&flagNoIntr == 0 && t.bits.get(bitInterrupted) {
		if t.park.CompareAndSwap(parked, parked>>seqShift<<seqShift|phaseRunning) {
			co.back = true
			t.slot.Store(s)
			t.bits.clear(permit)
			t.afterPark(parked)
			return false
		}
		// a waker won: it queues the thread
	}
	t.sched.count(s, cParked, 1)
	if parked&flagQueued != 0 {
		t.sched.timers.add(t, deadline, parked)
	}
	return true
}

// coro returns a virtual thread's continuation.
func (t *Thread) coro() *coro { return (*coro)(t.wait) }

// pk returns t's parker, for a park that keeps its carrier, or nil if it has none yet.
func (t *Thread) pk() *parker {
	if t.kind == kindVirtual {
		if co := t.coro(); co != nil {
			return co.pk
		}
		return nil
	}
	return (*parker)(t.wait)
}
