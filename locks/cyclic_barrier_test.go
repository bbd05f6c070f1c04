package locks_test

import (
	"errors"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/loomgo/loom/internal/testutil"
	"github.com/loomgo/loom/locks"
	"github.com/loomgo/loom/thread"
)

func TestCyclicBarrierConstructorNonPositivePartiesPanicsIAE(t *testing.T) {
	testutil.MustPanic(t, thread.ErrIllegalArgument, func() { locks.NewCyclicBarrier(0, nil) })
	testutil.MustPanic(t, thread.ErrIllegalArgument, func() { locks.NewCyclicBarrier(-1, nil) })
	if locks.NewCyclicBarrier(3, nil).Parties() != 3 {
		t.Error("Parties")
	}
}

func TestCyclicBarrierTripsAndIsReusable(t *testing.T) {
	var actions atomic.Int32
	b := locks.NewCyclicBarrier(3, func() { actions.Add(1) })
	for round := 1; round <= 3; round++ {
		idx := make([]int, 3)
		var ths []*thread.Thread
		for i := range 3 {
			ths = append(ths, kinds[i%2].start(func() {
				n, err := b.Await()
				if err != nil {
					t.Error(err)
				}
				idx[i] = n
			}))
		}
		for _, th := range ths {
			testutil.Join(t, th)
		}
		slices.Sort(idx)
		if diff := cmp.Diff([]int{0, 1, 2}, idx); diff != "" {
			t.Errorf("arrival indexes (-want +got):\n%s", diff)
		}
		if actions.Load() != int32(round) || b.IsBroken() || b.NumberWaiting() != 0 {
			t.Fatalf("round %d: actions %d broken %v waiting %d", round, actions.Load(), b.IsBroken(), b.NumberWaiting())
		}
	}
}

func TestCyclicBarrierTimeoutBreaksBarrier(t *testing.T) {
	b := locks.NewCyclicBarrier(3, nil)
	other := startVirtual(func() {
		if _, err := b.Await(); !errors.Is(err, locks.ErrBrokenBarrier) {
			t.Errorf("Await = %v, want ErrBrokenBarrier", err)
		}
	})
	eventually(t, "one waiting", func() bool { return b.NumberWaiting() == 1 })
	if _, err := b.AwaitTimeout(20 * time.Millisecond); !errors.Is(err, locks.ErrTimeout) {
		t.Errorf("AwaitTimeout = %v, want ErrTimeout", err)
	}
	testutil.Join(t, other)
	if !b.IsBroken() {
		t.Fatal("not broken")
	}
	if _, err := b.Await(); !errors.Is(err, locks.ErrBrokenBarrier) {
		t.Errorf("Await on broken barrier = %v", err)
	}
	b.Reset()
	if b.IsBroken() {
		t.Fatal("still broken after Reset")
	}
}

func TestCyclicBarrierInterruptBreaksBarrier(t *testing.T) {
	b := locks.NewCyclicBarrier(3, nil)
	other := startVirtual(func() {
		if _, err := b.Await(); !errors.Is(err, locks.ErrBrokenBarrier) {
			t.Errorf("Await = %v, want ErrBrokenBarrier", err)
		}
	})
	victim := startVirtual(func() {
		if _, err := b.Await(); !errors.Is(err, thread.ErrInterrupted) {
			t.Errorf("Await = %v, want ErrInterrupted", err)
		}
	})
	eventually(t, "two waiting", func() bool { return b.NumberWaiting() == 2 })
	victim.Interrupt()
	testutil.Join(t, victim)
	testutil.Join(t, other)
	if !b.IsBroken() {
		t.Fatal("not broken")
	}
}

func TestCyclicBarrierResetBreaksWaiters(t *testing.T) {
	b := locks.NewCyclicBarrier(2, nil)
	w := startVirtual(func() {
		if _, err := b.Await(); !errors.Is(err, locks.ErrBrokenBarrier) {
			t.Errorf("Await = %v, want ErrBrokenBarrier", err)
		}
	})
	eventually(t, "waiting", func() bool { return b.NumberWaiting() == 1 })
	b.Reset()
	testutil.Join(t, w)
	if b.IsBroken() || b.NumberWaiting() != 0 {
		t.Fatal("Reset did not start a fresh round")
	}
}

func TestCyclicBarrierActionPanicBreaksBarrier(t *testing.T) {
	b := locks.NewCyclicBarrier(2, func() { panic("boom") })
	w := startVirtual(func() {
		if _, err := b.Await(); !errors.Is(err, locks.ErrBrokenBarrier) {
			t.Errorf("Await = %v, want ErrBrokenBarrier", err)
		}
	})
	eventually(t, "waiting", func() bool { return b.NumberWaiting() == 1 })
	func() {
		defer func() {
			if r := recover(); r != "boom" {
				t.Errorf("recovered %v", r)
			}
		}()
		b.Await()
	}()
	testutil.Join(t, w)
	if !b.IsBroken() {
		t.Fatal("not broken")
	}
}
