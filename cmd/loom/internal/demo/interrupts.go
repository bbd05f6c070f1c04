package demo

import (
	"time"

	"github.com/loomgo/loom/thread"
)

// sleepFor is thread.Sleep for an experiment's tasks. Nothing interrupts them, except where an
// experiment does so to end them; either way the interrupt is kept, as Java's
// catch (InterruptedException e) { Thread.currentThread().interrupt(); } keeps it.
func sleepFor(d time.Duration) {
	if thread.Sleep(d) != nil {
		thread.Current().Interrupt()
	}
}

// joinAll waits for every thread of ths to end. If the waiting thread is interrupted it stops
// waiting and keeps the interrupt, as sleepFor does.
func joinAll(ths ...*thread.Thread) {
	for _, t := range ths {
		if t.Join() != nil {
			thread.Current().Interrupt()
			return
		}
	}
}
