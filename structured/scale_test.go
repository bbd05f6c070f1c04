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
// machine may be shared).
func TestHundredThousandForksSleeping(t *testing.T) {
	if testing.Short() {
		t.Skip("scale test")
	}
	const n = 100_000
	sleep := func() { thread.Sleep(100 * time.Millisecond) }
	start := time.Now()
	ths := make([]*thread.Thread, 0, n)
	for range n {
		ths = append(ths, thread.StartVirtualThread(sleep))
	}
	for _, th := range ths {
		th.Join()
	}
	plain := time.Since(start)
	clear(ths)

	var scope time.Duration
	thread.OfVirtual().Start(func() {
		s := structured.Open()
		defer s.Close()
		start := time.Now()
		for range n {
			structured.Fork(s, func() (struct{}, error) { sleep(); return struct{}{}, nil })
		}
		if _, err := s.Join(); err != nil {
			t.Error(err)
		}
		scope = time.Since(start)
	}).Join()
	t.Logf("%d x 100ms sleep: plain virtual threads %v, scope forks %v (%.2fx)", n, plain, scope, float64(scope)/float64(plain))
	if scope > 2*plain+time.Second {
		t.Errorf("scope took %v, plain threads %v", scope, plain)
	}
}
