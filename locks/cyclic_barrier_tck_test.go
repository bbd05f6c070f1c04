package locks_test

import (
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/loomgo/loom/internal/testutil"
	"github.com/loomgo/loom/locks"
	"github.com/loomgo/loom/thread"
)

// Ports of the JSR-166 TCK's CyclicBarrierTest (test/jdk/java/util/concurrent/tck). Parties run
// on virtual threads; the test goroutine is a party too where the TCK's main thread is.

const tckTimeout = 20 * time.Millisecond // timeoutMillis()

func awaitNumberWaiting(t *testing.T, b *locks.CyclicBarrier, n int) {
	t.Helper()
	eventually(t, "number waiting", func() bool { return b.NumberWaiting() == n })
}

// party starts a virtual thread that calls await and checks the error it returns.
func party(t *testing.T, want error, await func() error) *thread.Thread {
	return startVirtual(func() {
		if err := await(); !errors.Is(err, want) && !(want == nil && err == nil) {
			t.Errorf("await = %v, want %v", err, want)
		}
	})
}

func bAwait(b *locks.CyclicBarrier) func() error {
	return func() error { _, err := b.Await(); return err }
}

func bAwaitTimeout(b *locks.CyclicBarrier, d time.Duration) func() error {
	return func() error { _, err := b.AwaitTimeout(d); return err }
}

func TestCyclicBarrierTest_testConstructor1And2(t *testing.T) {
	testutil.MustPanic(t, thread.ErrIllegalArgument, func() { locks.NewCyclicBarrier(-1, nil) })
}

func TestCyclicBarrierTest_testGetParties(t *testing.T) {
	b := locks.NewCyclicBarrier(2, nil)
	if b.Parties() != 2 || b.NumberWaiting() != 0 {
		t.Fatalf("parties %d waiting %d", b.Parties(), b.NumberWaiting())
	}
}

func TestCyclicBarrierTest_testSingleParty(t *testing.T) {
	b := locks.NewCyclicBarrier(1, nil)
	for range 2 {
		if i, err := b.Await(); i != 0 || err != nil {
			t.Fatalf("Await = %d, %v", i, err)
		}
	}
	if b.NumberWaiting() != 0 {
		t.Fatal(b.NumberWaiting())
	}
}

func TestCyclicBarrierTest_testBarrierAction(t *testing.T) {
	var count atomic.Int32
	b := locks.NewCyclicBarrier(1, func() { count.Add(1) })
	b.Await()
	b.Await()
	if b.NumberWaiting() != 0 || count.Load() != 2 {
		t.Fatalf("waiting %d, action ran %d times", b.NumberWaiting(), count.Load())
	}
}

func TestCyclicBarrierTest_testTwoParties(t *testing.T) {
	b := locks.NewCyclicBarrier(2, nil)
	th := startVirtual(func() {
		for range 4 {
			if _, err := b.Await(); err != nil {
				t.Error(err)
			}
		}
	})
	for range 4 {
		if _, err := b.Await(); err != nil {
			t.Fatal(err)
		}
	}
	testutil.Join(t, th)
}

// testAwait1/2_Interrupted_BrokenBarrier: an interrupt in one party makes the others waiting in
// await, timed or not, fail with a broken barrier.
func TestCyclicBarrierTest_testAwait1And2_Interrupted_BrokenBarrier(t *testing.T) {
	for _, timed := range []bool{false, true} {
		c := locks.NewCyclicBarrier(3, nil)
		await := bAwait(c)
		if timed {
			await = bAwaitTimeout(c, longWait)
		}
		t1 := party(t, thread.ErrInterrupted, await)
		t2 := party(t, locks.ErrBrokenBarrier, await)
		awaitNumberWaiting(t, c, 2)
		t1.Interrupt()
		testutil.Join(t, t1, t2)
	}
}

// testAwait3_TimeoutException: a timed await times out after at least its timeout.
func TestCyclicBarrierTest_testAwait3_TimeoutException(t *testing.T) {
	c := locks.NewCyclicBarrier(2, nil)
	start := time.Now()
	if _, err := c.AwaitTimeout(tckTimeout); !errors.Is(err, locks.ErrTimeout) {
		t.Fatalf("AwaitTimeout = %v, want ErrTimeout", err)
	}
	if el := time.Since(start); el < tckTimeout {
		t.Fatalf("timed out after %v, before %v", el, tckTimeout)
	}
}

// testAwait4/5_Timeout_BrokenBarrier: a timeout in one party breaks the barrier for the others
// waiting, timed or not.
func TestCyclicBarrierTest_testAwait4And5_Timeout_BrokenBarrier(t *testing.T) {
	for _, timed := range []bool{true, false} {
		c := locks.NewCyclicBarrier(3, nil)
		await := bAwait(c)
		if timed {
			await = bAwaitTimeout(c, longWait)
		}
		t1 := party(t, locks.ErrBrokenBarrier, await)
		awaitNumberWaiting(t, c, 1)
		t2 := party(t, locks.ErrTimeout, bAwaitTimeout(c, tckTimeout))
		testutil.Join(t, t1, t2)
	}
}

func TestCyclicBarrierTest_testReset_BrokenBarrier(t *testing.T) {
	c := locks.NewCyclicBarrier(3, nil)
	t1 := party(t, locks.ErrBrokenBarrier, bAwait(c))
	t2 := party(t, locks.ErrBrokenBarrier, bAwait(c))
	awaitNumberWaiting(t, c, 2)
	c.Reset()
	testutil.Join(t, t1, t2)
}

func TestCyclicBarrierTest_testReset_NoBrokenBarrier(t *testing.T) {
	c := locks.NewCyclicBarrier(3, nil)
	c.Reset()
	t1 := party(t, nil, bAwait(c))
	t2 := party(t, nil, bAwait(c))
	if _, err := c.Await(); err != nil {
		t.Fatal(err)
	}
	testutil.Join(t, t1, t2)
}

// testReset_Leakage: a thread that resets a broken barrier and waits again is only ever woken
// by the interrupts, not by a broken barrier left behind.
func TestCyclicBarrierTest_testReset_Leakage(t *testing.T) {
	c := locks.NewCyclicBarrier(2, nil)
	var done atomic.Bool
	th := startVirtual(func() {
		for !done.Load() {
			for c.IsBroken() {
				c.Reset()
			}
			if _, err := c.Await(); !errors.Is(err, locks.ErrBrokenBarrier) && !errors.Is(err, thread.ErrInterrupted) {
				t.Errorf("Await = %v, want a broken barrier or an interrupt", err)
			}
		}
	})
	for range 4 {
		time.Sleep(tckTimeout)
		th.Interrupt()
	}
	done.Store(true)
	th.Interrupt()
	testutil.Join(t, th)
}

func TestCyclicBarrierTest_testResetWithoutBreakage(t *testing.T) {
	barrier := locks.NewCyclicBarrier(3, nil)
	for i := range 3 {
		start := locks.NewCyclicBarrier(3, nil)
		body := func() error { start.Await(); _, err := barrier.Await(); return err }
		t1, t2 := party(t, nil, body), party(t, nil, body)
		start.Await()
		barrier.Await()
		testutil.Join(t, t1, t2)
		if barrier.IsBroken() || barrier.NumberWaiting() != 0 {
			t.Fatalf("round %d: broken %v waiting %d", i, barrier.IsBroken(), barrier.NumberWaiting())
		}
		if i == 1 {
			barrier.Reset()
		}
		if barrier.IsBroken() || barrier.NumberWaiting() != 0 {
			t.Fatalf("round %d after reset: broken %v waiting %d", i, barrier.IsBroken(), barrier.NumberWaiting())
		}
	}
}

func TestCyclicBarrierTest_testResetAfterInterrupt(t *testing.T) {
	barrier := locks.NewCyclicBarrier(3, nil)
	for range 2 {
		start := locks.NewCyclicBarrier(3, nil)
		body := func() error { start.Await(); _, err := barrier.Await(); return err }
		t1 := party(t, thread.ErrInterrupted, body)
		t2 := party(t, locks.ErrBrokenBarrier, body)
		start.Await()
		awaitNumberWaiting(t, barrier, 2) // the TCK interrupts at once; its t2 may then fail on entry
		t1.Interrupt()
		testutil.Join(t, t1, t2)
		checkBrokenThenReset(t, barrier)
	}
}

func TestCyclicBarrierTest_testResetAfterTimeout(t *testing.T) {
	barrier := locks.NewCyclicBarrier(3, nil)
	for range 2 {
		t1 := party(t, locks.ErrBrokenBarrier, bAwait(barrier))
		awaitNumberWaiting(t, barrier, 1)
		t2 := party(t, locks.ErrTimeout, bAwaitTimeout(barrier, tckTimeout))
		testutil.Join(t, t1, t2)
		checkBrokenThenReset(t, barrier)
	}
}

// testResetAfterCommandException: the action's exception (here a panic) goes to the thread that
// ran it, the others get a broken barrier, and Reset makes the barrier usable again.
func TestCyclicBarrierTest_testResetAfterCommandException(t *testing.T) {
	errNPE := errors.New("NullPointerException")
	barrier := locks.NewCyclicBarrier(3, func() { panic(errNPE) })
	for range 2 {
		start := locks.NewCyclicBarrier(3, nil)
		body := func() error { start.Await(); _, err := barrier.Await(); return err }
		t1 := party(t, locks.ErrBrokenBarrier, body)
		t2 := party(t, locks.ErrBrokenBarrier, body)
		start.Await()
		awaitNumberWaiting(t, barrier, 2)
		func() {
			defer func() {
				if r := recover(); r != errNPE {
					t.Errorf("the last party got %v, want the action's panic", r)
				}
			}()
			barrier.Await()
		}()
		testutil.Join(t, t1, t2)
		checkBrokenThenReset(t, barrier)
	}
}

func checkBrokenThenReset(t *testing.T, b *locks.CyclicBarrier) {
	t.Helper()
	if !b.IsBroken() || b.NumberWaiting() != 0 {
		t.Fatalf("broken %v waiting %d, want broken with nobody waiting", b.IsBroken(), b.NumberWaiting())
	}
	b.Reset()
	if b.IsBroken() || b.NumberWaiting() != 0 {
		t.Fatalf("after Reset: broken %v waiting %d", b.IsBroken(), b.NumberWaiting())
	}
}
