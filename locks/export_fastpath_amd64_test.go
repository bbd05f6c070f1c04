//go:build !race && !purego

package locks

// SetGoidOffset sets the offset at which the assembly fast paths read the goroutine id (0 sends
// every call to the Go paths, as when rt.GoidOffset is unknown) and returns the previous one.
// Only a test that runs alone may call it.
func SetGoidOffset(off uintptr) (old uintptr) {
	old, goidOffset = goidOffset, off
	return old
}
