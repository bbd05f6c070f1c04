package scoped_test

import (
	"testing"

	"github.com/loomgo/loom/executors"
	"github.com/loomgo/loom/scoped"
)

// Bindings are not inherited by executor tasks (JAVA-SEMANTICS 1.12 #208).
func TestBindingsNotInheritedByExecutorTasks(t *testing.T) {
	v := scoped.NewInstance[string]()
	es := executors.NewVirtualThreadPerTaskExecutor()
	defer es.Close()
	scoped.Where(v, "owner").Run(func() {
		f, err := executors.Submit(es, func() (bool, error) { return v.IsBound(), nil })
		if err != nil {
			t.Fatal(err)
		}
		if bound, _ := f.Get(); bound {
			t.Error("an executor task sees the submitter's binding")
		}
	})
}
