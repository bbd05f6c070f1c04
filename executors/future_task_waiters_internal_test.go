package executors

import (
	"errors"
	"math/rand/v2"
	"sync"
	"testing"
	"time"
	"unsafe"

	"github.com/loomgo/loom/thread"
)

// The waiters' Treiber stack (FutureTask.WaitNode), randomized: waiters with random timeouts,
// some interrupted, race the completion. Every waiter returns the result, ErrTimeout or
// thread.ErrInterrupted, none hangs, a waiter without a timeout that is not interrupted gets the
// result, and once the timed-out and interrupted waiters have returned, their nodes are off the
// stack (removeWaiter), before and after completion. In some rounds the done hook (whenDone) is
// on the stack too, between the waiters' nodes: it stays through their removals and runs once,
// on completion.
func TestFutureTaskWaitersRaceCompletionRandomized(t *testing.T) {
	rounds := 400
	if testing.Short() {
		rounds = 50
	}
	s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 2})
	defer s.Close()
	vb := thread.OfVirtual().Scheduler(s)
	for seed := range uint64(rounds) {
		r := rand.New(rand.NewPCG(seed, 5))
		f := NewFutureTask(func() (int, error) { return 42, nil })
		n := 1 + r.IntN(8)
		type outcome struct {
			v       int
			err     error
			forever bool
			intr    bool
		}
		outs := make([]outcome, n)
		ths := make([]*thread.Thread, n)
		var started sync.WaitGroup
		started.Add(n)
		hookAt := r.IntN(n + 2) // push the hook before waiter hookAt (n: after them all, n+1: never)
		var hooked int
		hook := func() {
			started.Wait() // the waiters before hookAt have pushed their nodes, or are about to
			f.whenDone(func() { hooked++ })
		}
		if hookAt == 0 {
			f.whenDone(func() { hooked++ })
		}
		for i := range n {
			if i == hookAt && i > 0 {
				// after the waiters so far, so that their removals walk past the hook
				time.Sleep(100 * time.Microsecond)
				f.whenDone(func() { hooked++ })
			}
			forever := r.IntN(3) == 0
			d := time.Duration(r.IntN(300)) * time.Microsecond
			outs[i].forever = forever
			ths[i] = vb.Start(func() {
				started.Done()
				if forever {
					outs[i].v, outs[i].err = f.Get()
				} else {
					outs[i].v, outs[i].err = f.GetTimeout(d)
				}
			})
			if r.IntN(4) == 0 {
				outs[i].intr = true
			}
		}
		if hookAt == n {
			hook()
		}
		started.Wait()
		// interrupt some, let the timed ones expire or not, then complete
		for i := range n {
			if outs[i].intr {
				ths[i].Interrupt()
			}
		}
		time.Sleep(time.Duration(r.IntN(400)) * time.Microsecond)
		// every timed-out or interrupted waiter that has returned is off the stack
		checkStack(t, f, seed, "before completion")
		f.Run()
		deadline := time.Now().Add(10 * time.Second)
		for _, th := range ths {
			if ok, _ := th.JoinTimeout(time.Until(deadline)); !ok {
				t.Fatalf("seed %d: a waiter hangs", seed)
			}
		}
		for i, o := range outs {
			switch {
			case o.err == nil && o.v == 42:
			case errors.Is(o.err, ErrTimeout) && !o.forever:
			case errors.Is(o.err, thread.ErrInterrupted) && o.intr:
			default:
				t.Fatalf("seed %d: waiter %d (forever %v, interrupted %v) got %v, %v", seed, i, o.forever, o.intr, o.v, o.err)
			}
			if o.forever && !o.intr && (o.err != nil || o.v != 42) {
				t.Fatalf("seed %d: an untimed, uninterrupted waiter got %v, %v", seed, o.v, o.err)
			}
		}
		if f.waiters.Load() != nil {
			t.Fatalf("seed %d: waiters left on the stack after completion", seed)
		}
		if want := b2i(hookAt <= n); hooked != want {
			t.Fatalf("seed %d: the done hook ran %d times, want %d", seed, hooked, want)
		}
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// checkStack fails if a node of the stack has no thread while no removal is running: a waiter
// that gave up unlinks its node before it returns.
func checkStack(t *testing.T, f *FutureTask[int], seed uint64, when string) {
	t.Helper()
	// a removal may be in flight on another thread: look again until it is done
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); {
		clean := true
		for n := f.waiters.Load(); n != nil; n = n.next.Load() {
			if n.cancelled() {
				clean = false
				break
			}
		}
		if clean {
			return
		}
		time.Sleep(50 * time.Microsecond)
	}
	t.Fatalf("seed %d: %s: a cancelled node stays on the stack", seed, when)
}

// What a submitted task of a virtual thread-per-task executor costs: its thread, its link to the
// executor and its future in one allocation of 144 bytes (for a result of one word), and an
// executed one 128.
func TestSubmittedTaskSize(t *testing.T) {
	if n := unsafe.Sizeof(submitted[int]{}); n > 144 {
		t.Errorf("submitted[int] is %d bytes, want <= 144", n)
	}
	if n := unsafe.Sizeof(executed{}); n > 128 {
		t.Errorf("executed is %d bytes, want <= 128", n)
	}
}
