package thread_test

import (
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/loomgo/loom/thread"
)

func TestThreeSleepersOnOneCarrierOverlap(t *testing.T) {
	s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 1})
	defer s.Close()
	start := time.Now()
	var ths []*thread.Thread
	var carriers [3]string
	for i := range 3 {
		ths = append(ths, thread.OfVirtual().Scheduler(s).Start(func() {
			if err := thread.Sleep(100 * time.Millisecond); err != nil {
				t.Error(err)
			}
			carriers[i] = thread.Current().Carrier()
		}))
	}
	for _, th := range ths {
		th.Join()
	}
	el := time.Since(start)
	if el > 280*time.Millisecond { // ~100ms overlapped; 300ms if they took turns
		t.Errorf("3 x 100ms sleep on one carrier took %v, want ~100ms", el)
	}
	for _, c := range carriers {
		if !strings.HasSuffix(c, "-worker-1") {
			t.Errorf("carrier %q, want worker-1", c)
		}
	}
}

func TestParkUnpark(t *testing.T) {
	var n atomic.Int64
	main := thread.Current()
	th := thread.StartVirtualThread(func() {
		n.Add(1)
		thread.Unpark(main)
		thread.Park()
		n.Add(1)
	})
	for n.Load() < 1 {
		thread.Park()
	}
	for th.State() != thread.Waiting {
		time.Sleep(time.Millisecond)
	}
	if got := th.String(); !strings.HasSuffix(got, "/waiting") {
		t.Errorf("String() = %q", got)
	}
	thread.Unpark(th)
	th.Join()
	if n.Load() != 2 {
		t.Fatal(n.Load())
	}
}
