package locks_test

import (
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/loomgo/loom/internal/testutil"
	"github.com/loomgo/loom/locks"
	"github.com/loomgo/loom/thread"
)

func TestCountDownLatchConstructorNegativePanicsIAE(t *testing.T) {
	testutil.MustPanic(t, thread.ErrIllegalArgument, func() { locks.NewCountDownLatch(-1) })
}

func TestCountDownLatchCountDownAndCount(t *testing.T) {
	l := locks.NewCountDownLatch(2)
	if l.Count() != 2 {
		t.Fatal(l.Count())
	}
	l.CountDown()
	l.CountDown()
	l.CountDown()
	if l.Count() != 0 {
		t.Fatalf("Count = %d, want 0 (never negative)", l.Count())
	}
	if !strings.HasSuffix(l.String(), "[Count = 0]") {
		t.Errorf("String() = %q", l.String())
	}
}

func TestCountDownLatchAwaitReleasesAllWaiters(t *testing.T) {
	l := locks.NewCountDownLatch(2)
	var ths []*thread.Thread
	for i := range 6 {
		k := kinds[i%2]
		ths = append(ths, k.start(func() {
			if err := l.Await(); err != nil {
				t.Error(err)
			}
			if l.Count() != 0 {
				t.Error("released before zero")
			}
		}))
	}
	for _, th := range ths {
		testutil.WaitState(t, th, thread.Waiting)
	}
	l.CountDown()
	time.Sleep(5 * time.Millisecond)
	for _, th := range ths {
		if !th.IsAlive() {
			t.Fatal("released at count 1")
		}
	}
	l.CountDown()
	for _, th := range ths {
		testutil.Join(t, th)
	}
}

func TestCountDownLatchTimedAwait(t *testing.T) {
	l := locks.NewCountDownLatch(1)
	var timedOut atomic.Bool
	th := startVirtual(func() {
		if ok, err := l.AwaitTimeout(30 * time.Millisecond); ok || err != nil {
			t.Errorf("AwaitTimeout = %v, %v; want false (timeout)", ok, err)
		}
		timedOut.Store(true)
		if ok, err := l.AwaitTimeout(longWait); !ok || err != nil {
			t.Errorf("AwaitTimeout = %v, %v; want true", ok, err)
		}
	})
	// count down only once the first await has timed out, however slow the machine
	eventually(t, "the first await to time out", timedOut.Load)
	testutil.WaitState(t, th, thread.TimedWaiting)
	l.CountDown()
	testutil.Join(t, th)
	if ok, _ := l.AwaitTimeout(0); !ok {
		t.Error("AwaitTimeout(0) on an open latch = false")
	}
}

func TestCountDownLatchAwaitInterruptible(t *testing.T) {
	l := locks.NewCountDownLatch(1)
	th := startVirtual(func() {
		if err := l.Await(); !errors.Is(err, thread.ErrInterrupted) {
			t.Errorf("Await = %v, want ErrInterrupted", err)
		}
		if thread.Current().IsInterrupted() {
			t.Error("status not cleared")
		}
	})
	testutil.WaitState(t, th, thread.Waiting)
	th.Interrupt()
	testutil.Join(t, th)
	// An interrupt status already set wins even over an open latch [impl].
	open := locks.NewCountDownLatch(0)
	th = startVirtual(func() {
		thread.Current().Interrupt()
		if err := open.Await(); !errors.Is(err, thread.ErrInterrupted) {
			t.Errorf("Await on open latch with status set = %v, want ErrInterrupted", err)
		}
	})
	testutil.Join(t, th)
}
