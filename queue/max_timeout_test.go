package queue_test

import (
	"math"
	"testing"
	"time"

	"github.com/loomgo/loom/queue"
	"github.com/loomgo/loom/thread"
)

// issue 15, defect 1: a timeout of math.MaxInt64 means "forever" (Java's Long.MAX_VALUE idiom):
// every timed wait of every queue waits until the partner comes, and then succeeds; the
// deadline arithmetic neither overflows into the past nor reports a time-out.

const forever = time.Duration(math.MaxInt64)

// waitsForever runs wait on a virtual thread alone on a scheduler of its own, checks that it
// has not returned after a moment and was not resumed meanwhile (a spin shows as resumptions),
// runs release and checks that wait then returns true and no error.
func waitsForever(t *testing.T, what string, wait func() (bool, error), release func()) {
	t.Helper()
	var ok bool
	var err error
	returned := make(chan struct{})
	s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 1})
	defer s.Close()
	th := thread.OfVirtual().Scheduler(s).Start(func() { defer close(returned); ok, err = wait() })
	for th.State() != thread.TimedWaiting {
		select {
		case <-returned:
			t.Fatalf("%s returned %v, %v before its partner came", what, ok, err)
		case <-time.After(time.Millisecond):
		}
	}
	before := s.Stats().Submitted
	select {
	case <-returned:
		t.Fatalf("%s returned %v, %v before its partner came", what, ok, err)
	case <-time.After(100 * time.Millisecond):
	}
	if n := s.Stats().Submitted - before; n != 0 {
		t.Errorf("%s resumed %d times in 100 ms while it should wait (a spin)", what, n)
	}
	release()
	join(t, th)
	if !ok || err != nil {
		t.Errorf("%s = %v, %v after its partner came", what, ok, err)
	}
}

func TestTimeoutsOfMaxInt64MeanForever(t *testing.T) {
	forEachKind(t, func(t *testing.T, k kind) {
		q := k.make(2)
		waitsForever(t, "PollTimeout", func() (bool, error) {
			_, ok, err := q.PollTimeout(forever)
			return ok, err
		}, func() { q.Offer(1) })
		if k.bounded == nil {
			return
		}
		q = k.bounded(1)
		q.Offer(1)
		waitsForever(t, "OfferTimeout", func() (bool, error) { return q.OfferTimeout(2, forever) }, func() { q.Poll() })
	})
	t.Run("LinkedBlockingDeque ends", func(t *testing.T) {
		q := queue.NewLinkedBlockingDeque[int](1)
		waitsForever(t, "PollLastTimeout", func() (bool, error) {
			_, ok, err := q.PollLastTimeout(forever)
			return ok, err
		}, func() { q.Offer(1) })
		q.Offer(1)
		waitsForever(t, "OfferFirstTimeout", func() (bool, error) { return q.OfferFirstTimeout(2, forever) }, func() { q.Poll() })
	})
	t.Run("LinkedTransferQueue.TryTransferTimeout", func(t *testing.T) {
		q := queue.NewLinkedTransferQueue[int]()
		waitsForever(t, "TryTransferTimeout", func() (bool, error) { return q.TryTransferTimeout(1, forever) },
			func() { q.Poll() })
	})
	for _, fair := range []bool{false, true} {
		q := queue.NewSynchronousQueue[int](fair)
		waitsForever(t, "SynchronousQueue.OfferTimeout", func() (bool, error) { return q.OfferTimeout(1, forever) },
			func() {
				for _, ok := q.Poll(); !ok; _, ok = q.Poll() {
					time.Sleep(time.Millisecond)
				}
			})
		waitsForever(t, "SynchronousQueue.PollTimeout", func() (bool, error) {
			_, ok, err := q.PollTimeout(forever)
			return ok, err
		}, func() {
			for !q.Offer(1) {
				time.Sleep(time.Millisecond)
			}
		})
	}
}

// A DelayQueue element whose delay is math.MaxInt64 never expires: a timed poll times out and
// an element due soon is taken first.
func TestDelayQueueDelayOfMaxInt64NeverExpires(t *testing.T) {
	q := queue.NewDelayQueue[fixedDelay]()
	q.Offer(fixedDelay(forever))
	if _, ok, err := q.PollTimeout(30 * time.Millisecond); ok || err != nil {
		t.Fatalf("PollTimeout = %v, %v: an element with a delay of math.MaxInt64 expired", ok, err)
	}
	q.Offer(fixedDelay(-1))
	if e, ok, err := q.PollTimeout(forever); !ok || err != nil || e != -1 {
		t.Fatalf("PollTimeout = %v, %v, %v", e, ok, err)
	}
}

// fixedDelay is a Delayed whose delay is itself.
type fixedDelay time.Duration

func (d fixedDelay) Delay() time.Duration { return time.Duration(d) }
