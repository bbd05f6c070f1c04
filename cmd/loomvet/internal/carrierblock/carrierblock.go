// Package carrierblock defines an Analyzer that reports Go-native blocking in code that runs on a
// loom virtual thread.
//
// A virtual thread unmounts from its carrier when it blocks through loom (thread.Sleep, a lock, a
// queue, a future, ...). When it blocks in Go's own ways — time.Sleep, a channel operation, a
// select without default, sync.Mutex, a WaitGroup or Cond wait, socket or file I/O — the goroutine
// blocks while it still holds its carrier, so no other virtual thread can run there: with two
// carriers, eight tasks that each time.Sleep 100 ms take 400 ms, not 100 ms. Java's virtual threads
// unmount in its blocking calls; the Go code a port brings along does not.
//
// # What runs on a virtual thread
//
// The function literals and functions (named, or method values) passed as the task of:
//
//   - thread.StartVirtualThread, (*thread.VirtualBuilder).Start and Unstarted, and NewThread of a
//     thread.Factory made by (*thread.VirtualBuilder).Factory;
//   - executors.Submit, SubmitRunnable, InvokeAll, InvokeAllTimeout, InvokeAny, InvokeAnyTimeout,
//     SupplyAsyncOn, ScheduleCallable and the Execute and Schedule methods, when the executor is
//     seen to be made by executors.NewVirtualThreadPerTaskExecutor or by a constructor given a
//     virtual thread factory (executors.NewThreadPerTaskExecutor(thread.OfVirtual().Factory()),
//     a pool WithThreadFactory of one, a completion service over such an executor). An executor
//     whose origin the analyzer cannot see (a parameter never given a visible executor in this
//     package, a struct field) is not assumed to be virtual: no report, rather than a false one;
//   - executors.SupplyAsync and RunAsync (always a virtual thread);
//   - structured.Fork, unless the scope is seen to be opened WithThreadFactory of a factory that
//     is not virtual.
//
// The analyzer follows values through local variables, package variables and the parameters of
// functions of the package, and follows calls to the functions declared in the package
// (transitively). Function literals inside a task are taken to run on the task's thread, except
// those started with go, passed to thread.Blocking (which unmounts for its duration: code inside it
// is not reported), or passed as the task of another thread or executor.
//
// # What is reported
//
// time.Sleep (fix: thread.Sleep, with its error handled); channel sends and receives, range over a
// channel, select without default; (*sync.Mutex).Lock, (*sync.RWMutex).Lock and RLock,
// (*sync.WaitGroup).Wait, (*sync.Cond).Wait; net.Dial (fix: vio.Dial), net.DialTimeout and the
// other dials, (*net.Dialer).Dial and DialContext, net.Listen (fix: vio.Listen); Read and Write of a
// connection and Accept of a listener that are seen to come from package net rather than vio;
// http.Get, Head, Post and PostForm; Read and Write of an *os.File; Run, Wait, Output and
// CombinedOutput of an *exec.Cmd.
//
// Also reported, though it does not block: runtime.LockOSThread written in a task's own code,
// outside thread.Native. A virtual thread is a continuation, and the Go runtime ends the process
// when a continuation switches while locked to its OS thread, so such a thread crashes the
// process the next time it parks, yields or ends. Inside thread.Native it parks in place and is
// safe. (A call reached through the package's own functions is not reported: whether it runs
// inside Native is not followed through calls.)
package carrierblock

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/loomgo/loom/cmd/loomvet/internal/loomapi"
)

// Analyzer reports Go-native blocking on virtual threads.
var Analyzer = &analysis.Analyzer{
	Name: "carrierblock",
	Doc: "report Go-native blocking (time.Sleep, channels, sync waits, net and os I/O) in code that runs on a loom virtual thread\n\n" +
		"Such a call blocks while the virtual thread holds its carrier, so other virtual threads cannot run there; loom's equivalents unmount.",
	URL: "https://pkg.go.dev/github.com/loomgo/loom/cmd/loomvet",
	Run: run,
}

type checker struct {
	pass     *analysis.Pass
	decls    map[*types.Func]*ast.FuncDecl
	assigned map[types.Object][]ast.Expr // the values stored in each variable or parameter
	walked   map[ast.Node]bool
	reported map[token.Pos]bool
}

// entry is code that runs on a virtual thread: a function body and how it got there.
type entry struct {
	body ast.Node // *ast.FuncLit or *ast.FuncDecl
	how  string   // "thread.StartVirtualThread"
}

func run(pass *analysis.Pass) (any, error) {
	if loomapi.IsLibrary(pass.Pkg) {
		return nil, nil
	}
	c := &checker{
		pass:     pass,
		decls:    map[*types.Func]*ast.FuncDecl{},
		assigned: map[types.Object][]ast.Expr{},
		walked:   map[ast.Node]bool{},
		reported: map[token.Pos]bool{},
	}
	c.index()
	for _, f := range pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				for _, e := range c.entries(call) {
					c.walkEntry(e)
				}
			}
			return true
		})
	}
	return nil, nil
}

// index records the package's function declarations and what is stored in its variables.
func (c *checker) index() {
	info := c.pass.TypesInfo
	for _, f := range c.pass.Files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				if fn, ok := info.Defs[fd.Name].(*types.Func); ok {
					c.decls[fn] = fd
				}
			}
		}
	}
	store := func(lhs []ast.Expr, rhs []ast.Expr) {
		switch {
		case len(lhs) == len(rhs):
			for i, l := range lhs {
				if o := c.varOf(l); o != nil {
					c.assigned[o] = append(c.assigned[o], rhs[i])
				}
			}
		case len(rhs) == 1 && len(lhs) > 0:
			if o := c.varOf(lhs[0]); o != nil {
				c.assigned[o] = append(c.assigned[o], rhs[0])
			}
		}
	}
	for _, f := range c.pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				store(n.Lhs, n.Rhs)
			case *ast.ValueSpec:
				lhs := make([]ast.Expr, len(n.Names))
				for i, id := range n.Names {
					lhs[i] = id
				}
				store(lhs, n.Values)
			case *ast.CallExpr:
				fn, _ := typeOrigin(info.Uses[calleeIdent(n.Fun)])
				fd := c.decls[fn]
				if fd == nil {
					return true
				}
				var params []types.Object
				for _, field := range fd.Type.Params.List {
					for _, id := range field.Names {
						params = append(params, info.Defs[id])
					}
				}
				for i, a := range n.Args {
					if i < len(params) && params[i] != nil {
						c.assigned[params[i]] = append(c.assigned[params[i]], a)
					}
				}
			}
			return true
		})
	}
}

func typeOrigin(o types.Object) (*types.Func, bool) {
	fn, ok := o.(*types.Func)
	if !ok {
		return nil, false
	}
	return fn.Origin(), true
}

func calleeIdent(fun ast.Expr) *ast.Ident {
	switch f := ast.Unparen(fun).(type) {
	case *ast.Ident:
		return f
	case *ast.SelectorExpr:
		return f.Sel
	case *ast.IndexExpr:
		return calleeIdent(f.X)
	case *ast.IndexListExpr:
		return calleeIdent(f.X)
	}
	return nil
}

// varOf returns the variable e names (not a struct field), or nil.
func (c *checker) varOf(e ast.Expr) types.Object {
	var id *ast.Ident
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		id = e
	case *ast.SelectorExpr:
		if _, isPkg := c.pass.TypesInfo.Uses[identOf(e.X)].(*types.PkgName); !isPkg {
			return nil
		}
		id = e.Sel
	default:
		return nil
	}
	o := c.pass.TypesInfo.Defs[id]
	if o == nil {
		o = c.pass.TypesInfo.Uses[id]
	}
	if v, ok := o.(*types.Var); ok && !v.IsField() && v.Name() != "_" {
		return v
	}
	return nil
}

func identOf(e ast.Expr) *ast.Ident {
	id, _ := ast.Unparen(e).(*ast.Ident)
	return id
}

// sources returns the expressions e may take its value from: e itself when it is not a variable,
// else what was stored in the variable (followed further), or the variable when nothing visible was.
func (c *checker) sources(e ast.Expr) []ast.Expr {
	var out []ast.Expr
	seen := map[types.Object]bool{}
	var follow func(e ast.Expr)
	follow = func(e ast.Expr) {
		e = ast.Unparen(e)
		if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
			e = ast.Unparen(u.X)
		}
		o := c.varOf(e)
		if o == nil || len(c.assigned[o]) == 0 {
			out = append(out, e)
			return
		}
		if seen[o] {
			return
		}
		seen[o] = true
		for _, v := range c.assigned[o] {
			follow(v)
		}
	}
	follow(e)
	return out
}

func (c *checker) callee(e ast.Expr) (*ast.CallExpr, *types.Func) {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return nil, nil
	}
	return call, loomapi.Callee(c.pass.TypesInfo, call)
}

// virtualFactory reports whether e is seen to be a factory of virtual threads.
func (c *checker) virtualFactory(e ast.Expr) bool {
	for _, s := range c.sources(e) {
		if _, fn := c.callee(s); loomapi.IsMethod(fn, loomapi.Thread, "VirtualBuilder", "Factory") {
			return true
		}
	}
	return false
}

// virtualExecutor reports whether e is seen to be an executor that runs tasks on virtual threads.
func (c *checker) virtualExecutor(e ast.Expr) bool {
	for _, s := range c.sources(e) {
		call, fn := c.callee(s)
		if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != loomapi.Executors {
			continue
		}
		switch {
		case loomapi.IsFunc(fn, loomapi.Executors, "NewVirtualThreadPerTaskExecutor"):
			return true
		case loomapi.IsFunc(fn, loomapi.Executors, "NewExecutorCompletionService"):
			if len(call.Args) > 0 && c.virtualExecutor(call.Args[0]) {
				return true
			}
		default:
			for _, a := range call.Args {
				if c.isFactory(a) && c.virtualFactory(a) {
					return true
				}
				if opt, ofn := c.callee(a); loomapi.IsFunc(ofn, loomapi.Executors, "WithThreadFactory") && len(opt.Args) == 1 && c.virtualFactory(opt.Args[0]) {
					return true
				}
			}
		}
	}
	return false
}

func (c *checker) isFactory(e ast.Expr) bool {
	n, ok := types.Unalias(c.pass.TypesInfo.TypeOf(e)).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == loomapi.Thread && n.Obj().Name() == "Factory"
}

// virtualScope reports whether the forks of scope e run on virtual threads: yes, unless the scope
// is seen to be opened with a thread factory that is not seen to be virtual.
func (c *checker) virtualScope(e ast.Expr) bool {
	for _, s := range c.sources(e) {
		call, fn := c.callee(s)
		if !loomapi.IsFunc(fn, loomapi.Structured, "OpenWith") {
			continue
		}
		for _, a := range call.Args[1:] {
			if opt, ofn := c.callee(a); loomapi.IsFunc(ofn, loomapi.Structured, "WithThreadFactory") && len(opt.Args) == 1 && !c.virtualFactory(opt.Args[0]) {
				return false
			}
		}
	}
	return true
}

// tasks returns the function bodies e (a task argument) may be.
func (c *checker) tasks(e ast.Expr) []ast.Node {
	var out []ast.Node
	for _, s := range c.sources(e) {
		switch s := s.(type) {
		case *ast.FuncLit:
			out = append(out, s)
		case *ast.Ident, *ast.SelectorExpr:
			var fn *types.Func
			if sel, ok := s.(*ast.SelectorExpr); ok {
				if selection := c.pass.TypesInfo.Selections[sel]; selection != nil {
					fn, _ = selection.Obj().(*types.Func)
				} else {
					fn, _ = c.pass.TypesInfo.Uses[sel.Sel].(*types.Func)
				}
			} else {
				fn, _ = c.pass.TypesInfo.Uses[s.(*ast.Ident)].(*types.Func)
			}
			if fn != nil {
				if fd := c.decls[fn.Origin()]; fd != nil {
					out = append(out, fd)
				}
			}
		}
	}
	return out
}

// taskList returns the function bodies in e, a slice of tasks.
func (c *checker) taskList(e ast.Expr) []ast.Node {
	var out []ast.Node
	seen := map[ast.Expr]bool{}
	var list func(e ast.Expr)
	list = func(e ast.Expr) {
		for _, s := range c.sources(e) {
			if seen[s] {
				continue
			}
			seen[s] = true
			switch s := s.(type) {
			case *ast.CompositeLit:
				for _, el := range s.Elts {
					if kv, ok := el.(*ast.KeyValueExpr); ok {
						el = kv.Value
					}
					out = append(out, c.tasks(el)...)
				}
			case *ast.CallExpr:
				if id := identOf(s.Fun); id != nil && id.Name == "append" && len(s.Args) > 0 {
					if _, builtin := c.pass.TypesInfo.Uses[id].(*types.Builtin); builtin {
						list(s.Args[0])
						for _, a := range s.Args[1:] {
							out = append(out, c.tasks(a)...)
						}
					}
				}
			}
		}
	}
	list(e)
	return out
}

// receiver returns the receiver expression of a method call, or nil.
func receiver(call *ast.CallExpr) ast.Expr {
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		return sel.X
	}
	return nil
}

// taskCall reports whether fn takes a task that it runs on another thread (virtual or not) or, for
// thread.Blocking, unmounted: the function literals given to it are not code of the caller's thread.
func taskCall(fn *types.Func) bool {
	switch {
	case fn == nil:
		return false
	case loomapi.IsFunc(fn, loomapi.Thread, "StartVirtualThread", "Blocking"),
		loomapi.IsMethod(fn, loomapi.Thread, "VirtualBuilder", "Start", "Unstarted"),
		loomapi.IsMethod(fn, loomapi.Thread, "PlatformBuilder", "Start", "Unstarted"),
		loomapi.IsMethod(fn, loomapi.Thread, "Factory", "NewThread"),
		loomapi.IsFunc(fn, loomapi.Structured, "Fork"):
		return true
	case fn.Pkg() != nil && fn.Pkg().Path() == loomapi.Executors:
		switch fn.Name() {
		case "Submit", "SubmitRunnable", "InvokeAll", "InvokeAllTimeout", "InvokeAny", "InvokeAnyTimeout",
			"SupplyAsync", "SupplyAsyncOn", "RunAsync", "ScheduleCallable",
			"Execute", "Schedule", "ScheduleAtFixedRate", "ScheduleWithFixedDelay":
			return true
		}
	}
	return false
}

// entries returns the code call runs on a virtual thread.
func (c *checker) entries(call *ast.CallExpr) []entry {
	fn := loomapi.Callee(c.pass.TypesInfo, call)
	if fn == nil || len(call.Args) == 0 {
		return nil
	}
	var bodies []ast.Node
	how := loomapi.Name(fn)
	ex := loomapi.Executors
	switch {
	case loomapi.IsFunc(fn, loomapi.Thread, "StartVirtualThread"),
		loomapi.IsMethod(fn, loomapi.Thread, "VirtualBuilder", "Start", "Unstarted"),
		loomapi.IsFunc(fn, ex, "SupplyAsync", "RunAsync"):
		bodies = c.tasks(call.Args[0])
	case loomapi.IsMethod(fn, loomapi.Thread, "Factory", "NewThread"):
		if c.virtualFactory(receiver(call)) {
			bodies, how = c.tasks(call.Args[0]), "NewThread of a virtual thread factory"
		}
	case loomapi.IsFunc(fn, ex, "Submit", "SubmitRunnable", "SupplyAsyncOn", "ScheduleCallable"):
		if len(call.Args) > 1 && c.virtualExecutor(call.Args[0]) {
			bodies, how = c.tasks(call.Args[1]), how+" on a virtual-thread executor"
		}
	case loomapi.IsFunc(fn, ex, "InvokeAll", "InvokeAllTimeout", "InvokeAny", "InvokeAnyTimeout"):
		if len(call.Args) > 1 && c.virtualExecutor(call.Args[0]) {
			bodies, how = c.taskList(call.Args[1]), how+" on a virtual-thread executor"
		}
	case fn.Pkg() != nil && fn.Pkg().Path() == ex && fn.Signature().Recv() != nil &&
		(fn.Name() == "Execute" || strings.HasPrefix(fn.Name(), "Schedule") || loomapi.IsMethod(fn, ex, "ExecutorCompletionService", "Submit")):
		if r := receiver(call); r != nil && c.virtualExecutor(r) {
			bodies, how = c.tasks(call.Args[0]), how+" on a virtual-thread executor"
		}
	case loomapi.IsFunc(fn, loomapi.Structured, "Fork"):
		if len(call.Args) > 1 && c.virtualScope(call.Args[0]) {
			bodies = c.tasks(call.Args[1])
		}
	}
	out := make([]entry, len(bodies))
	for i, b := range bodies {
		out[i] = entry{b, how}
	}
	return out
}

func (c *checker) walkEntry(e entry) {
	c.walk(e.body, e.how, nil)
}

// walk reports the Go-native blocking in fn's body and in the package's functions it calls.
func (c *checker) walk(fn ast.Node, how string, via []string) {
	if c.walked[fn] {
		return
	}
	c.walked[fn] = true
	var body *ast.BlockStmt
	switch f := fn.(type) {
	case *ast.FuncLit:
		body = f.Body
	case *ast.FuncDecl:
		body = f.Body
	}
	stack := []ast.Node{fn}
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return false
		}
		descend := c.check(n, stack, how, via, visit)
		if descend {
			stack = append(stack, n)
		}
		return descend
	}
	ast.Inspect(body, visit)
}

// check reports n if it blocks, and says whether to look inside it.
func (c *checker) check(n ast.Node, stack []ast.Node, how string, via []string, visit func(ast.Node) bool) bool {
	switch n := n.(type) {
	case *ast.GoStmt:
		return false // runs on a goroutine of its own
	case *ast.SendStmt:
		c.report(n.Pos(), "a channel send", "use a loom queue (queue.SynchronousQueue, queue.LinkedBlockingQueue), or wrap it in thread.Blocking", how, via, nil)
	case *ast.UnaryExpr:
		if n.Op == token.ARROW {
			c.report(n.Pos(), "a channel receive", "use a loom queue (queue.SynchronousQueue, queue.LinkedBlockingQueue), or wrap it in thread.Blocking", how, via, nil)
		}
	case *ast.RangeStmt:
		if _, ok := c.pass.TypesInfo.TypeOf(n.X).Underlying().(*types.Chan); ok {
			c.report(n.Pos(), "a range over a channel", "take from a loom queue in a loop, or wrap the loop in thread.Blocking", how, via, nil)
		}
	case *ast.SelectStmt:
		hasDefault := false
		for _, cl := range n.Body.List {
			if cl.(*ast.CommClause).Comm == nil {
				hasDefault = true
			}
		}
		if !hasDefault {
			c.report(n.Pos(), "a select without default", "wrap it in thread.Blocking, or wait on loom queues or futures", how, via, nil)
		}
		// The clauses' operations are the select's; their bodies are code of their own.
		for _, cl := range n.Body.List {
			for _, st := range cl.(*ast.CommClause).Body {
				ast.Inspect(st, visit)
			}
		}
		return false
	case *ast.CallExpr:
		fn := loomapi.Callee(c.pass.TypesInfo, n)
		if taskCall(fn) {
			// The receiver and the other arguments run here; the tasks do not.
			ast.Inspect(n.Fun, visit)
			for _, a := range n.Args {
				switch ast.Unparen(a).(type) {
				case *ast.FuncLit, *ast.CompositeLit:
				default:
					ast.Inspect(a, visit)
				}
			}
			return false
		}
		c.checkCall(n, fn, stack, how, via)
		if fd := c.decls[fn]; fd != nil {
			c.walk(fd, how, append(via[:len(via):len(via)], fd.Name.Name))
		}
	}
	return true
}

func (c *checker) checkCall(call *ast.CallExpr, fn *types.Func, stack []ast.Node, how string, via []string) {
	if fn == nil || fn.Pkg() == nil {
		return
	}
	name := loomapi.Name(fn)
	switch path := fn.Pkg().Path(); {
	case loomapi.IsFunc(fn, "runtime", "LockOSThread"):
		if len(via) == 0 && !c.inNative(stack) {
			c.pass.Reportf(call.Pos(), "runtime.LockOSThread on a virtual thread (in a task of %s) ends the process with a fatal error when the thread next parks, yields or ends (its continuation switches while locked): call it inside thread.Native and unlock before Native returns, or run the task on a platform thread (thread.OfPlatform)", how)
		}
	case loomapi.IsFunc(fn, "time", "Sleep"):
		c.report(call.Pos(), "time.Sleep", "use thread.Sleep, which unmounts", how, via, c.sleepFix(call, stack))
	case loomapi.IsMethod(fn, "sync", "Mutex", "Lock"):
		c.report(call.Pos(), name, "use a locks.ReentrantLock, whose waiters unmount", how, via, nil)
	case loomapi.IsMethod(fn, "sync", "RWMutex", "Lock", "RLock"):
		c.report(call.Pos(), name, "use a locks.ReentrantReadWriteLock, whose waiters unmount", how, via, nil)
	case loomapi.IsMethod(fn, "sync", "WaitGroup", "Wait"):
		c.report(call.Pos(), name, "use a locks.CountDownLatch, or wrap the wait in thread.Blocking", how, via, nil)
	case loomapi.IsMethod(fn, "sync", "Cond", "Wait"):
		c.report(call.Pos(), name, "use a locks.Condition (ReentrantLock.NewCondition) or a locks.Monitor", how, via, nil)
	case loomapi.IsFunc(fn, "net", "Dial"):
		c.report(call.Pos(), name, "use vio.Dial, whose connections unmount", how, via, c.rename(call, "Dial"))
	case loomapi.IsFunc(fn, "net", "Listen"):
		c.report(call.Pos(), name, "use vio.Listen: Accept and the connections of a net listener hold the carrier", how, via, c.rename(call, "Listen"))
	case loomapi.IsFunc(fn, "net", "DialTimeout", "DialTCP", "DialUDP", "DialUnix", "DialIP", "ListenTCP", "ListenUnix"):
		c.report(call.Pos(), name, "use vio.DialContext or vio.Listen (or vio.WrapConn / vio.WrapListener on the result)", how, via, nil)
	case loomapi.IsMethod(fn, "net", "Dialer", "Dial", "DialContext"):
		c.report(call.Pos(), name, "use vio.DialContext", how, via, nil)
	case path == "net" && (fn.Name() == "Read" || fn.Name() == "Write"):
		if r := receiver(call); r != nil && c.netValue(r) {
			c.report(call.Pos(), "Conn."+fn.Name()+" on a connection from package net", "dial with vio.Dial or accept from vio.Listen, or wrap it with vio.WrapConn", how, via, nil)
		}
	case path == "net" && strings.HasPrefix(fn.Name(), "Accept"):
		if r := receiver(call); r != nil && c.netValue(r) {
			c.report(call.Pos(), "Accept on a listener from package net", "listen with vio.Listen, or wrap it with vio.WrapListener", how, via, nil)
		}
	case loomapi.IsFunc(fn, "net/http", "Get", "Head", "Post", "PostForm"):
		c.report(call.Pos(), name, "use an http.Client whose Transport is vio.Transport(http.DefaultTransport)", how, via, nil)
	case loomapi.IsMethod(fn, "os", "File", "Read", "Write", "ReadAt", "WriteAt", "ReadFrom", "WriteTo", "WriteString"):
		c.report(call.Pos(), name, "wrap the I/O in thread.Blocking, which gives the carrier back for its duration", how, via, nil)
	case loomapi.IsMethod(fn, "os/exec", "Cmd", "Run", "Wait", "Output", "CombinedOutput"):
		c.report(call.Pos(), name, "wrap it in thread.Blocking, which gives the carrier back for its duration", how, via, nil)
	}
}

// inNative reports whether the innermost function literal of stack is an argument of
// thread.Native: code that runs pinned, where a locked OS thread is safe.
func (c *checker) inNative(stack []ast.Node) bool {
	for i := len(stack) - 1; i > 0; i-- {
		if _, ok := stack[i].(*ast.FuncLit); !ok {
			continue
		}
		call, ok := stack[i-1].(*ast.CallExpr)
		return ok && loomapi.IsFunc(loomapi.Callee(c.pass.TypesInfo, call), loomapi.Thread, "Native")
	}
	return false
}

// netValue reports whether e, a connection or listener, is seen to come from package net (and not
// from vio): its static type is one of net's concrete types, or it was made by a function of net,
// or accepted from such a listener.
func (c *checker) netValue(e ast.Expr) bool {
	if t := c.pass.TypesInfo.TypeOf(e); t != nil {
		if p, ok := t.(*types.Pointer); ok {
			if n, ok := p.Elem().(*types.Named); ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "net" {
				return true
			}
		}
	}
	for _, s := range c.sources(e) {
		call, fn := c.callee(s)
		if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "net" {
			continue
		}
		if strings.HasPrefix(fn.Name(), "Accept") {
			if r := receiver(call); r != nil && c.netValue(r) {
				return true
			}
			continue
		}
		return true
	}
	return false
}

// rename returns the fix that calls vio's function of the same name instead of net's.
func (c *checker) rename(call *ast.CallExpr, name string) *analysis.SuggestedFix {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	file := loomapi.FileOf(c.pass, call.Pos())
	if !ok || file == nil {
		return nil
	}
	vio, edits, ok := loomapi.ImportName(c.pass, file, loomapi.Vio, call.Pos())
	if !ok {
		return nil
	}
	edits = append([]analysis.TextEdit{{Pos: sel.Pos(), End: sel.End(), NewText: []byte(vio + "." + name)}}, edits...)
	return &analysis.SuggestedFix{Message: "use vio." + name, TextEdits: edits}
}

// sleepFix returns the fix that turns the statement time.Sleep(d) into thread.Sleep(d) with its
// error handled, or nil when time.Sleep is not a statement of its own.
func (c *checker) sleepFix(call *ast.CallExpr, stack []ast.Node) *analysis.SuggestedFix {
	if len(stack) == 0 || len(call.Args) != 1 {
		return nil
	}
	st, ok := stack[len(stack)-1].(*ast.ExprStmt)
	file := loomapi.FileOf(c.pass, call.Pos())
	if !ok || file == nil {
		return nil
	}
	thread, edits, ok := loomapi.ImportName(c.pass, file, loomapi.Thread, call.Pos())
	if !ok {
		return nil
	}
	repl := thread + ".Sleep(" + loomapi.Text(c.pass.Fset, call.Args[0]) + ")"
	fix, ok := loomapi.HandleErrorFix(c.pass, st, call, 1, loomapi.EnclosingSignature(c.pass.TypesInfo, stack), repl, edits)
	if !ok {
		return nil
	}
	fix.Message = "use thread.Sleep and " + fix.Message
	return &fix
}

func (c *checker) report(pos token.Pos, what, advice, how string, via []string, fix *analysis.SuggestedFix) {
	if c.reported[pos] {
		return
	}
	c.reported[pos] = true
	where := "in a task of " + how
	if len(via) > 0 {
		where += ", via " + strings.Join(via, " → ")
	}
	d := analysis.Diagnostic{
		Pos:     pos,
		Message: fmt.Sprintf("%s on a virtual thread (%s) blocks while holding its carrier, so other virtual threads cannot run there: %s", what, where, advice),
	}
	if fix != nil {
		d.SuggestedFixes = []analysis.SuggestedFix{*fix}
	}
	c.pass.Report(d)
}
