package forkjoin

import (
	"sync/atomic"
	"time"

	"github.com/loomgo/loom/internal/rt"
	"github.com/loomgo/loom/thread"
)

// A worker is one platform thread of a pool and its deque (see pool.go for the model).
type worker struct {
	pool    *Pool
	th      *thread.Thread
	index   int // pool index, for PoolIndex; fixed for the worker's life
	q       deque
	steals  atomic.Int64
	seed    uint64      // xorshift state for random scans; owner only
	idle    bool        // on the idle stack; guarded by pool.mu
	parked  atomic.Bool // parked while idle (for RunningThreadCount)
	retired bool        // counted out of the pool; guarded by pool.mu
	panics  []any       // Execute panics to raise in the thread once its task returns; owner only
}

// uncaught reports the panic of an Execute task, as Java's worker passes the exception to
// its uncaught-exception handler. With a pool handler, the handler gets it now and the worker
// goes on (Java 21's behaviour). Without one, the panic is kept and raised again in the worker
// once the task it is running returns (the task may be an unrelated one this worker is helping
// inside): the worker thread then ends with it, so the thread's default handling (loom's
// default uncaught-exception handler, or the "Exception in thread" report) applies, and the
// pool starts another worker when work is queued.
func (w *worker) uncaught(v any) {
	if h := w.pool.ueh; h != nil {
		func() {
			defer func() { _ = recover() }() // Java ignores what the handler throws
			h(w.th, v)
		}()
		return
	}
	w.panics = append(w.panics, v)
}

// currentWorker returns the worker the current thread is, or nil.
func currentWorker() *worker {
	w, _ := rt.CurrentData().Worker.(*worker)
	return w
}

// run is the worker thread's body: it runs tasks until it has had nothing to do for the
// keep-alive time, or the pool stops. If a task ends the thread (runtime.Goexit, or a panic of
// an Execute task going on to the thread's handler), the deferred deregister still runs and
// hands the worker's queued tasks to the others.
func (w *worker) run() {
	p := w.pool
	normalExit := false
	defer func() { p.deregister(w, normalExit) }()
	for {
		if p.isStopping.Load() {
			for t := w.localTask(); t != nil; t = w.localTask() {
				t.Cancel(false)
			}
			break
		}
		t := w.localTask()
		if t == nil {
			t = w.scan(true)
		}
		if t == nil {
			if !w.awaitWork() {
				break
			}
			continue
		}
		if !p.isStopping.Load() {
			thread.Interrupted() // a task starts with a clear interrupt status, as in Java
		}
		execTask(t, w)
		if len(w.panics) > 0 {
			panic(w.panics[0]) // see uncaught
		}
	}
	normalExit = true
}

// push queues t on w's own deque and signals work.
func (w *worker) push(t *task) {
	w.q.push(t)
	w.pool.signalWork()
}

// localTask takes the next task of w's own deque: the newest, or the oldest in async mode.
func (w *worker) localTask() *task {
	if w.pool.async {
		return w.q.poll()
	}
	return w.q.pop()
}

func (w *worker) rand() uint64 {
	x := w.seed
	x ^= x << 13
	x ^= x >> 7
	x ^= x << 17
	w.seed = x
	return x
}

// scan steals a task from another worker's deque or, if subs, the submission queue, starting
// at a random queue, and counts the steal.
func (w *worker) scan(subs bool) *task {
	p := w.pool
	ws := *p.workers.Load()
	n := len(ws) + 1 // the submission queue is queue number len(ws)
	start := int(w.rand() % uint64(n))
	for i := range n {
		var t *task
		if k := (start + i) % n; k == len(ws) {
			if subs {
				t = p.pollSubmission()
			}
		} else if v := ws[k]; v != nil && v != w {
			t = v.q.poll()
		}
		if t != nil {
			w.steals.Add(1)
			return t
		}
	}
	return nil
}

// spinWait bounds how long a joining worker that found nothing to help with keeps looking
// before it blocks (see helpDone, and "How work moves" in pool.go).
const spinWait = 50 * time.Microsecond

// helpDone is how worker w waits for c before it blocks: it runs c itself if c is still on
// top of its deque, and helps with other tasks while c is not done; when there is nothing to
// help with, it keeps looking for up to spinWait (c is often about to complete, or its runner
// about to fork a subtask w can take).
func (w *worker) helpDone(c *task) {
	if w.q.tryUnpush(c) {
		execTask(c, w)
	}
	w.helpJoin(c)
	if c.done() {
		return
	}
	deadline := time.Now().Add(spinWait)
	for !c.done() && time.Now().Before(deadline) && !w.pool.isStopping.Load() {
		w.helpJoin(c)
	}
}

// helpJoin runs other tasks while c is not done: w's own, then those of the worker running c
// (c's subtasks wait there), then any other worker's. It returns when c is done or nothing is
// left to help with. Submissions are not taken: they are unrelated to c and would delay the
// join.
func (w *worker) helpJoin(c *task) {
	for !c.done() {
		t := w.localTask()
		if t == nil {
			if r := c.runner.Load(); r != nil && r != w {
				if t = r.q.poll(); t != nil {
					w.steals.Add(1)
				}
			}
		}
		if t == nil {
			t = w.scan(false)
		}
		if t == nil {
			return
		}
		execTask(t, w)
	}
}

// helpQuiesce runs tasks until the pool is quiescent apart from w (true) or d elapses (false).
func (w *worker) helpQuiesce(d time.Duration) bool {
	p := w.pool
	deadline := deadlineAfter(d)
	backoff := time.Microsecond
	for {
		t := w.localTask()
		if t == nil {
			t = w.scan(true)
		}
		if t != nil {
			execTask(t, w)
			backoff = time.Microsecond
			continue
		}
		// w is active; quiescent when it is the only one and nothing is queued
		if p.total.Load()-p.idle.Load()-p.blocked.Load() <= 1 && !p.hasQueuedWork() {
			return true
		}
		left := time.Until(deadline)
		if left <= 0 {
			return false
		}
		rt.Park(min(backoff, left), rt.ParkWaiting, p)
		backoff = min(2*backoff, time.Millisecond)
	}
}

// awaitWork parks idle w until it is signalled (true) or should end (false, and w is retired
// from the pool): the keep-alive time passed without work, the pool stops, w is a surplus
// spare, or the pool is shut down and quiescent. A worker's exit is decided, and counted, under
// the pool's mutex, so a signaller never counts on a worker that is leaving.
func (w *worker) awaitWork() bool {
	p := w.pool
	p.mu.Lock()
	if p.stopping || int(p.total.Load()-p.blocked.Load()) > p.parallel {
		p.retire(w)
		p.mu.Unlock()
		return false
	}
	p.idleStack = append(p.idleStack, w)
	w.idle = true
	p.idle.Add(1)
	if p.stopIfQuiescent() {
		p.retire(w)
		p.mu.Unlock()
		return false
	}
	p.mu.Unlock()

	// The last look, after becoming visible as idle (see "Why nothing is lost" in pool.go).
	if p.hasQueuedWork() {
		w.leaveIdle()
		return true
	}
	deadline := time.Now().Add(p.keepAlive)
	for {
		w.parked.Store(true)
		rt.Park(time.Until(deadline), rt.ParkWaiting, p)
		w.parked.Store(false)
		if !p.isStopping.Load() {
			thread.Interrupted() // a stray interrupt (a cancelled FutureTask's) must not spin the park
		}
		p.mu.Lock()
		switch {
		case !w.idle: // signalled
			p.mu.Unlock()
			return true
		case p.stopping, !time.Now().Before(deadline):
			p.retire(w)
			p.mu.Unlock()
			return false
		}
		p.mu.Unlock()
	}
}

// leaveIdle takes w off the idle stack if a signaller has not done so.
func (w *worker) leaveIdle() {
	p := w.pool
	p.mu.Lock()
	if w.idle {
		p.removeIdle(w)
	}
	p.mu.Unlock()
}
