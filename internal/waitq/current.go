package waitq

import "github.com/loomgo/loom/thread"

// Current returns thread.Current() (which keeps its own per-goroutine cache and costs a few
// nanoseconds).
func Current() *thread.Thread { return thread.Current() }
