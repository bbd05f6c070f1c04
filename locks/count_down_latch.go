package locks

import (
	"fmt"
	"sync/atomic"
	"time"

	"github.com/loomgo/loom/internal/rt"
	"github.com/loomgo/loom/internal/waitq"
	"github.com/loomgo/loom/thread"
)

// A CountDownLatch lets threads wait until a count, set once, has been counted down to zero by
// other threads. It ports java.util.concurrent.CountDownLatch. The count cannot be reset (see
// [CyclicBarrier] for that). The zero value is an open latch (count zero). A CountDownLatch must
// not be copied after first use.
//
// A CountDown that reaches zero synchronizes before every Await that then returns.
type CountDownLatch struct {
	_ noCopy
	s latchSync
}

type latchSync struct {
	count atomic.Int64
	q     waitq.Queue
}

// TryAcquireShared implements waitq.Sync: pass (and let the next waiter pass) once the count is
// zero.
func (s *latchSync) TryAcquireShared(*thread.Thread, int64) int64 {
	if s.count.Load() == 0 {
		return 1
	}
	return -1
}

// TryAcquire implements waitq.Sync; latches are only acquired shared.
func (s *latchSync) TryAcquire(*thread.Thread, int64) bool { return false }

// NewCountDownLatch returns a latch with the given count. It panics with
// [thread.ErrIllegalArgument] if count < 0. It ports new [CountDownLatch](count).
func NewCountDownLatch(count int) *CountDownLatch {
	if count < 0 {
		panicIAE("count < 0")
	}
	l := &CountDownLatch{}
	l.s.count.Store(int64(count))
	return l
}

// CountDown decrements the count; when it reaches zero every waiting thread is released. At
// zero it does nothing. It ports CountDownLatch.countDown().
func (l *CountDownLatch) CountDown() {
	for {
		c := l.s.count.Load()
		if c == 0 {
			return
		}
		if l.s.count.CompareAndSwap(c, c-1) {
			if c == 1 {
				l.s.q.Wake()
			}
			return
		}
	}
}

// Count returns the current count. It ports CountDownLatch.getCount().
func (l *CountDownLatch) Count() int64 { return l.s.count.Load() }

// Await blocks until the count reaches zero; a virtual thread unmounts while it waits. It
// returns at once if the count is already zero, except that, as in Java, an interrupt status
// that is already set is checked first. If the current thread is interrupted before or while
// waiting, Await returns [thread.ErrInterrupted] and clears the status. It ports
// CountDownLatch.await().
func (l *CountDownLatch) Await() error {
	_, err := l.await(-1)
	return err
}

// AwaitTimeout is Await that gives up after d: it reports true if the count reached zero,
// false if d elapsed first (d <= 0: just test). It ports CountDownLatch.await(long, TimeUnit).
func (l *CountDownLatch) AwaitTimeout(d time.Duration) (bool, error) {
	return l.await(max(d, 0))
}

func (l *CountDownLatch) await(d time.Duration) (bool, error) {
	if interrupted() {
		return false, thread.ErrInterrupted
	}
	if l.s.count.Load() == 0 {
		return true, nil
	}
	if d == 0 {
		return false, nil
	}
	return l.s.q.Acquire(&l.s, 1, true, waitq.Wait{Timeout: d, Interruptible: true, Reason: rt.ParkWaiting, Blocker: l})
}

// String returns "[CountDownLatch]@<addr>[Count = N]", as Java's toString.
func (l *CountDownLatch) String() string {
	return fmt.Sprintf("CountDownLatch@%p[Count = %d]", l, l.Count())
}
