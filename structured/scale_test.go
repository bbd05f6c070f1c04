//go:build !race

package structured_test

import (
	"testing"
	"time"

	"github.com/loomgo/loom/structured"
	"github.com/loomgo/loom/thread"
)

// 100,000 subtasks that each sleep 100 ms in one scope cost about what 100,000 plain virtual
// threads that sleep 100 ms cost (the baseline is measured in the same process, since the
// machine may be shared). The load of a shared machine can change between the two
// measurements, so the pair is measured up to three times: a real regression fails all three.
func TestHundredThousandForksSleeping(t *testing.T) {
	if testing.Short() {
		t.Skip("scale test")
	}
	var plain, scope time.Duration
	for attempt := range 3 {
		var err error
		plain, scope, err = plainAndScopeSleeps()
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("attempt %d: %d x 100ms sleep: plain virtual threads %v, scope forks %v (%.2fx)", attempt+1, forksSleeping, plain, scope, float64(scope)/float64(plain))
		if scope <= 2*plain+time.Second {
			return
		}
	}
	t.Errorf("scope took %v, plain threads %v", scope, plain)
}

const forksSleeping = 100_000

func plainAndScopeSleeps() (plain, scope time.Duration, joinErr error) {
	sleep := func() { thread.Sleep(100 * time.Millisecond) }
	start := time.Now()
	ths := make([]*thread.Thread, 0, forksSleeping)
	for range forksSleeping {
		ths = append(ths, thread.StartVirtualThread(sleep))
	}
	for _, th := range ths {
		th.Join()
	}
	plain = time.Since(start)
	clear(ths)

	thread.OfVirtual().Start(func() {
		s := structured.Open()
		defer s.Close()
		start := time.Now()
		for range forksSleeping {
			structured.Fork(s, func() (struct{}, error) { sleep(); return struct{}{}, nil })
		}
		_, joinErr = s.Join()
		scope = time.Since(start)
	}).Join()
	return plain, scope, joinErr
}
