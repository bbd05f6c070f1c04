package thread

import (
	"io"
	"time"
)

// SetUserPanicOutput redirects the reports of panicking user callbacks (see callUser) to w and
// returns a function that restores the previous writer.
func SetUserPanicOutput(w io.Writer) (restore func()) {
	old := userPanicOutput.Swap(&w)
	return func() { userPanicOutput.Store(old) }
}

// LastSweepDuration returns how long the last sweep of foreign goroutines took.
func LastSweepDuration() time.Duration { return time.Duration(lastSweepDur.Load()) }
