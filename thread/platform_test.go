package thread_test

import (
	"bytes"
	"errors"
	"fmt"
	"runtime/pprof"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/loomgo/loom/thread"
)

func TestPlatformThreadLimitGivesRecoverableError(t *testing.T) {
	if def := thread.PlatformThreadLimit(); def < 100 {
		t.Fatalf("default platform thread limit %d is implausibly low", def)
	}
	thread.SetPlatformThreadLimit(thread.PlatformThreads() + 5)
	defer thread.SetPlatformThreadLimit(0)
	release := make(chan struct{})
	var started []*thread.Thread
	var err error
	for range 20 {
		th := thread.OfPlatform().Unstarted(func() { <-release })
		if err = th.TryStart(); err != nil {
			if th.State() != thread.Terminated {
				t.Errorf("a thread that failed to start is %v, want TERMINATED", th.State())
			}
			break
		}
		started = append(started, th)
	}
	if !errors.Is(err, thread.ErrThreadLimit) || len(started) != 5 {
		t.Fatalf("started %d before %v; want 5 then ErrThreadLimit", len(started), err)
	}
	mustPanic(t, thread.ErrThreadLimit, func() { thread.OfPlatform().Start(func() {}) })
	close(release)
	join(t, started...)
	// capacity comes back once they end
	join(t, thread.OfPlatform().Start(func() {}))
}

func TestPlatformThreadRunsLockedToItsOwnOSThread(t *testing.T) {
	before := thread.PlatformThreads()
	release := make(chan struct{})
	th := thread.OfPlatform().Start(func() { <-release })
	if got := thread.PlatformThreads(); got != before+1 {
		t.Errorf("PlatformThreads = %d, want %d", got, before+1)
	}
	close(release)
	join(t, th)
}

func TestAwaitNonDaemonWaitsForUserThreadsOnly(t *testing.T) {
	var userDone atomic.Bool
	user := thread.OfPlatform().Start(func() { thread.Sleep(50 * time.Millisecond); userDone.Store(true) })
	daemon := thread.OfPlatform().Daemon(true).Start(func() { thread.Park() })
	virtual := thread.StartVirtualThread(func() { thread.Park() })
	thread.AwaitNonDaemon()
	if !userDone.Load() || user.IsAlive() {
		t.Fatal("AwaitNonDaemon returned before the user thread ended")
	}
	if !daemon.IsAlive() || !virtual.IsAlive() {
		t.Fatal("daemon and virtual threads should still be alive")
	}
	thread.Unpark(daemon)
	thread.Unpark(virtual)
	join(t, daemon, virtual)
}

func TestProfilerLabelsNameParkedVirtualThreads(t *testing.T) {
	s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 1, ProfilerLabels: true})
	defer s.Close()
	th := thread.OfVirtual().Scheduler(s).Name("labelled").Start(thread.Park)
	waitState(t, th, thread.Waiting)
	var prof bytes.Buffer
	if err := pprof.Lookup("goroutine").WriteTo(&prof, 1); err != nil {
		t.Fatal(err)
	}
	thread.Unpark(th)
	join(t, th)
	want := fmt.Sprintf(`"loom.name":"labelled", "loom.thread":"#%d"`, th.ThreadID())
	if !strings.Contains(prof.String(), want) {
		t.Fatalf("goroutine profile lacks %s:\n%s", want, prof.String())
	}
}
