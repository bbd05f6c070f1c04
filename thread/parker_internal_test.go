package thread

import (
	"runtime"
	"testing"

	"github.com/loomgo/loom/internal/carrier"
)

// The parkers of ended virtual threads are reused: the one its carrier keeps (Spare) and the
// rest through the pool, which the next burst of threads takes them from (reuseParker).
func TestEndedThreadsGiveTheirParkersForReuse(t *testing.T) {
	if raceInternal {
		t.Skip("under the race detector a sync.Pool drops a share of what it is given")
	}
	// One P: a sync.Pool keeps the last parker a P was given where only that P's Gets find it,
	// so the threads' ends and this test's Gets must share it.
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	for parkers.Get() != nil { // whatever other tests left
	}
	s := NewScheduler(SchedulerOptions{Parallelism: 1})
	defer s.Close()
	var slot *carrier.Slot // the one carrier
	OfVirtual().Scheduler(s).Start(func() { slot = Current().slot.Load() }).Join()
	const n = 3
	ths := make([]*Thread, n)
	for i := range ths {
		ths[i] = OfVirtual().Scheduler(s).Start(func() { Park() })
	}
	given := map[*parker]bool{}
	for _, th := range ths {
		for th.State() != Waiting {
			Yield()
		}
		given[th.parker] = true
	}
	for _, th := range ths {
		Unpark(th)
		th.Join()
		if th.parker != nil {
			t.Errorf("%v ended holding its parker", th)
		}
	}
	if len(given) != n {
		t.Fatalf("%d parkers for %d parked threads", len(given), n)
	}
	reused := 0
	if given[(*parker)(slot.Spare)] {
		reused++
	}
	for p, _ := parkers.Get().(*parker); p != nil; p, _ = parkers.Get().(*parker) {
		if given[p] {
			reused++
		}
	}
	if reused != n {
		t.Fatalf("%d of %d parkers kept for reuse", reused, n)
	}
}
