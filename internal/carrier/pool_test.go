package carrier_test

import (
	"errors"
	"sync"
	"testing"

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

func TestYieldWithNothingQueuedKeepsRunning(t *testing.T) {
	p := carrier.New(1, 1)
	done := make(chan bool)
	p.Submit(&task{"y", func(s *carrier.Slot) { done <- p.Yield(s, &task{}) }})
	if <-done {
		t.Fatal("Yield handed the carrier away with nothing queued")
	}
}
