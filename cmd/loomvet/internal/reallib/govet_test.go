package reallib_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// ported is a program ported from Java, with one mistake for each analyzer, that uses the real loom.
const ported = `package main

import (
	"time"

	"github.com/loomgo/loom/locks"
	"github.com/loomgo/loom/thread"
)

type token struct{}

func main() {
	t := thread.StartVirtualThread(func() {
		time.Sleep(100 * time.Millisecond)
	})
	t.Join()
	l := locks.NewReentrantLock(false)
	l.Lock()
	locks.MonitorOf(new(token)).Notify()
}
`

// TestGoVetVettool builds loomvet and runs it as go vet's tool over a module that uses the real
// loom: the facts about loom's interruptible functions cross packages as go vet passes them, and
// each analyzer reports its mistake.
func TestGoVetVettool(t *testing.T) {
	root, err := filepath.Abs("../../../..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "loomvet")
	build := exec.Command("go", "build", "-o", bin, "github.com/loomgo/loom/cmd/loomvet")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	mod := filepath.Join(dir, "ported")
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"go.mod": "module example.com/ported\n\ngo 1.26\n\nrequire github.com/loomgo/loom v0.0.0-00010101000000-000000000000\n\n" +
			"replace github.com/loomgo/loom => " + root + "\n",
		"go.sum":  string(sum),
		"main.go": ported,
	}
	if err := os.Mkdir(mod, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(mod, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	vet := exec.Command("go", "vet", "-vettool="+bin, "./...")
	vet.Dir = mod
	vet.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	out, err := vet.CombinedOutput()
	if err == nil {
		t.Fatalf("go vet found nothing:\n%s", out)
	}
	for _, want := range []string{
		`main.go:14:3: time.Sleep on a virtual thread \(in a task of thread.StartVirtualThread\)`,
		`main.go:16:2: the error of \(\*thread.Thread\).Join is dropped`,
		`main.go:18:2: l.Lock\(\) is not released on every path`,
		`main.go:19:2: locks.MonitorOf on a pointer to token, a zero-size type`,
	} {
		if !regexp.MustCompile(want).Match(out) {
			t.Errorf("go vet's output lacks %q:\n%s", want, out)
		}
	}
	if n := strings.Count(string(out), "main.go:"); n != 4 {
		t.Errorf("go vet reported %d findings, want 4:\n%s", n, out)
	}
}
