//go:build !linux

package vio

import (
	"net"
	"os"
	"syscall"
)

// readinessFile is Linux-only (it needs ppoll); elsewhere Accept takes the unmounted path.
func readinessFile(l net.Listener) (*os.File, syscall.RawConn) { return nil, nil }

func readable(fd uintptr) bool { return true }
