//go:build !amd64

package rt

// goidOffset is 0 where no assembly reads the goroutine id (see [GoidOffset]).
func goidOffset() uintptr { return 0 }
