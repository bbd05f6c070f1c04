// Package java holds the Java programs behind `loom demo --java` and `loom bench --java` — one
// plain single-file program per demo experiment (FixedVsVirtual.java, Pinning.java, ...) and
// Bench.java for every bench case with a Java twin — and runs them on a JDK of this machine.
//
// Each program can be run on its own with the JDK's source launcher (its header says how, e.g.
// `java FixedVsVirtual.java 10000 200 1000`); loom compiles them all once with javac into a
// temporary directory and runs each experiment in a JVM of its own. A program prints its results
// as lines
//
//	figure NAME VALUE     a number, for the verdict and --json
//	text WORDS            the cell of the table's "Java (this machine)" column
//
// and measures its times inside the JVM, so the JVM's start-up is never in a figure.
package java

import (
	"bufio"
	"bytes"
	"context"
	"embed"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/loomgo/loom/internal/jdk"
)

// Sources are the Java programs.
//
//go:embed *.java
var Sources embed.FS

// Result is what a program printed.
type Result struct {
	Text    string             // its "text" line
	Figures map[string]float64 // its "figure" lines
}

// Runner runs the Java programs. *JVM is the real one; tests use fakes.
type Runner interface {
	// Run runs program (a class name: "FixedVsVirtual") in a JVM of its own with the JVM options
	// and arguments given, and returns what it printed.
	Run(program string, jvmOptions, args []string) (Result, error)
	// JDK describes the JDK the programs run on: "Temurin 25.0.3".
	JDK() string
}

// JVM runs the programs on a JDK of this machine: see Start.
type JVM struct {
	jdk     *jdk.JDK
	classes *jdk.Classes
	timeout time.Duration
}

// Start finds a JDK 21 or newer (see package internal/jdk) and compiles every program once. Its
// error says why when there is no JDK, or when nothing compiled. A program that does not compile
// on this JDK (the structured-concurrency ones need JDK 25's API) fails only its own runs.
func Start(ctx context.Context) (*JVM, error) {
	j, err := jdk.Find()
	if err != nil {
		return nil, err
	}
	classes, err := j.Compile(ctx, Sources)
	if err != nil {
		return nil, err
	}
	return &JVM{jdk: j, classes: classes, timeout: 30 * time.Minute}, nil
}

// JDK describes the JDK: "JDK 25.0.3 (/usr/lib/jvm/temurin-25-jdk-amd64)".
func (r *JVM) JDK() string { return r.jdk.String() }

// Run runs program in a JVM of its own.
func (r *JVM) Run(program string, jvmOptions, args []string) (Result, error) {
	if why, failed := r.classes.Failed[program+".java"]; failed {
		return Result{}, fmt.Errorf("%s.java does not compile on Java %d: %s", program, r.jdk.Major, why)
	}
	ctx, cancel := context.WithTimeout(context.Background(), r.timeout)
	defer cancel()
	var stderr bytes.Buffer
	cmd := r.classes.Command(ctx, jvmOptions, program, args...)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return Result{}, fmt.Errorf("%s: %v: %s", program, err, firstLines(stderr.String(), 3))
	}
	return Parse(out)
}

// Close deletes the compiled classes.
func (r *JVM) Close() error { return r.classes.Remove() }

// Parse reads a program's output.
func Parse(out []byte) (Result, error) {
	res := Result{Figures: map[string]float64{}}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "figure "):
			f := strings.Fields(line)
			if len(f) != 3 {
				return res, fmt.Errorf("bad figure line %q", line)
			}
			v, err := strconv.ParseFloat(f[2], 64)
			if err != nil {
				return res, fmt.Errorf("bad figure line %q: %v", line, err)
			}
			res.Figures[f[1]] = v
		case strings.HasPrefix(line, "text "):
			res.Text = strings.TrimPrefix(line, "text ")
		}
	}
	if res.Text == "" {
		return res, errors.New("the program printed no text line")
	}
	return res, sc.Err()
}

func firstLines(s string, n int) string {
	lines := strings.SplitN(strings.TrimSpace(s), "\n", n+1)
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, " / ")
}
