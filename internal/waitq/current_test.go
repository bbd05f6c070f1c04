package waitq_test

import (
	"sync"
	"testing"

	"github.com/loomgo/loom/internal/waitq"
	"github.com/loomgo/loom/thread"
)

// Short virtual threads run one after another inline on the same dispatching goroutine: the
// cache must never hand one of them the thread that ran there before.
func TestCurrentIsThreadCurrentEvenWhenGoroutinesAreReused(t *testing.T) {
	s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 1})
	defer s.Close()
	var ths []*thread.Thread
	got := make([]*thread.Thread, 200)
	for i := range got {
		ths = append(ths, thread.OfVirtual().Scheduler(s).Start(func() {
			if waitq.Current() != thread.Current() {
				t.Errorf("thread %d: Current differs from thread.Current", i)
			}
			got[i] = waitq.Current()
		}))
	}
	for i, th := range ths {
		th.Join()
		if got[i] != th {
			t.Errorf("thread %d saw %v as current, want %v", i, got[i], th)
		}
	}
}

func TestCurrentOnForeignGoroutinesAndAfterDetach(t *testing.T) {
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			a := waitq.Current()
			if a != thread.Current() || waitq.Current() != a {
				t.Error("Current unstable on a foreign goroutine")
			}
			thread.Detach()
			b := waitq.Current()
			if b == a || b != thread.Current() {
				t.Error("Current returned the detached thread")
			}
			thread.Detach()
		}()
	}
	wg.Wait()
	if waitq.Current() != thread.Current() {
		t.Error("main goroutine")
	}
}
