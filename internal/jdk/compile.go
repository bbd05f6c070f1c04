package jdk

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Classes is a directory of classes compiled by [JDK.Compile]: what the JVM runs. Remove it
// when done.
type Classes struct {
	JDK *JDK   // the JDK that compiled them, and runs them
	Dir string // the class path
	// Failed maps each source that did not compile to javac's complaint (empty when all did).
	Failed map[string]string

	root string
}

// Compile compiles the .java files at the top of fsys with javac, in one invocation, into a new
// temporary directory, with --release set to the JDK's feature release and --enable-preview
// (the structured-concurrency scenarios use JDK 25's preview API; a class that uses no preview
// feature is not marked as needing it). If javac rejects some files — an older JDK lacks an API
// they use — those are left out and the rest compiled again, so the others still run;
// [Classes.Failed] names the files left out and javac's first complaint about each. Compile fails
// only if nothing compiles.
//
// Compiling once and running the classes saves the source launcher's in-memory compile (about
// a second) on every run.
func (j *JDK) Compile(ctx context.Context, fsys fs.FS) (*Classes, error) {
	names, err := fs.Glob(fsys, "*.java")
	if err != nil {
		return nil, err
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("jdk: no .java files to compile")
	}
	root, err := os.MkdirTemp("", "loom-java-")
	if err != nil {
		return nil, err
	}
	c := &Classes{JDK: j, Dir: filepath.Join(root, "classes"), root: root, Failed: map[string]string{}}
	src := filepath.Join(root, "src")
	if err := os.MkdirAll(src, 0o755); err != nil {
		c.Remove()
		return nil, err
	}
	var paths []string
	for _, n := range names {
		b, err := fs.ReadFile(fsys, n)
		if err != nil {
			c.Remove()
			return nil, err
		}
		p := filepath.Join(src, n)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			c.Remove()
			return nil, err
		}
		paths = append(paths, p)
	}
	// Compile the set; if javac rejects some files (an older JDK lacks an API they use), leave
	// those out and compile the rest again, until what is left compiles.
	left := slices.Clone(paths)
	for len(left) > 0 {
		out, err := j.javac(ctx, c.Dir, left...)
		if err == nil {
			return c, nil
		}
		var bad []string
		for _, p := range left {
			if strings.Contains(out, p+":") {
				bad = append(bad, p)
				c.Failed[filepath.Base(p)] = firstError(out, p)
			}
		}
		if len(bad) == 0 || len(bad) == len(left) {
			c.Remove()
			if ctx.Err() != nil {
				return nil, fmt.Errorf("jdk: javac did not finish: %w", ctx.Err())
			}
			return nil, fmt.Errorf("jdk: javac compiled nothing: %v", err)
		}
		left = slices.DeleteFunc(left, func(p string) bool { return slices.Contains(bad, p) })
		os.RemoveAll(c.Dir)
	}
	c.Remove()
	return nil, fmt.Errorf("jdk: javac compiled nothing")
}

// firstError returns javac's first complaint about file p.
func firstError(out, p string) string {
	for _, line := range strings.Split(out, "\n") {
		if rest, ok := strings.CutPrefix(line, p+":"); ok {
			return strings.TrimSpace(rest)
		}
	}
	return ""
}

// javac compiles srcs into dir and returns javac's output.
func (j *JDK) javac(ctx context.Context, dir string, srcs ...string) (string, error) {
	args := append([]string{"--release", strconv.Itoa(j.Major), "--enable-preview",
		"-Xlint:-preview", "-nowarn", "-encoding", "UTF-8", "-d", dir}, srcs...)
	out, err := exec.CommandContext(ctx, j.Javac(), args...).CombinedOutput()
	if err != nil {
		return strings.TrimSpace(string(out)), fmt.Errorf("javac: %v: %s", err, bytes.TrimSpace(out))
	}
	return string(out), nil
}

// Command returns a command that runs class main from the compiled classes, with --enable-preview
// and the JVM options given (system properties such as
// -Djdk.virtualThreadScheduler.parallelism=1).
func (c *Classes) Command(ctx context.Context, jvmOptions []string, main string, args ...string) *exec.Cmd {
	a := append([]string{"--enable-preview", "-cp", c.Dir}, jvmOptions...)
	a = append(a, main)
	a = append(a, args...)
	return exec.CommandContext(ctx, c.JDK.Java(), a...)
}

// Remove deletes the compiled classes.
func (c *Classes) Remove() error { return os.RemoveAll(c.root) }
