package thread_test

import (
	"math/rand/v2"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/loomgo/loom/thread"
)

// attachAndEnd attaches n goroutines with Current, lets them end, and returns their Threads.
func attachAndEnd(n int) []*thread.Thread {
	ths := make([]*thread.Thread, n)
	var wg sync.WaitGroup
	for i := range ths {
		wg.Add(1)
		go func() { defer wg.Done(); ths[i] = thread.Current() }()
	}
	wg.Wait()
	return ths
}

// Issue 15, defect 12: Current on a plain goroutine attaches a platform Thread that, after the
// goroutine ended, still reported RUNNABLE and IsAlive, JoinTimeout(2s) returned false, and
// LiveThreads listed it (50 goroutines, 50 phantoms). LiveThreads sweeps ended goroutines
// before it answers; so do FindDeadlocked and DumpThreads.
func TestForeignThreadsEndWithTheirGoroutinesForLiveThreads(t *testing.T) {
	ths := attachAndEnd(50)
	live := thread.LiveThreads()
	phantoms := 0
	for _, th := range ths {
		if slices.Contains(live, th) {
			phantoms++
		}
	}
	if phantoms != 0 {
		t.Fatalf("LiveThreads lists %d of 50 ended goroutines", phantoms)
	}
	for _, th := range ths {
		if th.State() != thread.Terminated || th.IsAlive() {
			t.Fatalf("%v: state %v, alive %v after LiveThreads swept it", th, th.State(), th.IsAlive())
		}
	}
}

// Without a diagnostic call, State, IsAlive and JoinTimeout of a foreign Thread find out too: a
// joiner wakes now and then to sweep, and State sweeps at a limited rate -- at most once per 50
// sweep durations. A sweep walks every goroutine structure the process has ever had (Go keeps
// them), so in this package's test binary, after the million-goroutine tests and on a loaded
// machine, one takes up to seconds and the lag is minutes; the documented bound is for a
// program without such bursts, so the test runs in a fresh child process.
func TestForeignThreadEndsForJoinAndState(t *testing.T) {
	if os.Getenv("LOOM_FOREIGN_CHILD") != "1" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestForeignThreadEndsForJoinAndState$", "-test.v")
		cmd.Env = append(os.Environ(), "LOOM_FOREIGN_CHILD=1")
		if out, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(out), "--- PASS") {
			t.Fatalf("child: %v\n%s", err, out)
		}
		return
	}
	// wide bounds for a loaded machine; without a sweep they would never be met
	const lag = 10 * time.Second
	th := attachAndEnd(1)[0]
	start := time.Now()
	if ok, err := th.JoinTimeout(lag); !ok || err != nil {
		t.Fatalf("JoinTimeout(%v) of an ended goroutine's Thread = %v, %v", lag, ok, err)
	}
	t.Logf("JoinTimeout noticed the end after %v", time.Since(start))
	th2 := attachAndEnd(1)[0]
	deadline := time.Now().Add(lag)
	for th2.IsAlive() {
		if time.Now().After(deadline) {
			t.Fatalf("%v still alive %v after its goroutine ended", th2, lag)
		}
		time.Sleep(time.Millisecond)
	}
	if th2.State() != thread.Terminated {
		t.Fatalf("state %v", th2.State())
	}
	th3 := attachAndEnd(1)[0]
	joiner := thread.StartVirtualThread(func() { th3.Join() }) // an untimed Join returns too
	if ok, _ := joiner.JoinTimeout(lag); !ok {
		t.Fatalf("an untimed Join of an ended goroutine's Thread is still waiting after %v", lag)
	}
}

// A goroutine that attaches while a sweep runs is alive but missing from the sweep's scan of live
// goroutines: the sweep must not take it for dead (its Thread would turn TERMINATED while it runs,
// and its next Current would attach a new Thread, losing its identity and thread-locals).
// Attachers race sweeps forced by LiveThreads in a loop.
func TestSweepNeverDropsAGoroutineThatAttachedDuringIt(t *testing.T) {
	var stop atomic.Bool
	sweeper := thread.OfPlatform().Start(func() {
		for !stop.Load() {
			thread.LiveThreads()
		}
	})
	var wg sync.WaitGroup
	var broken atomic.Int32
	const n = 2000
	for g := range n {
		// new goroutines all the time, attaching at once: some are created after a sweep's
		// scan of live goroutines and attach before it looks at the registry
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(g), 7))
			me := thread.Current()
			for range 5 {
				time.Sleep(time.Duration(r.IntN(200)) * time.Microsecond)
				if thread.Current() != me || me.State() != thread.Runnable {
					broken.Add(1)
					return
				}
			}
		}()
		if g%20 == 0 {
			time.Sleep(100 * time.Microsecond)
		}
	}
	wg.Wait()
	stop.Store(true)
	join(t, sweeper)
	if b := broken.Load(); b != 0 {
		t.Fatalf("%d of %d live goroutines lost their Thread to a sweep", b, n)
	}
}
