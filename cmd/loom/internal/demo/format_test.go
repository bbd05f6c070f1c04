package demo_test

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/loomgo/loom/cmd/loom/internal/demo"
	"github.com/loomgo/loom/thread"
)

// longResults are the results of every experiment with cells as long as a real run's, a few
// longer, and a word longer than any line.
func longResults(withJava bool) []demo.Result {
	var res []demo.Result
	for i, e := range demo.All() {
		r := demo.Result{
			Name: e.Name, Title: e.Title, Java: e.Java, Rule: e.Rule, Same: i%3 != 0,
			Loom:    "PinSynchronized (Java 21): 854 ms vs 226 ms; PinNone (Java 25): 200 ms vs 200 ms; 4 pinned events, 1,000 ms",
			Verdict: "all done, no crash; 56,167 ms > 3,000 ms (3× the sleep; with at most 2,000 alive at a time, 100,000 threads take at least 50 rounds of sleep)",
		}
		if i%2 == 0 {
			r.Scaling = "ran 1,000 × 100 ms on a pool of 20 (full: 10,000 × 1 s on 200; the 50 rounds of sleep that make the fixed pool slow are kept)"
		}
		if e.Name == "carrier-hopping" {
			r.Loom = "VirtualThread[#138139]/runnable@ForkJoinPool-13-worker-2, after sleep VirtualThread[#138139]/runnable@ForkJoinPool-13-worker-1; 15 of 16 threads resumed on another worker"
		}
		if withJava {
			r.JavaHere = "5,001 ms vs 160 ms (31×); 207 vs 15 platform threads"
			if i == 3 {
				r.JavaHere, r.JavaError = "", "Pinning.java does not compile on Java 21: an error message as long as a javac error message is"
			}
		}
		res = append(res, r)
	}
	return res
}

// squeeze removes every space and line break.
func squeeze(s string) string { return strings.Join(strings.Fields(s), "") }

// TestTableFitsAnEightyColumnTerminal checks the default table: no line longer than 80 columns,
// with and without the Java (this machine) column, and every cell's text all there.
func TestTableFitsAnEightyColumnTerminal(t *testing.T) {
	for _, withJava := range []bool{false, true} {
		res := longResults(withJava)
		var b bytes.Buffer
		if err := demo.WriteTable(&b, res, 0); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		for i, line := range strings.Split(out, "\n") {
			if n := utf8.RuneCountInString(line); n > demo.Width {
				t.Errorf("java %v: line %d has %d columns, want at most %d:\n%s", withJava, i+1, n, demo.Width, line)
			}
		}
		all := squeeze(out)
		for _, r := range res {
			for _, c := range []string{r.Name, r.Title, r.Java, r.Loom, r.Verdict, r.Scaling, r.JavaHere, r.JavaError} {
				if !strings.Contains(all, squeeze(c)) {
					t.Errorf("java %v: the table lost %q:\n%s", withJava, c, out)
				}
			}
		}
		if withJava != strings.Contains(out, "Java (this machine)") {
			t.Errorf("java %v, yet the column is there %v", withJava, !withJava)
		}
		same := 0
		for _, r := range res {
			if r.Same {
				same++
			}
		}
		if want := fmt.Sprintf("\n%d of the %d experiments have the same shape as in Java.\n", same, len(res)); !strings.Contains(out, want) {
			t.Errorf("no summary:\n%s", out)
		}
	}
	// a narrower terminal is honoured too
	var b bytes.Buffer
	demo.WriteTable(&b, longResults(false), 60)
	for _, line := range strings.Split(b.String(), "\n") {
		if utf8.RuneCountInString(line) > 60 {
			t.Errorf("width 60: %q", line)
		}
	}
}

// TestMarkdownKeepsOneRowAnExperiment checks --markdown: the README's table, a row a line,
// whatever its length.
func TestMarkdownKeepsOneRowAnExperiment(t *testing.T) {
	res := longResults(false)
	var b bytes.Buffer
	if err := demo.WriteMarkdown(&b, res); err != nil {
		t.Fatal(err)
	}
	rows := regexp.MustCompile(`(?m)^\| .* \|$`).FindAllString(b.String(), -1)
	if len(rows) != 2+len(res) {
		t.Errorf("%d table lines, want a header, a rule and %d rows:\n%s", len(rows), len(res), b.String())
	}
}

func TestWrap(t *testing.T) {
	for _, tc := range []struct {
		text, first, rest string
		width             int
		want              []string
	}{
		{"a bb ccc", "", "", 6, []string{"a bb", "ccc"}},
		{"", "> ", "  ", 10, []string{"> "}},
		// a number keeps its unit, and the scaled mark its word
		{"took 1,000 ms (not 2 s) *", "", "", 11, []string{"took", "1,000 ms", "(not 2 s) *"}},
		// a word longer than a line breaks after a '/' or '@' that fits
		{"x VirtualThread[#1]/runnable@ForkJoinPool-1-worker-1", "", "  ", 24,
			[]string{"x VirtualThread[#1]/", "  runnable@ForkJoinPool-", "  1-worker-1"}},
		{"abcdefghij", "", "", 4, []string{"abcd", "efgh", "ij"}},
		{"µs × ≥ ok", "", "", 6, []string{"µs × ≥", "ok"}},
	} {
		if got := demo.Wrap(tc.text, tc.width, tc.first, tc.rest); !cmp.Equal(got, tc.want) {
			t.Errorf("Wrap(%q, %d) = %q, want %q", tc.text, tc.width, got, tc.want)
		}
	}
}

// TestSummaryReadsNaturally checks the sentence under the table for every kind of count: "1 of
// 1 experiments" is not English.
func TestSummaryReadsNaturally(t *testing.T) {
	for _, tc := range []struct {
		same, total int
		want        string
	}{
		{1, 1, "The experiment has the same shape as in Java."},
		{0, 1, "The experiment does not have the same shape as in Java."},
		{2, 2, "Both experiments have the same shape as in Java."},
		{19, 19, "All 19 experiments have the same shape as in Java."},
		{0, 3, "None of the 3 experiments has the same shape as in Java."},
		{1, 3, "1 of the 3 experiments has the same shape as in Java."},
		{17, 19, "17 of the 19 experiments have the same shape as in Java."},
	} {
		if got := demo.Summary(tc.same, tc.total); got != tc.want {
			t.Errorf("Summary(%d, %d) = %q, want %q", tc.same, tc.total, got, tc.want)
		}
	}
}

// runOne runs the experiment named name at scale and returns its result, one more try if a
// loaded machine made it miss its shape.
func runOne(t *testing.T, name string, scale float64) demo.Result {
	t.Helper()
	exps, err := demo.Select(name)
	if err != nil {
		t.Fatal(err)
	}
	r := demo.Run(&demo.Config{Scale: scale}, exps[:1])[0]
	if !r.Same {
		t.Logf("%s: %s; once more", name, r.Verdict)
		r = demo.Run(&demo.Config{Scale: scale}, exps[:1])[0]
	}
	if r.Error != "" {
		t.Fatalf("%s: %s", name, r.Error)
	}
	return r
}

// TestScaledVerdictsUseTheScaledParameters checks that a scaled run states its rule with the
// sizes it ran: 10 threads × 50 ms one after the other take 500 ms, so the rule cannot be
// "< 500 ms (not 500 ms)". (Whether the figures meet the rule on this machine is
// TestEveryExperimentHasJavasShapeAtTinyScale's business; this one reads the words.)
func TestScaledVerdictsUseTheScaledParameters(t *testing.T) {
	for _, tc := range []struct {
		name  string
		scale float64
		want  string
	}{
		{"monitors-100", 0.1, `^[\d.,]+ ms [<≥] 250 ms \(not 500 ms: the 10 sleeps one after the other\), 1 carrier$`},
		{"monitors-100", 1, `^[\d.,]+ ms [<≥] 500 ms \(not 5,000 ms: the 100 sleeps one after the other\), 1 carrier$`},
		{"futures-1m", 0.01, `^sum = n\(n-1\) = 99,990,000, [\d.,]+ ms [<≥] 1,000 ms \(10 µs a task, at least 1 s\)$`},
		{"futures-1m", 0.15, `^sum = n\(n-1\) = 22,499,850,000, [\d.,]+ ms [<≥] 1,500 ms \(10 µs a task, at least 1 s\)$`},
		{"one-carrier-sleepers", 0.1, `^[\d.,]+ ms [<≥] 250 ms \(not 300 ms: the sleeps one after the other\), `},
	} {
		r := runOne(t, tc.name, tc.scale)
		if !regexp.MustCompile(tc.want).MatchString(r.Verdict) {
			t.Errorf("%s at scale %v: verdict %q, want %s", tc.name, tc.scale, r.Verdict, tc.want)
		}
	}
}

// TestVerdictsUnderALoweredPlatformLimit runs the platform-thread experiments with a lowered
// platform thread limit. The limit counts platform threads; the process's OS threads also count
// the Go runtime's own, so a cell must never set one against the other ("up to 2,005 OS threads
// (below the limit of 2,000)").
func TestVerdictsUnderALoweredPlatformLimit(t *testing.T) {
	old := thread.PlatformThreadLimit()
	t.Cleanup(func() { thread.SetPlatformThreadLimit(old) })
	num := func(s string) int {
		n, err := strconv.Atoi(strings.ReplaceAll(s, ",", ""))
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	others := thread.PlatformThreads()

	// 100 tasks, room for 150 platform threads: every task runs, below the limit
	limit := others + 150
	thread.SetPlatformThreadLimit(limit)
	r := runOne(t, "cached-pool", 0.01)
	m := regexp.MustCompile(`^all 100 tasks ran in [\d.,]+ ms, on up to ([\d,]+) platform threads at once \((below loom's limit of|loom's limit of) ([\d,]+)(, none refused)?; up to ([\d,]+) OS threads seen\)$`).FindStringSubmatch(r.Loom)
	if m == nil {
		t.Fatalf("cached pool under the limit: %q", r.Loom)
	}
	if p, l := num(m[1]), num(m[3]); l != limit || p > l || (p < l) != (m[2] == "below loom's limit of") {
		t.Errorf("cached pool: %d platform threads against a limit of %d (set %d): %q", p, l, limit, r.Loom)
	}
	if !r.Same || !regexp.MustCompile(`^a platform thread per sleeping task: up to [\d,]+ at once \(rule: at least the [\d,]+ tasks? submitted in the first 50 ms, a thread each\), no crash`).MatchString(r.Verdict) {
		t.Errorf("cached pool under the limit: %s", r.Verdict)
	}

	// 100 tasks, room for 40: a clean ErrThreadLimit at the limit
	limit = others + 40
	thread.SetPlatformThreadLimit(limit)
	r = runOne(t, "cached-pool", 0.01)
	m = regexp.MustCompile(`^([\d,]+) platform threads at once, loom's limit \(up to ([\d,]+) OS threads seen\), then task ([\d,]+) failed with thread\.ErrThreadLimit .*; the ([\d,]+) started tasks finished`).FindStringSubmatch(r.Loom)
	if m == nil {
		t.Fatalf("cached pool at the limit: %q", r.Loom)
	}
	if p := num(m[1]); p != limit || num(m[3]) != num(m[4])+1 || r.Figures["peak_platform_threads"] != float64(limit) {
		t.Errorf("cached pool: %d platform threads at the limit (set %d; figure %v): %q", p, limit, r.Figures["peak_platform_threads"], r.Loom)
	}
	if !r.Same || !strings.Contains(r.Verdict, "up to loom's limit of "+demo.Commas(limit)+", then a clean ErrThreadLimit") {
		t.Errorf("cached pool at the limit: %s", r.Verdict)
	}

	// 1,000 platform threads, at most 100 at a time: 10 rounds of sleep
	limit = others + 100
	thread.SetPlatformThreadLimit(limit)
	r = runOne(t, "platform-100k", 0.01)
	m = regexp.MustCompile(`up to ([\d,]+) platform threads alive at once \(loom's limit ([\d,]+)\) on up to [\d,]+ OS threads`).FindStringSubmatch(r.Loom)
	if m == nil || num(m[1]) > num(m[2]) || num(m[2]) != limit {
		t.Errorf("platform threads against the limit: %q", r.Loom)
	}
	if !strings.Contains(r.Verdict, "with at most "+demo.Commas(limit)+" alive at a time, 1,000 threads take at least") {
		t.Errorf("platform-100k: %s", r.Verdict)
	}
}

// TestJSONWritesComparisonsAsTheyAre checks that the JSON report does not escape <, > and &
// ("\u003c"), which a reader of "50 ms \u003c 500 ms" has to decode by hand.
func TestJSONWritesComparisonsAsTheyAre(t *testing.T) {
	res := []demo.Result{{Name: "a", Verdict: "50 ms < 500 ms & 3 > 2", Loom: "<none>"}}
	var b bytes.Buffer
	if err := demo.WriteJSON(&b, &demo.Config{}, res, 0); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"verdict": "50 ms < 500 ms & 3 > 2"`, `"loom": "<none>"`} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("JSON lacks %s:\n%s", want, b.String())
		}
	}
	if strings.Contains(b.String(), `\u003c`) || strings.Contains(b.String(), `\u0026`) {
		t.Errorf("JSON escapes HTML:\n%s", b.String())
	}
}
