package thread

import (
	"sync/atomic"

	"github.com/loomgo/loom/internal/rt"
)

// The hooks of internal/rt/sync.go, for the synchronizers' fast paths.
func init() {
	rt.StateWord = func(t any) *atomic.Int32 { return &t.(*Thread).state }
	rt.MonitorEnteredBy = func(t any) { t.(*Thread).monitors++ }
	rt.MonitorExitedBy = func(t any) { t.(*Thread).monitors-- }
}
