package demo_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/loomgo/loom/cmd/loom/internal/demo"
)

// TestEveryExperimentHasJavasShapeAtTinyScale runs every experiment at 1% of its size (the
// fixed pools keep their tasks/threads ratio, so they still need 50 rounds of sleep) and checks
// that each one reaches the same verdict as the full-scale run.
func TestEveryExperimentHasJavasShapeAtTinyScale(t *testing.T) {
	var progress bytes.Buffer
	c := &demo.Config{Scale: 0.01, Progress: &progress, ProgressEvery: 50 * time.Millisecond}
	res := demo.Run(c, demo.All())
	if len(res) != len(demo.All()) {
		t.Fatalf("got %d results, want %d", len(res), len(demo.All()))
	}
	for i, r := range res {
		if !r.Same && r.Error == "" {
			// a timing on a shared machine: one more try before calling it a different shape
			t.Logf("%s: not the same shape (%s); running it again", r.Name, r.Verdict)
			r = demo.Run(c, demo.All()[i:i+1])[0]
		}
		if !r.Same || r.Error != "" {
			t.Errorf("%s: not the same shape: loom %q, verdict %q, error %q", r.Name, r.Loom, r.Verdict, r.Error)
		}
		if r.Loom == "" || r.Verdict == "" || r.Java == "" || r.Rule == "" {
			t.Errorf("%s: empty column in %+v", r.Name, r)
		}
	}
	for _, e := range demo.All() {
		if !strings.Contains(progress.String(), "] "+e.Name+": ") {
			t.Errorf("progress does not announce %s:\n%s", e.Name, progress.String())
		}
	}
}

func TestExperimentNamesAreUniqueAndSelectable(t *testing.T) {
	seen := map[string]bool{}
	for _, e := range demo.All() {
		if seen[e.Name] {
			t.Errorf("duplicate experiment name %q", e.Name)
		}
		seen[e.Name] = true
		got, err := demo.Select(e.Name)
		if err != nil || len(got) == 0 || got[0].Name != e.Name {
			t.Errorf("Select(%q) = %v, %v", e.Name, names(got), err)
		}
	}
	if len(demo.All()) < 16 {
		t.Errorf("%d experiments, want every row of DESIGN.md section 4 (16)", len(demo.All()))
	}
}

func TestSelectKeepsTheOrderOfAllAndRejectsUnknownNames(t *testing.T) {
	got, err := demo.Select("say, one-carrier,fixed-vs")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"fixed-vs-virtual-1s", "fixed-vs-virtual-100ms", "one-carrier-sleepers", "say-hello-world"}
	if diff := cmp.Diff(want, names(got)); diff != "" {
		t.Errorf("Select order (-want +got):\n%s", diff)
	}
	if _, err := demo.Select("no-such-experiment"); err == nil {
		t.Error("Select of an unknown name: no error")
	}
	all, err := demo.Select("")
	if err != nil || len(all) != len(demo.All()) {
		t.Errorf("Select(\"\") = %d experiments, %v", len(all), err)
	}
}

func TestAPanickingExperimentIsReportedNotFatal(t *testing.T) {
	exps := []demo.Experiment{
		{Name: "boom", Title: "t", Java: "j", Rule: "r", Run: func(*demo.Config) demo.Outcome { panic("boom") }},
		{Name: "err", Title: "t", Java: "j", Rule: "r", Run: func(*demo.Config) demo.Outcome { return demo.Outcome{Err: errors.New("no")} }},
	}
	res := demo.Run(&demo.Config{}, exps)
	if len(res) != 2 || res[0].Same || !strings.Contains(res[0].Error, "boom") || res[1].Same || res[1].Loom != "error: no" {
		t.Errorf("results = %+v", res)
	}
}

func TestTableAndJSONCarryEveryColumn(t *testing.T) {
	res := []demo.Result{
		{Name: "a", Title: "A | pipes", Java: "1 ms", Loom: "2 ms", Rule: "r", Same: true, Verdict: "2 < 3"},
		{Name: "b", Title: "B", Java: "x", Loom: "y", Rule: "r", Verdict: "no", Scaling: "ran 10 (full: 1,000)"},
	}
	var tab bytes.Buffer
	if err := demo.WriteMarkdown(&tab, res); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"| experiment | Java (published) | loom (measured now) | verdict |",
		`| A \| pipes | 1 ms | 2 ms | same shape: 2 < 3 |`,
		"| B * | x | y | DIFFERENT: no |",
		"1 of the 2 experiments has the same shape",
		"b: ran 10 (full: 1,000)",
	} {
		if !strings.Contains(tab.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, tab.String())
		}
	}
	var js bytes.Buffer
	if err := demo.WriteJSON(&js, &demo.Config{Scale: 0.5}, res, 3*time.Second); err != nil {
		t.Fatal(err)
	}
	var rep demo.Report
	if err := json.Unmarshal(js.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(res, rep.Experiments); diff != "" {
		t.Errorf("JSON round trip (-want +got):\n%s", diff)
	}
	if rep.Same != 1 || rep.Scale != 0.5 || rep.Seconds != 3 || rep.GOMAXPROCS < 1 {
		t.Errorf("report header = %+v", rep)
	}
}

func names(es []demo.Experiment) []string {
	var out []string
	for _, e := range es {
		out = append(out, e.Name)
	}
	return out
}

func TestALastExperimentRunsAfterTheOthersButKeepsItsRow(t *testing.T) {
	var ran []string
	mk := func(name string, last bool) demo.Experiment {
		return demo.Experiment{Name: name, Title: name, Java: "j", Rule: "r", Last: last,
			Run: func(*demo.Config) demo.Outcome { ran = append(ran, name); return demo.Outcome{Same: true, Loom: name} }}
	}
	res := demo.Run(&demo.Config{Budget: time.Minute}, []demo.Experiment{mk("first", true), mk("second", false), mk("third", false)})
	if diff := cmp.Diff([]string{"second", "third", "first"}, ran); diff != "" {
		t.Errorf("run order (-want +got):\n%s", diff)
	}
	var rows []string
	for _, r := range res {
		rows = append(rows, r.Loom)
	}
	if diff := cmp.Diff([]string{"first", "second", "third"}, rows); diff != "" {
		t.Errorf("rows (-want +got):\n%s", diff)
	}
}

func TestJSONLeavesOutFiguresThatAreNotNumbers(t *testing.T) {
	res := []demo.Result{{Name: "a", Figures: map[string]float64{"ok": 1, "inf": math.Inf(1), "nan": math.NaN()}}}
	var js bytes.Buffer
	if err := demo.WriteJSON(&js, &demo.Config{}, res, time.Second); err != nil {
		t.Fatalf("WriteJSON: %v", err)
	}
	var rep demo.Report
	if err := json.Unmarshal(js.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]float64{"ok": 1}, rep.Experiments[0].Figures); diff != "" {
		t.Errorf("figures (-want +got):\n%s", diff)
	}
	if len(res[0].Figures) != 3 {
		t.Errorf("WriteJSON changed its argument: %v", res[0].Figures)
	}
}
