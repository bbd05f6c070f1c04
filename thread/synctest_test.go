package thread_test

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/loomgo/loom/thread"
)

// A scheduler made inside a testing/synctest bubble runs on the bubble's fake clock: timing
// shapes can be asserted exactly, without waiting.
func TestSchedulerInsideSynctestBubbleHasExactTiming(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 1})
		start := time.Now()
		var ths []*thread.Thread
		for range 3 {
			ths = append(ths, thread.OfVirtual().Scheduler(s).Start(func() { thread.Sleep(100 * time.Millisecond) }))
		}
		for _, th := range ths {
			th.Join()
		}
		if el := time.Since(start); el != 100*time.Millisecond {
			t.Errorf("3 x 100ms on one carrier took %v of fake time, want exactly 100ms", el)
		}
		start = time.Now()
		ths = ths[:0]
		for range 3 {
			ths = append(ths, thread.OfVirtual().Scheduler(s).Start(func() {
				thread.Native(func() { thread.Sleep(100 * time.Millisecond) })
			}))
		}
		for _, th := range ths {
			th.Join()
		}
		if el := time.Since(start); el != 300*time.Millisecond {
			t.Errorf("3 x 100ms pinned took %v of fake time, want exactly 300ms", el)
		}
		// a parked thread woken by another after fake time passes
		p := thread.OfVirtual().Scheduler(s).Start(thread.Park)
		time.Sleep(time.Hour)
		synctest.Wait()
		if p.State() != thread.Waiting {
			t.Errorf("parked thread %v", p)
		}
		thread.Unpark(p)
		p.Join()
		s.Close()
	})
}
