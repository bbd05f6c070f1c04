package demo

import (
	"bufio"
	"os"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/loomgo/loom/thread"
)

// osThreads returns the number of OS threads the process has now (Linux: the Threads: line of
// /proc/self/status), or, where that file does not exist, the number of OS threads the Go
// runtime has ever created.
func osThreads() int {
	if n := procStatus("Threads:"); n > 0 {
		return int(n)
	}
	return pprof.Lookup("threadcreate").Count()
}

// rssBytes returns the process's resident set size (Linux), or 0.
func rssBytes() int64 { return procStatus("VmRSS:") * 1024 }

// procStatus reads one numeric field of /proc/self/status (kB for memory fields), or 0.
func procStatus(field string) int64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if rest, ok := strings.CutPrefix(line, field); ok {
			fields := strings.Fields(rest)
			if len(fields) == 0 {
				return 0
			}
			n, _ := strconv.ParseInt(fields[0], 10, 64)
			return n
		}
	}
	return 0
}

// inUse returns the memory the Go runtime has in use for the heap and for goroutine stacks
// (runtime.MemStats HeapInuse + StackInuse).
func inUse() int64 {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapInuse + ms.StackInuse)
}

// settledInUse collects garbage first, so that the figure is live memory rather than garbage
// not yet collected.
func settledInUse() int64 {
	runtime.GC()
	return inUse()
}

// quietInUse is settledInUse for the start of a measurement: it first waits (a few seconds at
// most) until the default scheduler and those given hold no goroutine, so that the free
// continuations a scheduler keeps for a while after its threads ended (see
// thread.SchedulerStats.Goroutines) are neither counted in the baseline and then reused by the
// threads measured, nor freed while they are measured.
func quietInUse(ss ...*thread.Scheduler) int64 {
	ss = append(ss, thread.DefaultScheduler())
	waitFor(5*time.Second, func() bool {
		for _, s := range ss {
			if s.Stats().Goroutines != 0 {
				return false
			}
		}
		return true
	})
	return settledInUse()
}

// peak samples f every few milliseconds until stop is called, and returns the highest value
// seen.
type peak struct {
	f    func() int64
	max  atomic.Int64
	done chan struct{}
	wg   sync.WaitGroup
}

func samplePeak(every time.Duration, f func() int64) *peak {
	p := &peak{f: f, done: make(chan struct{})}
	p.max.Store(f())
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		tick := time.NewTicker(every)
		defer tick.Stop()
		for {
			select {
			case <-p.done:
				return
			case <-tick.C:
				p.observe()
			}
		}
	}()
	return p
}

// samplePeakThreads samples the number of OS threads.
func samplePeakThreads() *peak {
	return samplePeak(10*time.Millisecond, func() int64 { return int64(osThreads()) })
}

func (p *peak) observe() {
	n := p.f()
	for {
		old := p.max.Load()
		if n <= old || p.max.CompareAndSwap(old, n) {
			return
		}
	}
}

// stop ends the sampling and returns the peak.
func (p *peak) stop() int {
	p.observe()
	close(p.done)
	p.wg.Wait()
	return int(p.max.Load())
}

// waitFor polls cond every millisecond until it holds or d has passed, and reports whether it
// holds.
func waitFor(d time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(time.Millisecond)
	}
	return true
}

// LoadAverage returns the machine's 1-minute load average (Linux /proc/loadavg), or -1: how
// many other runnable processes shared the CPUs while the experiments ran.
func LoadAverage() float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return -1
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return -1
	}
	v, err := strconv.ParseFloat(f[0], 64)
	if err != nil {
		return -1
	}
	return v
}
