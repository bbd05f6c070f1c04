package thread

import (
	"sync/atomic"

	"github.com/loomgo/loom/internal/rt"
)

// The hooks of internal/rt/sync.go, for the synchronizers' fast paths.
func init() {
	rt.StateWord = func(t any) *atomic.Int32 { return &t.(*Thread).state }
	rt.MonitorCount = func(t any) *int32 {
		if th := t.(*Thread); th.kind == kindVirtual && th.sched.opts.Pinning == PinSynchronized {
			return &th.monitors
		}
		return nil
	}
}
