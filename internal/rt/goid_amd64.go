//go:build !purego

package rt

import (
	"unsafe"

	"github.com/petermattis/goid"
)

// getg returns the current goroutine's runtime g (goid_amd64.s).
func getg() unsafe.Pointer

// goidOffset finds the goroutine id in the runtime's g: the first word, among the first
// goidScan bytes, that holds the current goroutine's id, provided another goroutine's g holds
// that goroutine's id at the same offset, as runtime.Stack tells it. It returns 0 (not found) if
// the ids cannot be trusted or either goroutine disagrees.
func goidOffset() uintptr {
	if !GoidOK {
		return 0
	}
	id, gp := goid.Get(), getg()
	off := uintptr(0)
	for o := uintptr(8); o < goidScan; o += 8 {
		if *(*int64)(unsafe.Add(gp, o)) == id {
			off = o
			break
		}
	}
	if off == 0 {
		return 0
	}
	ok := make(chan bool)
	go func() { ok <- *(*int64)(unsafe.Add(getg(), off)) == slowGoid() }()
	if !<-ok {
		return 0
	}
	return off
}

// goidScan bounds the search: the id has been at 152 bytes since Go 1.23, and a g is several
// times larger than this.
const goidScan = 256
