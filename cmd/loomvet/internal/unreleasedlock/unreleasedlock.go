// Package unreleasedlock defines an Analyzer that reports a loom lock acquired with Lock, or a
// monitor entered with Enter, that is not released on every path out of the function.
//
// Java releases a synchronized block's monitor however the block ends, and its idiom for a Lock is
// lock(); try { ... } finally { unlock(); }. A port that calls l.Lock() and then returns early on
// some path (an error check, a continue) leaves the lock held by a thread that has moved on: every
// other thread then blocks on it for ever. Go's idiom is defer l.Unlock() right after l.Lock().
//
// The analyzer follows the function's control-flow graph from each (*locks.ReentrantLock).Lock,
// (*locks.ReadLock).Lock, (*locks.WriteLock).Lock and (*locks.Monitor).Enter that is a statement of
// its own: every path to a return must pass an Unlock (or Exit) of the same lock expression, or a
// defer of one. Paths that end in a panic are not followed. A function whose body is the acquire
// alone (a lock helper) is not reported, nor is a lock released in another function. When the
// function never releases the lock and the acquire is a statement of the function's body, the
// suggested fix adds defer l.Unlock() (defer m.Exit()) right after it.
package unreleasedlock

import (
	"go/ast"
	"go/token"
	"go/types"
	"strconv"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/ctrlflow"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/cfg"

	"github.com/loomgo/loom/cmd/loomvet/internal/loomapi"
)

// Analyzer reports locks and monitors not released on every path.
var Analyzer = &analysis.Analyzer{
	Name:     "unreleasedlock",
	Doc:      "report a loom Lock or Monitor.Enter not released on every path out of the function\n\nJava's synchronized and lock/try/finally release the lock however a block ends; a Go port must release it on every path (defer).",
	URL:      "https://pkg.go.dev/github.com/loomgo/loom/cmd/loomvet",
	Requires: []*analysis.Analyzer{inspect.Analyzer, ctrlflow.Analyzer},
	Run:      run,
}

func run(pass *analysis.Pass) (any, error) {
	if loomapi.IsLibrary(pass.Pkg) {
		return nil, nil
	}
	insp := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	cfgs := pass.ResultOf[ctrlflow.Analyzer].(*ctrlflow.CFGs)
	for cur := range insp.Root().Preorder((*ast.FuncDecl)(nil), (*ast.FuncLit)(nil)) {
		var g *cfg.CFG
		var body *ast.BlockStmt
		switch f := cur.Node().(type) {
		case *ast.FuncDecl:
			if f.Body == nil {
				continue
			}
			g, body = cfgs.FuncDecl(f), f.Body
		case *ast.FuncLit:
			g, body = cfgs.FuncLit(f), f.Body
		}
		if g == nil || len(body.List) == 1 && acquire(pass, body.List[0]) != nil {
			continue
		}
		checkFunc(pass, g, body)
	}
	return nil, nil
}

// An acquisition is a statement that takes a lock.
type acquisition struct {
	stmt    *ast.ExprStmt
	key     string // the lock expression, as source text
	release string // "Unlock" or "Exit"
}

// acquire returns the acquisition n is, or nil.
func acquire(pass *analysis.Pass, n ast.Node) *acquisition {
	st, ok := n.(*ast.ExprStmt)
	if !ok {
		return nil
	}
	call, ok := ast.Unparen(st.X).(*ast.CallExpr)
	if !ok {
		return nil
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	fn := loomapi.Callee(pass.TypesInfo, call)
	release := ""
	switch {
	case loomapi.IsMethod(fn, loomapi.Locks, "ReentrantLock", "Lock"),
		loomapi.IsMethod(fn, loomapi.Locks, "ReadLock", "Lock"),
		loomapi.IsMethod(fn, loomapi.Locks, "WriteLock", "Lock"):
		release = "Unlock"
	case loomapi.IsMethod(fn, loomapi.Locks, "Monitor", "Enter"):
		release = "Exit"
	default:
		return nil
	}
	return &acquisition{stmt: st, key: types.ExprString(sel.X), release: release}
}

// releases reports whether n contains a release of a (a call or a deferred call, possibly inside a
// function literal).
func releases(pass *analysis.Pass, n ast.Node, a *acquisition) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || found {
			return !found
		}
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if ok && sel.Sel.Name == a.release && types.ExprString(sel.X) == a.key {
			if fn := loomapi.Callee(pass.TypesInfo, call); fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == loomapi.Locks {
				found = true
			}
		}
		return !found
	})
	return found
}

func checkFunc(pass *analysis.Pass, g *cfg.CFG, body *ast.BlockStmt) {
	for _, b := range g.Blocks {
		for i, n := range b.Nodes {
			a := acquire(pass, n)
			if a == nil {
				continue
			}
			if deferredBefore(pass, body, a) {
				continue
			}
			if leak := search(pass, b, i+1, a); leak != nil {
				report(pass, body, a, leak)
			}
		}
	}
}

// deferredBefore reports whether a defer of the release comes, in the body's own statements,
// before the acquisition.
func deferredBefore(pass *analysis.Pass, body *ast.BlockStmt, a *acquisition) bool {
	for _, st := range body.List {
		if st.Pos() >= a.stmt.Pos() {
			return false
		}
		if d, ok := st.(*ast.DeferStmt); ok && releases(pass, d, a) {
			return true
		}
	}
	return false
}

// search walks the paths that leave the acquisition (block b from node i on) and returns the first
// node at which one of them returns with the lock held (or takes it again), or nil.
func search(pass *analysis.Pass, b *cfg.Block, i int, a *acquisition) ast.Node {
	seen := map[*cfg.Block]bool{}
	var walk func(b *cfg.Block, i int) ast.Node
	walk = func(b *cfg.Block, i int) ast.Node {
		for _, n := range b.Nodes[i:] {
			if n == ast.Node(a.stmt) {
				return n // round a loop to the acquisition again
			}
			if releases(pass, n, a) {
				return nil
			}
		}
		if len(b.Succs) == 0 {
			if len(b.Nodes) > 0 {
				if ret, ok := b.Nodes[len(b.Nodes)-1].(*ast.ReturnStmt); ok {
					return ret
				}
			}
			return nil // a panic or a call that does not return
		}
		for _, s := range b.Succs {
			if seen[s] || !s.Live {
				continue
			}
			seen[s] = true
			if leak := walk(s, 0); leak != nil {
				return leak
			}
		}
		return nil
	}
	return walk(b, i)
}

func report(pass *analysis.Pass, body *ast.BlockStmt, a *acquisition, leak ast.Node) {
	where := "a return"
	if leak == ast.Node(a.stmt) {
		where = "a path back to this statement"
	}
	line := pass.Fset.Position(leak.Pos()).Line
	release := a.key + "." + a.release + "()"
	d := analysis.Diagnostic{
		Pos: a.stmt.Pos(), End: a.stmt.End(),
		Message: types.ExprString(a.stmt.X) + " is not released on every path: " + where + " at line " + strconv.Itoa(line) +
			" leaves it held (Java's synchronized and try/finally release it however the block ends); use defer " + release,
	}
	if !releases(pass, body, a) && inList(body, a.stmt) {
		d.SuggestedFixes = []analysis.SuggestedFix{{
			Message:   "add defer " + release + " after the acquire",
			TextEdits: []analysis.TextEdit{{Pos: lineEnd(pass, a.stmt), End: lineEnd(pass, a.stmt), NewText: []byte("\ndefer " + release)}},
		}}
	}
	pass.Report(d)
}

func inList(body *ast.BlockStmt, st ast.Stmt) bool {
	for _, s := range body.List {
		if s == st {
			return true
		}
	}
	return false
}

// lineEnd returns the end of st's last line, after any comment that follows st on it.
func lineEnd(pass *analysis.Pass, st ast.Stmt) token.Pos {
	tf := pass.Fset.File(st.End())
	line := tf.Line(st.End())
	if line >= tf.LineCount() {
		return st.End()
	}
	return tf.LineStart(line+1) - 1
}
