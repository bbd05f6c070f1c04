package demo_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/loomgo/loom/cmd/loom/internal/demo"
	"github.com/loomgo/loom/cmd/loom/java"
)

// fakeJava stands in for a JDK: it records the runs and answers with fixed figures.
type fakeJava struct {
	runs []string
	fail bool
}

func (f *fakeJava) Run(program string, opts, args []string) (java.Result, error) {
	f.runs = append(f.runs, program+" "+strings.Join(opts, " ")+" | "+strings.Join(args, " "))
	if f.fail {
		return java.Result{}, errors.New("no JVM today")
	}
	return java.Result{Text: "java did " + program, Figures: map[string]float64{"elapsed_ms": 200}}, nil
}

func (f *fakeJava) JDK() string { return "JDK 99 (fake)" }

func TestEveryExperimentHasAJavaProgram(t *testing.T) {
	for _, e := range demo.All() {
		if e.Twin == nil {
			t.Errorf("%s: no Java program", e.Name)
			continue
		}
		if _, err := fs.Stat(java.Sources, e.Twin.Program+".java"); err != nil {
			t.Errorf("%s: program %s: %v", e.Name, e.Twin.Program, err)
		}
	}
}

func TestTheJavaRunGetsLoomsParametersAndItsOwnColumn(t *testing.T) {
	fj := &fakeJava{}
	c := &demo.Config{Java: fj}
	exp := demo.Experiment{
		Name: "x", Title: "t", Java: "published", Rule: "r",
		Run: func(*demo.Config) demo.Outcome {
			return demo.Outcome{Loom: "loom did it", Same: true, Verdict: "fine", Figures: map[string]float64{"elapsed_ms": 100, "tasks": 42}}
		},
		Twin: &demo.JavaTwin{Program: "Prog", Parallelism: 1, MaxPoolSize: 1, Metric: "elapsed_ms", What: "the run",
			Args: func(_ *demo.Config, o demo.Outcome) []string {
				return []string{"tasks=" + strconv.FormatFloat(o.Figures["tasks"], 'f', -1, 64)}
			}},
	}
	res := demo.Run(c, []demo.Experiment{exp})
	want := []string{"Prog -Djdk.virtualThreadScheduler.parallelism=1 -Djdk.virtualThreadScheduler.maxPoolSize=1 | tasks=42"}
	if diff := cmp.Diff(want, fj.runs); diff != "" {
		t.Errorf("runs (-want +got):\n%s", diff)
	}
	r := res[0]
	if r.JavaHere != "java did Prog" || r.Verdict != "fine; this JDK: 200 ms for the run, loom/JDK = 0.5×" {
		t.Errorf("result %+v", r)
	}
	var tab bytes.Buffer
	demo.WriteMarkdown(&tab, res)
	for _, w := range []string{"| experiment | Java (published) | Java (this machine) | loom (measured now) | verdict |",
		"| t | published | java did Prog | loom did it | same shape: fine; this JDK", "JVM start-up excluded"} {
		if !strings.Contains(tab.String(), w) {
			t.Errorf("table lacks %q:\n%s", w, tab.String())
		}
	}
	var js bytes.Buffer
	demo.WriteJSON(&js, c, res, 0)
	var rep demo.Report
	if err := json.Unmarshal(js.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.JDK != "JDK 99 (fake)" || rep.Experiments[0].JavaFigures["elapsed_ms"] != 200 {
		t.Errorf("JSON report %+v", rep)
	}

	// a failed Java run is reported in its cell; the row and its verdict stand
	fj.fail = true
	res = demo.Run(c, []demo.Experiment{exp})
	tab.Reset()
	demo.WriteMarkdown(&tab, res)
	if res[0].JavaError != "no JVM today" || !res[0].Same || !strings.Contains(tab.String(), "| not run: no JVM today |") {
		t.Errorf("failed Java run: %+v\n%s", res[0], tab.String())
	}
	// without Config.Java the table is today's
	tab.Reset()
	demo.WriteMarkdown(&tab, demo.Run(&demo.Config{}, []demo.Experiment{exp}))
	if strings.Contains(tab.String(), "this machine") {
		t.Errorf("no --java, yet a Java column:\n%s", tab.String())
	}
}
