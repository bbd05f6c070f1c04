// Package demo runs the classic virtual-thread experiments that Java articles publish (the
// seed programs of DESIGN.md section 4) on loom, and judges each result against the published
// Java figure by a stated rule: same shape, or not.
//
// Every experiment runs at full scale by default. [Config.Scale] shrinks the number of tasks (and,
// where a run would otherwise last too long, the sleeps) so the same program can run in a test in
// milliseconds; each Result says how it was scaled.
package demo

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/loomgo/loom/cmd/loom/java"
)

// Config says how to run the experiments.
type Config struct {
	// Scale multiplies the task counts (and, where stated, the sleeps); 0 or 1 is full scale.
	Scale float64
	// Progress receives progress lines while experiments run; nil discards them.
	Progress io.Writer
	// ProgressEvery is how often long runs report their progress; 0 means 2 s.
	ProgressEvery time.Duration
	// Budget is the time the whole run should fit in; 0 means no limit. The experiment with the
	// published 1 s sleeps on a fixed pool (about 50 s for the pool alone) runs last, and only
	// with 1 s sleeps if they fit in what is left of the budget; otherwise its sleeps are capped
	// at 200 ms, which keeps its 50 rounds and its shape in a fifth of the time.
	Budget time.Duration
	// Long runs that experiment with its published 1 s sleeps whatever the budget.
	Long bool
	// Java, if not nil, runs each experiment's Java program ([Experiment.Java]) on a JDK of this
	// machine after loom's run, with the same parameters ([Experiment.Twin]), for the table's
	// "Java (this machine)" column and the verdict's comparison.
	Java java.Runner

	deadline time.Time // start + Budget, set by Run

	mu sync.Mutex
}

func (c *Config) scale() float64 {
	if c.Scale <= 0 || c.Scale > 1 {
		return 1
	}
	return c.Scale
}

// full reports whether the experiments run at full scale.
func (c *Config) full() bool { return c.scale() == 1 }

// n scales a task count (at least min).
func (c *Config) n(full, min int) int {
	v := int(float64(full)*c.scale() + 0.5)
	if v < min {
		v = min
	}
	return v
}

// dur scales a duration (at least min).
func (c *Config) dur(full, min time.Duration) time.Duration {
	v := time.Duration(float64(full) * c.scale())
	if v < min {
		v = min
	}
	return v
}

func (c *Config) logf(format string, args ...any) {
	if c.Progress == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	fmt.Fprintf(c.Progress, "        "+format+"\n", args...)
}

// watch prints report() every ProgressEvery until the returned stop function is called.
func (c *Config) watch(report func() string) (stop func()) {
	if c.Progress == nil {
		return func() {}
	}
	every := c.ProgressEvery
	if every <= 0 {
		every = 2 * time.Second
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				c.logf("%s", report())
			}
		}
	}()
	return func() { close(done); wg.Wait() }
}

// Experiment is one of the classic programs.
type Experiment struct {
	Name  string                  // short, for -only
	Title string                  // what it does, at full scale
	Java  string                  // the figure Java articles publish
	Rule  string                  // when loom's result has the same shape
	Run   func(c *Config) Outcome // runs the experiment as c says and measures it
	// Last runs the experiment after the others (its row keeps its place), so that it can size
	// itself to what is left of the budget.
	Last bool
	// Twin is the experiment's Java program in cmd/loom/java, run when [Config.Java] is set.
	Twin *JavaTwin
}

// JavaTwin says how to run an experiment's Java program with the parameters loom's run used.
type JavaTwin struct {
	Program string // the class in cmd/loom/java: "FixedVsVirtual"
	// Args returns the program's arguments. o is loom's outcome: its figures hold the sizes the
	// run chose (task counts and sleeps, scaled, or capped to fit the budget).
	Args func(c *Config, o Outcome) []string
	// Parallelism and MaxPoolSize are the virtual-thread scheduler's, passed to the JVM as
	// -Djdk.virtualThreadScheduler.parallelism and .maxPoolSize; 0 is GOMAXPROCS for Parallelism
	// (loom's default) and the JDK's default for MaxPoolSize.
	Parallelism, MaxPoolSize int
	// Metric names the figure of loom's outcome that the verdict compares with the program's
	// JavaMetric (Metric when empty); What says what it measures. No Metric, no comparison.
	Metric, JavaMetric, What string
}

// jvmOptions returns the JVM options of t's run.
func (t *JavaTwin) jvmOptions() []string {
	p := t.Parallelism
	if p == 0 {
		p = runtime.GOMAXPROCS(0)
	}
	opts := []string{fmt.Sprintf("-Djdk.virtualThreadScheduler.parallelism=%d", p)}
	if t.MaxPoolSize > 0 {
		opts = append(opts, fmt.Sprintf("-Djdk.virtualThreadScheduler.maxPoolSize=%d", t.MaxPoolSize))
	}
	return opts
}

// compare states loom's figure against the JDK's: "; this JDK: 1,102 ms for the virtual run,
// loom/JDK = 0.95×".
func (t *JavaTwin) compare(loom, jvm map[string]float64) string {
	if t.Metric == "" {
		return ""
	}
	jm := t.JavaMetric
	if jm == "" {
		jm = t.Metric
	}
	lv, ok1 := loom[t.Metric]
	jv, ok2 := jvm[jm]
	if !ok1 || !ok2 {
		return ""
	}
	return fmt.Sprintf("; this JDK: %s for %s, loom/JDK = %s", figure(t.Metric, jv), t.What, ratio(lv, jv))
}

// figure formats a figure by the unit its name ends with.
func figure(name string, v float64) string {
	switch {
	case strings.HasSuffix(name, "_ms"):
		return ms(time.Duration(v * float64(time.Millisecond)))
	case strings.HasSuffix(name, "_bytes_per_thread"):
		return kb(v) + " a thread"
	}
	return commas(int64(v + 0.5))
}

// Outcome is what an experiment measured.
type Outcome struct {
	Loom    string             // the figure, in the words of the Java column
	Same    bool               // the rule holds
	Verdict string             // the rule applied to the figures, e.g. "34× ≥ 10×"
	Scaling string             // how the run differs from the full-scale experiment, if it does
	Figures map[string]float64 // the raw numbers, for --json
	Err     error              // the experiment could not run
}

// Result is an experiment's outcome, ready to print.
type Result struct {
	Name    string             `json:"name"`              // the experiment's Name
	Title   string             `json:"experiment"`        // the experiment's Title
	Java    string             `json:"java"`              // the published Java figure
	Loom    string             `json:"loom"`              // loom's figure, for the table
	Rule    string             `json:"rule"`              // the experiment's Rule
	Same    bool               `json:"same_shape"`        // the Outcome's Same
	Verdict string             `json:"verdict"`           // the Outcome's Verdict
	Scaling string             `json:"scaling,omitempty"` // the Outcome's Scaling
	Figures map[string]float64 `json:"figures,omitempty"` // the Outcome's Figures
	Seconds float64            `json:"seconds"`           // how long the experiment ran
	Error   string             `json:"error,omitempty"`   // the Outcome's Err, as text
	// The Java program's run on this machine (loom demo --java): its cell, its figures, or why
	// it could not run.
	JavaHere    string             `json:"java_here,omitempty"`
	JavaFigures map[string]float64 `json:"java_figures,omitempty"` // the figures the Java program printed
	JavaError   string             `json:"java_error,omitempty"`   // why it could not run
}

// Select returns the experiments named in only (comma-separated names or prefixes; empty means
// all), in the order of All, and an error naming any that matched nothing.
func Select(only string) ([]Experiment, error) {
	all := All()
	if strings.TrimSpace(only) == "" {
		return all, nil
	}
	var out []Experiment
	seen := map[string]bool{}
	for _, want := range strings.Split(only, ",") {
		want = strings.TrimSpace(want)
		if want == "" {
			continue
		}
		found := false
		for _, e := range all {
			if e.Name == want || strings.HasPrefix(e.Name, want) {
				found = true
				if !seen[e.Name] {
					seen[e.Name] = true
					out = append(out, e)
				}
			}
		}
		if !found {
			return nil, fmt.Errorf("no experiment named %q (see loom demo -list)", want)
		}
	}
	// keep All's order
	order := map[string]int{}
	for i, e := range all {
		order[e.Name] = i
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && order[out[j].Name] < order[out[j-1].Name]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out, nil
}

// remaining returns what is left of the budget, or a very long time if there is none.
func (c *Config) remaining() time.Duration {
	if c.deadline.IsZero() {
		return 1<<63 - 1
	}
	return time.Until(c.deadline)
}

// Run runs the experiments one after the other (those marked Last after the others) and
// returns their results in the order of exps.
func Run(c *Config, exps []Experiment) []Result {
	if c.Budget > 0 {
		c.deadline = time.Now().Add(c.Budget)
	}
	var order []int
	for _, last := range []bool{false, true} {
		for i, e := range exps {
			if e.Last == last {
				order = append(order, i)
			}
		}
	}
	res := make([]Result, len(exps))
	base := osThreads()
	for n, i := range order {
		e := exps[i]
		if c.Progress != nil {
			c.mu.Lock()
			fmt.Fprintf(c.Progress, "[%2d/%d] %s: %s\n", n+1, len(exps), e.Name, e.Title)
			c.mu.Unlock()
		}
		start := time.Now()
		o := runOne(c, e)
		r := Result{
			Name: e.Name, Title: e.Title, Java: e.Java, Loom: o.Loom, Rule: e.Rule,
			Same: o.Same && o.Err == nil, Verdict: o.Verdict, Scaling: o.Scaling,
			Figures: o.Figures, Seconds: time.Since(start).Seconds(),
		}
		if o.Err != nil {
			r.Error = o.Err.Error()
			if r.Loom == "" {
				r.Loom = "error: " + r.Error
			}
		}
		c.logf("-> %s (%s) in %.1f s", verdictWord(r.Same), r.Verdict, r.Seconds)
		quiesce(base)
		if c.Java != nil && e.Twin != nil {
			runJava(c, e.Twin, o, &r)
			quiesce(base)
		}
		res[i] = r
	}
	return res
}

// runJava runs t's program with the parameters of loom's outcome o and records it in r.
func runJava(c *Config, t *JavaTwin, o Outcome, r *Result) {
	args := t.Args(c, o)
	c.logf("Java: %s %s", t.Program, strings.Join(args, " "))
	start := time.Now()
	jr, err := c.Java.Run(t.Program, t.jvmOptions(), args)
	if err != nil {
		r.JavaError = err.Error()
		c.logf("-> Java could not run: %v", err)
		return
	}
	r.JavaHere, r.JavaFigures = jr.Text, jr.Figures
	r.Verdict += t.compare(o.Figures, jr.Figures)
	c.logf("-> Java: %s (%.1f s with the JVM's start)", jr.Text, time.Since(start).Seconds())
}

// quiesce leaves the next experiment a quiet process: a collected heap, and the OS threads of
// the platform threads that just ended gone (they exit after their tasks; give them up to 10 s).
func quiesce(baseThreads int) {
	runtime.GC()
	waitFor(10*time.Second, func() bool { return osThreads() <= baseThreads+16 })
}

// runOne runs e, turning a panic into an error outcome so that one broken experiment does not
// hide the others.
func runOne(c *Config, e Experiment) (o Outcome) {
	defer func() {
		if r := recover(); r != nil {
			o = Outcome{Err: fmt.Errorf("panic: %v", r)}
		}
	}()
	return e.Run(c)
}

func verdictWord(same bool) string {
	if same {
		return "same shape"
	}
	return "DIFFERENT"
}

// Width is the terminal width [WriteTable] fits its lines to by default.
const Width = 80

// WriteTable prints the results for a terminal, every line at most width columns (Width if
// width <= 0): the table's rows one after the other, each cell on a line of its own beside its
// column's name and wrapped to fit, then the summary and the scaling notes. [WriteMarkdown] prints
// the same as one Markdown table.
func WriteTable(w io.Writer, res []Result, width int) error {
	if width <= 0 {
		width = Width
	}
	withJava := ranJava(res)
	labels := []string{"experiment", "Java (published)"}
	if withJava {
		labels = append(labels, "Java (this machine)")
	}
	labels = append(labels, "loom (measured now)", "verdict")
	pad := 0
	for _, l := range labels {
		pad = max(pad, utf8.RuneCountInString(l))
	}
	indent := strings.Repeat(" ", 2+pad+2)
	var b strings.Builder
	for i, r := range res {
		if i > 0 {
			b.WriteString("\n")
		}
		writeLines(&b, Wrap(r.Name, width, "", "  "))
		row := rowCells(r, withJava)
		for k, l := range labels {
			first := "  " + l + strings.Repeat(" ", pad-utf8.RuneCountInString(l)+2)
			writeLines(&b, Wrap(row[k], width, first, indent))
		}
	}
	b.WriteString("\n")
	writeLines(&b, Wrap(summaryOf(res), width, "", ""))
	writeNotes(&b, res, withJava, func(text, first, rest string) { writeLines(&b, Wrap(text, width, first, rest)) })
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteMarkdown prints the results as one Markdown table (for the README; lines as long as their
// cells), followed by the summary and the scaling notes. When the Java programs ran (loom demo
// --java), a "Java (this machine)" column stands beside the published one.
func WriteMarkdown(w io.Writer, res []Result) error {
	var b strings.Builder
	withJava := ranJava(res)
	if withJava {
		b.WriteString("| experiment | Java (published) | Java (this machine) | loom (measured now) | verdict |\n")
		b.WriteString("| --- | --- | --- | --- | --- |\n")
	} else {
		b.WriteString("| experiment | Java (published) | loom (measured now) | verdict |\n")
		b.WriteString("| --- | --- | --- | --- |\n")
	}
	for _, r := range res {
		row := rowCells(r, withJava)
		for i := range row {
			row[i] = cell(row[i])
		}
		fmt.Fprintf(&b, "| %s |\n", strings.Join(row, " | "))
	}
	fmt.Fprintf(&b, "\n%s\n", summaryOf(res))
	writeNotes(&b, res, withJava, func(text, first, _ string) { b.WriteString(first + text + "\n") })
	_, err := io.WriteString(w, b.String())
	return err
}

func ranJava(res []Result) bool {
	return slices.ContainsFunc(res, func(r Result) bool { return r.JavaHere != "" || r.JavaError != "" })
}

// rowCells returns the cells of r's row: the experiment (marked * if scaled), the published
// figure, this machine's Java figure (withJava), loom's, and the verdict.
func rowCells(r Result, withJava bool) []string {
	title := r.Title
	if r.Scaling != "" {
		title += " *"
	}
	v := verdictWord(r.Same)
	if r.Verdict != "" {
		v += ": " + r.Verdict
	}
	row := []string{title, r.Java}
	if withJava {
		here := r.JavaHere
		if r.JavaError != "" {
			here = "not run: " + r.JavaError
		}
		row = append(row, here)
	}
	return append(row, r.Loom, v)
}

func summaryOf(res []Result) string {
	same := 0
	for _, r := range res {
		if r.Same {
			same++
		}
	}
	return Summary(same, len(res))
}

// writeNotes writes what follows the summary: what the Java (this machine) column is, and how
// each scaled experiment was scaled, each through line(text, first-line prefix, next-line prefix).
func writeNotes(b *strings.Builder, res []Result, withJava bool, line func(text, first, rest string)) {
	if withJava {
		b.WriteString("\n")
		line("Java (this machine): each experiment's program in cmd/loom/java, in a JVM of its own, with the parameters loom's run used; times measured inside the program (JVM start-up excluded).", "", "")
	}
	var notes []Result
	for _, r := range res {
		if r.Scaling != "" {
			notes = append(notes, r)
		}
	}
	if len(notes) > 0 {
		b.WriteString("\n* scaled:\n")
		for _, r := range notes {
			line(r.Name+": "+r.Scaling, "  - ", "    ")
		}
	}
}

func writeLines(b *strings.Builder, lines []string) {
	for _, l := range lines {
		b.WriteString(l)
		b.WriteString("\n")
	}
}

func cell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

// Report is the JSON document of a demo run.
type Report struct {
	GoVersion   string   `json:"go_version"`    // [runtime.Version]()
	GOOS        string   `json:"goos"`          // [runtime.GOOS]
	GOARCH      string   `json:"goarch"`        // [runtime.GOARCH]
	NumCPU      int      `json:"num_cpu"`       // [runtime.NumCPU]()
	GOMAXPROCS  int      `json:"gomaxprocs"`    // [runtime.GOMAXPROCS](0)
	Scale       float64  `json:"scale"`         // the run's [Config.Scale]
	LoadAverage float64  `json:"load_average"`  // 1-minute load average at the end; -1 if unknown
	Seconds     float64  `json:"seconds"`       // how long the whole run took
	Same        int      `json:"same_shape"`    // how many experiments had the same shape as Java's
	JDK         string   `json:"jdk,omitempty"` // the JDK of the Java (this machine) runs
	Experiments []Result `json:"experiments"`   // one per experiment run, in table order
}

// WriteJSON prints the results as an indented JSON Report.
func WriteJSON(w io.Writer, c *Config, res []Result, total time.Duration) error {
	rep := Report{
		GoVersion: runtime.Version(), GOOS: runtime.GOOS, GOARCH: runtime.GOARCH,
		NumCPU: runtime.NumCPU(), GOMAXPROCS: runtime.GOMAXPROCS(0),
		Scale: c.scale(), LoadAverage: LoadAverage(), Seconds: total.Seconds(),
	}
	if c.Java != nil {
		rep.JDK = c.Java.JDK()
	}
	// JSON has no Inf or NaN: leave out a figure that came out as one (a division by a zero
	// measurement) rather than fail the whole report
	notFinite := func(_ string, v float64) bool { return math.IsInf(v, 0) || math.IsNaN(v) }
	rep.Experiments = slices.Clone(res)
	for i, r := range rep.Experiments {
		if r.Same {
			rep.Same++
		}
		if r.Figures != nil {
			rep.Experiments[i].Figures = maps.Clone(r.Figures)
			maps.DeleteFunc(rep.Experiments[i].Figures, notFinite)
		}
		if r.JavaFigures != nil {
			rep.Experiments[i].JavaFigures = maps.Clone(r.JavaFigures)
			maps.DeleteFunc(rep.Experiments[i].JavaFigures, notFinite)
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false) // "50 ms < 500 ms", not "\u003c"
	return enc.Encode(rep)
}
