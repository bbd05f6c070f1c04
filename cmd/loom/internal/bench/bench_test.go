package bench_test

import (
	"bytes"
	"encoding/xml"
	"io"
	"maps"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/loomgo/loom/cmd/loom/internal/bench"
)

func TestEveryCaseRunsAndGroupsHaveABaseline(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every benchmark briefly")
	}
	res, err := bench.Run(bench.Options{BenchTime: 5 * time.Millisecond, Rounds: 1})
	if err != nil {
		t.Fatal(err)
	}
	light := slices.DeleteFunc(bench.Cases(), func(c bench.Case) bool { return c.Heavy })
	if len(res) != len(light) {
		t.Fatalf("%d results for %d cases that are not heavy", len(res), len(light))
	}
	groups := map[string]string{}
	for _, r := range res {
		if r.N == 0 || r.NsPerOp <= 0 || r.Ratio <= 0 || math.IsInf(r.Ratio, 0) || math.IsNaN(r.Ratio) {
			t.Errorf("%s/%s: empty measurement %+v", r.Group, r.Name, r)
		}
		if b, ok := groups[r.Group]; ok {
			if r.Baseline != b {
				t.Errorf("%s/%s: baseline %q, want the group's first case %q", r.Group, r.Name, r.Baseline, b)
			}
		} else {
			groups[r.Group] = r.Name
			if r.Baseline != r.Name || r.Ratio != 1 {
				t.Errorf("first case of %s is not its own baseline: %+v", r.Group, r)
			}
		}
	}
	for _, g := range []string{"start+join one thread", "uncontended lock+unlock", "1 producer → 1 consumer, capacity 128", "submit a task and wait for its result"} {
		if _, ok := groups[g]; !ok {
			t.Errorf("no benchmark group %q", g)
		}
	}
	var tab bytes.Buffer
	if err := bench.WriteTable(&tab, res); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"| benchmark | ns/op | B/op | allocs/op | vs baseline |", "| **uncontended lock+unlock** |", "| sync.Mutex |", "1× (baseline)", "locks.ReentrantLock"} {
		if !strings.Contains(tab.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, tab.String())
		}
	}
}

func TestOnlyFiltersCasesAndKeepsTheirBaseline(t *testing.T) {
	res, err := bench.Run(bench.Options{Only: "locks.ReentrantLock, virtual", BenchTime: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range res {
		got = append(got, r.Name)
	}
	want := []string{"sync.Mutex, goroutines", "locks.ReentrantLock, virtual threads"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("Only picked %q, want %q", got, want)
	}
	if res[1].Baseline != "sync.Mutex, goroutines" {
		t.Errorf("baseline %q", res[1].Baseline)
	}
}

func TestSweepAndSVGShowTheFixedPoolFallingBehind(t *testing.T) {
	pts, err := bench.Sweep(bench.SweepOptions{Tasks: []int{4, 40}, Pool: 4, Sleep: 10 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if len(pts) != 2 {
		t.Fatalf("%d points", len(pts))
	}
	if last := pts[1]; last.Fixed < last.Expected || last.Expected != 100*time.Millisecond {
		t.Errorf("40 tasks × 10 ms on 4 threads took %v, want at least %v", last.Fixed, last.Expected)
	}
	var svg bytes.Buffer
	if err := bench.WriteSVG(&svg, pts); err != nil {
		t.Fatal(err)
	}
	// well-formed XML, with the two series and the legend
	dec := xml.NewDecoder(bytes.NewReader(svg.Bytes()))
	elems := map[string]int{}
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("SVG is not well-formed XML: %v\n%s", err, svg.String())
		}
		if se, ok := tok.(xml.StartElement); ok {
			elems[se.Name.Local]++
		}
	}
	if elems["svg"] != 1 || elems["polyline"] != 3 || elems["circle"] != 4 {
		t.Errorf("elements = %v, want 1 svg, 3 polylines (fixed, virtual, theory), 4 points", elems)
	}
	for _, want := range []string{"fixed pool of 4 platform threads", "virtual thread per task", "40 tasks"} {
		if !strings.Contains(svg.String(), want) {
			t.Errorf("SVG lacks %q", want)
		}
	}
	if err := bench.WriteSVG(io.Discard, nil); err == nil {
		t.Error("WriteSVG of no points: no error")
	}
}

// BenchmarkCases makes every comparison a sub-benchmark, for `go test -bench`.
func BenchmarkCases(b *testing.B) {
	for _, c := range bench.Cases() {
		b.Run(c.Group+"/"+c.Name, c.F)
	}
}

// Cases with goals (issue 14's target column) show them beside their figures, met or missed.
func TestTableShowsGoalsMetAndMissed(t *testing.T) {
	res := []bench.Result{
		{Group: "g", Name: "base", NsPerOp: 10, Ratio: 1, Baseline: "base"},
		{Group: "g", Name: "fast", NsPerOp: 12, Ratio: 1.2, Baseline: "base", Goal: 1.3, JavaGoal: 1, JavaNsPerOp: 15},
		{Group: "g", Name: "slow", NsPerOp: 20, Ratio: 2, Baseline: "base", Goal: 1.5, JavaGoal: 1, JavaNsPerOp: 15},
		{Group: "g", Name: "nojava", NsPerOp: 11, Ratio: 1.1, Baseline: "base", JavaGoal: 1},
	}
	var tab bytes.Buffer
	if err := bench.WriteTable(&tab, res); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"| vs baseline | Java (this machine) ns/op | vs Java | goal |",
		"| fast | 12.0 | 0 | 0 | 1.20× | 15.0 | 0.80× | ≤ 1.3× ✓; ≤ 1× vs Java ✓ |",
		"| slow | 20.0 | 0 | 0 | 2.00× | 15.0 | 1.33× | ≤ 1.5× ✗; ≤ 1× vs Java ✗ |",
		"| nojava | 11.0 | 0 | 0 | 1.10× |  |  | ≤ 1× vs Java (--java) |",
		"| base | 10.0 | 0 | 0 | 1× (baseline) |  |  |  |",
	} {
		if !strings.Contains(tab.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, tab.String())
		}
	}
}

// Every row of issue 14's table has a case with a goal (the heavy ones too), and the heavy
// cases run only when asked for.
func TestIssue14RowsHaveGoalsAndHeavyCasesAreOptIn(t *testing.T) {
	goals := map[string]bool{}
	heavy := 0
	for _, c := range bench.Cases() {
		if c.Goal > 0 || c.JavaGoal > 0 {
			goals[c.Group+"/"+c.Name] = true
		}
		if c.Heavy {
			heavy++
			if !strings.Contains(c.Group, "sleepers") {
				t.Errorf("heavy case %s/%s cannot be picked with -only sleepers", c.Group, c.Name)
			}
		}
	}
	for _, want := range []string{
		"trivial futures: Submit, then Get each, then Close/virtual thread per task executor",
		"start+join one thread/virtual thread",
		"ping-pong between two threads/virtual threads, Park/Unpark",
		"ping-pong between two threads/virtual threads on 1 carrier, Park/Unpark",
		"sleepers × Sleep(1s)/virtual thread each",
		"sleepers × Sleep(100ms)/virtual thread each",
		"sleepers × Sleep(2s)/virtual thread each",
		"peak RSS of a process of",
		"uncontended lock+unlock/locks.ReentrantLock",
		"uncontended lock+unlock/locks.Monitor",
		"contended: 2 goroutines increment a counter/locks.ReentrantLock",
		"1 producer → 1 consumer, capacity 128/queue.ArrayBlockingQueue",
		"1 producer → 1 consumer, capacity 128, GOMAXPROCS=1/queue.ArrayBlockingQueue",
		"thread-local read/threadlocal.ThreadLocal.Get",
	} {
		if !slices.ContainsFunc(slices.Collect(maps.Keys(goals)), func(k string) bool { return strings.Contains(k, want) }) {
			t.Errorf("no case with a goal for %q", want)
		}
	}
	if heavy == 0 {
		t.Fatal("no heavy cases")
	}
	// each heavy group is a baseline and loom with a goal (the first test checks that nothing
	// heavy runs unless asked for)
	groups := map[string][]bench.Case{}
	for _, c := range bench.Cases() {
		if c.Heavy {
			groups[c.Group] = append(groups[c.Group], c)
		}
	}
	for g, cs := range groups {
		if len(cs) != 2 || cs[0].Goal != 0 || cs[1].Goal == 0 {
			t.Errorf("heavy group %q: %d cases, goals %v", g, len(cs), []float64{cs[0].Goal, cs[len(cs)-1].Goal})
		}
	}
}

// A case compared by a reported figure (Metric) shows it with its unit, and a goal on a further
// figure (Also) is shown met or missed.
func TestTableShowsMetricsAndTheirGoals(t *testing.T) {
	res := []bench.Result{
		{Group: "g", Name: "go", NsPerOp: 10, Ratio: 1, Baseline: "go", Metric: "MB-peak-RSS", Extra: map[string]float64{"MB-peak-RSS": 200, "B/thread": 2000}},
		{Group: "g", Name: "loom", NsPerOp: 12, Ratio: 1.5, Baseline: "go", Metric: "MB-peak-RSS", Goal: 1.25,
			Extra: map[string]float64{"MB-peak-RSS": 300, "B/thread": 2100}, Also: map[string]float64{"B/thread": 1.1}, AlsoRatios: map[string]float64{"B/thread": 1.05}},
	}
	var tab bytes.Buffer
	if err := bench.WriteTable(&tab, res); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"| vs baseline | other figures | goal |",
		"| go | 10.0 | 0 | 0 | 1× (baseline) MB-peak-RSS | 2,000 B/thread; 200 MB-peak-RSS |  |",
		"| loom | 12.0 | 0 | 0 | 1.50× MB-peak-RSS | 2,100 B/thread (1.05×); 300 MB-peak-RSS | ≤ 1.25× ✗; B/thread ≤ 1.1× ✓ |",
	} {
		if !strings.Contains(tab.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, tab.String())
		}
	}
}
