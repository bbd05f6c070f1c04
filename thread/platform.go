package thread

import (
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// Platform threads.
//
// A platform thread is a goroutine that calls runtime.LockOSThread and never unlocks: the Go
// runtime gives it an OS thread of its own and destroys that thread when the goroutine ends, so
// a platform thread costs what a Java platform thread costs.
//
// The Go runtime aborts the whole process (not a recoverable panic) when it needs more OS threads
// than debug.SetMaxThreads allows (10,000 by default). loom therefore counts its platform
// threads and refuses to start one past PlatformThreadLimit with ErrThreadLimit, which a program
// can handle, as Java programs handle "OutOfMemoryError: unable to create native thread".
//
// The OS-thread budget. A platform thread is not the only OS thread loom can cause: a virtual
// thread inside Blocking has given its carrier back, and if fn blocks in a syscall the Go runtime
// gives that goroutine an OS thread of its own for as long as the call lasts. So every platform
// thread and every unmounted Blocking call takes one unit of one budget, PlatformThreadLimit:
// Start fails with ErrThreadLimit when the budget is used up, and Blocking then runs fn without
// unmounting (keeping its carrier, as the JDK's ForkJoinPool.managedBlock blocks in place once
// the pool cannot add a carrier). What stays outside the budget is bounded by the carriers (a
// mounted virtual thread in a syscall holds one OS thread, and there are at most MaxPoolSize
// carriers per scheduler) and by the runtime's own threads: that is what runtimeReserve keeps.

var (
	platformLive  atomic.Int64
	budgetUsed    atomic.Int64 // platform threads + unmounted Blocking calls
	platformLimit atomic.Int64
	limitOnce     sync.Once

	nonDaemonMu      sync.Mutex
	nonDaemonThreads = map[*Thread]struct{}{}
)

// runtimeReserve is the number of OS threads left to the Go runtime itself (its Ms for
// GOMAXPROCS, sysmon, the goroutines blocked in syscalls, cgo callers, ...).
func runtimeReserve(max int) int {
	r := 4*runtime.GOMAXPROCS(0) + 64
	if r < max/20 {
		r = max / 20
	}
	return r
}

// PlatformThreadLimit returns how many platform threads loom lets the process have at once: the
// smallest of Go's own limit ([debug.SetMaxThreads]), the kernel's threads-max and pid_max, the
// process's RLIMIT_NPROC and its cgroup's pids.max, less a reserve for the Go runtime's own
// threads. [SetPlatformThreadLimit] overrides it. Virtual threads inside Blocking that have given
// their carrier back count against the same limit (see Blocking).
func PlatformThreadLimit() int {
	limitOnce.Do(func() {
		if platformLimit.Load() == 0 {
			platformLimit.Store(int64(defaultPlatformLimit()))
		}
	})
	return int(platformLimit.Load())
}

// SetPlatformThreadLimit sets the limit [PlatformThreadLimit] reports (n <= 0 restores the default
// computed from the OS). Raising it past Go's [debug.SetMaxThreads] also raises that, since the
// runtime would otherwise abort the process first.
func SetPlatformThreadLimit(n int) {
	limitOnce.Do(func() {})
	if n <= 0 {
		n = defaultPlatformLimit()
	}
	goMax := debug.SetMaxThreads(1 << 30)
	if need := n + runtimeReserve(n); need > goMax {
		goMax = need
	}
	debug.SetMaxThreads(goMax)
	platformLimit.Store(int64(n))
}

func defaultPlatformLimit() int {
	goMax := debug.SetMaxThreads(1 << 30)
	debug.SetMaxThreads(goMax)
	limit := goMax
	for _, f := range []string{"/proc/sys/kernel/threads-max", "/proc/sys/kernel/pid_max", "/sys/fs/cgroup/pids.max"} {
		if n := readInt(f); n > 0 && n < limit {
			limit = n
		}
	}
	if n := processLimit(); n > 0 && n < limit {
		limit = n
	}
	limit -= runtimeReserve(limit)
	if limit < 1 {
		limit = 1
	}
	return limit
}

func readInt(path string) int {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	n, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		return 0
	}
	return n
}

// PlatformThreads returns the number of platform threads loom has started that are still alive.
func PlatformThreads() int { return int(platformLive.Load()) }

// takeOSThread takes one unit of the OS-thread budget, if one is left.
func takeOSThread() bool {
	limit := int64(PlatformThreadLimit())
	if budgetUsed.Add(1) > limit {
		budgetUsed.Add(-1)
		return false
	}
	return true
}

func releaseOSThread() { budgetUsed.Add(-1) }

func startPlatform(t *Thread) error {
	if !takeOSThread() {
		t.terminate(nil)
		return fmt.Errorf("%w (limit %d, of which %d unmounted Blocking calls)", ErrThreadLimit,
			PlatformThreadLimit(), budgetUsed.Load()-platformLive.Load())
	}
	platformLive.Add(1)
	if !t.IsDaemon() {
		nonDaemonMu.Lock()
		nonDaemonThreads[t] = struct{}{}
		nonDaemonMu.Unlock()
	}
	go func() {
		runtime.LockOSThread() // never unlocked: the OS thread ends with the goroutine
		gid := gidFunc()
		t.gid = gid
		register(gid, t)
		defer func() {
			unregister(gid)
			t.terminate(nil)
			platformLive.Add(-1)
			releaseOSThread()
			if !t.IsDaemon() {
				nonDaemonMu.Lock()
				delete(nonDaemonThreads, t)
				nonDaemonMu.Unlock()
			}
		}()
		t.runTask()
	}()
	return nil
}

// AwaitNonDaemon waits until every non-daemon platform thread that loom started has terminated,
// including those started while it waits. A Java program's JVM does this before it exits; a Go
// program ends when main returns, so call it (typically `defer thread.AwaitNonDaemon()` first
// thing in main) to get Java's behaviour. Virtual threads are daemons and are not waited for. It
// is not interruptible.
func AwaitNonDaemon() {
	for {
		nonDaemonMu.Lock()
		var t *Thread
		for x := range nonDaemonThreads {
			t = x
			break
		}
		nonDaemonMu.Unlock()
		if t == nil {
			return
		}
		interrupted := false
		for t.IsAlive() {
			if t.Join() != nil {
				interrupted = true // Join cleared it; keep waiting, re-assert at the end
			}
		}
		if interrupted {
			Current().bits.set(bitInterrupted)
		}
	}
}
