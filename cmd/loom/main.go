// Command loom runs loom's classic experiments and benchmarks.
//
//	loom demo                  run every experiment at full scale; a table on stdout
//	loom demo -scale 0.1       the same with a tenth of the tasks (and shorter sleeps)
//	loom demo -only cached     only the experiments whose names start with "cached"
//	loom demo -list            list the experiments
//	loom demo -budget 120s     fit in 2 minutes: the longest experiment sizes itself to what is left
//	loom demo -long            the fixed-pool experiment with its published 1 s sleeps, whatever the budget
//	loom demo --json           the results as JSON
//	loom demo --markdown       the results as one Markdown table, as in the README (default: fit 80 columns)
//	loom demo --java           also run each experiment's Java program on this machine's JDK (21+)
//	loom bench                 virtual threads vs goroutines vs platform threads, loom vs sync
//	loom bench --java          also time each case's Java twin on this machine's JDK
//	loom bench -heavy          also 1M and 2M sleepers and the peak RSS of 1M (several GB)
//	loom bench -only sleepers  only the sleepers (the heavy ones too), each against goroutines
//	loom bench --svg chart.svg also draw completion time vs task count, fixed pool vs virtual
//
// Progress goes to stderr while it runs; results go to stdout.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/loomgo/loom/cmd/loom/internal/bench"
	"github.com/loomgo/loom/cmd/loom/internal/demo"
	"github.com/loomgo/loom/cmd/loom/java"
	"github.com/loomgo/loom/thread"
)

func main() {
	bench.RunChildIfAsked()
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

const usage = `usage: loom <command> [flags]

commands:
  demo    run the classic virtual-thread experiments and compare them with Java's published figures
  bench   run performance comparisons (virtual threads vs goroutines vs platform threads, loom vs sync)

run 'loom <command> -h' for its flags.
`

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	var err error
	switch args[0] {
	case "demo":
		err = demoCmd(args[1:], stdout, stderr)
	case "bench":
		err = benchCmd(args[1:], stdout, stderr)
	case "help", "-h", "--help", "-help":
		fmt.Fprint(stdout, usage)
		return 0
	default:
		fmt.Fprintf(stderr, "loom: unknown command %q\n\n%s", args[0], usage)
		return 2
	}
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintln(stderr, "loom:", err)
		return 1
	}
	return 0
}

// demoCmd runs the demo. It fails (exit status 1) if an experiment could not run; a result of
// a different shape is a finding, reported in the table, not a failure of the command.
func demoCmd(args []string, stdout, stderr io.Writer) (err error) {
	fs := flag.NewFlagSet("loom demo", flag.ContinueOnError)
	fs.SetOutput(stderr)
	scale := fs.Float64("scale", 1, "fraction of the full-scale task counts to run (0 < scale <= 1), e.g. 0.1")
	only := fs.String("only", "", "comma-separated experiment names (or prefixes) to run; default all")
	asJSON := fs.Bool("json", false, "print the results as JSON instead of a table")
	markdown := fs.Bool("markdown", false, "print the results as one Markdown table (the README's), whatever its width, instead of fitting them to an 80-column terminal")
	list := fs.Bool("list", false, "list the experiments and exit")
	limit := fs.Int("platform-limit", 0, "lower loom's platform thread limit (thread.SetPlatformThreadLimit) to keep a shared machine responsive; 0 keeps the OS-derived limit")
	quiet := fs.Bool("q", false, "no progress on stderr")
	budget := fs.Duration("budget", 170*time.Second, "time the whole demo should fit in: the 10,000 × 1 s fixed-pool experiment (~55 s) runs last, and with 1 s sleeps only if they fit in what is left, else capped at 200 ms; 0 means no limit")
	long := fs.Bool("long", false, "run the fixed-pool experiment with its published 1 s sleeps whatever the budget")
	withJava := fs.Bool("java", false, "also run each experiment's Java program (cmd/loom/java) on a JDK 21+ of this machine, in a JVM of its own, with the same parameters: a \"Java (this machine)\" column")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: loom demo [-scale f] [-only names] [-json | -markdown] [-java] [-list] [-budget d] [-long] [-platform-limit n]\n\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("demo: unexpected argument %q", fs.Arg(0))
	}
	if *asJSON && *markdown {
		return errors.New("demo: -json and -markdown are two formats; pick one")
	}
	if *scale <= 0 || *scale > 1 {
		return fmt.Errorf("demo: -scale must be in (0, 1], got %v", *scale)
	}
	exps, err := demo.Select(*only)
	if err != nil {
		return err
	}
	if *list {
		tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
		for _, e := range exps {
			fmt.Fprintf(tw, "%s\t%s\n", e.Name, e.Title)
		}
		return tw.Flush()
	}
	if *limit > 0 {
		thread.SetPlatformThreadLimit(*limit)
	}
	c := &demo.Config{Scale: *scale, Long: *long, Budget: *budget}
	if *withJava {
		if jvm := startJava("demo", stderr); jvm != nil {
			defer jvm.Close()
			c.Java = jvm
		}
	}
	if !*quiet {
		c.Progress = stderr
		fmt.Fprintf(stderr, "loom demo: %s at scale %v, time budget %v; platform thread limit %s%s\n",
			demo.Plural(len(exps), "experiment"), *scale, budgetNote(*budget), demo.Commas(thread.PlatformThreadLimit()), limitNote(*limit))
	}
	start := time.Now()
	res := demo.Run(c, exps)
	total := time.Since(start)
	if !*quiet {
		fmt.Fprintf(stderr, "done in %.1f s\n", total.Seconds())
	}
	if *asJSON {
		if err := demo.WriteJSON(stdout, c, res, total); err != nil {
			return err
		}
		return failed(res)
	}
	write := func() error { return demo.WriteTable(stdout, res, demo.Width) }
	if *markdown {
		write = func() error { return demo.WriteMarkdown(stdout, res) }
	}
	if err := write(); err != nil {
		return err
	}
	defer func() {
		if err == nil {
			err = failed(res)
		}
	}()
	totals := fmt.Sprintf("Total %.1f s at scale %v on %d CPUs (GOMAXPROCS %d)%s; platform thread limit %s%s%s.",
		total.Seconds(), *scale, runtime.NumCPU(), runtime.GOMAXPROCS(0), loadNote(), demo.Commas(thread.PlatformThreadLimit()), limitNote(*limit), jdkNote(c.Java))
	if !*markdown {
		totals = strings.Join(demo.Wrap(totals, demo.Width, "", ""), "\n")
	}
	_, err = fmt.Fprintf(stdout, "\n%s\n", totals)
	return err
}

// startJava finds a JDK and compiles the Java programs for --java. Without a JDK it says so
// once, on stderr, and returns nil: the command goes on with the published figures only.
func startJava(cmd string, stderr io.Writer) *java.JVM {
	jvm, err := java.Start(context.Background())
	if err != nil {
		fmt.Fprintf(stderr, "loom %s: --java: %v; going on without the Java (this machine) column\n", cmd, err)
		return nil
	}
	fmt.Fprintf(stderr, "loom %s: --java: %s (programs compiled once; each run times itself inside its JVM)\n", cmd, jvm.JDK())
	return jvm
}

func jdkNote(r java.Runner) string {
	if r == nil {
		return ""
	}
	return "; Java (this machine): " + r.JDK()
}

// failed returns an error naming the experiments that could not run, if any.
func failed(res []demo.Result) error {
	var names []string
	for _, r := range res {
		if r.Error != "" {
			names = append(names, r.Name)
		}
	}
	if len(names) == 0 {
		return nil
	}
	return fmt.Errorf("demo: %d experiment(s) could not run: %s", len(names), strings.Join(names, ", "))
}

func loadNote() string {
	if l := demo.LoadAverage(); l >= 0 {
		return fmt.Sprintf(", load average %.1f", l)
	}
	return ""
}

func budgetNote(budget time.Duration) string {
	if budget <= 0 {
		return "none"
	}
	return budget.String()
}

func limitNote(limit int) string {
	if limit > 0 {
		return " (lowered with -platform-limit)"
	}
	return " (from the OS and Go's debug.SetMaxThreads)"
}

func benchCmd(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("loom bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	svg := fs.String("svg", "", "also draw completion time vs task count (fixed pool vs virtual threads) to this SVG file")
	only := fs.String("only", "", "run only the benchmarks whose names contain this (heavy ones too: -only sleepers)")
	heavy := fs.Bool("heavy", false, "also run the heavy benchmarks: 1M and 2M sleepers, the peak RSS of 1M (minutes, several GB)")
	benchtime := fs.Duration("benchtime", time.Second, "run time of each benchmark, its rounds together (each Java twin: as long again, after a warm-up as long)")
	rounds := fs.Int("rounds", 5, "rounds each benchmark runs in; ns/op is the median round's")
	withJava := fs.Bool("java", false, "also time each case's Java twin (cmd/loom/java/Bench.java) on a JDK 21+ of this machine, in a JVM of its own")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: loom bench [-svg FILE] [-only substring] [-heavy] [-benchtime d] [-rounds n] [-java]\n\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("bench: unexpected argument %q", fs.Arg(0))
	}
	if *rounds < 1 {
		return fmt.Errorf("bench: -rounds must be at least 1, got %d", *rounds)
	}
	o := bench.Options{Only: *only, Heavy: *heavy, BenchTime: *benchtime, Rounds: *rounds, Progress: stderr}
	if *withJava {
		if jvm := startJava("bench", stderr); jvm != nil {
			defer jvm.Close()
			o.Java = jvm
		}
	}
	res, err := bench.Run(o)
	if err != nil {
		return err
	}
	if err := bench.WriteTable(stdout, res); err != nil {
		return err
	}
	if *svg == "" {
		return nil
	}
	fmt.Fprintln(stderr, "measuring the chart: fixed pool of 200 vs virtual threads, tasks × 100 ms")
	pts, err := bench.Sweep(bench.SweepOptions{Progress: stderr})
	if err != nil {
		return err
	}
	f, err := os.Create(*svg)
	if err != nil {
		return err
	}
	if err := bench.WriteSVG(f, pts); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "\nchart written to %s\n", *svg)
	return nil
}
