package main

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/loomgo/loom/cmd/loom/internal/demo"
	"github.com/loomgo/loom/internal/jdk"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func runLoom(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestDemoPrintsATableOnStdoutAndProgressOnStderr(t *testing.T) {
	code, out, errs := runLoom("demo", "-only", "one-carrier,threadlocal")
	if code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", code, errs)
	}
	for _, want := range []string{"one-carrier-sleepers\n  experiment ", "  Java (published)     156 ms total, all on worker-1", "Both experiments have the same shape", "\nTotal "} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
	// the default fits an 80-column terminal, the totals line included
	for _, line := range strings.Split(out, "\n") {
		if utf8.RuneCountInString(line) > demo.Width {
			t.Errorf("line longer than %d columns: %q", demo.Width, line)
		}
	}
	if !strings.Contains(errs, "[ 1/2] one-carrier-sleepers") || strings.Contains(out, "[ 1/2]") {
		t.Errorf("progress belongs on stderr only; stderr:\n%s", errs)
	}
	if !strings.Contains(errs, "loom demo: 2 experiments at scale 1, time budget 2m50s; platform thread limit ") {
		t.Errorf("stderr's first line:\n%s", errs)
	}
}

func TestDemoMarkdownAndOneExperiment(t *testing.T) {
	code, out, errs := runLoom("demo", "-markdown", "-only", "threadlocal", "-budget", "0")
	if code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", code, errs)
	}
	for _, want := range []string{"| experiment | Java (published) | loom (measured now) | verdict |\n| --- |",
		"| ThreadLocal set in two virtual threads and in main | each sees only its own value;",
		"\nThe experiment has the same shape as in Java.\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(errs, "loom demo: 1 experiment at scale 1, time budget none;") {
		t.Errorf("stderr's first line:\n%s", errs)
	}
	if code, _, errs := runLoom("demo", "-json", "-markdown", "-only", "threadlocal"); code != 1 || !strings.Contains(errs, "pick one") {
		t.Errorf("-json -markdown: exit %d, %q", code, errs)
	}
}

func TestDemoJSON(t *testing.T) {
	code, out, errs := runLoom("demo", "--json", "-q", "-only", "queue-sum")
	if code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", code, errs)
	}
	var rep struct {
		Same        int `json:"same_shape"`
		Experiments []struct {
			Name string `json:"name"`
			Same bool   `json:"same_shape"`
		} `json:"experiments"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if len(rep.Experiments) != 1 || rep.Experiments[0].Name != "queue-sum" || !rep.Experiments[0].Same || rep.Same != 1 {
		t.Errorf("report = %+v", rep)
	}
	if errs != "" {
		t.Errorf("-q printed progress:\n%s", errs)
	}
}

func TestDemoListAndBadInput(t *testing.T) {
	code, out, _ := runLoom("demo", "-list")
	if code != 0 || !strings.Contains(out, "fixed-vs-virtual-1s") || !strings.Contains(out, "scope-first-success") {
		t.Errorf("demo -list: exit %d\n%s", code, out)
	}
	for _, args := range [][]string{
		{"demo", "-scale", "0"},
		{"demo", "-scale", "2"},
		{"demo", "-only", "nope"},
		{"demo", "extra"},
		{"bench", "extra"},
	} {
		if code, _, errs := runLoom(args...); code != 1 || !strings.HasPrefix(errs, "loom: ") {
			t.Errorf("%v: exit %d, stderr %q; want 1 and an error", args, code, errs)
		}
	}
	if code, _, _ := runLoom("demo", "-nosuchflag"); code != 1 {
		t.Errorf("unknown flag: exit %d, want 1", code)
	}
	if code, _, errs := runLoom("frobnicate"); code != 2 || !strings.Contains(errs, "unknown command") {
		t.Errorf("unknown command: exit %d, %q", code, errs)
	}
	if code, _, errs := runLoom(); code != 2 || !strings.Contains(errs, "usage: loom") {
		t.Errorf("no command: exit %d, %q", code, errs)
	}
	if code, out, _ := runLoom("help"); code != 0 || !strings.Contains(out, "demo") {
		t.Errorf("help: exit %d, %q", code, out)
	}
	if code, _, _ := runLoom("demo", "-h"); code != 0 {
		t.Errorf("demo -h: exit %d, want 0", code)
	}
}

func TestBenchPrintsRatios(t *testing.T) {
	code, out, errs := runLoom("bench", "-only", "uncontended lock+unlock", "-benchtime", "2ms")
	if code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", code, errs)
	}
	for _, want := range []string{"ns/op", "sync.Mutex", "locks.ReentrantLock", "baseline", "×"} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
}

func TestAnExperimentThatCannotRunFailsTheCommand(t *testing.T) {
	if err := failed([]demo.Result{{Name: "a", Same: false}, {Name: "b", Same: true}}); err != nil {
		t.Errorf("a different shape is a finding, not a failure: %v", err)
	}
	err := failed([]demo.Result{{Name: "a", Error: "boom"}, {Name: "b"}, {Name: "c", Error: "x"}})
	if err == nil || !strings.Contains(err.Error(), "2 experiment(s) could not run: a, c") {
		t.Errorf("failed = %v", err)
	}
}

// TestDemoJava runs one experiment with --java: with a JDK here, the table has the Java (this
// machine) column; without one, the command says so once and prints today's table.
func TestDemoJava(t *testing.T) {
	code, out, errs := runLoom("demo", "--java", "-q", "-only", "queue-sum")
	if code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", code, errs)
	}
	if _, err := jdk.Find(); err != nil {
		if strings.Count(errs, "going on without the Java (this machine) column") != 1 || strings.Contains(out, "this machine") {
			t.Errorf("no JDK: stderr %q, stdout:\n%s", errs, out)
		}
		return
	}
	words := strings.Join(strings.Fields(out), " ") // the lines are wrapped
	if !strings.Contains(out, "\n  Java (this machine)  ") {
		t.Errorf("no Java (this machine) cell:\n%s", out)
	}
	for _, want := range []string{"JVM start-up excluded", "; Java (this machine): JDK "} {
		if !strings.Contains(words, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
	if !regexp.MustCompile(`\n  Java \(this machine\)  (-5 17|17 -5) 12\n  loom \(measured now\)  (-5 17|17 -5) 12\n`).MatchString(out) {
		t.Errorf("the Java and loom cells of queue-sum:\n%s", out)
	}
}
