package testutil

import (
	"syscall"
	"unsafe"
)

// Pending reports how many bytes wait to be read on the socket fd, without reading them
// (ioctlsocket FIONREAD): Java's InputStream.available(), for tests that must wait until a
// peer's bytes have arrived.
func Pending(fd uintptr) int {
	const fionread = 0x4004667f
	var n, ret uint32
	if err := syscall.WSAIoctl(syscall.Handle(fd), fionread, nil, 0, (*byte)(unsafe.Pointer(&n)), 4, &ret, nil, 0); err != nil {
		return 0
	}
	return int(n)
}
