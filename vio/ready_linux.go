package vio

import (
	"net"
	"os"
	"syscall"
	"unsafe"
)

// readinessFile returns a pollable duplicate of a TCP or Unix listening socket and its RawConn,
// through which Accept waits for a connection without holding a carrier; nil for other listeners.
func readinessFile(l net.Listener) (*os.File, syscall.RawConn) {
	var f *os.File
	var err error
	switch l := l.(type) {
	case *net.TCPListener:
		f, err = l.File()
	case *net.UnixListener:
		f, err = l.File()
	default:
		return nil, nil
	}
	if err != nil {
		return nil, nil
	}
	rc, err := f.SyscallConn()
	if err != nil {
		f.Close()
		return nil, nil
	}
	return f, rc
}

// readable reports whether fd has input (a queued connection) now, without waiting: one ppoll(2)
// with a zero timeout. Go's poller is edge-triggered and has just been reset by RawConn.Read, so
// only a level-triggered look tells whether a connection that arrived earlier is still queued.
func readable(fd uintptr) bool {
	pfd := struct {
		fd             int32
		events, revent int16
	}{fd: int32(fd), events: 0x1} // POLLIN
	var ts syscall.Timespec
	for {
		n, _, e := syscall.Syscall6(syscall.SYS_PPOLL, uintptr(unsafe.Pointer(&pfd)), 1, uintptr(unsafe.Pointer(&ts)), 0, 0, 0)
		if e == syscall.EINTR {
			continue
		}
		return e == 0 && n > 0
	}
}
