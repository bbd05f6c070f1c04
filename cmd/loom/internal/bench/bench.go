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
	cases := Cases()
	// a selected case brings its group's baseline along, so that its ratio means the same
	wanted := map[string]bool{}
	for _, c := range cases {
		if o.Only == "" || strings.Contains(c.Group+"/"+c.Name, o.Only) {
			wanted[c.Group] = true
		}
	}
	for i, c := range cases {
		full := c.Group + "/" + c.Name
		first := i == 0 || cases[i-1].Group != c.Group
		if o.Only != "" && !strings.Contains(full, o.Only) && !(first && wanted[c.Group]) {
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

// WriteTable prints the results as a Markdown table, one block per group, each case with its
// ratio to the group's baseline.
func WriteTable(w io.Writer, res []Result) error {
	var b strings.Builder
	b.WriteString("| benchmark | ns/op | B/op | allocs/op | vs baseline |\n")
	b.WriteString("| --- | ---: | ---: | ---: | ---: |\n")
	group := ""
	for _, r := range res {
		if r.Group != group {
			group = r.Group
			fmt.Fprintf(&b, "| **%s** | | | | |\n", r.Group)
		}
		rat := fmt.Sprintf("%.2f×", r.Ratio)
		name := r.Name
		if r.Name == r.Baseline {
			rat = "1× (baseline)"
		}
		if r.Note != "" {
			name += " (" + r.Note + ")"
		}
		fmt.Fprintf(&b, "| %s | %s | %d | %d | %s |\n", name, fmtNs(r.NsPerOp), r.BytesPerOp, r.AllocsPerOp, rat)
	}
	b.WriteString("\nratio > 1: slower than the baseline of its group; every case ran in this process, on this machine.\n")
	_, err := io.WriteString(w, b.String())
	return err
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
