package thread

import (
	"unsafe"

	"github.com/loomgo/loom/internal/rt"
)

// Hooks for the synchronizers' fast paths (locks, threadlocal), which know the current *Thread
// already and must not look it up again.
func init() {
	rt.DataOffset = unsafe.Offsetof(Thread{}.data)
	rt.MonitorEnteredBy = func(t any) { t.(*Thread).monitors++ }
	rt.MonitorExitedBy = func(t any) { t.(*Thread).monitors-- }
}
