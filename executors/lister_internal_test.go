package executors

import (
	"runtime"
	"testing"
	"time"
	"weak"
)

// TestListedExecutorIsCollected: package thread's listings hold an executor's lists weakly, so
// an executor whose lists were added (its first task ran) and that is then dropped without Close
// is garbage, as in Java, whose registry of thread containers holds them through weak references.
// (The executor is made by hand here: a task's thread, once ended, may stay reachable for a while
// through package thread's cache of current threads, and the thread is part of the task, which
// refers to its executor.)
func TestListedExecutorIsCollected(t *testing.T) {
	w := func() weak.Pointer[ThreadPerTaskExecutor] {
		e := NewVirtualThreadPerTaskExecutor()
		e.listed.Do(e.addLister)
		return weak.Make(e)
	}()
	for range 20 {
		runtime.GC()
		if w.Value() == nil {
			return
		}
		time.Sleep(time.Millisecond)
	}
	t.Errorf("an executor dropped without Close is still reachable")
}
