//go:build !race

// The comparison with the JDK runs in the non-race step only: the JVM's half gains nothing from
// the race detector, and the Go half runs under it in race_test.go.

package oracle_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/loomgo/loom/internal/jdk"
)

// javaRun is the Java half running in its JVM.
type javaRun struct {
	jdk     *jdk.JDK
	classes *jdk.Classes
	out     bytes.Buffer
	errOut  bytes.Buffer
	wait    func() error
	cancel  context.CancelFunc
}

// startJava compiles java/*.java once and starts one JVM that runs every scenario.
func startJava(t *testing.T, j *jdk.JDK) *javaRun {
	t.Helper()
	// generous: javac and the JVM take seconds, but a machine shared with other test runs can
	// stretch that tenfold, and a timeout here is a false alarm, not a finding
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	classes, err := j.Compile(ctx, os.DirFS("java"))
	if err != nil {
		cancel()
		t.Fatalf("compiling the Java half with %v: %v", j, err)
	}
	for f, why := range classes.Failed {
		t.Logf("%s did not compile on Java %d, its scenarios are not compared: %s", f, j.Major, why)
	}
	r := &javaRun{jdk: j, classes: classes, cancel: cancel}
	cmd := classes.Command(ctx, jvmProps, "Oracle")
	cmd.Stdout, cmd.Stderr = &r.out, &r.errOut
	if err := cmd.Start(); err != nil {
		cancel()
		classes.Remove()
		t.Fatalf("starting %s: %v", j.Java(), err)
	}
	r.wait = cmd.Wait
	return r
}

// logs waits for the JVM and returns each scenario's log, and the suites it could not load.
func (r *javaRun) logs() (map[string][]string, []string, error) {
	defer r.cancel()
	defer r.classes.Remove()
	if err := r.wait(); err != nil {
		return nil, nil, fmt.Errorf("%s: %v\nstderr:\n%s", r.jdk.Java(), err, r.errOut.String())
	}
	return parseSections(r.out.String())
}

// parseSections splits the JVM's output into "== name" sections; "!! suite X ..." lines name
// suites that did not compile on this JDK.
func parseSections(out string) (map[string][]string, []string, error) {
	logs := map[string][]string{}
	var missing []string
	cur := ""
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "== "):
			cur = strings.TrimPrefix(line, "== ")
			logs[cur] = []string{}
		case strings.HasPrefix(line, "!! suite "):
			missing = append(missing, strings.Fields(line)[2])
		case cur == "":
			return nil, nil, fmt.Errorf("output before the first section: %q", line)
		default:
			logs[cur] = append(logs[cur], line)
		}
	}
	return logs, missing, sc.Err()
}

// masks replace what legitimately differs between two runs — thread ids, pool and worker
// numbers, identity hash codes — in both logs before they are compared.
var masks = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`#\d+`), "#N"},
	{regexp.MustCompile(`ForkJoinPool-\d+-worker-\d+`), "ForkJoinPool-P-worker-W"},
	{regexp.MustCompile(`pool-\d+-thread-`), "pool-P-thread-"},
	{regexp.MustCompile(`@[0-9a-f]{4,}\b`), "@H"},
}

func mask(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		for _, m := range masks {
			l = m.re.ReplaceAllString(l, m.with)
		}
		out[i] = l
	}
	return out
}

// TestOracle runs every scenario on the JDK and on loom and compares their canonical logs. It
// skips only when this machine has no JDK 21 or newer.
func TestOracle(t *testing.T) {
	j, err := jdk.Find()
	if err != nil {
		t.Skipf("no JDK to compare loom with: %v", err)
	}
	t.Logf("comparing loom with %v", j)
	all := suites()
	checkNames(t, all)
	java := startJava(t, j) // the JVM runs while the Go half runs here
	goLogs := map[string][]string{}
	for _, s := range all {
		goLogs[s.name] = runGo(s)
	}
	javaLogs, missing, err := java.logs()
	if err != nil {
		t.Fatal(err)
	}
	compared, agreed := 0, 0
	for _, s := range all {
		t.Run(s.name, func(t *testing.T) {
			want, ok := javaLogs[s.name]
			if !ok {
				if slices.Contains(missing, s.suite) {
					t.Logf("not compared: suite %s did not compile on Java %d", s.suite, j.Major)
					return
				}
				t.Fatalf("the Java half has no scenario %q (add it to java/%s.java)", s.name, s.suite)
			}
			compared++
			java, loom := mask(want), mask(goLogs[s.name])
			same := cmp.Equal(java, loom)
			reason, known := knownDivergences[s.name]
			switch {
			case same && known:
				t.Errorf("%s now agrees with Java: remove it from knownDivergences (and its DIVERGENCES.md entry)", s.name)
			case same:
				agreed++
			case known:
				t.Logf("known divergence (%s); - java, + loom:\n%s", reason, lineDiff(java, loom))
			default:
				t.Errorf("loom diverges from Java %s in %s (- java, + loom):\n%s", j.Version, s.name, lineDiff(java, loom))
			}
		})
	}
	for name := range javaLogs {
		if _, ok := goLogs[name]; !ok {
			t.Errorf("the Go half has no scenario %q", name)
		}
	}
	t.Logf("%d scenarios compared with Java %s: %d agree, %d known divergences", compared, j.Version, agreed, len(knownDivergences))
}

// checkNames fails on a duplicate scenario name or a known divergence that names no scenario.
func checkNames(t *testing.T, all []scenario) {
	seen := map[string]bool{}
	for _, s := range all {
		if seen[s.name] {
			t.Errorf("duplicate scenario %q", s.name)
		}
		seen[s.name] = true
	}
	for name := range knownDivergences {
		if !seen[name] {
			t.Errorf("knownDivergences names %q, which is no scenario", name)
		}
	}
}

// TestParseSections checks the reading of the JVM's output.
func TestParseSections(t *testing.T) {
	logs, missing, err := parseSections("!! suite ScopeScenarios not compiled on Java 21\n== a\nx -> ok\n== b\n== c\ny\nz\n")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{"a": {"x -> ok"}, "b": {}, "c": {"y", "z"}}
	if diff := cmp.Diff(want, logs); diff != "" {
		t.Errorf("sections (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"ScopeScenarios"}, missing); diff != "" {
		t.Errorf("missing suites (-want +got):\n%s", diff)
	}
	if _, _, err := parseSections("stray\n== a\n"); err == nil {
		t.Error("output before the first section: no error")
	}
}

// TestMask checks that the masks hide ids and nothing else.
func TestMask(t *testing.T) {
	got := mask([]string{"VirtualThread[#22,w]/runnable@ForkJoinPool-1-worker-3", "Thread[#1,main,5,main]", "pool-7-thread-2", "x@1b6d3586[Completed normally]", "count 22"})
	want := []string{"VirtualThread[#N,w]/runnable@ForkJoinPool-P-worker-W", "Thread[#N,main,5,main]", "pool-P-thread-2", "x@H[Completed normally]", "count 22"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("mask (-want +got):\n%s", diff)
	}
}
