//go:build !linux

package thread

// processLimit returns 0 (unknown) outside Linux: there the platform-thread budget comes from
// the Go runtime's own limit (runtime/debug.SetMaxThreads) alone.
func processLimit() int { return 0 }
