package locks_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/loomgo/loom/internal/testutil"
	"github.com/loomgo/loom/locks"
	"github.com/loomgo/loom/thread"
)

// Ports of the JSR-166 TCK's PhaserTest. Tests with waiting threads run them on virtual and
// platform threads.

const maxParties = 65535

func assertPhaserState(t *testing.T, p *locks.Phaser, phase, parties, unarrived int) {
	t.Helper()
	if p.Phase() != phase || p.RegisteredParties() != parties || p.UnarrivedParties() != unarrived ||
		p.ArrivedParties() != parties-unarrived || p.IsTerminated() {
		t.Fatalf("%v: want phase %d parties %d unarrived %d (terminated %v)", p, phase, parties, unarrived, p.IsTerminated())
	}
}

func assertPhaserTerminated(t *testing.T, p *locks.Phaser, maxPhase, parties int) {
	t.Helper()
	want := maxPhase + math.MinInt32
	if !p.IsTerminated() || p.Phase() != want || p.RegisteredParties() != parties {
		t.Fatalf("%v: want terminated at phase %d with %d parties", p, want, parties)
	}
	if p.Register() != want || p.Arrive() != want || p.ArriveAndDeregister() != want {
		t.Fatalf("%v: operations on a terminated phaser must return %d", p, want)
	}
}

func TestPhaser_testConstructorDefaultValues(t *testing.T) {
	var zero locks.Phaser
	for _, p := range []*locks.Phaser{&zero, locks.NewPhaser(0)} {
		if p.Parent() != nil || p.Root() != p || p.RegisteredParties() != 0 || p.ArrivedParties() != 0 ||
			p.UnarrivedParties() != 0 || p.Phase() != 0 || p.IsTerminated() {
			t.Fatalf("%v: not a fresh phaser", p)
		}
	}
}

func TestPhaser_testConstructorNegativeParties(t *testing.T) {
	testutil.MustPanic(t, thread.ErrIllegalArgument, func() { locks.NewPhaser(-1) })
	testutil.MustPanic(t, thread.ErrIllegalArgument, func() { locks.NewPhaser(-1, locks.WithParent(new(locks.Phaser))) })
}

func TestPhaser_testConstructorPartiesExceedsLimit(t *testing.T) {
	locks.NewPhaser(maxParties)
	testutil.MustPanic(t, thread.ErrIllegalArgument, func() { locks.NewPhaser(maxParties + 1) })
	locks.NewPhaser(maxParties, locks.WithParent(new(locks.Phaser)))
	testutil.MustPanic(t, thread.ErrIllegalArgument, func() { locks.NewPhaser(maxParties+1, locks.WithParent(new(locks.Phaser))) })
}

func TestPhaser_testConstructor3(t *testing.T) {
	parent := new(locks.Phaser)
	for _, n := range []int{0, 1} { // testConstructor5 with parties 0
		if c := locks.NewPhaser(n, locks.WithParent(parent)); c.Parent() != parent || c.Root() != parent {
			t.Fatalf("parent %v root %v", c.Parent(), c.Root())
		}
		if locks.NewPhaser(n, locks.WithParent(nil)).Parent() != nil {
			t.Fatal("nil parent")
		}
	}
}

func TestPhaser_testRegister1(t *testing.T) {
	var p locks.Phaser
	assertPhaserState(t, &p, 0, 0, 0)
	if p.Register() != 0 {
		t.Fatal("Register")
	}
	assertPhaserState(t, &p, 0, 1, 1)
}

func TestPhaser_testRegister2(t *testing.T) {
	p := locks.NewPhaser(0)
	if p.BulkRegister(maxParties-10) != 0 {
		t.Fatal("BulkRegister")
	}
	assertPhaserState(t, p, 0, maxParties-10, maxParties-10)
	for i := range 10 {
		assertPhaserState(t, p, 0, maxParties-10+i, maxParties-10+i)
		if p.Register() != 0 {
			t.Fatal("Register")
		}
	}
	assertPhaserState(t, p, 0, maxParties, maxParties)
	testutil.MustPanic(t, locks.ErrIllegalState, func() { p.Register() })
	testutil.MustPanic(t, locks.ErrIllegalState, func() { p.BulkRegister(math.MaxInt32) })
	if p.BulkRegister(0) != 0 {
		t.Fatal("BulkRegister(0)")
	}
	assertPhaserState(t, p, 0, maxParties, maxParties) // the failures changed nothing
}

func TestPhaser_testRegister3(t *testing.T) {
	var p locks.Phaser
	if p.Register() != 0 || p.Arrive() != 0 || p.Register() != 1 {
		t.Fatalf("%v", &p)
	}
	assertPhaserState(t, &p, 1, 2, 2)
}

func TestPhaser_testRegister4(t *testing.T) {
	p := locks.NewPhaser(1)
	if p.Arrive() != 0 || p.Register() != 1 || p.Arrive() != 1 {
		t.Fatalf("%v", p)
	}
	assertPhaserState(t, p, 1, 2, 1)
}

func TestPhaser_testRegisterEmptySubPhaser(t *testing.T) {
	root := new(locks.Phaser)
	child1 := locks.NewPhaser(1, locks.WithParent(root))
	child2 := locks.NewPhaser(0, locks.WithParent(root))
	if child2.Register() != 0 {
		t.Fatal("child2.Register")
	}
	assertPhaserState(t, root, 0, 2, 2)
	assertPhaserState(t, child1, 0, 1, 1)
	assertPhaserState(t, child2, 0, 1, 1)
	if child2.ArriveAndDeregister() != 0 {
		t.Fatal("child2.ArriveAndDeregister")
	}
	assertPhaserState(t, root, 0, 1, 1)
	assertPhaserState(t, child1, 0, 1, 1)
	assertPhaserState(t, child2, 0, 0, 0)
	if child2.Register() != 0 || child2.ArriveAndDeregister() != 0 {
		t.Fatal("child2 again")
	}
	assertPhaserState(t, root, 0, 1, 1)
	assertPhaserState(t, child1, 0, 1, 1)
	assertPhaserState(t, child2, 0, 0, 0)
	if child1.ArriveAndDeregister() != 0 {
		t.Fatal("child1.ArriveAndDeregister")
	}
	assertPhaserTerminated(t, root, 1, 0)
	assertPhaserTerminated(t, child1, 1, 0)
	assertPhaserTerminated(t, child2, 1, 0)
}

func TestPhaser_testBulkRegister1(t *testing.T) {
	testutil.MustPanic(t, thread.ErrIllegalArgument, func() { new(locks.Phaser).BulkRegister(-1) })
}

func TestPhaser_testBulkRegister2(t *testing.T) {
	var p locks.Phaser
	if p.BulkRegister(0) != 0 {
		t.Fatal("BulkRegister(0)")
	}
	assertPhaserState(t, &p, 0, 0, 0)
	if p.BulkRegister(20) != 0 {
		t.Fatal("BulkRegister(20)")
	}
	assertPhaserState(t, &p, 0, 20, 20)
}

func TestPhaser_testBulkRegister3(t *testing.T) {
	if new(locks.Phaser).BulkRegister(1<<16-1) != 0 {
		t.Fatal("BulkRegister(65535)")
	}
	testutil.MustPanic(t, locks.ErrIllegalState, func() { new(locks.Phaser).BulkRegister(1 << 16) })
	testutil.MustPanic(t, locks.ErrIllegalState, func() { locks.NewPhaser(2).BulkRegister(1<<16 - 2) })
}

func TestPhaser_testPhaseIncrement1(t *testing.T) {
	for size := 1; size < 9; size++ {
		p := locks.NewPhaser(size)
		for index := 0; index <= 1<<size; index++ {
			phase := p.Arrive()
			if index%size == 0 && index/size != phase || index%size != 0 && index-phase*size <= 0 {
				t.Fatalf("size %d index %d: phase %d", size, index, phase)
			}
		}
	}
}

func TestPhaser_testArrive1(t *testing.T) {
	p := locks.NewPhaser(1)
	assertPhaserState(t, p, 0, 1, 1)
	if p.Arrive() != 0 {
		t.Fatal("Arrive")
	}
	assertPhaserState(t, p, 1, 1, 1)
}

func TestPhaser_testArriveAndDeregister(t *testing.T) {
	p := locks.NewPhaser(1)
	for range 10 {
		assertPhaserState(t, p, 0, 1, 1)
		if p.Register() != 0 {
			t.Fatal("Register")
		}
		assertPhaserState(t, p, 0, 2, 2)
		if p.ArriveAndDeregister() != 0 {
			t.Fatal("ArriveAndDeregister")
		}
		assertPhaserState(t, p, 0, 1, 1)
	}
	if p.ArriveAndDeregister() != 0 {
		t.Fatal("last ArriveAndDeregister")
	}
	assertPhaserTerminated(t, p, 1, 0)
}

func TestPhaser_testArrive2(t *testing.T) {
	var p locks.Phaser
	p.Register()
	var ths []*thread.Thread
	for i := range 10 {
		p.Register()
		ths = append(ths, kinds[i%2].start(func() {
			if got := p.ArriveAndDeregister(); got != 0 {
				t.Errorf("ArriveAndDeregister = %d", got)
			}
		}))
	}
	testutil.Join(t, ths...)
	assertPhaserState(t, &p, 0, 1, 1)
	if p.Arrive() != 0 {
		t.Fatal("Arrive")
	}
	assertPhaserState(t, &p, 1, 1, 1)
}

func TestPhaser_testArrive3(t *testing.T) {
	p := locks.NewPhaser(1)
	p.ForceTermination()
	assertPhaserTerminated(t, p, 0, 1)
	if p.Phase()-math.MinInt32 != 0 {
		t.Fatalf("phase %d", p.Phase())
	}
	if p.Arrive() >= 0 || p.Register() >= 0 || p.ArriveAndDeregister() >= 0 || p.AwaitAdvance(1) >= 0 || p.Phase() >= 0 {
		t.Fatal("operations on a terminated phaser must return a negative phase")
	}
}

func TestPhaser_testArriveAndDeregister1(t *testing.T) {
	var p locks.Phaser
	testutil.MustPanic(t, locks.ErrIllegalState, func() { p.ArriveAndDeregister() })
	testutil.MustPanic(t, locks.ErrIllegalState, func() { p.Arrive() })
	assertPhaserState(t, &p, 0, 0, 0)
}

func TestPhaser_testArriveAndDeregister2(t *testing.T) {
	p := locks.NewPhaser(1)
	if p.Register() != 0 || p.Arrive() != 0 {
		t.Fatal("setup")
	}
	assertPhaserState(t, p, 0, 2, 1)
	if p.ArriveAndDeregister() != 0 {
		t.Fatal("ArriveAndDeregister")
	}
	assertPhaserState(t, p, 1, 1, 1)
}

func TestPhaser_testArriveAndDeregister3(t *testing.T) {
	parent := new(locks.Phaser)
	child := locks.NewPhaser(0, locks.WithParent(parent))
	assertPhaserState(t, child, 0, 0, 0)
	assertPhaserState(t, parent, 0, 0, 0)
	if child.Register() != 0 {
		t.Fatal("Register")
	}
	assertPhaserState(t, child, 0, 1, 1)
	assertPhaserState(t, parent, 0, 1, 1)
	if child.ArriveAndDeregister() != 0 {
		t.Fatal("ArriveAndDeregister")
	}
	assertPhaserTerminated(t, child, 1, 0)
	assertPhaserTerminated(t, parent, 1, 0)
}

func TestPhaser_testArriveAndDeregister4(t *testing.T) {
	parent := new(locks.Phaser)
	child := locks.NewPhaser(0, locks.WithParent(parent))
	if parent.Register() != 0 || child.Register() != 0 {
		t.Fatal("Register")
	}
	assertPhaserState(t, child, 0, 1, 1)
	assertPhaserState(t, parent, 0, 2, 2)
	if child.ArriveAndDeregister() != 0 {
		t.Fatal("ArriveAndDeregister")
	}
	assertPhaserState(t, child, 0, 0, 0)
	assertPhaserState(t, parent, 0, 1, 1)
}

func TestPhaser_testArriveAndDeregister5(t *testing.T) {
	root := new(locks.Phaser)
	parent := locks.NewPhaser(0, locks.WithParent(root))
	child := locks.NewPhaser(0, locks.WithParent(parent))
	if child.Register() != 0 {
		t.Fatal("Register")
	}
	assertPhaserState(t, root, 0, 1, 1)
	assertPhaserState(t, parent, 0, 1, 1)
	assertPhaserState(t, child, 0, 1, 1)
	if child.ArriveAndDeregister() != 0 {
		t.Fatal("ArriveAndDeregister")
	}
	assertPhaserTerminated(t, child, 1, 0)
	assertPhaserTerminated(t, parent, 1, 0)
	assertPhaserTerminated(t, root, 1, 0)
}

func TestPhaser_testArriveAndDeregister6(t *testing.T) {
	for _, k := range kinds {
		p := locks.NewPhaser(2)
		th := k.start(func() {
			if got := p.Arrive(); got != 0 {
				t.Errorf("Arrive = %d", got)
			}
		})
		if p.ArriveAndAwaitAdvance() != 1 {
			t.Fatal("ArriveAndAwaitAdvance")
		}
		assertPhaserState(t, p, 1, 2, 2)
		if p.ArriveAndDeregister() != 1 {
			t.Fatal("ArriveAndDeregister")
		}
		assertPhaserState(t, p, 1, 1, 1)
		if p.ArriveAndDeregister() != 1 {
			t.Fatal("last ArriveAndDeregister")
		}
		assertPhaserTerminated(t, p, 2, 0)
		testutil.Join(t, th)
	}
}

func TestPhaser_testAwaitAdvance1(t *testing.T) {
	p := locks.NewPhaser(1)
	if p.Arrive() != 0 || p.AwaitAdvance(0) != 1 {
		t.Fatal("AwaitAdvance of a past phase")
	}
}

func TestPhaser_testAwaitAdvance2(t *testing.T) {
	var p locks.Phaser
	if p.AwaitAdvance(-1) >= 0 {
		t.Fatal("AwaitAdvance(-1)")
	}
	assertPhaserState(t, &p, 0, 0, 0)
}

func TestPhaser_testAwaitAdvanceInterruptibly_Interruptible(t *testing.T) {
	for _, k := range kinds {
		p := locks.NewPhaser(1)
		pleaseInterrupt := locks.NewCountDownLatch(2)
		t1 := k.start(func() {
			thread.Current().Interrupt()
			if _, err := p.AwaitAdvanceInterruptibly(0); !errors.Is(err, thread.ErrInterrupted) {
				t.Errorf("pre-interrupted: %v", err)
			}
			if thread.Interrupted() {
				t.Error("status left set")
			}
			pleaseInterrupt.CountDown()
			if _, err := p.AwaitAdvanceInterruptibly(0); !errors.Is(err, thread.ErrInterrupted) {
				t.Errorf("interrupted while waiting: %v", err)
			}
			if thread.Interrupted() {
				t.Error("status left set")
			}
		})
		t2 := k.start(func() {
			thread.Current().Interrupt()
			if _, err := p.AwaitAdvanceTimeout(0, time.Duration(rand.Int64N(int64(time.Second)))); !errors.Is(err, thread.ErrInterrupted) {
				t.Errorf("pre-interrupted timed: %v", err)
			}
			if thread.Interrupted() {
				t.Error("status left set")
			}
			pleaseInterrupt.CountDown()
			if _, err := p.AwaitAdvanceTimeout(0, forever); !errors.Is(err, thread.ErrInterrupted) {
				t.Errorf("interrupted while waiting (timed): %v", err)
			}
			if thread.Interrupted() {
				t.Error("status left set")
			}
		})
		mustNot(t, pleaseInterrupt.Await())
		assertPhaserState(t, p, 0, 1, 1)
		testutil.WaitState(t, t1, thread.Waiting)
		testutil.WaitState(t, t2, thread.TimedWaiting)
		t1.Interrupt()
		t2.Interrupt()
		testutil.Join(t, t1, t2)
		assertPhaserState(t, p, 0, 1, 1)
		if p.Arrive() != 0 {
			t.Fatal("Arrive")
		}
		assertPhaserState(t, p, 1, 1, 1)
	}
}

func TestPhaser_testAwaitAdvanceAfterInterrupt(t *testing.T) {
	for _, k := range kinds {
		var p locks.Phaser
		p.Register()
		pleaseArrive := locks.NewCountDownLatch(1)
		th := k.start(func() {
			thread.Current().Interrupt()
			if p.Register() != 0 || p.Arrive() != 0 {
				t.Error("Register/Arrive")
			}
			pleaseArrive.CountDown()
			if !thread.Current().IsInterrupted() {
				t.Error("status lost")
			}
			if got := p.AwaitAdvance(0); got != 1 {
				t.Errorf("AwaitAdvance = %d", got)
			}
			if !thread.Interrupted() {
				t.Error("status not kept")
			}
		})
		mustNot(t, pleaseArrive.Await())
		testutil.WaitState(t, th, thread.Waiting)
		p.Arrive()
		testutil.Join(t, th)
		thread.Current().Interrupt()
		if p.AwaitAdvance(0) != 1 || !thread.Interrupted() {
			t.Fatal("AwaitAdvance of a past phase with the status set")
		}
	}
}

func TestPhaser_testAwaitAdvanceBeforeInterrupt(t *testing.T) {
	for _, k := range kinds {
		var p locks.Phaser
		p.Register()
		pleaseArrive := locks.NewCountDownLatch(1)
		th := k.start(func() {
			if p.Register() != 0 || p.Arrive() != 0 {
				t.Error("Register/Arrive")
			}
			pleaseArrive.CountDown()
			if got := p.AwaitAdvance(0); got != 1 {
				t.Errorf("AwaitAdvance = %d", got)
			}
			if !thread.Interrupted() {
				t.Error("interrupt while waiting not kept")
			}
		})
		mustNot(t, pleaseArrive.Await())
		testutil.WaitState(t, th, thread.Waiting)
		th.Interrupt()
		testutil.WaitState(t, th, thread.Waiting) // keeps waiting
		p.Arrive()
		testutil.Join(t, th)
	}
}

func TestPhaser_testArriveAndAwaitAdvanceAfterInterrupt(t *testing.T) {
	for _, k := range kinds {
		var p locks.Phaser
		p.Register()
		pleaseArrive := locks.NewCountDownLatch(1)
		th := k.start(func() {
			thread.Current().Interrupt()
			p.Register()
			pleaseArrive.CountDown()
			if got := p.ArriveAndAwaitAdvance(); got != 1 {
				t.Errorf("ArriveAndAwaitAdvance = %d", got)
			}
			if !thread.Interrupted() {
				t.Error("status not kept")
			}
		})
		mustNot(t, pleaseArrive.Await())
		testutil.WaitState(t, th, thread.Waiting)
		thread.Current().Interrupt()
		if p.ArriveAndAwaitAdvance() != 1 || !thread.Interrupted() {
			t.Fatal("main ArriveAndAwaitAdvance")
		}
		testutil.Join(t, th)
	}
}

func TestPhaser_testArriveAndAwaitAdvanceBeforeInterrupt(t *testing.T) {
	for _, k := range kinds {
		var p locks.Phaser
		p.Register()
		pleaseInterrupt := locks.NewCountDownLatch(1)
		th := k.start(func() {
			p.Register()
			pleaseInterrupt.CountDown()
			if got := p.ArriveAndAwaitAdvance(); got != 1 {
				t.Errorf("ArriveAndAwaitAdvance = %d", got)
			}
			if !thread.Interrupted() {
				t.Error("status not kept")
			}
		})
		mustNot(t, pleaseInterrupt.Await())
		testutil.WaitState(t, th, thread.Waiting)
		th.Interrupt()
		thread.Current().Interrupt()
		if p.ArriveAndAwaitAdvance() != 1 || !thread.Interrupted() {
			t.Fatal("main ArriveAndAwaitAdvance")
		}
		testutil.Join(t, th)
	}
}

func TestPhaser_testAwaitAdvance4(t *testing.T) {
	p := locks.NewPhaser(4)
	var count atomic.Int32
	var ths []*thread.Thread
	for i := range 4 {
		ths = append(ths, kinds[i%2].start(func() {
			for k := range 3 {
				if got := p.ArriveAndAwaitAdvance(); got != 2*k+1 {
					t.Errorf("ArriveAndAwaitAdvance = %d, want %d", got, 2*k+1)
				}
				count.Add(1)
				if got := p.Arrive(); got != 2*k+1 {
					t.Errorf("Arrive = %d", got)
				}
				if got := p.AwaitAdvance(2*k + 1); got != 2*k+2 {
					t.Errorf("AwaitAdvance = %d", got)
				}
				if got := count.Load(); got != int32(4*(k+1)) {
					t.Errorf("count = %d, want %d", got, 4*(k+1))
				}
			}
		}))
	}
	testutil.Join(t, ths...)
}

func TestPhaser_testAwaitAdvance5(t *testing.T) {
	p := locks.NewPhaser(1)
	if p.AwaitAdvance(p.Arrive()) != 1 || p.Phase() != 1 || p.Register() != 1 {
		t.Fatal("setup")
	}
	var ths []*thread.Thread
	for i := range 8 {
		latch := locks.NewCountDownLatch(1)
		goesFirst := i%2 == 0
		ths = append(ths, kinds[i%2].start(func() {
			if goesFirst {
				latch.CountDown()
			} else {
				_ = latch.Await()
			}
			p.Arrive()
		}))
		if goesFirst {
			mustNot(t, latch.Await())
		} else {
			latch.CountDown()
		}
		if got := p.AwaitAdvance(p.Arrive()); got != i+2 || p.Phase() != i+2 {
			t.Fatalf("round %d: AwaitAdvance = %d, phase %d", i, got, p.Phase())
		}
	}
	testutil.Join(t, ths...)
}

func TestPhaser_testAwaitAdvanceTieredPhaser(t *testing.T) {
	parent := new(locks.Phaser)
	var zeroParty, oneParty []*locks.Phaser
	for range 3 {
		zeroParty = append(zeroParty, locks.NewPhaser(0, locks.WithParent(parent)))
		oneParty = append(oneParty, locks.NewPhaser(1, locks.WithParent(parent)))
	}
	all := append(append(append([]*locks.Phaser{}, zeroParty...), oneParty...), parent)
	awaits := func(p *locks.Phaser, phase, want int) {
		t.Helper()
		got1 := p.AwaitAdvance(phase)
		got2, err2 := p.AwaitAdvanceInterruptibly(phase)
		got3, err3 := p.AwaitAdvanceTimeout(phase, time.Second)
		if got1 != want || got2 != want || got3 != want || err2 != nil || err3 != nil {
			t.Fatalf("%v awaiting %d: %d %d %d (%v %v), want %d", p, phase, got1, got2, got3, err2, err3, want)
		}
	}
	for _, p := range all {
		awaits(p, -42, -42)
	}
	for _, c := range oneParty {
		if c.Arrive() != 0 {
			t.Fatal("Arrive")
		}
	}
	for _, p := range all {
		awaits(p, -42, -42)
		awaits(p, 0, 1)
	}
	for _, c := range oneParty {
		if c.Arrive() != 1 {
			t.Fatal("Arrive")
		}
	}
	for _, p := range all {
		awaits(p, -42, -42)
		awaits(p, 0, 2)
		awaits(p, 1, 2)
	}
}

func TestPhaser_testAwaitAdvance6(t *testing.T) {
	p := locks.NewPhaser(3)
	pleaseForceTermination := locks.NewCountDownLatch(2)
	var ths []*thread.Thread
	for i := range 2 {
		ths = append(ths, kinds[i].start(func() {
			if p.Arrive() != 0 {
				t.Error("Arrive")
			}
			pleaseForceTermination.CountDown()
			if got := p.AwaitAdvance(0); got >= 0 || !p.IsTerminated() || p.Phase()-math.MinInt32 != 0 ||
				p.RegisteredParties() != 3 {
				t.Errorf("after termination: AwaitAdvance = %d, %v", got, p)
			}
		}))
	}
	mustNot(t, pleaseForceTermination.Await())
	for _, th := range ths {
		testutil.WaitState(t, th, thread.Waiting)
	}
	p.ForceTermination()
	if !p.IsTerminated() || p.Phase()-math.MinInt32 != 0 {
		t.Fatalf("%v", p)
	}
	testutil.Join(t, ths...)
	if p.RegisteredParties() != 3 {
		t.Fatal("parties changed by termination")
	}
}

func TestPhaser_testArriveAndAwaitAdvance1(t *testing.T) {
	var p locks.Phaser
	testutil.MustPanic(t, locks.ErrIllegalState, func() { p.ArriveAndAwaitAdvance() })
}

func TestPhaser_testArriveAndAwaitAdvance3(t *testing.T) {
	p := locks.NewPhaser(1)
	const threads = 3
	pleaseArrive := locks.NewCountDownLatch(threads)
	var ths []*thread.Thread
	for i := range threads {
		ths = append(ths, kinds[i%2].start(func() {
			if p.Register() != 0 {
				t.Error("Register")
			}
			pleaseArrive.CountDown()
			if got := p.ArriveAndAwaitAdvance(); got != 1 {
				t.Errorf("ArriveAndAwaitAdvance = %d", got)
			}
		}))
	}
	mustNot(t, pleaseArrive.Await())
	eventually(t, "all arrived", func() bool { return p.ArrivedParties() == threads })
	for _, th := range ths {
		testutil.WaitState(t, th, thread.Waiting)
		if !th.IsAlive() {
			t.Fatal("party left before the advance")
		}
	}
	assertPhaserState(t, p, 0, threads+1, 1)
	p.ArriveAndAwaitAdvance()
	testutil.Join(t, ths...)
	assertPhaserState(t, p, 1, threads+1, threads+1)
}

// Timed awaits time out with ErrTimeout and change nothing.
func TestPhaserAwaitAdvanceTimeoutTimesOut(t *testing.T) {
	p := locks.NewPhaser(1)
	const d = 20 * time.Millisecond
	start := time.Now()
	if got, err := p.AwaitAdvanceTimeout(0, d); got != 0 || !errors.Is(err, locks.ErrTimeout) {
		t.Fatalf("AwaitAdvanceTimeout = %d, %v", got, err)
	}
	if el := time.Since(start); el < d {
		t.Fatalf("timed out after %v", el)
	}
	if _, err := p.AwaitAdvanceTimeout(0, 0); !errors.Is(err, locks.ErrTimeout) {
		t.Fatalf("AwaitAdvanceTimeout(0) = %v", err)
	}
	assertPhaserState(t, p, 0, 1, 1)
}

// The phase number wraps from math.MaxInt32 to 0, as Java's does, on roots and children.
func TestPhaserPhaseWrapsAtMaxInt32(t *testing.T) {
	root := locks.NewPhaser(1)
	child := locks.NewPhaser(1, locks.WithParent(root))
	locks.SetPhaserPhase(root, math.MaxInt32)
	assertPhaserState(t, child, math.MaxInt32, 1, 1)
	if root.Arrive() != math.MaxInt32 {
		t.Fatal("Arrive")
	}
	if got := child.ArriveAndAwaitAdvance(); got != 0 {
		t.Fatalf("phase after MaxInt32 = %d, want 0", got)
	}
	assertPhaserState(t, root, 0, 2, 2)
	assertPhaserState(t, child, 0, 1, 1)
	root.ForceTermination()
	if child.Phase() != math.MinInt32 {
		t.Fatalf("terminated at phase 0: %d", child.Phase())
	}
}

// onAdvance sees each phase and the parties registered for the next, and terminates the
// phaser when it returns true.
func TestPhaserOnAdvance(t *testing.T) {
	type call struct{ phase, parties int }
	var calls []call
	p := locks.NewPhaser(2, locks.WithOnAdvance(func(phase, parties int) bool {
		calls = append(calls, call{phase, parties})
		return phase == 2
	}))
	for i := range 3 {
		th := kinds[i%2].start(func() { p.ArriveAndAwaitAdvance() })
		p.ArriveAndAwaitAdvance()
		testutil.Join(t, th)
	}
	want := []call{{0, 2}, {1, 2}, {2, 2}}
	if fmt.Sprint(calls) != fmt.Sprint(want) {
		t.Fatalf("onAdvance calls %v, want %v", calls, want)
	}
	assertPhaserTerminated(t, p, 3, 2)
	// A child's arrivals advance its root; only the root's onAdvance runs.
	var rootCalls atomic.Int32
	root := locks.NewPhaser(0, locks.WithOnAdvance(func(int, int) bool { rootCalls.Add(1); return false }))
	child := locks.NewPhaser(1, locks.WithParent(root), locks.WithOnAdvance(func(int, int) bool {
		t.Error("a child's onAdvance ran")
		return false
	}))
	child.Arrive()
	child.Arrive()
	if rootCalls.Load() != 2 || child.Phase() != 2 {
		t.Fatalf("root onAdvance ran %d times, phase %d", rootCalls.Load(), child.Phase())
	}
}

// A panic or runtime.Goexit in onAdvance terminates the phaser instead of leaving it
// mid-advance: waiting parties are released with a negative phase, and the panic goes on in
// the arriving thread.
func TestPhaserOnAdvancePanicOrGoexitTerminates(t *testing.T) {
	for _, how := range []string{"panic", "goexit"} {
		t.Run(how, func(t *testing.T) {
			p := locks.NewPhaser(2, locks.WithOnAdvance(func(int, int) bool {
				if how == "panic" {
					panic("boom")
				}
				runtime.Goexit()
				return false
			}))
			waiter := startVirtual(func() {
				if got := p.ArriveAndAwaitAdvance(); got != math.MinInt32 {
					t.Errorf("waiter: ArriveAndAwaitAdvance = %d, want MinInt32", got)
				}
			})
			testutil.WaitState(t, waiter, thread.Waiting)
			var recovered any
			arriver := thread.OfPlatform().UncaughtExceptionHandler(func(_ *thread.Thread, v any) { recovered = v }).
				Start(func() { p.Arrive() })
			testutil.Join(t, arriver, waiter)
			if how == "panic" && recovered != "boom" {
				t.Errorf("panic went %v, want boom in the arriving thread", recovered)
			}
			if !p.IsTerminated() || p.Register() >= 0 {
				t.Fatalf("%v: not terminated", p)
			}
		})
	}
}

func TestPhaserString(t *testing.T) {
	p := locks.NewPhaser(3)
	p.Arrive()
	if got := p.String(); !strings.HasPrefix(got, "Phaser@") || !strings.HasSuffix(got, "[phase = 0 parties = 3 arrived = 1]") {
		t.Fatalf("String() = %q", got)
	}
}

// Randomized: parties arrive (waiting or not), deregister, register, and are interrupted in
// timed and interruptible awaits at random, on a tiered phaser and on a flat one. Each phase
// must advance exactly once, when the last of the parties registered in it arrives: no party
// may pass a phase early, and no advance may be lost (the run would hang, and the test
// fails on the join deadline).
func TestPhaserStressNoLostAdvance(t *testing.T) {
	for seed := range uint64(12) {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			r := rand.New(rand.NewPCG(seed, 99))
			var advances []int // written by onAdvance, which runs while no party can arrive
			root := locks.NewPhaser(0, locks.WithOnAdvance(func(phase, parties int) bool {
				advances = append(advances, phase)
				return parties == 0
			}))
			phasers := []*locks.Phaser{root}
			if seed%2 == 1 { // tiered
				phasers = append(phasers, locks.NewPhaser(0, locks.WithParent(root)), locks.NewPhaser(0, locks.WithParent(root)))
			}
			const parties, rounds = 6, 300
			// Register every party before any starts, as Java's examples do.
			homes := make([]*locks.Phaser, parties)
			for i := range homes {
				homes[i] = phasers[r.IntN(len(phasers))]
				homes[i].Register()
			}
			var ths []*thread.Thread
			for i := range parties {
				pr := rand.New(rand.NewPCG(seed, uint64(i)))
				home := homes[i]
				ths = append(ths, kinds[i%2].start(func() {
					for round := 0; ; round++ {
						phase := home.Phase()
						if phase < 0 || phase >= rounds {
							home.ArriveAndDeregister()
							return
						}
						switch c := pr.IntN(200); {
						case c == 0: // leave for good
							home.ArriveAndDeregister()
							return
						case c < 10: // leave and come back (Register waits out an advance under way)
							home.ArriveAndDeregister()
							// (If it was the last party, its leaving terminated the phaser.)
							if ph := home.Register(); ph < 0 {
								return
							} else if ph < phase {
								t.Errorf("re-registered into phase %d after leaving %d", ph, phase)
							}
						case c < 70: // arrive, then wait interruptibly and timed, maybe interrupted
							ph := home.Arrive()
							if pr.IntN(2) == 0 {
								thread.Current().Interrupt()
							}
							for {
								next, err := home.AwaitAdvanceTimeout(ph, time.Duration(pr.IntN(3))*time.Millisecond)
								if err == nil {
									if next != ph+1 && next >= 0 {
										t.Errorf("advanced from %d to %d", ph, next)
									}
									break
								}
							}
						default: // uninterruptible: interrupts from the interrupter are kept, not obeyed
							if next := home.ArriveAndAwaitAdvance(); next != phase+1 && next >= 0 {
								t.Errorf("ArriveAndAwaitAdvance from %d returned %d", phase, next)
							}
						}
						thread.Interrupted()
					}
				}))
			}
			stop := make(chan struct{})
			go func() { // interrupt parties at random
				ir := rand.New(rand.NewPCG(seed, 7))
				for {
					select {
					case <-stop:
						return
					case <-time.After(200 * time.Microsecond):
						ths[ir.IntN(parties)].Interrupt()
					}
				}
			}()
			testutil.Join(t, ths...)
			close(stop)
			if !root.IsTerminated() {
				t.Fatalf("%v not terminated after every party left", root)
			}
			if len(advances) == 0 {
				t.Fatal("no advance")
			}
			for i, ph := range advances {
				if ph != i {
					t.Fatalf("advances %v: phase %d advanced out of order or twice", advances, ph)
				}
			}
		})
	}
}
