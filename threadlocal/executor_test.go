package threadlocal_test

import (
	"testing"

	"github.com/loomgo/loom/executors"
	"github.com/loomgo/loom/threadlocal"
)

// JAVA-SEMANTICS 1.11 #196: pool threads are reused, so a thread-local set by one task is seen by
// the next task on the same pool thread; a thread-per-task executor gives every task fresh
// thread-locals.
func TestPoolThreadsKeepValuesThreadPerTaskDoesNot(t *testing.T) {
	tl := threadlocal.New[string]()
	run := func(es executors.ExecutorService) (first, second string) {
		t.Helper()
		defer es.Close()
		f1, err := executors.Submit(es, func() (string, error) { v := tl.Get(); tl.Set("task-1"); return v, nil })
		if err != nil {
			t.Fatal(err)
		}
		first, _ = f1.Get()
		f2, err := executors.Submit(es, func() (string, error) { return tl.Get(), nil })
		if err != nil {
			t.Fatal(err)
		}
		second, _ = f2.Get()
		return first, second
	}
	if first, second := run(executors.NewSingleThreadExecutor()); first != "" || second != "task-1" {
		t.Errorf("single-thread pool: tasks saw %q then %q, want \"\" then task-1", first, second)
	}
	if first, second := run(executors.NewVirtualThreadPerTaskExecutor()); first != "" || second != "" {
		t.Errorf("virtual-thread-per-task: tasks saw %q then %q, want \"\" twice", first, second)
	}
}
