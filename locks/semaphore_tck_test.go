package locks_test

import (
	"errors"
	"fmt"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/loomgo/loom/internal/testutil"
	"github.com/loomgo/loom/locks"
	"github.com/loomgo/loom/thread"
)

// Ports of the JSR-166 TCK's SemaphoreTest not covered by semaphore_test.go. Each runs fair and
// non-fair; threads are virtual unless said.

// acquireMethod is the TCK's AcquireMethod: one way to acquire, for 1 or n permits (the
// one-permit forms acquire n times), and the state a blocked acquirer shows.
type acquireMethod struct {
	name  string
	one   func(s *locks.Semaphore) error
	n     func(s *locks.Semaphore, n int) error
	state thread.State
}

func loopN(one func(*locks.Semaphore) error) func(*locks.Semaphore, int) error {
	return func(s *locks.Semaphore, n int) error {
		for range n {
			if err := one(s); err != nil {
				return err
			}
		}
		return nil
	}
}

func mustTrue(ok bool, err error) error {
	if err == nil && !ok {
		return errors.New("acquire returned false")
	}
	return err
}

var acquireMethods = func() []acquireMethod {
	acquire := func(s *locks.Semaphore) error { return s.Acquire() }
	uninterruptibly := func(s *locks.Semaphore) error { s.AcquireUninterruptibly(); return nil }
	try := func(s *locks.Semaphore) error { return mustTrue(s.TryAcquire(), nil) }
	timed := func(s *locks.Semaphore) error { return mustTrue(s.TryAcquireTimeout(2 * longWait)) }
	return []acquireMethod{
		{"acquire", acquire, loopN(acquire), thread.Waiting},
		{"acquireN", acquire, func(s *locks.Semaphore, n int) error { return s.AcquireN(n) }, thread.Waiting},
		{"acquireUninterruptibly", uninterruptibly, loopN(uninterruptibly), thread.Waiting},
		{"acquireUninterruptiblyN", uninterruptibly, func(s *locks.Semaphore, n int) error { s.AcquireUninterruptiblyN(n); return nil }, thread.Waiting},
		{"tryAcquire", try, loopN(try), thread.Runnable},
		{"tryAcquireN", try, func(s *locks.Semaphore, n int) error { return mustTrue(s.TryAcquireN(n), nil) }, thread.Runnable},
		{"tryAcquireTimed", timed, loopN(timed), thread.TimedWaiting},
		{"tryAcquireTimedN", timed, func(s *locks.Semaphore, n int) error { return mustTrue(s.TryAcquireNTimeout(n, 2*longWait)) }, thread.TimedWaiting},
	}
}()

func method(name string) acquireMethod {
	for _, m := range acquireMethods {
		if m.name == name {
			return m
		}
	}
	panic(name)
}

func forFairness(t *testing.T, body func(t *testing.T, fair bool)) {
	for _, fair := range []bool{false, true} {
		t.Run(fmt.Sprint("fair=", fair), func(t *testing.T) { body(t, fair) })
	}
}

// testInterruptible: acquire, acquire(N) and the timed tryAcquires fail with an interrupt set
// before the call or arriving while they wait, and clear it.
func TestSemaphoreTest_testInterruptible(t *testing.T) {
	for _, name := range []string{"acquire", "acquireN", "tryAcquireTimed", "tryAcquireTimedN"} {
		m := method(name)
		t.Run(name, func(t *testing.T) {
			forFairness(t, func(t *testing.T, fair bool) {
				s := locks.NewSemaphore(0, fair)
				pleaseInterrupt := locks.NewCyclicBarrier(2, nil)
				th := startVirtual(func() {
					for _, n := range []int{1, 3} { // interrupt before acquire, acquire(N)
						thread.Current().Interrupt()
						if err := m.n(s, n); !errors.Is(err, thread.ErrInterrupted) || thread.Interrupted() {
							t.Errorf("interrupted before acquire(%d): %v", n, err)
						}
					}
					for _, n := range []int{1, 3} { // interrupt during
						pleaseInterrupt.Await()
						if err := m.n(s, n); !errors.Is(err, thread.ErrInterrupted) || thread.Interrupted() {
							t.Errorf("interrupted during acquire(%d): %v", n, err)
						}
					}
				})
				for range 2 {
					pleaseInterrupt.Await()
					testutil.WaitState(t, th, m.state)
					th.Interrupt()
				}
				testutil.Join(t, th)
				if s.AvailablePermits() != 0 || s.HasQueuedThreads() {
					t.Errorf("permits %d, queued %v", s.AvailablePermits(), s.HasQueuedThreads())
				}
			})
		})
	}
}

// testUninterruptible: acquireUninterruptibly(N) keeps waiting through an interrupt (set before
// or arriving during) and returns with the status set.
func TestSemaphoreTest_testUninterruptible(t *testing.T) {
	for _, name := range []string{"acquireUninterruptibly", "acquireUninterruptiblyN"} {
		m := method(name)
		t.Run(name, func(t *testing.T) {
			forFairness(t, func(t *testing.T, fair bool) {
				s := locks.NewSemaphore(0, fair)
				t1 := startVirtual(func() {
					thread.Current().Interrupt()
					m.one(s)
					if !thread.Interrupted() {
						t.Error("interrupt before: status lost")
					}
				})
				t2 := startVirtual(func() {
					m.one(s)
					if !thread.Interrupted() {
						t.Error("interrupt during: status lost")
					}
				})
				eventually(t, "both queued", func() bool { return s.QueueLength() == 2 })
				t2.Interrupt()
				time.Sleep(tckTimeout)
				testutil.WaitState(t, t1, thread.Waiting)
				testutil.WaitState(t, t2, thread.Waiting)
				s.ReleaseN(2)
				testutil.Join(t, t1, t2)
			})
		})
	}
}

// testHasQueuedThreads, testGetQueueLength, testGetQueuedThreads: an interrupted waiter leaves
// the queue; a released one too.
func TestSemaphoreTest_testQueueInspectionAfterInterrupt(t *testing.T) {
	forFairness(t, func(t *testing.T, fair bool) {
		s := locks.NewSemaphore(1, fair)
		if s.HasQueuedThreads() || s.QueueLength() != 0 || len(s.QueuedThreads()) != 0 {
			t.Fatal("queue not empty at first")
		}
		s.AcquireUninterruptibly()
		t1 := party(t, thread.ErrInterrupted, s.Acquire)
		eventually(t, "t1 queued", func() bool { return slices.Contains(s.QueuedThreads(), t1) })
		t2 := startVirtual(func() { s.Acquire() })
		eventually(t, "t2 queued", func() bool { return slices.Contains(s.QueuedThreads(), t2) })
		if s.QueueLength() != 2 {
			t.Fatalf("QueueLength %d, want 2", s.QueueLength())
		}
		t1.Interrupt()
		testutil.Join(t, t1)
		if s.QueueLength() != 1 || slices.Contains(s.QueuedThreads(), t1) || !slices.Contains(s.QueuedThreads(), t2) || !s.HasQueuedThreads() {
			t.Fatalf("after the interrupt: length %d", s.QueueLength())
		}
		s.Release()
		testutil.Join(t, t2)
		if s.HasQueuedThreads() || s.QueueLength() != 0 || len(s.QueuedThreads()) != 0 {
			t.Fatal("queue not empty at the end")
		}
	})
}

func TestSemaphoreTest_testTryAcquireN_timeout(t *testing.T) {
	forFairness(t, func(t *testing.T, fair bool) {
		s := locks.NewSemaphore(2, fair)
		start := time.Now()
		if ok, err := s.TryAcquireNTimeout(3, tckTimeout); ok || err != nil {
			t.Fatalf("TryAcquireNTimeout(3) = %v, %v", ok, err)
		}
		if el := time.Since(start); el < tckTimeout {
			t.Fatalf("gave up after %v, before %v", el, tckTimeout)
		}
		if s.AvailablePermits() != 2 {
			t.Fatalf("a failed acquire took permits: %d left", s.AvailablePermits())
		}
	})
}

// testReleaseAcquireSameThread: every acquire form takes what release gave.
func TestSemaphoreTest_testReleaseAcquireSameThread(t *testing.T) {
	for _, m := range acquireMethods {
		t.Run(m.name, func(t *testing.T) {
			forFairness(t, func(t *testing.T, fair bool) {
				s := locks.NewSemaphore(1, fair)
				for i := 1; i < 6; i++ {
					s.ReleaseN(i)
					if s.AvailablePermits() != 1+i {
						t.Fatalf("after ReleaseN(%d): %d", i, s.AvailablePermits())
					}
					if err := m.n(s, i); err != nil {
						t.Fatal(err)
					}
					if s.AvailablePermits() != 1 {
						t.Fatalf("after acquiring %d: %d", i, s.AvailablePermits())
					}
				}
			})
		})
	}
}

// testReleaseAcquireDifferentThreads: a release in one thread lets a blocked acquire in another
// go on, for 1 and for 3 permits.
func TestSemaphoreTest_testReleaseAcquireDifferentThreads(t *testing.T) {
	for _, m := range acquireMethods {
		if m.state == thread.Runnable { // the untimed tryAcquires do not block
			continue
		}
		t.Run(m.name, func(t *testing.T) {
			forFairness(t, func(t *testing.T, fair bool) {
				s := locks.NewSemaphore(0, fair)
				const rounds = 4
				th := startVirtual(func() {
					for i := range rounds {
						if s.HasQueuedThreads() {
							t.Error("queued threads before the acquire")
						}
						n := 1
						if i%2 == 1 {
							n = 3
						}
						if err := m.n(s, n); err != nil {
							t.Error(err)
						}
					}
				})
				for i := range rounds {
					eventually(t, "acquirer blocked", func() bool { return s.AvailablePermits() == 0 && s.HasQueuedThreads() })
					if i%2 == 0 {
						s.Release()
					} else {
						s.ReleaseN(3)
					}
				}
				testutil.Join(t, th)
				if s.AvailablePermits() != 0 {
					t.Fatalf("%d permits left", s.AvailablePermits())
				}
			})
		})
	}
}

// testFairLocksFifo: a fair semaphore makes a timed tryAcquire (even with an expired timeout)
// and an acquire wait behind a queued request for more permits than are free; the untimed
// tryAcquire barges.
func TestSemaphoreTest_testFairLocksFifo(t *testing.T) {
	s := locks.NewSemaphore(1, true)
	pleaseRelease := make(chan struct{})
	t1 := startVirtual(func() { s.AcquireN(3) }) // blocks: 1 permit free, not 3
	eventually(t, "t1 queued", func() bool { return slices.Contains(s.QueuedThreads(), t1) })
	t2 := startVirtual(func() {
		if ok, _ := s.TryAcquireTimeout(-time.Second); ok {
			t.Error("timed tryAcquire barged on a fair semaphore")
		}
		if ok, _ := s.TryAcquireNTimeout(1, 0); ok {
			t.Error("timed tryAcquire(1) barged on a fair semaphore")
		}
		if !s.TryAcquire() {
			t.Error("untimed tryAcquire did not barge")
		}
		s.ReleaseN(2)
		if !s.TryAcquireN(2) {
			t.Error("untimed tryAcquire(2) did not barge")
		}
		s.Release()
		close(pleaseRelease)
		s.Acquire() // queues behind t1 although 1 permit is free
	})
	<-pleaseRelease
	eventually(t, "t2 queued", func() bool { return slices.Contains(s.QueuedThreads(), t2) })
	s.ReleaseN(2)
	testutil.Join(t, t1)
	if !t2.IsAlive() {
		t.Fatal("t2 got a permit t1 should have had first")
	}
	s.Release()
	testutil.Join(t, t2)
}

// testShortTimeoutAcquisition (JDK-8386085): threads storm tryAcquire(1us) on an empty
// semaphore; permits released meanwhile must be taken, not lost to the storm. Platform threads,
// as the TCK's fixed pool.
func TestSemaphoreTest_testShortTimeoutAcquisition(t *testing.T) {
	const width = 4
	s := locks.NewSemaphore(0, false)
	var done atomic.Bool
	var taken atomic.Int32
	var storm []*thread.Thread
	for range width {
		storm = append(storm, thread.OfPlatform().Start(func() {
			for !done.Load() {
				if ok, _ := s.TryAcquireTimeout(time.Microsecond); ok {
					taken.Add(1)
				}
			}
		}))
	}
	time.Sleep(200 * time.Millisecond) // the storm runs on an empty semaphore
	s.ReleaseN(width)
	eventually(t, "some released permits to be taken", func() bool { return s.AvailablePermits() < width })
	done.Store(true)
	testutil.Join(t, storm...)
	if int(taken.Load())+s.AvailablePermits() != width {
		t.Fatalf("taken %d + left %d != released %d", taken.Load(), s.AvailablePermits(), width)
	}
}
