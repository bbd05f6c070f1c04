// Package bench compares loom with plain Go: virtual threads against goroutines and platform
// threads, loom's blocking primitives against sync and channels. Each comparison is a group of
// [testing.Benchmark] runs in the same process; the first case of a group is its baseline, and
// every case is reported as ns/op and as a ratio to the baseline.
//
// A case is measured in Rounds rounds of BenchTime/Rounds each ([testing.Benchmark]'s own ramp-up
// of N before each is its warm-up) and reported by its median round. The cases of a group take
// their rounds in turn (round 1 of each, then round 2 of each...), so that the load of a shared
// machine weighs on each alike, and a case's ratio is the median of its rounds' ratios to the
// baseline's same round. A case with a Java twin
// (cmd/loom/java/Bench.java) runs its loop on a virtual thread, and the twin measures the same
// way in its JVM: a warm-up, then Rounds rounds, the median.
package bench

import (
	"cmp"
	"flag"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/loomgo/loom/cmd/loom/java"
	"github.com/loomgo/loom/thread"
)

// Case is one benchmark.
type Case struct {
	Group string             // cases of a group are compared with the group's first case
	Name  string             // the row's label, unique within its group
	Note  string             // what one op is
	F     func(b *testing.B) // the benchmark, one op per b.Loop iteration
	// Java names the case's twin in cmd/loom/java/Bench.java (empty: none), run with the JVM
	// options JavaOptions when [Options.Java] is set.
	Java        string
	JavaOptions []string // extra JVM options for the twin, e.g. -Djdk.virtualThreadScheduler.parallelism=1
	// JavaRemark says why the twin's figure is what it is, when it is legitimately slow (an OS
	// thread per op): printed under the table when the twins ran.
	JavaRemark string
	// Goal is the most the case's ratio to its group's baseline should be, and JavaGoal the
	// most its ratio to its Java twin should be (1: no slower than the JDK); 0: none. The
	// table shows them beside the figures (issue 14's target column).
	Goal, JavaGoal float64
	// Metric, when set, is the figure the case is compared by instead of ns/op: a unit the
	// case reports with b.ReportMetric ("B/thread", "MB-peak-RSS"). Every case of its group
	// reports it.
	Metric string
	// Also are goals on further figures the case and its baseline report with b.ReportMetric:
	// the most the case's figure should be as a ratio of the baseline's.
	Also map[string]float64
	// Heavy cases (millions of threads, a minute or more) run only when asked for: with
	// [Options.Heavy] (loom bench -heavy) or an [Options.Only] that selects them.
	Heavy bool
	// MaxRounds caps the rounds of a long case (0: [Options.Rounds]).
	MaxRounds int
}

// Result is a case's measurement.
type Result struct {
	Group       string  `json:"group"`             // the case's Group
	Name        string  `json:"name"`              // the case's Name
	Note        string  `json:"note,omitempty"`    // the case's Note
	N           int     `json:"n"`                 // iterations of the median round
	NsPerOp     float64 `json:"ns_per_op"`         // the median round's time per op
	BytesPerOp  int64   `json:"bytes_per_op"`      // bytes allocated per op (median round)
	AllocsPerOp int64   `json:"allocs_per_op"`     // allocations per op (median round)
	Ratio       float64 `json:"ratio_to_baseline"` // NsPerOp over the group baseline's
	Baseline    string  `json:"baseline"`          // the Name of the group's first case
	Rounds      int     `json:"rounds"`            // ns/op is the median round's
	// The Java twin's ns/op on this machine (loom bench --java), or why it could not run.
	JavaNsPerOp float64 `json:"java_ns_per_op,omitempty"`
	JavaError   string  `json:"java_error,omitempty"`  // why the twin could not run
	JavaRemark  string  `json:"java_remark,omitempty"` // the case's JavaRemark
	// The case's goals (see Case).
	Goal     float64 `json:"goal,omitempty"`
	JavaGoal float64 `json:"java_goal,omitempty"` // the case's JavaGoal
	// Metric is the figure Ratio compares when it is not ns/op (see [Case.Metric]).
	Metric string `json:"metric,omitempty"`
	// Extra are the figures the case reported with b.ReportMetric, each the median of the
	// rounds'.
	Extra map[string]float64 `json:"extra,omitempty"`
	// Also are the case's goals on figures of Extra (see [Case.Also]).
	Also map[string]float64 `json:"also_goals,omitempty"`
	// AlsoRatios are the case's figures of Also as ratios to its baseline's.
	AlsoRatios map[string]float64 `json:"also_ratios,omitempty"`
}

// Options configure Run.
type Options struct {
	Only      string        // run only cases whose "group/name" contains this
	Heavy     bool          // also run the heavy cases (see [Case.Heavy])
	BenchTime time.Duration // target time per case; 0 means 1 s
	Progress  io.Writer     // nil: quiet
	Java      java.Runner   // if not nil, each case's Java twin is timed too, in a JVM of its own
	Rounds    int           // rounds per case (and per Java twin), the median reported; 0 means 5
}

var initOnce sync.Once

// Run runs the cases and returns their results, grouped, in order.
func Run(o Options) ([]Result, error) {
	initOnce.Do(testing.Init)
	bt := o.BenchTime
	if bt <= 0 {
		bt = time.Second
	}
	rounds := o.Rounds
	if rounds <= 0 {
		rounds = 5
	}
	if err := flag.Set("test.benchtime", max(bt/time.Duration(rounds), time.Microsecond).String()); err != nil {
		return nil, err
	}
	var out []Result
	cases := Cases()
	// a selected case brings its group's baseline along, so that its ratio means the same
	wanted := map[string]bool{}
	for _, c := range cases {
		if o.Only == "" || strings.Contains(c.Group+"/"+c.Name, o.Only) {
			wanted[c.Group] = true
		}
	}
	var sel []Case
	for i, c := range cases {
		full := c.Group + "/" + c.Name
		first := i == 0 || cases[i-1].Group != c.Group
		if o.Only != "" && !strings.Contains(full, o.Only) && !(first && wanted[c.Group]) {
			continue
		}
		if c.Heavy && !o.Heavy && o.Only == "" {
			continue
		}
		sel = append(sel, c)
	}
	for len(sel) > 0 {
		g := 1
		for g < len(sel) && sel[g].Group == sel[0].Group {
			g++
		}
		res, err := runGroup(o, sel[:g], bt, rounds)
		out = append(out, res...)
		if err != nil {
			return out, err
		}
		sel = sel[g:]
	}
	return out, nil
}

// runGroup measures the cases of one group in alternating rounds (each round runs every case
// once, in order), so that a shared machine's load, which changes over seconds, weighs on each
// case alike; the first case is the baseline. A case's figures are the medians of its rounds,
// and its ratio the median of its rounds' ratios to the baseline's round.
func runGroup(o Options, g []Case, bt time.Duration, rounds int) ([]Result, error) {
	n := rounds
	for _, c := range g {
		if c.MaxRounds > 0 {
			n = min(n, c.MaxRounds)
		}
	}
	brs := make([][]testing.BenchmarkResult, len(g))
	for round := range n {
		for i, c := range g {
			full := c.Group + "/" + c.Name
			if o.Progress != nil {
				fmt.Fprintf(o.Progress, "bench %s (round %d of %d) ...\n", full, round+1, n)
			}
			settle()
			br := testing.Benchmark(c.F)
			if br.N == 0 {
				return nil, fmt.Errorf("benchmark %s failed", full)
			}
			brs[i] = append(brs[i], br)
		}
	}
	var out []Result
	for i, c := range g {
		ratios := make([]float64, n)
		for k := range n {
			ratios[k] = roundFigure(c, brs[i][k]) / roundFigure(g[0], brs[0][k])
		}
		sorted := slices.SortedFunc(slices.Values(brs[i]), func(x, y testing.BenchmarkResult) int { return cmp.Compare(nsPerOp(x), nsPerOp(y)) })
		br := sorted[n/2]
		r := Result{
			Group: c.Group, Name: c.Name, Note: c.Note, N: br.N, Rounds: n, Goal: c.Goal, JavaGoal: c.JavaGoal,
			NsPerOp:     nsPerOp(br),
			BytesPerOp:  br.AllocedBytesPerOp(),
			AllocsPerOp: br.AllocsPerOp(),
			Metric:      c.Metric,
			Extra:       extraMedians(brs[i]),
			Also:        c.Also,
			Baseline:    g[0].Name,
			Ratio:       median(ratios),
		}
		if i == 0 {
			r.Ratio = 1
		}
		for m := range r.Also {
			if r.AlsoRatios == nil {
				r.AlsoRatios = map[string]float64{}
			}
			r.AlsoRatios[m] = r.Extra[m] / out[0].Extra[m]
		}
		if o.Java != nil && c.Java != "" {
			runJava(o, c, bt, rounds, &r)
		}
		out = append(out, r)
	}
	return out, nil
}

// settle waits, for at most a few seconds, until the default scheduler has ended most of the
// continuations the last case's virtual threads left (a scheduler keeps free ones for a while,
// see thread.SchedulerStats.Goroutines), so that a case does not run while the one before it
// still ends thousands of them: each case's time is its own work. A case then starts the way a
// burst after a quiet spell does, with no continuation to reuse.
func settle() {
	s := thread.DefaultScheduler()
	for deadline := time.Now().Add(5 * time.Second); s.Stats().Goroutines > 1000 && time.Now().Before(deadline); {
		time.Sleep(time.Millisecond)
	}
}

// roundFigure is what case c is compared by in one round: ns/op, or its Metric.
func roundFigure(c Case, br testing.BenchmarkResult) float64 {
	if c.Metric != "" {
		return br.Extra[c.Metric]
	}
	return nsPerOp(br)
}

func nsPerOp(br testing.BenchmarkResult) float64 { return float64(br.T.Nanoseconds()) / float64(br.N) }

// extraMedians returns, for each figure the rounds reported with b.ReportMetric, its median.
func extraMedians(brs []testing.BenchmarkResult) map[string]float64 {
	var out map[string]float64
	for m := range brs[0].Extra {
		var vs []float64
		for _, br := range brs {
			if v, ok := br.Extra[m]; ok {
				vs = append(vs, v)
			}
		}
		slices.Sort(vs)
		if out == nil {
			out = map[string]float64{}
		}
		out[m] = vs[len(vs)/2]
	}
	return out
}

// runJava times c's Java twin (Bench.java) inside its JVM: a warm-up of about bt, then rounds
// rounds of bt/rounds, the median.
func runJava(o Options, c Case, bt time.Duration, rounds int, r *Result) {
	if o.Progress != nil {
		fmt.Fprintf(o.Progress, "bench %s/%s on the JDK (Bench.java %s) ...\n", c.Group, c.Name, c.Java)
	}
	jr, err := o.Java.Run("Bench", c.JavaOptions, []string{c.Java, strconv.FormatInt(max(bt.Milliseconds(), 1), 10), strconv.Itoa(rounds)})
	r.JavaRemark = c.JavaRemark
	switch {
	case err != nil:
		r.JavaError = err.Error()
	case jr.Figures["ns_per_op"] <= 0:
		r.JavaError = "Bench.java printed no ns_per_op"
	default:
		r.JavaNsPerOp = jr.Figures["ns_per_op"]
	}
}

// WriteTable prints the results as a Markdown table, one block per group, each case with its
// ratio to the group's baseline; when the Java twins ran (loom bench --java), with their ns/op
// on this machine and loom's ratio to them; when cases have goals, with each goal and whether
// it is met (✓) or not (✗).
func WriteTable(w io.Writer, res []Result) error {
	var b strings.Builder
	withJava := slices.ContainsFunc(res, func(r Result) bool { return r.JavaNsPerOp > 0 || r.JavaError != "" })
	withGoal := slices.ContainsFunc(res, func(r Result) bool { return r.Goal > 0 || r.JavaGoal > 0 || len(r.Also) > 0 })
	withExtra := slices.ContainsFunc(res, func(r Result) bool { return len(r.Extra) > 0 })
	cols := []string{"benchmark", "ns/op", "B/op", "allocs/op", "vs baseline"}
	if withExtra {
		cols = append(cols, "other figures")
	}
	if withJava {
		cols = append(cols, "Java (this machine) ns/op", "vs Java")
	}
	if withGoal {
		cols = append(cols, "goal")
	}
	row := func(cells ...string) { b.WriteString("| " + strings.Join(cells, " | ") + " |\n") }
	row(cols...)
	b.WriteString("| ---" + strings.Repeat(" | ---:", len(cols)-1) + " |\n")
	group := ""
	for _, r := range res {
		if r.Group != group {
			group = r.Group
			b.WriteString("| **" + r.Group + "** |" + strings.Repeat(" |", len(cols)-1) + "\n")
		}
		rat := fmt.Sprintf("%.2f×", r.Ratio)
		name := r.Name
		if r.Name == r.Baseline {
			rat = "1× (baseline)"
		}
		if r.Metric != "" {
			rat += " " + r.Metric
		}
		if r.Note != "" {
			name += " (" + r.Note + ")"
		}
		cells := []string{name, fmtNs(r.NsPerOp), fmt.Sprint(r.BytesPerOp), fmt.Sprint(r.AllocsPerOp), rat}
		if withExtra {
			cells = append(cells, extraText(r))
		}
		if withJava {
			jns, vs := "", ""
			switch {
			case r.JavaError != "":
				jns = "not run"
			case r.JavaNsPerOp > 0:
				jns, vs = fmtNs(r.JavaNsPerOp), fmt.Sprintf("%.2f×", r.NsPerOp/r.JavaNsPerOp)
			}
			cells = append(cells, jns, vs)
		}
		if withGoal {
			cells = append(cells, goalText(r))
		}
		row(cells...)
	}
	b.WriteString("\nratio > 1: slower than the baseline of its group; every case ran in this process, on this machine")
	if len(res) > 0 && res[0].Rounds > 1 {
		fmt.Fprintf(&b, " (ns/op: the median of %d rounds). A group's cases take their rounds in turn; a ratio is the median of the rounds' ratios", res[0].Rounds)
	}
	b.WriteString(".\n")
	if withJava {
		b.WriteString("Java (this machine): the case's twin in cmd/loom/java/Bench.java, each in a JVM of its own, timed inside it (JVM start-up excluded) after a warm-up, the median of as many rounds; its loop runs on a virtual thread, as loom's does; vs Java > 1: loom is slower.\n")
		for _, r := range res {
			if r.JavaError != "" {
				fmt.Fprintf(&b, "- %s/%s: Java not run: %s\n", r.Group, r.Name, r.JavaError)
			} else if r.JavaRemark != "" && r.JavaNsPerOp > 0 {
				fmt.Fprintf(&b, "- %s/%s: %s.\n", r.Group, r.Name, r.JavaRemark)
			}
		}
	}
	if withExtra {
		b.WriteString("other figures: what a case reports besides ns/op (the median round's), with its ratio to the baseline's where the case has a goal on it; a ratio followed by a unit compares that figure instead of ns/op.\n")
	}
	if withGoal {
		b.WriteString("goal: the most the ratio to the baseline (or, \"vs Java\", to the Java twin) should be; ✓ met, ✗ missed in this run.\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// goalText is r's goal cell: "≤ 1.3× ✓", "≤ 1× vs Java ✗", both, or nothing.
func goalText(r Result) string {
	var parts []string
	mark := func(ok bool) string {
		if ok {
			return "✓"
		}
		return "✗"
	}
	g := func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
	if r.Goal > 0 {
		parts = append(parts, fmt.Sprintf("≤ %s× %s", g(r.Goal), mark(r.Ratio <= r.Goal)))
	}
	for _, m := range slices.Sorted(maps.Keys(r.Also)) {
		parts = append(parts, fmt.Sprintf("%s ≤ %s× %s", m, g(r.Also[m]), mark(r.AlsoRatios[m] <= r.Also[m])))
	}
	if r.JavaGoal > 0 {
		switch {
		case r.JavaNsPerOp > 0:
			parts = append(parts, fmt.Sprintf("≤ %s× vs Java %s", g(r.JavaGoal), mark(r.NsPerOp/r.JavaNsPerOp <= r.JavaGoal)))
		default:
			parts = append(parts, fmt.Sprintf("≤ %s× vs Java (--java)", g(r.JavaGoal)))
		}
	}
	return strings.Join(parts, "; ")
}

// extraText is r's other figures: "2,150 B/thread (1.05×); 3.2 MB-peak-RSS".
func extraText(r Result) string {
	var parts []string
	for _, m := range slices.Sorted(maps.Keys(r.Extra)) {
		p := fmtNs(r.Extra[m]) + " " + m
		if rat, ok := r.AlsoRatios[m]; ok {
			p += fmt.Sprintf(" (%.2f×)", rat)
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, "; ")
}

func fmtNs(ns float64) string {
	switch {
	case ns >= 1000:
		return commas(int64(ns + 0.5))
	case ns >= 100:
		return fmt.Sprintf("%.0f", ns)
	case ns >= 10:
		return fmt.Sprintf("%.1f", ns)
	default:
		return fmt.Sprintf("%.2f", ns)
	}
}

// commas formats n with thousands separators.
func commas(n int64) string { return num(float64(n)) }
