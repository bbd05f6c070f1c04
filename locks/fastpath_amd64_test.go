//go:build !race && !purego

package locks_test

import (
	"testing"

	"github.com/loomgo/loom/locks"
)

// The assembly fast paths hand every call to the Go paths when the goroutine id's offset in the
// runtime's g is unknown (rt.GoidOffset 0: goid.Get disagreed with runtime.Stack). The locks
// must behave the same then: ownership, reentrancy, leaked locks, counts at their limit, the
// pinning count, mutual exclusion. (Under -race the Go paths are the only ones, and every test
// runs through them.)
func TestFastPathsWithoutGoidOffset(t *testing.T) {
	old := locks.SetGoidOffset(0)
	t.Cleanup(func() { locks.SetGoidOffset(old) })
	for name, f := range map[string]func(*testing.T){
		"LeakedLockOfEndedVirtualThreadOnSameGoroutine":     TestLeakedLockOfEndedVirtualThreadOnSameGoroutine,
		"LeakedLockOfDetachedGoroutine":                     TestLeakedLockOfDetachedGoroutine,
		"LockTakersTakingTurnsSeeOnlyTheirOwnHolds":         TestLockTakersTakingTurnsSeeOnlyTheirOwnHolds,
		"ReentrantLockTest_testIsLocked":                    TestReentrantLockTest_testIsLocked,
		"ReentrantLockTest_testAwaitLockCount":              TestReentrantLockTest_testAwaitLockCount,
		"MonitorEnterIsReentrant256Deep":                    TestMonitorEnterIsReentrant256Deep,
		"MonitorIllegalMonitorStateException":               TestMonitorIllegalMonitorStateException,
		"MonitorWaitWhenEnteredManyTimesRestoresCount":      TestMonitorWaitWhenEnteredManyTimesRestoresCount,
		"MonitorMutualExclusion":                            TestMonitorMutualExclusion,
		"ReentrantLockMaximumLockCountExceeded":             TestReentrantLockMaximumLockCountExceeded,
		"MonitorMaximumRecursionExceeded":                   TestMonitorMaximumRecursionExceeded,
		"StressReentrantLockInvariants":                     TestStressReentrantLockInvariants,
		"StressMonitorNoLostNotify":                         TestStressMonitorNoLostNotify,
		"PinningParkInsideMonitorReportsPinnedEventMONITOR": TestPinningParkInsideMonitorReportsPinnedEventMONITOR,
		"PinningLockWaitInsideMonitor":                      TestPinningLockWaitInsideMonitor,
	} {
		t.Run(name, f)
	}
}
