// Package loomapi holds what loomvet's analyzers share: the import paths of loom's packages, how
// to name the function a call reaches, and the suggested fix that turns a call whose error was
// dropped into one whose error is handled.
package loomapi

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"
)

// The import paths of the loom packages the analyzers know.
const (
	Root       = "github.com/loomgo/loom"
	Thread     = Root + "/thread"
	Executors  = Root + "/executors"
	Structured = Root + "/structured"
	Locks      = Root + "/locks"
	Vio        = Root + "/vio"
)

// InLoom reports whether pkg is the loom module's root package or one below it.
func InLoom(pkg *types.Package) bool {
	return pkg != nil && (pkg.Path() == Root || strings.HasPrefix(pkg.Path(), Root+"/"))
}

// IsLibrary reports whether pkg is one of loom's library packages (or its tests): thread,
// executors, structured, locks, queue, scoped, threadlocal, vio and the internal packages. The
// analyzers learn facts there but report nothing: the library blocks in Go's own ways on purpose
// (its carriers, its short internal critical sections), and its tests plant blocking on purpose.
// The root package (its examples) and the commands are checked like any user's code.
func IsLibrary(pkg *types.Package) bool {
	if !InLoom(pkg) || pkg.Path() == Root {
		return false
	}
	first := strings.TrimPrefix(pkg.Path(), Root+"/")
	if i := strings.Index(first, "/"); i >= 0 {
		first = first[:i]
	}
	switch strings.TrimSuffix(first, "_test") {
	case "thread", "executors", "structured", "locks", "queue", "scoped", "threadlocal", "vio", "internal":
		return true
	}
	return false
}

// Callee returns the function or method a call reaches (for a generic one, its declaration, not the
// instance), or nil for a call of a function value, a conversion or a builtin.
func Callee(info *types.Info, call *ast.CallExpr) *types.Func {
	fn, _ := typeutil.Callee(info, call).(*types.Func)
	if fn == nil {
		return nil
	}
	return fn.Origin()
}

// IsFunc reports whether fn is a package-level function of the package at path named one of names.
func IsFunc(fn *types.Func, path string, names ...string) bool {
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != path || fn.Signature().Recv() != nil {
		return false
	}
	return len(names) == 0 || contains(names, fn.Name())
}

// IsMethod reports whether fn is a method, named one of names, of the type path.typeName (or of a
// pointer to it; for an interface method, of the interface).
func IsMethod(fn *types.Func, path, typeName string, names ...string) bool {
	p, t := RecvType(fn)
	return p == path && t == typeName && (len(names) == 0 || contains(names, fn.Name()))
}

// RecvType returns the package path and name of the named type that declares method fn, or ""
// and "" if fn is not a method of a named type.
func RecvType(fn *types.Func) (path, name string) {
	if fn == nil {
		return "", ""
	}
	recv := fn.Signature().Recv()
	if recv == nil {
		return "", ""
	}
	t := recv.Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	named, ok := types.Unalias(t).(*types.Named)
	if !ok || named.Obj().Pkg() == nil {
		return "", ""
	}
	return named.Obj().Pkg().Path(), named.Obj().Name()
}

// Name returns how a message names fn: "thread.Sleep", "(*locks.ReentrantLock).Lock",
// "executors.Future.Get".
func Name(fn *types.Func) string {
	if fn.Signature().Recv() == nil {
		return fn.Pkg().Name() + "." + fn.Name()
	}
	_, t := RecvType(fn)
	pkg := fn.Pkg().Name()
	if _, ptr := fn.Signature().Recv().Type().(*types.Pointer); ptr {
		return fmt.Sprintf("(*%s.%s).%s", pkg, t, fn.Name())
	}
	return fmt.Sprintf("%s.%s.%s", pkg, t, fn.Name())
}

func contains(names []string, n string) bool {
	for _, m := range names {
		if m == n {
			return true
		}
	}
	return false
}

// Unparen strips parentheses.
func Unparen(e ast.Expr) ast.Expr { return ast.Unparen(e) }

// Text returns the source text of n as gofmt prints it.
func Text(fset *token.FileSet, n ast.Node) string {
	var b bytes.Buffer
	if err := format.Node(&b, fset, n); err != nil {
		return ""
	}
	return b.String()
}

// FileOf returns the file of the pass that contains pos.
func FileOf(pass *analysis.Pass, pos token.Pos) *ast.File {
	for _, f := range pass.Files {
		if f.FileStart <= pos && pos <= f.FileEnd {
			return f
		}
	}
	return nil
}

// ImportName returns the name under which file refers to the package at path at pos ("thread"),
// and the edits that add the import if the file lacks it. ok is false when that name is taken by
// something else at pos (then no fix should be offered).
func ImportName(pass *analysis.Pass, file *ast.File, path string, pos token.Pos) (name string, edits []analysis.TextEdit, ok bool) {
	scope := pass.TypesInfo.Scopes[file].Innermost(pos)
	for _, spec := range file.Imports {
		pn := pass.TypesInfo.PkgNameOf(spec)
		if pn == nil || pn.Imported().Path() != path || pn.Name() == "_" || pn.Name() == "." {
			continue
		}
		if _, obj := scope.LookupParent(pn.Name(), pos); obj == pn {
			return pn.Name(), nil, true
		}
	}
	name = path[strings.LastIndex(path, "/")+1:]
	if _, obj := scope.LookupParent(name, pos); obj != nil {
		return "", nil, false
	}
	quoted := strconv.Quote(path)
	// Imports come first: add to the first import declaration, if the file has one.
	if gd, isGen := firstDecl(file).(*ast.GenDecl); isGen && gd.Tok == token.IMPORT {
		if gd.Rparen.IsValid() {
			return name, []analysis.TextEdit{{Pos: gd.Rparen, End: gd.Rparen, NewText: []byte("\t" + quoted + "\n")}}, true
		}
		return name, []analysis.TextEdit{{Pos: gd.End(), End: gd.End(), NewText: []byte("\nimport " + quoted)}}, true
	}
	at := file.Name.End()
	return name, []analysis.TextEdit{{Pos: at, End: at, NewText: []byte("\n\nimport " + quoted)}}, true
}

// firstDecl returns file's first declaration, nil if it has none.
func firstDecl(file *ast.File) ast.Decl {
	if len(file.Decls) == 0 {
		return nil
	}
	return file.Decls[0]
}

// ErrorHandler returns the statements, as text, that handle err inside a function of signature sig after
// an interruptible call failed, and the import edits they need:
//
//   - sig's last result is an error: return it (with zero values for the other results), as a Java
//     method declared to throw InterruptedException lets it propagate;
//   - sig has no results (a task): restore the interrupt status and return, Java's
//     catch (InterruptedException e) { Thread.currentThread().interrupt(); return; };
//   - otherwise: restore the interrupt status and go on, so that the next interruptible call sees it.
//
// ok is false when the zero values cannot be written or a name is unavailable.
func ErrorHandler(pass *analysis.Pass, file *ast.File, sig *types.Signature, pos token.Pos) (text string, edits []analysis.TextEdit, ok bool) {
	if sig != nil {
		if sig.Results().Len() > 0 && isError(sig.Results().At(sig.Results().Len()-1).Type()) {
			var vals []string
			for i := 0; i < sig.Results().Len()-1; i++ {
				z, ok := zero(pass, file, sig.Results().At(i).Type())
				if !ok {
					return "", nil, false
				}
				vals = append(vals, z)
			}
			return "return " + strings.Join(append(vals, "err"), ", "), nil, true
		}
	}
	name, edits, ok := ImportName(pass, file, Thread, pos)
	if !ok {
		return "", nil, false
	}
	text = name + ".Current().Interrupt() // keep the interrupt for the caller to see"
	if sig == nil || sig.Results().Len() == 0 {
		text += "\nreturn"
	}
	return text, edits, true
}

func isError(t types.Type) bool { return types.Identical(t, types.Universe.Lookup("error").Type()) }

// zero returns the text of t's zero value as file can write it.
func zero(pass *analysis.Pass, file *ast.File, t types.Type) (string, bool) {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		switch {
		case u.Info()&types.IsNumeric != 0:
			return "0", true
		case u.Info()&types.IsString != 0:
			return `""`, true
		case u.Info()&types.IsBoolean != 0:
			return "false", true
		case u.Kind() == types.UnsafePointer:
			return "nil", true
		}
		return "", false
	case *types.Pointer, *types.Slice, *types.Map, *types.Chan, *types.Signature, *types.Interface:
		if _, isParam := t.(*types.TypeParam); isParam {
			break
		}
		return "nil", true
	}
	qual, ok := qualifier(pass, file)
	name := types.TypeString(t, qual)
	if !ok() {
		return "", false
	}
	switch t.(type) {
	case *types.TypeParam:
		return "*new(" + name + ")", true
	case *types.Named, *types.Alias:
		if _, isStruct := t.Underlying().(*types.Struct); isStruct {
			return name + "{}", true
		}
		if _, isArray := t.Underlying().(*types.Array); isArray {
			return name + "{}", true
		}
	}
	return "", false
}

// qualifier names packages as file imports them; the second result reports, after use, whether
// every package it was asked about is imported by file.
func qualifier(pass *analysis.Pass, file *ast.File) (types.Qualifier, func() bool) {
	good := true
	return func(p *types.Package) string {
		if p == pass.Pkg {
			return ""
		}
		for _, spec := range file.Imports {
			if pn := pass.TypesInfo.PkgNameOf(spec); pn != nil && pn.Imported() == p {
				return pn.Name()
			}
		}
		good = false
		return p.Name()
	}, func() bool { return good }
}

// HandleErrorFix returns the fix that replaces stmt, a statement that calls call and drops all its
// results, by one that keeps the error and handles it as ErrorHandler says; replacement is the text
// to call instead of call ("" keeps call). ok is false when no such fix can be written.
func HandleErrorFix(pass *analysis.Pass, stmt ast.Stmt, call *ast.CallExpr, nresults int, sig *types.Signature, replacement string, extra []analysis.TextEdit) (analysis.SuggestedFix, bool) {
	file := FileOf(pass, stmt.Pos())
	if file == nil || nresults < 1 {
		return analysis.SuggestedFix{}, false
	}
	if _, obj := pass.TypesInfo.Scopes[file].Innermost(stmt.Pos()).LookupParent("err", stmt.Pos()); obj != nil {
		if _, isPkgName := obj.(*types.PkgName); isPkgName {
			return analysis.SuggestedFix{}, false
		}
	}
	handler, edits, ok := ErrorHandler(pass, file, sig, stmt.Pos())
	if !ok {
		return analysis.SuggestedFix{}, false
	}
	if replacement == "" {
		replacement = Text(pass.Fset, call)
	}
	lhs := strings.Repeat("_, ", nresults-1) + "err"
	text := fmt.Sprintf("if %s := %s; err != nil {\n%s\n}", lhs, replacement, handler)
	edits = append([]analysis.TextEdit{{Pos: stmt.Pos(), End: stmt.End(), NewText: []byte(text)}}, edits...)
	edits = append(edits, extra...)
	return analysis.SuggestedFix{Message: "handle the error: " + firstLine(handler), TextEdits: dedupe(edits)}, true
}

func firstLine(s string) string {
	if i := strings.IndexAny(s, "\n/"); i >= 0 {
		return strings.TrimSpace(s[:i])
	}
	return s
}

func dedupe(edits []analysis.TextEdit) []analysis.TextEdit {
	var out []analysis.TextEdit
	for _, e := range edits {
		dup := false
		for _, o := range out {
			if o.Pos == e.Pos && o.End == e.End && bytes.Equal(o.NewText, e.NewText) {
				dup = true
			}
		}
		if !dup {
			out = append(out, e)
		}
	}
	return out
}

// EnclosingSignature returns the signature of the innermost function literal or declaration in
// stack (outermost first), or nil.
func EnclosingSignature(info *types.Info, stack []ast.Node) *types.Signature {
	for i := len(stack) - 1; i >= 0; i-- {
		switch f := stack[i].(type) {
		case *ast.FuncLit:
			sig, _ := info.TypeOf(f).(*types.Signature)
			return sig
		case *ast.FuncDecl:
			if fn, ok := info.Defs[f.Name].(*types.Func); ok {
				return fn.Signature()
			}
			return nil
		}
	}
	return nil
}
