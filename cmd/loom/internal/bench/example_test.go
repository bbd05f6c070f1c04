package bench_test

import (
	"os"

	"github.com/loomgo/loom/cmd/loom/internal/bench"
)

// The table loom bench prints: every case with its ratio to its group's baseline.
func ExampleWriteTable() {
	bench.WriteTable(os.Stdout, []bench.Result{
		{Group: "uncontended lock+unlock", Name: "sync.Mutex", NsPerOp: 20, Ratio: 1, Baseline: "sync.Mutex"},
		{Group: "uncontended lock+unlock", Name: "locks.ReentrantLock", NsPerOp: 30, Ratio: 1.5, Baseline: "sync.Mutex"},
	})
	// Output:
	// | benchmark | ns/op | B/op | allocs/op | vs baseline |
	// | --- | ---: | ---: | ---: | ---: |
	// | **uncontended lock+unlock** | | | | |
	// | sync.Mutex | 20.0 | 0 | 0 | 1× (baseline) |
	// | locks.ReentrantLock | 30.0 | 0 | 0 | 1.50× |
	//
	// ratio > 1: slower than the baseline of its group; every case ran in this process, on this machine.
}
