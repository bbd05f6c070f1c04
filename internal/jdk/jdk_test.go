package jdk

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// fakeJDK lays out a JDK home with a release file (no real binaries: find only looks at them).
func fakeJDK(t *testing.T, dir, version string, javac bool) string {
	t.Helper()
	home := filepath.Join(dir, "jdk-"+version)
	if err := os.MkdirAll(filepath.Join(home, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{"bin/java": "", "release": "IMPLEMENTOR=\"test\"\nJAVA_VERSION=\"" + version + "\"\n"}
	if javac {
		files["bin/javac"] = ""
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(home, name), []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return home
}

func env(vars map[string]string) func(string) string { return func(k string) string { return vars[k] } }

func noPath(string) (string, error) { return "", exec.ErrNotFound }

func TestFindPrefersJavaHomeThenTheNewestInJVMDirThenPath(t *testing.T) {
	jvm := t.TempDir()
	other := t.TempDir()
	j21 := fakeJDK(t, jvm, "21.0.9", true)
	j25 := fakeJDK(t, jvm, "25.0.3", true)
	fakeJDK(t, jvm, "17.0.15", true)
	fakeJDK(t, jvm, "26", false) // a JRE: no javac
	home21 := fakeJDK(t, other, "21.0.2", true)
	old := fakeJDK(t, other, "17.0.15", true)

	j, err := find(env(map[string]string{"JAVA_HOME": home21}), jvm, noPath)
	if err != nil || j.Home != home21 || j.Major != 21 || j.From != "JAVA_HOME" {
		t.Errorf("JAVA_HOME 21: got %+v, %v; want %s", j, err, home21)
	}
	j, err = find(env(map[string]string{"JAVA_HOME": old}), jvm, noPath)
	if err != nil || j.Home != j25 || j.Version != "25.0.3" {
		t.Errorf("JAVA_HOME 17 must be passed over for the newest in %s: got %+v, %v", jvm, j, err)
	}
	_ = j21
	// only an old java on PATH: rejected, and the error says why
	bin := filepath.Join(old, "bin", "java")
	_, err = find(env(nil), t.TempDir(), func(string) (string, error) { return bin, nil })
	if err == nil || !strings.Contains(err.Error(), "17.0.15 is older than 21") {
		t.Errorf("java 17 on PATH: err %v, want a rejection naming the version", err)
	}
	// a good java on PATH, found through a symlink as /usr/bin/java is
	link := filepath.Join(t.TempDir(), "java")
	if err := os.Symlink(filepath.Join(home21, "bin", "java"), link); err != nil {
		t.Fatal(err)
	}
	j, err = find(env(nil), t.TempDir(), func(string) (string, error) { return link, nil })
	if err != nil || j.Home != home21 || j.From != "PATH" {
		t.Errorf("java 21 on PATH: got %+v, %v", j, err)
	}
	_, err = find(env(nil), filepath.Join(t.TempDir(), "none"), noPath)
	if err == nil || !strings.Contains(err.Error(), "no JDK 21 or newer") || !strings.Contains(err.Error(), "no java on PATH") {
		t.Errorf("nothing at all: err %v", err)
	}
}

func TestAJREIsNotAJDK(t *testing.T) {
	jvm := t.TempDir()
	fakeJDK(t, jvm, "25", false)
	_, err := find(env(nil), jvm, noPath)
	if err == nil || !strings.Contains(err.Error(), "no bin/javac") {
		t.Errorf("err %v, want the JRE rejected for lacking javac", err)
	}
}

func TestVersions(t *testing.T) {
	for v, want := range map[string]int{"25.0.3": 25, "21": 21, "1.8.0_392": 8, "26-ea": 26, "17.0.15+6": 17, "x": 0} {
		if got := majorOf(v); got != want {
			t.Errorf("majorOf(%q) = %d, want %d", v, got, want)
		}
	}
	for _, c := range []struct {
		a, b string
		sign int
	}{{"25.0.3", "21.0.9", 1}, {"21", "21.0.1", -1}, {"21.0.10", "21.0.9", 1}, {"25", "25.0.0", 0}} {
		got := compareVersions(c.a, c.b)
		if (got > 0) != (c.sign > 0) || (got < 0) != (c.sign < 0) {
			t.Errorf("compareVersions(%q, %q) = %d, want sign %d", c.a, c.b, got, c.sign)
		}
	}
}

// TestCompileAndRun compiles two programs with the machine's JDK, one of which does not compile,
// and runs the other; without a JDK it checks that Find says why.
func TestCompileAndRun(t *testing.T) {
	j, err := Find()
	if err != nil {
		if !strings.Contains(err.Error(), "no JDK 21 or newer") {
			t.Errorf("Find: %v", err)
		}
		return
	}
	fsys := fstest.MapFS{
		"Hello.java":  {Data: []byte(`public class Hello { public static void main(String[] a) { System.out.println("hello " + a[0] + " " + System.getProperty("x")); } }`)},
		"Broken.java": {Data: []byte(`public class Broken { int x = "not an int"; }`)},
		"notes.txt":   {Data: []byte("ignored")},
	}
	c, err := j.Compile(context.Background(), fsys)
	if err != nil {
		t.Fatalf("Compile: %v", err)
	}
	defer c.Remove()
	if _, ok := c.Failed["Broken.java"]; !ok || len(c.Failed) != 1 {
		t.Errorf("Failed = %v, want Broken.java alone", c.Failed)
	}
	out, err := c.Command(context.Background(), []string{"-Dx=y"}, "Hello", "world").Output()
	if err != nil || string(out) != "hello world y\n" {
		t.Errorf("run: %q, %v", out, err)
	}
	if err := c.Remove(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(c.root); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Remove left %s: %v", c.root, err)
	}
	if _, err := j.Compile(context.Background(), fstest.MapFS{"Broken.java": fsys["Broken.java"]}); err == nil {
		t.Error("compiling nothing that compiles: no error")
	}
}
