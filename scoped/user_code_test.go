package scoped_test

import (
	"runtime"
	"testing"

	"github.com/loomgo/loom/scoped"
)

// An operation that calls runtime.Goexit inside nested Runs unwinds them like a panic would:
// each level's bindings are restored as the goroutine exits, so deferred code of an outer level
// sees its own binding (issue 15, defect 4, the class: user code run by loom).
func TestRunRestoresBindingsWhenTheOperationCallsGoexit(t *testing.T) {
	v := scoped.NewInstance[string]()
	var seen []string
	onVirtual(func() {
		defer func() { seen = append(seen, v.OrElse("unbound")) }()
		scoped.Where(v, "outer").Run(func() {
			defer func() { seen = append(seen, v.OrElse("unbound")) }()
			scoped.Where(v, "inner").Run(func() {
				defer func() { seen = append(seen, v.OrElse("unbound")) }()
				runtime.Goexit()
			})
			t.Error("Run returned after a Goexit")
		})
	})
	want := []string{"inner", "outer", "unbound"}
	if len(seen) != 3 || seen[0] != want[0] || seen[1] != want[1] || seen[2] != want[2] {
		t.Errorf("bindings seen while unwinding %v, want %v", seen, want)
	}
	// Call returns nothing to a goroutine that exits; its caller's bindings are back too
	onVirtual(func() {
		defer func() {
			if v.IsBound() {
				t.Error("bound after a Goexit in Call")
			}
		}()
		scoped.Call(scoped.Where(v, "x"), func() (int, error) { runtime.Goexit(); return 0, nil })
	})
}
