//go:build unix

package testutil

import "syscall"

// Pending reports how many bytes (0 or 1) wait to be read on the socket fd, without reading
// them: Java's InputStream.available() > 0, for tests that must wait until a peer's bytes have
// arrived.
func Pending(fd uintptr) int {
	n, _, _ := syscall.Recvfrom(int(fd), make([]byte, 1), syscall.MSG_PEEK|syscall.MSG_DONTWAIT)
	return max(n, 0)
}
