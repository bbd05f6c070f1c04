package thread_test

import (
	"fmt"
	"os"
	"runtime/trace"
	"time"

	"github.com/loomgo/loom/locks"
	"github.com/loomgo/loom/thread"
)

// A traced run. While Go's execution tracer is on, every virtual thread is a task of the trace
// named as the thread ("VirtualThread[#22,worker-0]"), with its parks (loom.park: what it waits
// in and on), its unmounted time (region loom.unmounted), the carriers it mounts on (loom.mount)
// and its pinned parks (region and log loom.pinned), as JFR records jdk.VirtualThreadStart, End,
// Pinned and SubmitFailed. Open the file with
//
//	go tool trace trace.out
//
// and look under "User-defined tasks" and "User-defined regions". `go test -trace trace.out`
// traces a test the same way, and a runtime/trace.FlightRecorder keeps the last seconds of it.
func ExampleStartVirtualThread_executionTrace() {
	f, err := os.CreateTemp("", "trace.out")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.Remove(f.Name())
	defer f.Close()
	if err := trace.Start(f); err == nil { // else tracing is on already (go test -trace)
		defer trace.Stop()
	}

	var lock locks.ReentrantLock
	workers := make([]*thread.Thread, 4)
	for i := range workers {
		workers[i] = thread.OfVirtual().Name(fmt.Sprint("worker-", i)).Start(func() {
			thread.Sleep(time.Millisecond) // loom.park "Thread.sleep timeout 1ms"
			lock.Lock()                    // contended: loom.park "LockSupport.park on *locks.ReentrantLock"
			thread.Sleep(time.Millisecond)
			lock.Unlock()
		})
	}
	for _, w := range workers {
		w.Join()
	}
	fmt.Println("traced 4 virtual threads; open the trace with: go tool trace trace.out")
	// Output: traced 4 virtual threads; open the trace with: go tool trace trace.out
}
