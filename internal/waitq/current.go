package waitq

import "github.com/loomgo/loom/thread"

// Current returns the current thread. It is [thread.Current], which keeps a per-goroutine cache
// and costs a few nanoseconds; locks call it on every Lock and Unlock. (It once had a cache of
// its own here, before [thread.Current] did.)
func Current() *thread.Thread { return thread.Current() }
