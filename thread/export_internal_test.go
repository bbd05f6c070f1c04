package thread

import "io"

// SetUserPanicOutput redirects the reports of panicking user callbacks (see callUser) to w and
// returns a function that restores the previous writer.
func SetUserPanicOutput(w io.Writer) (restore func()) {
	old := userPanicOutput.Swap(&w)
	return func() { userPanicOutput.Store(old) }
}
