package bench_test

import (
	"bytes"
	"errors"
	"io/fs"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/loomgo/loom/cmd/loom/internal/bench"
	"github.com/loomgo/loom/cmd/loom/java"
)

type fakeJava struct{ runs []string }

func (f *fakeJava) Run(program string, opts, args []string) (java.Result, error) {
	f.runs = append(f.runs, program+" "+strings.Join(opts, " ")+" | "+strings.Join(args, " "))
	if args[0] == "synchronized-uncontended" {
		return java.Result{}, errors.New("no JVM for this one")
	}
	return java.Result{Text: "t", Figures: map[string]float64{"ns_per_op": 10}}, nil
}

func (f *fakeJava) JDK() string { return "JDK 99 (fake)" }

// TestEveryJavaTwinIsABenchCase checks that each case's Java twin names a case of Bench.java.
func TestEveryJavaTwinIsABenchCase(t *testing.T) {
	src, err := fs.ReadFile(java.Sources, "Bench.java")
	if err != nil {
		t.Fatal(err)
	}
	cases := map[string]bool{}
	for _, m := range regexp.MustCompile(`CASES\.put\("([a-z0-9-]+)"`).FindAllStringSubmatch(string(src), -1) {
		cases[m[1]] = true
	}
	twins := map[string]bool{}
	for _, c := range bench.Cases() {
		if c.Java == "" {
			continue
		}
		twins[c.Java] = true
		if !cases[c.Java] {
			t.Errorf("%s/%s: Bench.java has no case %q", c.Group, c.Name, c.Java)
		}
	}
	if len(twins) != len(cases) {
		t.Errorf("the cases have %d twins, Bench.java has %d cases: one is never run", len(twins), len(cases))
	}
}

func TestJavaColumn(t *testing.T) {
	fj := &fakeJava{}
	res, err := bench.Run(bench.Options{Only: "uncontended", BenchTime: time.Millisecond, Java: fj})
	if err != nil {
		t.Fatal(err)
	}
	if len(fj.runs) != 2 || fj.runs[0] != "Bench  | reentrantlock-uncontended 1 5" {
		t.Errorf("runs %q", fj.runs)
	}
	var tab bytes.Buffer
	bench.WriteTable(&tab, res)
	for _, w := range []string{"| Java (this machine) ns/op | vs Java |", "| 10.0 | ", "| not run |", "Java not run: no JVM for this one", "JVM start-up excluded"} {
		if !strings.Contains(tab.String(), w) {
			t.Errorf("table lacks %q:\n%s", w, tab.String())
		}
	}
}

// TestJavaRemarksAndRounds checks that a legitimately slow Java figure is explained under the
// table, and that both sides are asked for as many rounds.
func TestJavaRemarksAndRounds(t *testing.T) {
	fj := &fakeJava{}
	res, err := bench.Run(bench.Options{Only: "start+join one thread/platform", BenchTime: 3 * time.Millisecond, Rounds: 3, Java: fj})
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 2 || res[1].Rounds != 3 || res[1].JavaRemark == "" {
		t.Fatalf("results %+v", res)
	}
	if len(fj.runs) != 1 || fj.runs[0] != "Bench  | platform-start-join 3 3" {
		t.Errorf("runs %q", fj.runs)
	}
	var tab bytes.Buffer
	bench.WriteTable(&tab, res)
	for _, w := range []string{"- start+join one thread/platform thread (OS thread): an OS thread created and ended per op", "(ns/op: the median of 3 rounds)", "its loop runs on a virtual thread"} {
		if !strings.Contains(tab.String(), w) {
			t.Errorf("table lacks %q:\n%s", w, tab.String())
		}
	}
}
