package queue_test

import (
	"github.com/loomgo/loom/internal/testutil"

	"iter"
	"testing"
	"time"

	"github.com/loomgo/loom/queue"
	"github.com/loomgo/loom/thread"
)

// Delays of the TCK (JSR166TestCase), widened for a slow shared machine.
const (
	shortDelay = 50 * time.Millisecond
	longDelay  = 10 * time.Second
)

// anyQueue is what every queue in the package offers, beyond BlockingQueue.
type anyQueue interface {
	queue.BlockingQueue[int]
	Contains(int) bool
	RemoveElement(int) bool
	Clear()
	RemoveIf(func(int) bool) int
	ToSlice() []int
	Element() (int, error)
}

// kind describes one queue implementation for the tests shared by all of them.
type kind struct {
	name      string
	bounded   func(capacity int) anyQueue // nil: cannot be bounded
	unbounded func() anyQueue             // nil: cannot be unbounded
	fifo      bool                        // FIFO (else priority order, least first)
	blockPut  bool                        // Put/OfferTimeout wait and are interruptible
	// untimed Take and Put take the lock with Java's lock(), not lockInterruptibly: with the
	// interrupt status set they succeed when they need not wait (JDK 25's LinkedBlockingDeque)
	lenientTakePut bool
}

// expiredInt is an int whose delay expired long ago, ordered by value, so a DelayQueue of them
// behaves like a priority queue of ints.
type expiredInt int

func (e expiredInt) Delay() time.Duration { return time.Duration(e) - 1<<50 }

func kinds() []kind {
	return []kind{
		{name: "ArrayBlockingQueue", fifo: true, blockPut: true,
			bounded: func(n int) anyQueue { return queue.NewArrayBlockingQueue[int](n, false) }},
		{name: "ArrayBlockingQueueFair", fifo: true, blockPut: true,
			bounded: func(n int) anyQueue { return queue.NewArrayBlockingQueue[int](n, true) }},
		{name: "LinkedBlockingQueue", fifo: true, blockPut: true,
			bounded:   func(n int) anyQueue { return queue.NewLinkedBlockingQueue[int](n) },
			unbounded: func() anyQueue { return new(queue.LinkedBlockingQueue[int]) }},
		{name: "LinkedBlockingDeque", fifo: true, blockPut: true, lenientTakePut: true,
			bounded:   func(n int) anyQueue { return queue.NewLinkedBlockingDeque[int](n) },
			unbounded: func() anyQueue { return new(queue.LinkedBlockingDeque[int]) }},
		{name: "PriorityBlockingQueue",
			unbounded: func() anyQueue { return queue.NewPriorityBlockingQueue(func(a, b int) int { return a - b }) }},
		{name: "DelayQueue",
			unbounded: func() anyQueue { return &delayAdapter{q: new(queue.DelayQueue[expiredInt])} }},
		{name: "LinkedTransferQueue", fifo: true,
			unbounded: func() anyQueue { return new(queue.LinkedTransferQueue[int]) }},
	}
}

// make returns a queue of the kind with room for at least n elements.
func (k kind) make(n int) anyQueue {
	if k.bounded != nil {
		return k.bounded(n)
	}
	return k.unbounded()
}

// populated returns a queue of the kind holding 0..n-1, full if it is bounded.
func (k kind) populated(t *testing.T, n int) anyQueue {
	t.Helper()
	q := k.make(n)
	for i := range n {
		if !q.Offer(i) {
			t.Fatalf("Offer(%d) = false", i)
		}
	}
	if q.Len() != n {
		t.Fatalf("Len = %d, want %d", q.Len(), n)
	}
	return q
}

// delayAdapter shows a DelayQueue[expiredInt] as a queue of ints.
type delayAdapter struct{ q *queue.DelayQueue[expiredInt] }

func (a *delayAdapter) Add(e int) error  { return a.q.Add(expiredInt(e)) }
func (a *delayAdapter) Offer(e int) bool { return a.q.Offer(expiredInt(e)) }
func (a *delayAdapter) OfferTimeout(e int, d time.Duration) (bool, error) {
	return a.q.OfferTimeout(expiredInt(e), d)
}
func (a *delayAdapter) Put(e int) error { return a.q.Put(expiredInt(e)) }
func (a *delayAdapter) Take() (int, error) {
	e, err := a.q.Take()
	return int(e), err
}
func (a *delayAdapter) Poll() (int, bool) {
	e, ok := a.q.Poll()
	return int(e), ok
}
func (a *delayAdapter) PollTimeout(d time.Duration) (int, bool, error) {
	e, ok, err := a.q.PollTimeout(d)
	return int(e), ok, err
}
func (a *delayAdapter) Peek() (int, bool) {
	e, ok := a.q.Peek()
	return int(e), ok
}
func (a *delayAdapter) Remove() (int, error) {
	e, err := a.q.Remove()
	return int(e), err
}
func (a *delayAdapter) Element() (int, error) {
	e, err := a.q.Element()
	return int(e), err
}
func (a *delayAdapter) RemainingCapacity() int { return a.q.RemainingCapacity() }
func (a *delayAdapter) DrainTo(dst []int, max int) []int {
	for _, e := range a.q.DrainTo(nil, max) {
		dst = append(dst, int(e))
	}
	return dst
}
func (a *delayAdapter) Len() int                 { return a.q.Len() }
func (a *delayAdapter) Contains(e int) bool      { return a.q.Contains(expiredInt(e)) }
func (a *delayAdapter) RemoveElement(e int) bool { return a.q.RemoveElement(expiredInt(e)) }
func (a *delayAdapter) Clear()                   { a.q.Clear() }
func (a *delayAdapter) RemoveIf(pred func(int) bool) int {
	return a.q.RemoveIf(func(e expiredInt) bool { return pred(int(e)) })
}
func (a *delayAdapter) ToSlice() []int {
	var s []int
	for _, e := range a.q.ToSlice() {
		s = append(s, int(e))
	}
	return s
}
func (a *delayAdapter) All() iter.Seq[int] {
	return func(yield func(int) bool) {
		for e := range a.q.All() {
			if !yield(int(e)) {
				return
			}
		}
	}
}

// start runs fn on a new virtual (or platform) thread.
func start(virtual bool, fn func()) *thread.Thread {
	if virtual {
		return thread.OfVirtual().Start(fn)
	}
	return thread.OfPlatform().Start(fn)
}

// awaitState waits until th shows one of the states (a waiting thread has reached its park).
func awaitState(t *testing.T, th *thread.Thread, states ...thread.State) {
	t.Helper()
	deadline := time.Now().Add(longDelay)
	for time.Now().Before(deadline) {
		st := th.State()
		for _, s := range states {
			if st == s {
				return
			}
		}
		time.Sleep(time.Millisecond)
	}
	t.Fatalf("thread %v never reached %v", th, states)
}

func awaitBlocked(t *testing.T, th *thread.Thread) {
	t.Helper()
	awaitState(t, th, thread.Waiting, thread.TimedWaiting)
}

func seq(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

func forEachKind(t *testing.T, fn func(t *testing.T, k kind)) {
	for _, k := range kinds() {
		t.Run(k.name, func(t *testing.T) { fn(t, k) })
	}
}

var join = func(t *testing.T, th *thread.Thread) { t.Helper(); testutil.Join(t, th) }
var mustPanicWith = testutil.MustPanic
