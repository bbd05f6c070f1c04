package bench

import (
	"testing"

	"github.com/loomgo/loom/thread"
)

// join waits for every thread of ths to end; an interrupt of the waiting thread (nothing in a
// benchmark interrupts it) fails the benchmark rather than passing unseen.
func join(b testing.TB, ths ...*thread.Thread) {
	for _, t := range ths {
		if err := t.Join(); err != nil {
			b.Error(err)
			return
		}
	}
}
