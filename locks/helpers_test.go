package locks_test

import (
	"testing"
	"time"

	"github.com/loomgo/loom/locks"
	"github.com/loomgo/loom/thread"
)

// kinds runs a test body once with virtual and once with platform threads.
var kinds = []struct {
	name  string
	start func(func()) *thread.Thread
}{
	{"virtual", func(f func()) *thread.Thread { return thread.OfVirtual().Start(f) }},
	{"platform", func(f func()) *thread.Thread { return thread.OfPlatform().Start(f) }},
}

const longWait = 10 * time.Second

func startVirtual(f func()) *thread.Thread { return thread.OfVirtual().Start(f) }

// eventually polls cond until it holds, failing the test after longWait.
func eventually(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(longWait)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

// ids returns the thread ids of ths, for comparisons.
func ids(ths []*thread.Thread) []int64 {
	var r []int64
	for _, th := range ths {
		r = append(r, th.ThreadID())
	}
	return r
}

// getThrough is the body of a thread that only has to get past l: it acquires l, checks that the
// calling thread then holds it once, and releases it.
func getThrough(t testing.TB, l *locks.ReentrantLock) {
	l.Lock()
	if !l.IsHeldByCurrentThread() || l.HoldCount() != 1 {
		t.Errorf("Lock returned with IsHeldByCurrentThread %v, HoldCount %d", l.IsHeldByCurrentThread(), l.HoldCount())
	}
	l.Unlock()
}

// readThrough and writeThrough are getThrough for the read and the write lock of rw.
func readThrough(t testing.TB, rw *locks.ReentrantReadWriteLock) {
	rw.ReadLock().Lock()
	if n := rw.ReadHoldCount(); n != 1 {
		t.Errorf("ReadLock().Lock returned with ReadHoldCount %d", n)
	}
	rw.ReadLock().Unlock()
}

func writeThrough(t testing.TB, rw *locks.ReentrantReadWriteLock) {
	rw.WriteLock().Lock()
	if !rw.IsWriteLockedByCurrentThread() || rw.WriteHoldCount() != 1 {
		t.Errorf("WriteLock().Lock returned with IsWriteLockedByCurrentThread %v, WriteHoldCount %d",
			rw.IsWriteLockedByCurrentThread(), rw.WriteHoldCount())
	}
	rw.WriteLock().Unlock()
}
