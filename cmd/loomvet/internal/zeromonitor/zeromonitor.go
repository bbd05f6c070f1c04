// Package zeromonitor defines an Analyzer that reports locks.MonitorOf on a pointer to a zero-size
// type.
//
// locks.MonitorOf(p) finds the monitor of the object p points to by its address, as Java's
// synchronized (obj) uses the object's header. Go may give every zero-size object the same address
// (new(struct{}) twice can yield equal pointers), so unrelated objects of such a type would share
// one monitor: one thread's synchronized block would exclude another's, and a Notify would wake
// the wrong waiters. There is no mechanical fix: give the type a field, or use a locks.Monitor
// value of its own (the zero Monitor is ready to use).
package zeromonitor

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/loomgo/loom/cmd/loomvet/internal/loomapi"
)

// Analyzer reports locks.MonitorOf on pointers to zero-size types.
var Analyzer = &analysis.Analyzer{
	Name:     "zeromonitor",
	Doc:      "report locks.MonitorOf on a pointer to a zero-size type\n\nGo may give distinct zero-size objects one address, so unrelated objects would share one monitor.",
	URL:      "https://pkg.go.dev/github.com/loomgo/loom/cmd/loomvet",
	Requires: []*analysis.Analyzer{inspect.Analyzer},
	Run:      run,
}

func run(pass *analysis.Pass) (any, error) {
	if loomapi.IsLibrary(pass.Pkg) {
		return nil, nil
	}
	insp := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	for cur := range insp.Root().Preorder((*ast.CallExpr)(nil)) {
		call := cur.Node().(*ast.CallExpr)
		if !loomapi.IsFunc(loomapi.Callee(pass.TypesInfo, call), loomapi.Locks, "MonitorOf") || len(call.Args) != 1 {
			continue
		}
		ptr, ok := pass.TypesInfo.TypeOf(call.Args[0]).Underlying().(*types.Pointer)
		if !ok {
			continue
		}
		elem := ptr.Elem()
		if _, isParam := elem.(*types.TypeParam); isParam {
			continue // the size is the instantiation's business
		}
		if pass.TypesSizes.Sizeof(elem) != 0 {
			continue
		}
		pass.Reportf(call.Pos(), "locks.MonitorOf on a pointer to %s, a zero-size type: Go may give distinct zero-size objects one address, "+
			"so unrelated objects would share this monitor; give the type a field, or use a locks.Monitor of its own",
			types.TypeString(elem, types.RelativeTo(pass.Pkg)))
	}
	return nil, nil
}
