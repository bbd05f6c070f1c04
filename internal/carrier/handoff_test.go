package carrier_test

import (
	"sync"
	"testing"
	"time"
	"unsafe"

	"github.com/google/go-cmp/cmp"

	"github.com/loomgo/loom/internal/carrier"
)

// resumed is a resumption for the hand-off tests: carried, it records its run on a goroutine of
// its own (as a parked thread's goroutine would run) and then lets go of the slot.
type resumed struct {
	name string
	p    *carrier.Pool
	ran  func(name, slot string)
}

func (r *resumed) Carry(s *carrier.Slot) (*carrier.Slot, bool) {
	go func() {
		r.ran(r.name, s.Name)
		r.p.Release(s)
	}()
	return nil, false
}

func (r *resumed) Resumption() bool { return true }

// newHandOffPool returns a pool whose keys are *resumed.
func newHandOffPool(par int) *carrier.Pool {
	p := carrier.New(par, par)
	p.SetResume(func(k unsafe.Pointer) carrier.Runnable { return (*resumed)(k) })
	return p
}

// recorder collects runs in order.
type recorder struct {
	mu    sync.Mutex
	names []string
	slots []string
	wg    sync.WaitGroup
}

func (r *recorder) ran(name, slot string) {
	r.mu.Lock()
	r.names = append(r.names, name)
	r.slots = append(r.slots, slot)
	r.mu.Unlock()
	r.wg.Done()
}

// On one carrier a resumption in the cell runs before everything queued after it, and the cell
// takes one resumption, and only while nothing is queued: the order stays the order of wake-ups.
func TestHandOffCellRunsFirstAndOnlyWhenNothingIsQueued(t *testing.T) {
	p := newHandOffPool(1)
	var rec recorder
	a := &resumed{name: "a", p: p, ran: rec.ran}
	c := &resumed{name: "never", p: p, ran: rec.ran}
	rec.wg.Add(4) // a, b, c, holder
	p.Submit(&task{"holder", func(s *carrier.Slot) {
		if placed, idle := p.PutNext(s, unsafe.Pointer(a)); !placed || idle {
			t.Errorf("PutNext(a) = %v, %v; want placed, no idle slot", placed, idle)
		}
		if placed, _ := p.PutNext(s, unsafe.Pointer(c)); placed {
			t.Error("PutNext placed a second resumption in a full cell")
		}
		p.Submit(&task{"b", func(*carrier.Slot) { rec.ran("b", s.Name) }})
		p.Submit(&task{"c", func(*carrier.Slot) { rec.ran("c", s.Name) }})
		if st := p.Stats(); st.Queued != 3 || st.Submitted != 4 { // holder, a (cell), b, c
			t.Errorf("stats %+v, want 3 queued (one in the cell), 4 submitted", st)
		}
		rec.ran("holder", s.Name)
	}})
	rec.wg.Wait()
	if diff := cmp.Diff([]string{"holder", "a", "b", "c"}, rec.names); diff != "" {
		t.Fatal(diff)
	}
	p2 := newHandOffPool(1)
	done := make(chan struct{})
	p2.Submit(&task{"holder", func(s *carrier.Slot) {
		defer close(done)
		p2.Submit(&task{"queued", func(*carrier.Slot) {}})
		if placed, _ := p2.PutNext(s, unsafe.Pointer(&resumed{name: "x", p: p2})); placed {
			t.Error("PutNext placed while the run queue had work")
		}
	}})
	<-done
	waitGoroutines(t, p, 0)
	waitGoroutines(t, p2, 0)
}

// A carrier that finds the run queue empty takes a resumption waiting in another carrier's cell
// before it goes idle, so a waker that keeps running does not hold it back.
func TestHandOffCellIsStolenByACarrierGoingIdle(t *testing.T) {
	p := newHandOffPool(2)
	var rec recorder
	a := &resumed{name: "a", p: p, ran: rec.ran}
	rec.wg.Add(1)
	release := make(chan struct{})
	placed := make(chan struct{})
	p.Submit(&task{"other", func(*carrier.Slot) { <-placed }}) // ends once a is in the cell
	p.Submit(&task{"waker", func(s *carrier.Slot) {
		if ok, idle := p.PutNext(s, unsafe.Pointer(a)); !ok || idle {
			t.Errorf("PutNext = %v, %v; want placed with both carriers busy", ok, idle)
		}
		close(placed)
		<-release // keeps its carrier until a has run elsewhere
	}})
	ran := make(chan struct{})
	go func() { rec.wg.Wait(); close(ran) }()
	select {
	case <-ran:
	case <-time.After(20 * time.Second):
		t.Fatal("the resumption in the waker's cell never ran while another carrier went idle")
	}
	close(release)
	waitGoroutines(t, p, 0)
}
