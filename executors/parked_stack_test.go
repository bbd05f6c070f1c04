//go:build !race

package executors_test

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/loomgo/loom/executors"
	"github.com/loomgo/loom/thread"
)

// TestParkedStackOfSubmittedTaskIsAGoroutineMinimum: a virtual thread started the way Java
// programs start one (executors.Submit of a callable to a virtual thread-per-task executor) and
// parked in Sleep or Park holds no more stack than a goroutine parked on a channel: the frames
// from the carrier's dispatch loop through the task wrapper, the callable and the park path fit
// in the goroutine's first stack (2 KB) — a doubled stack would show as a ratio near 2. (Issue
// 14: every such stack was 4,100 bytes.)
//
// Each side is measured in a child process of its own (this test binary again), so that neither
// reuses the other's freed stacks, with GODEBUG=adaptivestackstart=0: otherwise the runtime
// starts new goroutines with the average stack it saw at the last collection, which the test
// runner's own goroutines can raise to 4 KB, and both sides would start at 4 KB whatever their
// depth. Not under -race, whose instrumented frames are larger.
func TestParkedStackOfSubmittedTaskIsAGoroutineMinimum(t *testing.T) {
	if spec := os.Getenv(stackChildEnv); spec != "" {
		how, side, _ := strings.Cut(spec, "/")
		fmt.Printf("stack_per_task %.0f\n", parkedStackPerTask(t, how, side == "virtual"))
		return
	}
	for _, how := range []string{"Sleep", "Park"} {
		t.Run(how, func(t *testing.T) {
			perTask := map[string]float64{}
			for _, side := range []string{"goroutine", "virtual"} {
				cmd := exec.Command(os.Args[0], "-test.run=^TestParkedStackOfSubmittedTaskIsAGoroutineMinimum$", "-test.count=1")
				cmd.Env = append(os.Environ(), stackChildEnv+"="+how+"/"+side,
					"GODEBUG="+strings.TrimPrefix(os.Getenv("GODEBUG")+",adaptivestackstart=0", ","))
				out, err := cmd.CombinedOutput()
				_, v, ok := strings.Cut(string(out), "stack_per_task ")
				if ok {
					v, _, _ = strings.Cut(v, "\n")
					perTask[side], err = strconv.ParseFloat(v, 64)
				}
				if err != nil || !ok {
					t.Fatalf("child %s/%s: %v\n%s", how, side, err, out)
				}
			}
			g, v := perTask["goroutine"], perTask["virtual"]
			t.Logf("stack per parked task: goroutine %.0f B, virtual thread through Submit %.0f B", g, v)
			if g < 1024 || v > 1.4*g {
				t.Errorf("a parked virtual thread started with Submit holds %.0f B of stack, a goroutine %.0f B: its stack has grown past the minimum", v, g)
			}
		})
	}
}

// stackChildEnv marks a child process of TestParkedStackOfSubmittedTaskIsAGoroutineMinimum:
// "Sleep/virtual", "Park/goroutine"...
const stackChildEnv = "LOOM_PARKED_STACK_CHILD"

// parkedStackPerTask parks 4,000 tasks (virtual threads through Submit, or goroutines on a
// channel) in Sleep or Park, and returns the stack memory each holds once they all wait:
// StackInuse after a collection, before and during.
func parkedStackPerTask(t *testing.T, how string, virtual bool) float64 {
	const n = 4000
	var before, during runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	release := make(chan struct{})
	var end func()
	if virtual {
		s := thread.NewScheduler(thread.SchedulerOptions{})
		defer s.Close()
		es := executors.NewThreadPerTaskExecutor(thread.OfVirtual().Scheduler(s).Factory())
		for i := range n {
			if _, err := executors.Submit(es, func() (int, error) {
				if how == "Sleep" {
					return i, thread.Sleep(time.Hour)
				}
				for {
					select {
					case <-release:
						return i, nil
					default:
						thread.Park()
					}
				}
			}); err != nil {
				t.Fatal(err)
			}
		}
		for s.Stats().Parked < n {
			time.Sleep(time.Millisecond)
		}
		end = func() {
			es.ShutdownNow() // interrupts them
			es.Close()
		}
	} else {
		var started, wg sync.WaitGroup
		started.Add(n)
		for range n {
			wg.Go(func() {
				started.Done()
				<-release
			})
		}
		started.Wait()
		end = wg.Wait
	}
	runtime.GC()
	runtime.ReadMemStats(&during)
	close(release)
	end()
	return (float64(during.StackInuse) - float64(before.StackInuse)) / n
}
