// Package lostinterrupt defines an Analyzer that reports a call to an interruptible loom function
// whose error is dropped.
//
// Java makes a caller of Thread.sleep, Thread.join, BlockingQueue.take, Future.get, ... handle
// InterruptedException: the compiler insists. loom returns thread.ErrInterrupted instead, and Go
// lets a caller drop it (a call statement, or the error assigned to _), so an interrupt that asked
// the thread to stop vanishes and the thread carries on.
//
// # Which functions are interruptible
//
// No list: the analyzer reads loom's own code. A function or method in a package of the module
// github.com/loomgo/loom whose last result is an error is interruptible when one of its return
// statements returns, as that error, thread.ErrInterrupted, or the error of a call of an
// interruptible function (directly, or through a variable it was assigned to) — unless its doc
// comment says it is not ("without being interruptible", "never reports an interrupt"). A method of
// an interface declared in a loom package is interruptible when the method of the same name of a
// type of that package that implements the interface is. The result is recorded as a fact on each
// such function, so it reaches the packages that call them (go vet passes facts between packages).
package lostinterrupt

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/loomgo/loom/cmd/loomvet/internal/loomapi"
)

// Analyzer reports dropped errors of interruptible loom calls.
var Analyzer = &analysis.Analyzer{
	Name:      "lostinterrupt",
	Doc:       "report interruptible loom calls (thread.Sleep, Join, Take, Put, Await, Get, ...) whose error is dropped\n\nJava forces InterruptedException to be handled; Go lets thread.ErrInterrupted vanish.",
	URL:       "https://pkg.go.dev/github.com/loomgo/loom/cmd/loomvet",
	Requires:  []*analysis.Analyzer{inspect.Analyzer},
	Run:       run,
	FactTypes: []analysis.Fact{new(Interruptible)},
}

// Interruptible is the fact that a loom function returns thread.ErrInterrupted when the calling
// thread is interrupted while it waits.
type Interruptible struct{}

// AFact marks Interruptible as a fact.
func (*Interruptible) AFact() {}

func (*Interruptible) String() string { return "interruptible" }

// IsInterruptible reports whether pass knows fn (a loom function) to be interruptible.
func IsInterruptible(pass *analysis.Pass, fn *types.Func) bool {
	return fn != nil && loomapi.InLoom(fn.Pkg()) && pass.ImportObjectFact(fn.Origin(), new(Interruptible))
}

func run(pass *analysis.Pass) (any, error) {
	if loomapi.InLoom(pass.Pkg) {
		learn(pass)
	}
	if !loomapi.IsLibrary(pass.Pkg) {
		report(pass)
	}
	return nil, nil
}

// learn finds the interruptible functions of a loom package and exports the facts.
func learn(pass *analysis.Pass) {
	errInterrupted := func(e ast.Expr) bool {
		var id *ast.Ident
		switch e := ast.Unparen(e).(type) {
		case *ast.Ident:
			id = e
		case *ast.SelectorExpr:
			id = e.Sel
		default:
			return false
		}
		v, _ := pass.TypesInfo.Uses[id].(*types.Var)
		return v != nil && v.Pkg() != nil && v.Pkg().Path() == loomapi.Thread && v.Name() == "ErrInterrupted"
	}
	known := map[*types.Func]bool{}
	isKnown := func(fn *types.Func) bool {
		return fn != nil && (known[fn] || fn.Pkg() != pass.Pkg && IsInterruptible(pass, fn))
	}
	// interruptibleCall reports whether e calls an interruptible function.
	interruptibleCall := func(e ast.Expr) bool {
		call, ok := ast.Unparen(e).(*ast.CallExpr)
		return ok && isKnown(loomapi.Callee(pass.TypesInfo, call))
	}

	type decl struct {
		fn   *types.Func
		body *ast.BlockStmt
		doc  string
	}
	var decls []decl
	var ifaces []*types.Named
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				fn, _ := pass.TypesInfo.Defs[d.Name].(*types.Func)
				if fn == nil || d.Body == nil || !lastIsError(fn.Signature()) {
					continue
				}
				decls = append(decls, decl{fn, d.Body, d.Doc.Text()})
			case *ast.GenDecl:
				for _, s := range d.Specs {
					if ts, ok := s.(*ast.TypeSpec); ok {
						if n, ok := pass.TypesInfo.Defs[ts.Name].Type().(*types.Named); ok && types.IsInterface(n) {
							ifaces = append(ifaces, n)
						}
					}
				}
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for _, d := range decls {
			if known[d.fn] || deniedByDoc(d.doc) {
				continue
			}
			// The variables that hold the error of an interruptible call, or ErrInterrupted.
			carriers := map[types.Object]bool{}
			ast.Inspect(d.body, func(n ast.Node) bool {
				as, ok := n.(*ast.AssignStmt)
				if !ok {
					return true
				}
				if len(as.Rhs) == 1 && len(as.Lhs) > 1 && interruptibleCall(as.Rhs[0]) {
					if id, ok := as.Lhs[len(as.Lhs)-1].(*ast.Ident); ok {
						carriers[obj(pass, id)] = true
					}
				}
				if len(as.Rhs) == len(as.Lhs) {
					for i, r := range as.Rhs {
						if id, ok := as.Lhs[i].(*ast.Ident); ok && (interruptibleCall(r) || errInterrupted(r)) {
							carriers[obj(pass, id)] = true
						}
					}
				}
				return true
			})
			found := false
			ast.Inspect(d.body, func(n ast.Node) bool {
				if _, lit := n.(*ast.FuncLit); lit || found {
					return false
				}
				ret, ok := n.(*ast.ReturnStmt)
				if !ok || len(ret.Results) == 0 {
					return true
				}
				last := ast.Unparen(ret.Results[len(ret.Results)-1])
				if errInterrupted(last) || interruptibleCall(last) && len(ret.Results) == 1 {
					found = true
				} else if id, ok := last.(*ast.Ident); ok && carriers[pass.TypesInfo.Uses[id]] {
					found = true
				}
				return !found
			})
			if found {
				known[d.fn] = true
				changed = true
			}
		}
		// Interface methods follow their implementations in this package.
		for _, it := range ifaces {
			iface := it.Underlying().(*types.Interface)
			for i := 0; i < iface.NumMethods(); i++ {
				m := iface.Method(i)
				if known[m] || m.Pkg() != pass.Pkg {
					continue
				}
				for _, d := range decls {
					if d.fn.Name() == m.Name() && known[d.fn] && implements(d.fn, it) {
						known[m] = true
						changed = true
						break
					}
				}
			}
		}
	}
	for fn := range known {
		if fn.Pkg() == pass.Pkg {
			pass.ExportObjectFact(fn, new(Interruptible))
		}
	}
}

func obj(pass *analysis.Pass, id *ast.Ident) types.Object {
	if o := pass.TypesInfo.Defs[id]; o != nil {
		return o
	}
	return pass.TypesInfo.Uses[id]
}

// implements reports whether the receiver type of method m implements the interface it.
func implements(m *types.Func, it *types.Named) bool {
	recv := m.Signature().Recv().Type()
	iface := it.Underlying().(*types.Interface)
	if it.TypeParams().Len() > 0 {
		// A generic interface: instantiate it with the receiver's own type arguments when the
		// counts match (BlockingQueue[T] and LinkedBlockingQueue[T]).
		base := recv
		if p, ok := base.(*types.Pointer); ok {
			base = p.Elem()
		}
		n, ok := base.(*types.Named)
		if !ok || n.TypeArgs().Len() != it.TypeParams().Len() {
			return false
		}
		args := make([]types.Type, n.TypeArgs().Len())
		for i := range args {
			args[i] = n.TypeArgs().At(i)
		}
		inst, err := types.Instantiate(nil, it, args, false)
		if err != nil {
			return false
		}
		iface = inst.Underlying().(*types.Interface)
	}
	if types.Implements(recv, iface) {
		return true
	}
	if _, ptr := recv.(*types.Pointer); !ptr {
		return types.Implements(types.NewPointer(recv), iface)
	}
	return false
}

func lastIsError(sig *types.Signature) bool {
	r := sig.Results()
	return r.Len() > 0 && types.Identical(r.At(r.Len()-1).Type(), types.Universe.Lookup("error").Type())
}

// deniedByDoc reports whether a doc comment says its function does not report interrupts.
func deniedByDoc(doc string) bool {
	doc = strings.Join(strings.Fields(doc), " ")
	for _, p := range []string{"without being interruptible", "not interruptible", "never reports an interrupt"} {
		if strings.Contains(doc, p) {
			return true
		}
	}
	return false
}

// report flags the calls of interruptible functions whose error is dropped.
func report(pass *analysis.Pass) {
	insp := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	for cur := range insp.Root().Preorder((*ast.ExprStmt)(nil), (*ast.AssignStmt)(nil), (*ast.DeferStmt)(nil), (*ast.GoStmt)(nil)) {
		var call *ast.CallExpr
		dropped := false
		switch s := cur.Node().(type) {
		case *ast.ExprStmt:
			call, _ = ast.Unparen(s.X).(*ast.CallExpr)
			dropped = true
		case *ast.DeferStmt:
			call, dropped = s.Call, true
		case *ast.GoStmt:
			call, dropped = s.Call, true
		case *ast.AssignStmt:
			if len(s.Rhs) != 1 {
				continue
			}
			call, _ = ast.Unparen(s.Rhs[0]).(*ast.CallExpr)
			if id, ok := s.Lhs[len(s.Lhs)-1].(*ast.Ident); ok && id.Name == "_" {
				dropped = true
			}
		}
		if call == nil || !dropped {
			continue
		}
		fn := loomapi.Callee(pass.TypesInfo, call)
		if !IsInterruptible(pass, fn) {
			continue
		}
		d := analysis.Diagnostic{
			Pos: call.Pos(), End: call.End(),
			Message: "the error of " + loomapi.Name(fn) + " is dropped: it is thread.ErrInterrupted when the thread is interrupted, " +
				"and the interrupt is then lost (Java forces InterruptedException to be handled; Go lets it vanish)",
		}
		if st, ok := cur.Node().(ast.Stmt); ok && isPlainDrop(st) {
			var stack []ast.Node
			for c := range cur.Enclosing((*ast.FuncDecl)(nil), (*ast.FuncLit)(nil)) {
				stack = append([]ast.Node{c.Node()}, stack...)
			}
			if fix, ok := loomapi.HandleErrorFix(pass, st, call, fn.Signature().Results().Len(), loomapi.EnclosingSignature(pass.TypesInfo, stack), "", nil); ok {
				d.SuggestedFixes = []analysis.SuggestedFix{fix}
			}
		}
		pass.Report(d)
	}
}

// isPlainDrop reports whether st is a call statement or `_ = call` (one result), which a fix can
// replace by an if statement.
func isPlainDrop(st ast.Stmt) bool {
	switch s := st.(type) {
	case *ast.ExprStmt:
		return true
	case *ast.AssignStmt:
		return len(s.Lhs) == 1 && s.Tok == token.ASSIGN
	}
	return false
}
