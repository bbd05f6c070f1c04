package locks_test

import (
	"fmt"
	"math"
	"sync/atomic"

	"github.com/loomgo/loom/locks"
	"github.com/loomgo/loom/thread"
)

// Phaser's javadoc example: tasks that start together, each registering itself, with the
// caller as one more party that opens the gate (Java's runTasks with a Phaser instead of a
// CountDownLatch).
func ExamplePhaser() {
	phaser := locks.NewPhaser(1) // the caller
	var started atomic.Int32
	var ths []*thread.Thread
	for range 3 {
		phaser.Register()
		ths = append(ths, thread.StartVirtualThread(func() {
			phaser.ArriveAndAwaitAdvance() // wait for all to be created
			started.Add(1)
		}))
	}
	fmt.Println("before the gate:", started.Load())
	phaser.ArriveAndDeregister() // let them start; the caller leaves
	for _, th := range ths {
		th.Join()
	}
	fmt.Println("after:", started.Load(), "phase", phaser.Phase())
	// Output:
	// before the gate: 0
	// after: 3 phase 1
}

// A phaser that runs a fixed number of rounds: onAdvance terminates it after round 2, as
// overriding Java's onAdvance to return phase >= iterations-1.
func ExampleWithOnAdvance() {
	const rounds = 3
	phaser := locks.NewPhaser(2, locks.WithOnAdvance(func(phase, parties int) bool {
		fmt.Println("round", phase, "done")
		return phase >= rounds-1 || parties == 0
	}))
	worker := func() {
		for !phaser.IsTerminated() {
			phaser.ArriveAndAwaitAdvance()
		}
	}
	a, b := thread.StartVirtualThread(worker), thread.StartVirtualThread(worker)
	a.Join()
	b.Join()
	fmt.Println("terminated at phase", phaser.Phase()-math.MinInt32)
	// Output:
	// round 0 done
	// round 1 done
	// round 2 done
	// terminated at phase 3
}

// Exchanger's javadoc example, reduced: a filler and an emptier swap buffers.
func ExampleExchanger() {
	var ex locks.Exchanger[[]int]
	emptier := thread.StartVirtualThread(func() {
		buf := []int{}
		for range 2 {
			buf, _ = ex.Exchange(buf[:0]) // hand back an empty buffer, get a full one
			fmt.Println("emptied", buf)
		}
	})
	buf := make([]int, 0, 4)
	for round := range 2 {
		buf = append(buf, round, round*10)
		buf, _ = ex.Exchange(buf) // give the full buffer, get an empty one
	}
	emptier.Join()
	// Output:
	// emptied [0 0]
	// emptied [1 10]
}

// StampedLock's javadoc Point: moves under the write lock, reads optimistically (the fields
// are atomics: an optimistic reader reads them while a writer may be writing).
func ExampleStampedLock() {
	type Point struct {
		x, y atomic.Int64
		sl   locks.StampedLock
	}
	var p Point
	move := func(dx, dy int64) {
		stamp := p.sl.WriteLock()
		defer p.sl.UnlockWrite(stamp)
		p.x.Add(dx)
		p.y.Add(dy)
	}
	distanceSquared := func() int64 {
		stamp := p.sl.TryOptimisticRead()
		x, y := p.x.Load(), p.y.Load()
		if !p.sl.Validate(stamp) { // a writer came in between: read again under the read lock
			stamp = p.sl.ReadLock()
			x, y = p.x.Load(), p.y.Load()
			p.sl.UnlockRead(stamp)
		}
		return x*x + y*y
	}
	move(3, 4)
	fmt.Println(distanceSquared())
	// Output: 25
}
