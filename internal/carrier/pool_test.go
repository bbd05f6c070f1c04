package carrier_test

import (
	"errors"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/loomgo/loom/internal/carrier"
)

// task is a new-task Runnable that records its run.
type task struct {
	name string
	run  func(s *carrier.Slot)
}

func (t *task) Carry(s *carrier.Slot) (*carrier.Slot, bool) {
	t.run(s)
	return s, true
}

func (t *task) Resumption() bool { return false }

func TestTasksRunInFIFOOrderOnOneCarrier(t *testing.T) {
	p := carrier.New(1, 1)
	var mu sync.Mutex
	var order []string
	var slots []string
	var wg sync.WaitGroup
	gate := make(chan struct{})
	wg.Add(1)
	// the first task holds the only carrier until the others are queued
	p.Submit(&task{"first", func(s *carrier.Slot) { <-gate; wg.Done() }})
	for _, n := range []string{"a", "b", "c", "d"} {
		wg.Add(1)
		p.Submit(&task{n, func(s *carrier.Slot) {
			mu.Lock()
			order = append(order, n)
			slots = append(slots, s.Name)
			mu.Unlock()
			wg.Done()
		}})
	}
	if st := p.Stats(); st.Queued != 4 || st.Mounted != 1 {
		t.Fatalf("stats %+v", st)
	}
	close(gate)
	wg.Wait()
	if diff := cmp.Diff([]string{"a", "b", "c", "d"}, order); diff != "" {
		t.Fatal(diff)
	}
	for _, s := range slots {
		if s != slots[0] || s[len(s)-9:] != "-worker-1" {
			t.Fatalf("slots %v", slots)
		}
	}
}

func TestCompensationAddsACarrierUpToMax(t *testing.T) {
	p := carrier.New(1, 2)
	block := make(chan struct{})
	ran := make(chan string, 1)
	var wg sync.WaitGroup
	wg.Add(2)
	p.Submit(&task{"blocker", func(*carrier.Slot) { <-block; wg.Done() }})
	p.Submit(&task{"queued", func(s *carrier.Slot) { ran <- s.Name; wg.Done() }})
	if !p.Compensate() {
		t.Fatal("Compensate refused below max")
	}
	if name := <-ran; name[len(name)-9:] != "-worker-2" {
		t.Fatalf("queued task ran on %s, want the lent worker-2", name)
	}
	if p.Compensate() {
		t.Fatal("Compensate allowed past max")
	}
	p.EndCompensate()
	close(block)
	wg.Wait()
	st := p.Stats()
	if st.PoolSize != 1 || st.Compensations != 0 || st.PeakPoolSize != 2 {
		t.Fatalf("after: %+v", st)
	}
}

func TestSubmitAfterCloseFails(t *testing.T) {
	p := carrier.New(1, 1)
	p.Close()
	if err := p.Submit(&task{"x", func(*carrier.Slot) {}}); !errors.Is(err, carrier.ErrClosed) {
		t.Fatal(err)
	}
}

// Yielded requeues the yielding Runnable behind the others and hands the slot's holder the
// next one the way Thread.yield orders them: new tasks first, then the resumptions, at whose
// tail the yielder is.
func TestYieldedRunsNewTasksThenTheYielder(t *testing.T) {
	p := carrier.New(1, 1)
	var mu sync.Mutex
	var order []string
	rec := func(x string) { mu.Lock(); order = append(order, x); mu.Unlock() }
	var wg sync.WaitGroup
	wg.Add(3)
	yielder := &task{"yielder", nil}
	yielder.run = func(s *carrier.Slot) {
		rec("yielder")
		if yielder.name == "yielder" {
			yielder.name = "yielded"
			p.Submit(&task{"new", func(*carrier.Slot) { rec("new"); wg.Done() }})
			p.Yielded(s, &requeued{yielder})
		}
		wg.Done()
	}
	p.Submit(yielder)
	wg.Wait()
	if diff := cmp.Diff([]string{"yielder", "new", "yielder"}, order); diff != "" {
		t.Fatalf("order (-want +got):\n%s", diff)
	}
}

// requeued is a task queued as a resumption.
type requeued struct{ *task }

func (r *requeued) Resumption() bool { return true }

// The pool counts the goroutines it starts while they live (issue 15, defect 13: the scale test
// measures a burst by this count, not by the process-wide runtime.NumGoroutine). Tasks queued
// behind a running one run on its goroutine; a goroutine that ends in runtime.Goexit is counted
// out too.
func TestPoolCountsTheGoroutinesItStarts(t *testing.T) {
	p := carrier.New(1, 1)
	gate := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(3)
	p.Submit(&task{"first", func(*carrier.Slot) { <-gate; wg.Done() }})
	p.Submit(&task{"second", func(*carrier.Slot) { wg.Done() }})
	p.Submit(&task{"third", func(*carrier.Slot) { wg.Done() }})
	if st := p.Stats(); st.Goroutines != 1 || st.PeakGoroutines != 1 {
		t.Fatalf("one dispatcher running, two queued: %+v", st)
	}
	close(gate)
	wg.Wait()
	waitGoroutines(t, p, 0)

	// a task that calls runtime.Goexit ends its goroutine (and gives its slot back and counts
	// its goroutine out, as package thread's Carry does)
	exited := make(chan struct{})
	p.Submit(&goexitTask{p: p, done: exited})
	<-exited
	waitGoroutines(t, p, 0)
	if st := p.Stats(); st.PeakGoroutines != 1 {
		t.Fatalf("peak %d, want 1", st.PeakGoroutines)
	}
}

type goexitTask struct {
	p    *carrier.Pool
	done chan struct{}
}

func (g *goexitTask) Carry(s *carrier.Slot) (*carrier.Slot, bool) {
	defer close(g.done)
	defer g.p.GoroutineExiting()
	defer g.p.Release(s)
	runtime.Goexit()
	return nil, false
}

func (g *goexitTask) Resumption() bool { return false }

func waitGoroutines(t *testing.T, p *carrier.Pool, want int64) {
	t.Helper()
	for start := time.Now(); p.Stats().Goroutines != want; {
		if time.Since(start) > 10*time.Second {
			t.Fatalf("goroutines %d, want %d", p.Stats().Goroutines, want)
		}
		time.Sleep(time.Millisecond)
	}
}

// Submitted counts every Runnable submitted: those queued, and those given an idle slot at once
// without being queued (nothing queued, a slot available).
func TestSubmittedCountsDirectAndQueuedSubmissions(t *testing.T) {
	p := carrier.New(1, 1)
	done := make(chan struct{})
	for range 3 { // the carrier is idle each time: straight to it
		p.Submit(&task{"direct", func(*carrier.Slot) { done <- struct{}{} }})
		<-done
	}
	gate := make(chan struct{})
	p.Submit(&task{"holder", func(*carrier.Slot) { <-gate }})
	for range 2 { // the carrier is busy: queued
		p.Submit(&task{"queued", func(*carrier.Slot) { done <- struct{}{} }})
	}
	close(gate)
	<-done
	<-done
	if got, want := p.Stats().Submitted, int64(6); got != want {
		t.Errorf("Submitted = %d, want %d", got, want)
	}
}
