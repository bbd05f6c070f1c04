package bench

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/loomgo/loom/executors"
	"github.com/loomgo/loom/thread"
)

// scaleDiv divides the thread counts of the scale cases (the race detector allows 8,128
// goroutines at once).
var scaleDiv = 1

// childEnv names the environment variable that makes the process a scale case's child (see
// RunChildIfAsked): "rss <virtual|goroutine> <threads> <sleep>".
const childEnv = "LOOM_BENCH_CHILD"

// scaleCases are issue 14's rows at scale, each a virtual thread per task (Submit to a
// virtual thread-per-task executor, as Java's classic examples do) against a goroutine per
// task: a million trivial futures; sleepers at 10k to 2M, their wall time; and the peak RSS of
// a process of sleepers and the memory each sleeping thread holds, each side in a child process
// of its own (in this process, one case's freed stacks would serve the next). The 1M and 2M sleepers are Heavy (loom bench -heavy, or -only sleepers).
func scaleCases() []Case {
	var cs []Case
	futures := 1_000_000 / scaleDiv
	fg := fmt.Sprintf("%s trivial futures: Submit, then Get each, then Close", num(float64(futures)))
	cs = append(cs,
		Case{Group: fg, Name: "goroutine + 1-buffered channel each", Note: "per batch", MaxRounds: 3, F: func(b *testing.B) {
			for b.Loop() {
				goFutures(b, futures)
			}
		}},
		Case{Group: fg, Name: "virtual thread per task executor", Note: "per batch", MaxRounds: 3, Goal: 0.5, F: func(b *testing.B) {
			for b.Loop() {
				loomFutures(b, futures)
			}
		}})
	for _, s := range []struct {
		n     int
		d     time.Duration
		goal  float64
		also  map[string]float64
		heavy bool
	}{
		{100_000, time.Second, 1.05, nil, false},
		{10_000, 100 * time.Millisecond, 1.2, nil, false},
		{100_000, 100 * time.Millisecond, 1.2, nil, false},
		{1_000_000, 100 * time.Millisecond, 1.2, nil, true},
		{2_000_000, 100 * time.Millisecond, 1.2, nil, true},
		{1_000_000, 2 * time.Second, 1.15, nil, true},
	} {
		n := s.n / scaleDiv
		g := fmt.Sprintf("%s sleepers × Sleep(%v)", num(float64(n)), s.d)
		// A batch's wall time is its start phase plus the sleep, and the start phase doubles when
		// a collection falls in it, which happens in some rounds and not in others (loom's side
		// allocates more, so more often there): five rounds for the sizes that take seconds, so
		// that one such round does not decide the median.
		rounds := 5
		if s.heavy {
			rounds = 3
		}
		cs = append(cs,
			Case{Group: g, Name: "goroutine each, go + WaitGroup", Note: "per batch", MaxRounds: rounds, Heavy: s.heavy, F: sleepers(n, s.d, false)},
			Case{Group: g, Name: "virtual thread each, Submit + Close", Note: "per batch", MaxRounds: rounds, Heavy: s.heavy, Goal: s.goal, Also: s.also, F: sleepers(n, s.d, true)})
	}
	for _, s := range []struct {
		n     int
		d     time.Duration
		heavy bool
	}{{100_000, time.Second, false}, {1_000_000, 2 * time.Second, true}} {
		n := s.n / scaleDiv
		g := fmt.Sprintf("peak RSS of a process of %s sleepers × Sleep(%v)", num(float64(n)), s.d)
		cs = append(cs,
			Case{Group: g, Name: "goroutines", Note: "a child process per run", Metric: "MB-peak-RSS", MaxRounds: 3, Heavy: s.heavy, F: peakRSS("goroutine", n, s.d)},
			Case{Group: g, Name: "virtual threads, Submit", Note: "a child process per run", Metric: "MB-peak-RSS", MaxRounds: 3, Heavy: s.heavy, Goal: 1.25,
				Also: map[string]float64{"B/thread": 1.1}, F: peakRSS("virtual", n, s.d)})
	}
	return cs
}

// goFutures starts n goroutines that each send a result on a channel of their own, then
// receives every result in order: the Go way of n futures.
func goFutures(b *testing.B, n int) {
	chans := make([]chan int, n)
	for i := range chans {
		ch := make(chan int, 1)
		chans[i] = ch
		go func() { ch <- i * 2 }()
	}
	sum := 0
	for _, ch := range chans {
		sum += <-ch
	}
	if sum != n*(n-1) {
		b.Fatalf("sum %d, want %d", sum, n*(n-1))
	}
}

// loomFutures submits n tasks to a virtual thread-per-task executor, gets each result in
// order and closes the executor.
func loomFutures(b *testing.B, n int) {
	es := executors.NewVirtualThreadPerTaskExecutor()
	fs := make([]executors.Future[int], n)
	for i := range fs {
		f, err := executors.Submit(es, func() (int, error) { return i * 2, nil })
		if err != nil {
			b.Fatal(err)
		}
		fs[i] = f
	}
	sum := 0
	for _, f := range fs {
		v, err := f.Get()
		if err != nil {
			b.Fatal(err)
		}
		sum += v
	}
	es.Close()
	if sum != n*(n-1) {
		b.Fatalf("sum %d, want %d", sum, n*(n-1))
	}
}

// sleepers times a batch of n tasks that each sleep for d, all started at once, and waits
// for them: a goroutine each, or a virtual thread each.
func sleepers(n int, d time.Duration, virtual bool) func(b *testing.B) {
	return func(b *testing.B) {
		for range b.N {
			var asleep atomic.Int64
			startSleepers(n, d, virtual, &asleep)()
		}
	}
}

// startSleepers starts n tasks that each count themselves in asleep and sleep for d, and
// returns a function that waits for them all.
func startSleepers(n int, d time.Duration, virtual bool, asleep *atomic.Int64) (wait func()) {
	if !virtual {
		var wg sync.WaitGroup
		for range n {
			wg.Go(func() {
				asleep.Add(1)
				time.Sleep(d)
			})
		}
		return wg.Wait
	}
	es := executors.NewVirtualThreadPerTaskExecutor()
	for i := range n {
		executors.Submit(es, func() (int, error) {
			asleep.Add(1)
			return i, thread.Sleep(d)
		})
	}
	return func() { es.Close() }
}

// peakRSS runs n sleepers × d of the given kind in a child process per round (this
// executable, see RunChildIfAsked) and reports the child's peak resident set (VmHWM) in
// MB-peak-RSS, and the memory each sleeping thread holds (heap and stacks in use after a
// collection while all sleep, over what the child had in use after one before they started) in
// B/thread: each side's figures are its own.
func peakRSS(kind string, n int, d time.Duration) func(b *testing.B) {
	return func(b *testing.B) {
		exe, err := os.Executable()
		if err != nil {
			b.Fatal(err)
		}
		var peaks, perThread []float64
		for range b.N {
			cmd := exec.Command(exe)
			cmd.Env = append(os.Environ(), fmt.Sprintf("%s=rss %s %d %v", childEnv, kind, n, d))
			var out, errb bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errb
			if err := cmd.Run(); err != nil {
				b.Fatalf("child %s: %v\n%s", cmd.Env[len(cmd.Env)-1], err, errb.String())
			}
			var kb, bpt float64
			if _, err := fmt.Sscanf(out.String(), "vmhwm_kb %g\nbytes_per_thread %g", &kb, &bpt); err != nil {
				b.Fatalf("child printed %q: %v", out.String(), err)
			}
			peaks = append(peaks, kb/1024)
			perThread = append(perThread, bpt)
		}
		b.ReportMetric(median(peaks), "MB-peak-RSS")
		b.ReportMetric(median(perThread), "B/thread")
	}
}

// RunChildIfAsked makes the process a scale case's child when the environment asks for one
// (loom bench re-executes itself for each peak-RSS run; its tests' binary does the same): it
// runs the sleepers, prints "vmhwm_kb N", the process's peak resident set from
// /proc/self/status, and "bytes_per_thread M" (see peakRSS), and exits. Otherwise it returns at once. Call it first thing in main (and
// in TestMain).
func RunChildIfAsked() {
	spec := os.Getenv(childEnv)
	if spec == "" {
		return
	}
	if err := runChild(spec); err != nil {
		fmt.Fprintln(os.Stderr, "loom bench child:", err)
		os.Exit(1)
	}
	os.Exit(0)
}

func runChild(spec string) error {
	var kind string
	var n int
	var ds string
	if _, err := fmt.Sscanf(spec, "rss %s %d %s", &kind, &n, &ds); err != nil {
		return fmt.Errorf("%s=%q: %v", childEnv, spec, err)
	}
	d, err := time.ParseDuration(ds)
	if err != nil {
		return err
	}
	var before, during runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	var asleep atomic.Int64
	wait := startSleepers(n, d, kind == "virtual", &asleep)
	for asleep.Load() < int64(n) {
		time.Sleep(time.Millisecond)
	}
	// What the sleepers hold is read after a collection, as "before" is: read without one, the
	// figure counted whatever garbage the start phase had left for the next cycle, and flipped
	// between runs (goroutines read 2,472 and 2,736 B/thread in two runs of the same build).
	runtime.GC()
	runtime.ReadMemStats(&during)
	wait()
	kb, err := vmHWM()
	if err != nil {
		return err
	}
	fmt.Printf("vmhwm_kb %d\nbytes_per_thread %.0f\n", kb, float64(during.HeapInuse+during.StackInuse-before.HeapInuse-before.StackInuse)/float64(n))
	return nil
}

// vmHWM returns the process's peak resident set in kB (VmHWM in /proc/self/status).
func vmHWM() (int64, error) {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			return strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
		}
	}
	return 0, fmt.Errorf("no VmHWM in /proc/self/status")
}

func median(xs []float64) float64 {
	xs = slices.Clone(xs)
	slices.Sort(xs)
	return xs[len(xs)/2]
}
