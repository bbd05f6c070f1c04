//go:build amd64 && !race && !purego

package locks

import (
	"sync/atomic"
	"unsafe"

	"github.com/loomgo/loom/internal/rt"
	"github.com/loomgo/loom/internal/waitq"
)

// The fast paths in assembly (fastpath_amd64.s; see fastpath.go). Each jumps to the Go
// function named in its comment for everything but the uncontended case.

// lockFast: lockTook, lockContended.
func lockFast(l *ReentrantLock)

// unlockFast: unlockChecked, unlockWake.
func unlockFast(l *ReentrantLock)

// enterFast: enterTook, enterContended.
func enterFast(m *Monitor)

// exitFast: exitChecked, exitWake.
func exitFast(m *Monitor)

// goidOffset is rt.GoidOffset, where the assembly reads it; 0 sends every call to the Go
// functions.
var goidOffset = rt.GoidOffset

// What the assembly reads, with the layouts it assumes: the value of each atomic at its start,
// and a queue's first node at exclusiveQueueHead (go_asm.h has the rest).
const exclusiveQueueHead = unsafe.Offsetof(exclusive{}.q) + waitq.HeadOffset

var (
	_ [8 - unsafe.Sizeof(atomic.Int64{})]struct{}
	_ [4 - unsafe.Sizeof(atomic.Int32{})]struct{}
	_ [8 - unsafe.Sizeof(atomic.Pointer[waitq.Node]{})]struct{}
)

// What the assembly uses, named for the tools that do not read it (staticcheck's unused check).
var (
	_ = [...]any{lockTook, lockContended, unlockChecked, unlockWake, enterTook, enterContended, exitChecked, exitWake}
	_ = exclusiveQueueHead
)
