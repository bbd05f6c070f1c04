package loom_test

import (
	"fmt"
	"go/ast"
	"go/doc"
	"go/doc/comment"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
)

// The house style's two rules for doc comments that no other check enforces: every exported name
// has a doc comment, and a doc comment that names an identifier go doc can link to writes it as a
// doc link ([thread.ErrInterrupted], [ReentrantLock.Lock], [context.Context]).

// TestEveryExportedNameIsDocumented walks every package of the module (cmd/ and internal/ too,
// not the nested modules) and lists the exported names without a doc comment: types, functions,
// methods of exported types, constants and variables (a group's comment counts, as in go doc),
// fields of exported structs and methods of exported interfaces (but for an interface of one
// method, which the interface's doc describes).
func TestEveryExportedNameIsDocumented(t *testing.T) {
	var missing []string
	for _, p := range modulePackages(t) {
		missing = append(missing, undocumented(p)...)
	}
	if len(missing) > 0 {
		t.Errorf("%d exported names have no doc comment:\n%s", len(missing), strings.Join(missing, "\n"))
	}
}

// TestDocCommentsUseDocLinks lists every place where a doc comment names, as plain text, an
// identifier that go doc would link if it were written in brackets: pkg.Name (a standard or
// imported package), Type.Method of the package itself, and the package's own multi-word names
// (ErrInterrupted, NewScheduler; one-word names such as Lock read as English or as Java and are
// left alone). Code blocks, `quoted text`, existing links, URLs and names after "Java's" (the Java
// class of that name) are skipped. With LOOM_FIX_DOCLINKS=1 in the environment it rewrites the
// files instead, writing each link it lists.
func TestDocCommentsUseDocLinks(t *testing.T) {
	var plain []string
	for _, p := range modulePackages(t) {
		fs := unlinked(p)
		for _, f := range fs {
			plain = append(plain, f.String())
		}
		if os.Getenv("LOOM_FIX_DOCLINKS") == "1" {
			byFile := map[string][]plainIdent{}
			for _, f := range fs {
				byFile[f.pos.Filename] = append(byFile[f.pos.Filename], f)
			}
			for name, list := range byFile {
				b, err := os.ReadFile(name)
				if err != nil {
					t.Fatal(err)
				}
				for i := len(list) - 1; i >= 0; i-- {
					f := list[i]
					if string(b[f.pos.Offset:f.pos.Offset+len(f.ident)]) != f.ident {
						t.Fatalf("%v: offset mismatch", f)
					}
					b = append(b[:f.pos.Offset], append([]byte(f.link), b[f.pos.Offset+len(f.ident):]...)...)
				}
				if err := os.WriteFile(name, b, 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	if len(plain) > 0 {
		t.Errorf("%d identifiers in doc comments are not doc links:\n%s", len(plain), strings.Join(plain, "\n"))
	}
}

// The checks find what they are for: planted mistakes in a package parsed from text.
func TestDocChecksFindPlantedMistakes(t *testing.T) {
	const src = `// Package planted has mistakes planted.
package planted

import "context"

// Pool runs tasks. NewPool makes one; Pool.Close ends it, context.Context cancels it, and
// [Pool.Close], ` + "`NewPool`" + ` and Java's Pool.Close are fine as they are.
type Pool struct {
	Size int
	Name string // documented
}

// NewPool returns a pool.
func NewPool(ctx context.Context) *Pool { return nil }

// Close ends p.
func (p *Pool) Close() {}

func (p *Pool) Undocumented() {}

var Loose = 1
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "planted.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	d, err := doc.NewFromFiles(fset, []*ast.File{f}, "example.com/planted", doc.PreserveAST)
	if err != nil {
		t.Fatal(err)
	}
	p := &pkgFiles{fset: fset, files: []*ast.File{f}, names: []string{"planted.go"}, doc: d}
	var undoc []string
	for _, u := range undocumented(p) {
		undoc = append(undoc, u[strings.LastIndex(u, " ")+1:])
	}
	if want := []string{"Pool.Size", "Pool.Undocumented", "Loose"}; !slices.Equal(undoc, want) {
		t.Errorf("undocumented = %q, want %q", undoc, want)
	}
	var links []string
	for _, u := range unlinked(p) {
		links = append(links, u.ident+"→"+u.link)
	}
	if want := []string{"NewPool→[NewPool]", "Pool.Close→[Pool.Close]", "context.Context→[context.Context]"}; !slices.Equal(links, want) {
		t.Errorf("unlinked = %q, want %q", links, want)
	}
}

// pkgFiles is one package of the module: its non-test files, parsed with comments, and go/doc's
// view of it, which resolves doc links as go doc does.
type pkgFiles struct {
	fset  *token.FileSet
	files []*ast.File
	names []string // the files' paths, relative to the module root
	doc   *doc.Package
}

// modulePackages parses every package of the module rooted here.
func modulePackages(t *testing.T) []*pkgFiles {
	t.Helper()
	dirs := map[string][]string{}
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil && path != "." {
				return filepath.SkipDir // a nested module
			}
			return nil
		}
		if strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, "_test.go") {
			dirs[filepath.Dir(path)] = append(dirs[filepath.Dir(path)], path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var ps []*pkgFiles
	for _, dir := range slices.Sorted(mapKeys(dirs)) {
		p := &pkgFiles{fset: token.NewFileSet()}
		for _, name := range dirs[dir] {
			f, err := parser.ParseFile(p.fset, name, nil, parser.ParseComments)
			if err != nil {
				t.Fatal(err)
			}
			p.files = append(p.files, f)
			p.names = append(p.names, name)
		}
		d, err := doc.NewFromFiles(p.fset, p.files, "github.com/loomgo/loom/"+filepath.ToSlash(dir), doc.PreserveAST)
		if err != nil {
			t.Fatal(err)
		}
		p.doc = d
		ps = append(ps, p)
	}
	return ps
}

func mapKeys[K comparable, V any](m map[K]V) func(func(K) bool) {
	return func(yield func(K) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// A docGroup is a doc comment and the name it documents.
type docGroup struct {
	name string
	doc  *ast.CommentGroup
}

// docGroups returns the doc comments of f that go doc shows: the package's, and those of its
// exported declarations, fields and interface methods (a field's line comment too).
func docGroups(f *ast.File) []docGroup {
	var gs []docGroup
	add := func(name string, cgs ...*ast.CommentGroup) {
		for _, cg := range cgs {
			if cg != nil {
				gs = append(gs, docGroup{name, cg})
			}
		}
	}
	add(f.Name.Name, f.Doc)
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Name.IsExported() && (d.Recv == nil || ast.IsExported(recvName(d))) {
				add(d.Name.Name, d.Doc)
			}
		case *ast.GenDecl:
			add(specName(d), d.Doc)
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					if !s.Name.IsExported() {
						continue
					}
					add(s.Name.Name, s.Doc, s.Comment)
					for _, fl := range fieldLists(s.Type) {
						for _, fd := range fl.List {
							add(s.Name.Name, fd.Doc, fd.Comment)
						}
					}
				case *ast.ValueSpec:
					for _, n := range s.Names {
						if n.IsExported() {
							add(n.Name, s.Doc, s.Comment)
							break
						}
					}
				}
			}
		}
	}
	return gs
}

// specName returns the name a declaration's doc comment documents: its one spec's (its first
// name's, for constants and variables).
func specName(d *ast.GenDecl) string {
	if len(d.Specs) != 1 {
		return ""
	}
	switch s := d.Specs[0].(type) {
	case *ast.TypeSpec:
		return s.Name.Name
	case *ast.ValueSpec:
		return s.Names[0].Name
	}
	return ""
}

// oneMethod reports whether e is an interface that declares one method of its own.
func oneMethod(e ast.Expr) bool {
	it, ok := e.(*ast.InterfaceType)
	if !ok {
		return false
	}
	n := 0
	for _, fd := range it.Methods.List {
		if _, isFunc := fd.Type.(*ast.FuncType); isFunc {
			n += len(fd.Names)
		}
	}
	return n == 1
}

func fieldLists(e ast.Expr) []*ast.FieldList {
	switch e := e.(type) {
	case *ast.StructType:
		return []*ast.FieldList{e.Fields}
	case *ast.InterfaceType:
		return []*ast.FieldList{e.Methods}
	}
	return nil
}

// recvName returns the name of a method's receiver type.
func recvName(d *ast.FuncDecl) string {
	e := d.Recv.List[0].Type
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.Ident:
			return x.Name
		default:
			return ""
		}
	}
}

// undocumented lists p's exported names without a doc comment, as "file:line: name".
func undocumented(p *pkgFiles) []string {
	var r []string
	miss := func(pos token.Pos, name string) {
		r = append(r, fmt.Sprintf("%s: %s", p.fset.Position(pos), name))
	}
	for _, f := range p.files {
		if ast.IsGenerated(f) {
			continue
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if !d.Name.IsExported() || d.Doc != nil {
					continue
				}
				if d.Recv == nil {
					miss(d.Pos(), d.Name.Name)
				} else if rn := recvName(d); ast.IsExported(rn) {
					miss(d.Pos(), rn+"."+d.Name.Name)
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						if !s.Name.IsExported() {
							continue
						}
						if s.Doc == nil && d.Doc == nil && s.Comment == nil {
							miss(s.Pos(), s.Name.Name)
						}
						for _, fl := range fieldLists(s.Type) {
							if oneMethod(s.Type) {
								continue // the interface's doc says what its one method does
							}
							for _, fd := range fl.List {
								if fd.Doc != nil || fd.Comment != nil {
									continue
								}
								for _, n := range fd.Names {
									if n.IsExported() {
										miss(n.Pos(), s.Name.Name+"."+n.Name)
									}
								}
							}
						}
					case *ast.ValueSpec:
						if s.Doc != nil || d.Doc != nil || s.Comment != nil {
							continue
						}
						for _, n := range s.Names {
							if n.IsExported() {
								miss(n.Pos(), n.Name)
							}
						}
					}
				}
			}
		}
	}
	return r
}

// A plainIdent is an identifier written as plain text in a doc comment where a doc link would do.
type plainIdent struct {
	pos   token.Position
	ident string
	link  string // what to write instead
}

func (f plainIdent) String() string { return fmt.Sprintf("%s: %s (write %s)", f.pos, f.ident, f.link) }

var (
	// identRE matches pkg.Name, pkg.Type.Method, Type.Method and Name.
	identRE = regexp.MustCompile(`(?:\b([a-z][a-z0-9]*)\.)?\b([A-Z][A-Za-z0-9_]*)(?:\.([A-Z][A-Za-z0-9_]*))?`)
	// skipRE matches the spans of a comment line that are not prose: `code`, [links] and URLs.
	skipRE = regexp.MustCompile("`[^`]*`|\\[[^\\]]*\\]|https?://\\S+")
	// multiWordRE matches the package's own names that are linked unqualified: two words or more
	// (ErrInterrupted, NewScheduler, ReentrantLock).
	multiWordRE = regexp.MustCompile(`^[A-Z][a-z0-9]+[A-Z]`)
)

// unlinked lists the identifiers p's doc comments name as plain text where go doc would link
// them in brackets.
func unlinked(p *pkgFiles) []plainIdent {
	parser := p.doc.Parser()
	syms := map[string]bool{} // the package's own exported top-level names
	for _, f := range p.files {
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil && d.Name.IsExported() {
					syms[d.Name.Name] = true
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						syms[s.Name.Name] = s.Name.IsExported()
					case *ast.ValueSpec:
						for _, n := range s.Names {
							syms[n.Name] = n.IsExported()
						}
					}
				}
			}
		}
	}
	var r []plainIdent
	for _, f := range p.files {
		for _, g := range docGroups(f) {
			for _, c := range g.doc.List {
				text, ok := strings.CutPrefix(c.Text, "//")
				if !ok || strings.HasPrefix(text, "\t") || strings.HasPrefix(text, "go:") || strings.HasPrefix(text, "lint:") {
					continue // a block comment, a code block or a directive
				}
				masked := []byte(text)
				for _, loc := range skipRE.FindAllStringIndex(text, -1) {
					for i := loc[0]; i < loc[1]; i++ {
						masked[i] = ' '
					}
				}
				for _, m := range identRE.FindAllStringSubmatchIndex(string(masked), -1) {
					start, end := m[0], m[1]
					if start > 0 && strings.ContainsRune("._/[*", rune(text[start-1])) {
						continue // part of a longer name, a path, or a Go type expression
					}
					if strings.HasSuffix(text[:start], "Java's ") || strings.HasSuffix(text[:start], "Java ") {
						continue // Java's class of the same name
					}
					if end < len(text) && strings.ContainsRune("[_", rune(text[end])) {
						continue // an instantiation such as Future[T]
					}
					if end+1 < len(text) && text[end] == '.' && isLower(text[end+1]) {
						continue // a Java name such as Thread.State.values
					}
					pkg, name, method := sub(text, m, 2), sub(text, m, 4), sub(text, m, 6)
					if link, ok := linkFor(parser, syms, p.doc.Name, g.name, pkg, name, method); ok {
						pos := p.fset.Position(c.Pos())
						pos.Column += 2 + start
						pos.Offset += 2 + start
						r = append(r, plainIdent{pos, text[start:end], link})
					}
				}
			}
		}
	}
	sort.Slice(r, func(i, j int) bool {
		if r[i].pos.Filename != r[j].pos.Filename {
			return r[i].pos.Filename < r[j].pos.Filename
		}
		return r[i].pos.Offset < r[j].pos.Offset
	})
	return r
}

func sub(s string, m []int, i int) string {
	if m[i] < 0 {
		return ""
	}
	return s[m[i]:m[i+1]]
}

func isLower(b byte) bool { return 'a' <= b && b <= 'z' }

// linkFor returns the doc link for pkg.name.method (pkg and method may be empty) as written in a
// comment of package self documenting decl, if go doc would resolve it.
func linkFor(parser *comment.Parser, syms map[string]bool, self, decl, pkg, name, method string) (string, bool) {
	switch {
	case pkg == self:
		// a qualified name of the package itself: go doc links it unqualified
		if method != "" && parser.LookupSym(name, method) {
			return "[" + name + "." + method + "]", true
		}
		if method == "" && syms[name] {
			return "[" + name + "]", true
		}
		return "", false
	case pkg != "":
		if _, ok := parser.LookupPackage(pkg); !ok {
			if _, ok := comment.DefaultLookupPackage(pkg); !ok {
				return "", false // neither imported nor a standard package
			}
		}
		return "[" + pkg + "." + name + suffix(method) + "]", true
	case method != "":
		if parser.LookupSym(name, method) {
			return "[" + name + "." + method + "]", true
		}
		return "", false
	default:
		if name != decl && syms[name] && multiWordRE.MatchString(name) {
			return "[" + name + "]", true
		}
		return "", false
	}
}

func suffix(method string) string {
	if method == "" {
		return ""
	}
	return "." + method
}
