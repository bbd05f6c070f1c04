//go:build !amd64 || purego

package rt

// goidOffset is 0 where no assembly reads the goroutine id (see [GoidOffset]): other
// architectures, and the purego tag.
func goidOffset() uintptr { return 0 }
