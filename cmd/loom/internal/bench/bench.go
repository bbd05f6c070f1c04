// Package bench compares loom with plain Go: virtual threads against goroutines and platform
// threads, loom's blocking primitives against sync and channels. Each comparison is a group of
// testing.Benchmark runs in the same process; the first case of a group is its baseline, and
// every case is reported as ns/op and as a ratio to the baseline.
package bench

import (
	"flag"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"text/tabwriter"
	"time"
)

// Case is one benchmark.
type Case struct {
	Group string // cases of a group are compared with the group's first case
	Name  string
	Note  string // what one op is
	F     func(b *testing.B)
}

// Result is a case's measurement.
type Result struct {
	Group       string  `json:"group"`
	Name        string  `json:"name"`
	Note        string  `json:"note,omitempty"`
	N           int     `json:"n"`
	NsPerOp     float64 `json:"ns_per_op"`
	BytesPerOp  int64   `json:"bytes_per_op"`
	AllocsPerOp int64   `json:"allocs_per_op"`
	Ratio       float64 `json:"ratio_to_baseline"`
	Baseline    string  `json:"baseline"`
}

// Options configure Run.
type Options struct {
	Only      string        // run only cases whose "group/name" contains this
	BenchTime time.Duration // target time per case; 0 means 1 s
	Progress  io.Writer     // nil: quiet
}

var initOnce sync.Once

// Run runs the cases and returns their results, grouped, in order.
func Run(o Options) ([]Result, error) {
	initOnce.Do(testing.Init)
	bt := o.BenchTime
	if bt <= 0 {
		bt = time.Second
	}
	if err := flag.Set("test.benchtime", bt.String()); err != nil {
		return nil, err
	}
	var out []Result
	base := map[string]Result{}
	for _, c := range Cases() {
		full := c.Group + "/" + c.Name
		if o.Only != "" && !strings.Contains(full, o.Only) {
			continue
		}
		if o.Progress != nil {
			fmt.Fprintf(o.Progress, "bench %s ...\n", full)
		}
		br := testing.Benchmark(c.F)
		if br.N == 0 {
			return out, fmt.Errorf("benchmark %s failed", full)
		}
		r := Result{
			Group: c.Group, Name: c.Name, Note: c.Note, N: br.N,
			NsPerOp:     float64(br.T.Nanoseconds()) / float64(br.N),
			BytesPerOp:  br.AllocedBytesPerOp(),
			AllocsPerOp: br.AllocsPerOp(),
		}
		b, ok := base[c.Group]
		if !ok {
			base[c.Group] = r
			b = r
		}
		r.Baseline = b.Name
		r.Ratio = r.NsPerOp / b.NsPerOp
		out = append(out, r)
	}
	return out, nil
}

// WriteTable prints the results, one block per group.
func WriteTable(w io.Writer, res []Result) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "benchmark\tns/op\tB/op\tallocs/op\tvs baseline\t")
	group := ""
	for _, r := range res {
		if r.Group != group {
			group = r.Group
			fmt.Fprintf(tw, "\t\t\t\t\t\n")
			fmt.Fprintf(tw, "%s (baseline: %s)\t\t\t\t\t\n", r.Group, r.Baseline)
		}
		rat := "baseline"
		if r.Name != r.Baseline {
			rat = fmt.Sprintf("%.2f×", r.Ratio)
		}
		fmt.Fprintf(tw, "  %s\t%s\t%d\t%d\t%s\t\n", r.Name, fmtNs(r.NsPerOp), r.BytesPerOp, r.AllocsPerOp, rat)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintln(w, "\nratio > 1: slower than the baseline of its group; all runs in this process, same machine.")
	return err
}

func fmtNs(ns float64) string {
	switch {
	case ns >= 100:
		return fmt.Sprintf("%.0f", ns)
	case ns >= 10:
		return fmt.Sprintf("%.1f", ns)
	default:
		return fmt.Sprintf("%.2f", ns)
	}
}
