package thread_test

import (
	"iter"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/loomgo/loom/internal/testutil"
)

// BenchmarkHandOffFloor measures the mechanisms a virtual thread's hand-off can be built on,
// without loom's bookkeeping, each against goroutines on unbuffered channels (ping-pong) or go +
// WaitGroup (start+join) in alternating rounds (testutil.Pair reports the median ratio). See
// park.go ("The floor of two designs").
//
//   - CondPingPong: two goroutines that wake each other through a parker as park.go's (a woken
//     word and a sync.Cond whose Locker holds no lock): the floor of today's engine.
//   - CoroutinePingPong: two continuations (iter.Pull coroutines) driven by one carrier
//     goroutine, with a park protocol (a permit, a state word published after the yield, as the
//     JDK's VirtualThread.afterYield, and a hand-off cell): the floor of an engine of
//     continuations.
//   - CoroutineStartJoin: a continuation starts a new one and joins it, on that engine; finished
//     continuations are reused by the carrier.
func BenchmarkHandOffFloor(b *testing.B) {
	b.Run("CondPingPong", func(b *testing.B) { testutil.Pair(b, chanPingPong, condPingPong) })
	b.Run("CoroutinePingPong", func(b *testing.B) { testutil.Pair(b, chanPingPong, coPingPong) })
	b.Run("CoroutineStartJoin", func(b *testing.B) { testutil.Pair(b, goStartJoin, coStartJoin) })
}

// floorParker is park.go's parker, reduced to its mechanism.
type floorParker struct {
	woken atomic.Uint32
	c     sync.Cond
}

type floorLocker floorParker

func (l *floorLocker) Lock() {}

func (l *floorLocker) Unlock() {
	if l.woken.Load() != 0 {
		l.c.Signal()
	}
}

func newFloorParker() *floorParker {
	p := new(floorParker)
	p.c.L = (*floorLocker)(p)
	return p
}

func (p *floorParker) park() {
	for p.woken.Load() == 0 {
		p.c.Wait()
	}
	p.woken.Store(0)
}

func (p *floorParker) unpark() {
	p.woken.Store(1)
	p.c.Signal()
}

// condPingPong is n round trips between two goroutines through floorParkers.
func condPingPong(n int) {
	var turn atomic.Int64
	pk := [2]*floorParker{newFloorParker(), newFloorParker()}
	var wg sync.WaitGroup
	for me := range 2 {
		wg.Go(func() {
			for i := int64(me); i < 2*int64(n); i += 2 {
				for turn.Load() != i {
					pk[me].park()
				}
				turn.Store(i + 1)
				pk[1-me].unpark()
			}
		})
	}
	wg.Wait()
}

// The continuation engine: a carrier goroutine runs a FIFO of runnable continuations, and the
// one it runs may put one it wakes in the carrier's hand-off cell, which runs next.

const (
	coRunning = iota
	coParked
	coRunnable
)

type coThread struct {
	state  atomic.Int32
	permit atomic.Bool
	task   func(*coThread)
	co     *coRoutine
	car    *coCarrier
	done   atomic.Bool
	joiner atomic.Pointer[coThread]
}

type coRoutine struct {
	next  func() (bool, bool) // resume; the first result: true if the thread parked, false if it ended
	stop  func()
	yield func(bool) bool
	t     *coThread
}

type coCarrier struct {
	mu    sync.Mutex
	cond  sync.Cond
	queue []*coThread
	cell  *coThread
	free  []*coRoutine
	quit  bool
}

func newCoCarrier() *coCarrier {
	c := &coCarrier{}
	c.cond.L = &c.mu
	return c
}

func (c *coCarrier) push(t *coThread) {
	c.mu.Lock()
	c.queue = append(c.queue, t)
	c.cond.Signal()
	c.mu.Unlock()
}

// run is the carrier's loop, until stop.
func (c *coCarrier) run() {
	for {
		t := c.cell
		c.cell = nil
		if t == nil {
			c.mu.Lock()
			for len(c.queue) == 0 && !c.quit {
				c.cond.Wait()
			}
			if len(c.queue) == 0 {
				c.mu.Unlock()
				for _, co := range c.free {
					co.stop()
				}
				return
			}
			t = c.queue[0]
			c.queue = c.queue[1:]
			c.mu.Unlock()
		}
		if t.co == nil {
			t.co = c.coroutine()
			t.co.t = t
		}
		t.car = c
		t.state.Store(coRunning)
		if parked, _ := t.co.next(); !parked {
			t.co.t = nil
			c.free = append(c.free, t.co)
			t.co = nil
			continue
		}
		// Yielded: only now may a waker queue it; a permit that came meanwhile resumes it.
		t.state.Store(coParked)
		if t.permit.Load() && t.state.CompareAndSwap(coParked, coRunnable) {
			c.wake(t)
		}
	}
}

func (c *coCarrier) stop() {
	c.mu.Lock()
	c.quit = true
	c.cond.Signal()
	c.mu.Unlock()
}

func (c *coCarrier) wake(t *coThread) {
	if c.cell == nil {
		c.cell = t
		return
	}
	c.push(t)
}

// coroutine returns a finished continuation of c's to reuse, or a new one.
func (c *coCarrier) coroutine() *coRoutine {
	if n := len(c.free); n > 0 {
		co := c.free[n-1]
		c.free = c.free[:n-1]
		return co
	}
	co := &coRoutine{}
	co.next, co.stop = iter.Pull(func(yield func(bool) bool) {
		co.yield = yield
		for {
			t := co.t
			t.task(t)
			t.done.Store(true)
			if j := t.joiner.Load(); j != nil {
				coUnpark(t, j)
			}
			if !yield(false) {
				return
			}
		}
	})
	return co
}

func coPark(cur *coThread) {
	if cur.permit.Swap(false) {
		return
	}
	cur.co.yield(true)
	cur.permit.Store(false)
}

func coUnpark(cur, t *coThread) {
	t.permit.Store(true)
	if t.state.Load() == coParked && t.state.CompareAndSwap(coParked, coRunnable) {
		cur.car.wake(t)
	}
}

// coRun runs task on a continuation of a new carrier and waits for it.
func coRun(task func(*coThread)) {
	c := newCoCarrier()
	var wg sync.WaitGroup
	wg.Go(c.run)
	c.push(&coThread{task: func(t *coThread) { task(t); c.stop() }})
	wg.Wait()
}

// coPingPong is n round trips between two continuations on one carrier.
func coPingPong(n int) {
	coRun(func(main *coThread) {
		var turn atomic.Int64
		var th [2]*coThread
		for me := range 2 {
			th[me] = &coThread{task: func(cur *coThread) {
				for i := int64(me); i < 2*int64(n); i += 2 {
					for turn.Load() != i {
						coPark(cur)
					}
					turn.Store(i + 1)
					coUnpark(cur, th[1-me])
				}
			}}
		}
		for _, t := range th {
			main.car.push(t)
		}
		for _, t := range th {
			coJoin(main, t)
		}
	})
}

// coStartJoin is n starts and joins of a continuation by a continuation.
func coStartJoin(n int) {
	coRun(func(main *coThread) {
		for range n {
			t := &coThread{task: func(*coThread) {}}
			main.car.push(t)
			coJoin(main, t)
		}
	})
}

func coJoin(cur, t *coThread) {
	t.joiner.Store(cur)
	for !t.done.Load() {
		coPark(cur)
	}
}
