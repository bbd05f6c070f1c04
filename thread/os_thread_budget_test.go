//go:build unix

package thread_test

import (
	"errors"
	"os"
	"os/exec"
	"runtime/debug"
	"runtime/pprof"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/loomgo/loom/thread"
)

// Issue 15, defect 8: with the platform thread limit used up, virtual threads inside
// thread.Blocking(func() { syscall.Read(...) }) -- the cure the README gives for Go-native
// blocking -- each held an OS thread of their own, and pushed the process past Go's thread
// limit: "fatal error: thread exhaustion", which no recover can catch. Unmounted Blocking calls
// now count against the same budget as platform threads.
//
// The scenario runs in a child process (the failure kills the process), scaled down: Go's
// limit 300 OS threads, loom's platform thread limit 150, 100 platform threads parked, then 200
// virtual threads blocked in a read(2) on a blocking pipe inside Blocking. Before the fix the
// child dies of thread exhaustion; now 50 of the reads run unmounted (the budget left), the
// others wait on their carriers in turn, and a platform thread start fails cleanly meanwhile.
func TestBlockingCountsAgainstThePlatformThreadLimit(t *testing.T) {
	if os.Getenv("LOOM_OS_THREAD_BUDGET_CHILD") == "1" {
		osThreadBudgetChild(t)
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestBlockingCountsAgainstThePlatformThreadLimit$", "-test.v")
	cmd.Env = append(os.Environ(), "LOOM_OS_THREAD_BUDGET_CHILD=1", "GOMAXPROCS=2")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS") {
		if i := strings.Index(string(out), "fatal error"); i >= 0 {
			out = out[i:min(len(out), i+200)]
		}
		t.Fatalf("child: %v\n%s", err, out)
	}
}

func osThreadBudgetChild(t *testing.T) {
	thread.SetPlatformThreadLimit(150)
	debug.SetMaxThreads(300) // after: SetPlatformThreadLimit only ever raises Go's limit
	const platform, readers, unmounted = 100, 200, 150 - 100

	var fds [2]int
	if err := syscall.Pipe(fds[:]); err != nil { // blocking fds: a read holds its OS thread
		t.Fatal(err)
	}
	defer syscall.Close(fds[0])
	defer syscall.Close(fds[1])

	var parked []*thread.Thread
	for range platform {
		parked = append(parked, thread.OfPlatform().Start(thread.Park))
	}
	s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 2})
	defer s.Close()
	var inRead atomic.Int32
	var ths []*thread.Thread
	for range readers {
		ths = append(ths, thread.OfVirtual().Scheduler(s).Start(func() {
			thread.Blocking(func() {
				inRead.Add(1)
				var b [1]byte
				for {
					if _, err := syscall.Read(fds[0], b[:]); err != syscall.EINTR {
						break
					}
				}
			})
		}))
	}
	// the unmounted reads, plus one on each carrier
	deadline := time.Now().Add(10 * time.Second)
	for inRead.Load() < unmounted+2 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	time.Sleep(100 * time.Millisecond) // any more would be a bug: give them time to show
	if n := inRead.Load(); n != unmounted+2 {
		t.Errorf("%d reads in progress, want %d unmounted + 2 on the carriers", n, unmounted)
	}
	if err := thread.OfPlatform().Unstarted(func() {}).TryStart(); !errors.Is(err, thread.ErrThreadLimit) {
		t.Errorf("a platform thread start with the budget used up by Blocking = %v, want ErrThreadLimit", err)
	}
	t.Logf("OS threads: %d", pprof.Lookup("threadcreate").Count())
	if _, err := syscall.Write(fds[1], make([]byte, readers)); err != nil {
		t.Fatal(err)
	}
	join(t, ths...)
	for _, p := range parked {
		thread.Unpark(p)
	}
	join(t, parked...)
}
