package thread

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"
)

// LiveThreads returns the live threads loom knows, ordered by id: every platform thread, every
// goroutine attached by Current, and every virtual thread that has begun to run (a virtual thread
// queued for its first carrier is not listed yet, as in the JDK its stack would be empty). Unlike
// Java's Thread.getAllStackTraces it includes virtual threads.
//
// If Current has attached goroutines loom did not start, LiveThreads first sweeps the ones that
// have ended (see Current): it then costs a scan of every goroutine's stack header, a brief
// stop of the world.
func LiveThreads() []*Thread {
	sweepForeignNow()
	return liveThreads()
}

// liveThreads is LiveThreads without the sweep: the threads in both registries, those their
// tasks' owners list (rt.Lister) and those mounted on a carrier (see registry.go), each once.
func liveThreads() []*Thread {
	var ts []*Thread
	for i := range registry {
		sh := &registry[i]
		sh.mu.Lock()
		for _, t := range sh.m {
			if t.alive() {
				ts = append(ts, t)
			}
		}
		sh.mu.Unlock()
	}
	for i := range vregistry {
		sh := &vregistry[i]
		sh.mu.Lock()
		sh.ts.All(func(t *Thread) bool {
			if t.alive() {
				ts = append(ts, t)
			}
			return true
		})
		sh.mu.Unlock()
	}
	listedThreads(func(t *Thread) {
		if t.alive() {
			ts = append(ts, t)
		}
	})
	forEachScheduler(func(s *Scheduler) bool {
		for _, m := range s.pool.Mounts() {
			if t := (*Thread)(m.Cur); t != nil && t.alive() {
				ts = append(ts, t)
			}
		}
		return true
	})
	slices.SortFunc(ts, func(a, b *Thread) int { return cmp.Compare(a.id, b.id) })
	return slices.Compact(ts)
}

// Owned is implemented by blockers that a thread can own exclusively: loom's ReentrantLock,
// ReentrantReadWriteLock (its write lock) and Monitor. [FindDeadlocked] follows it.
type Owned interface {
	// Owner returns the thread that holds the lock, or nil.
	Owner() *Thread
}

// FindDeadlocked returns the threads that are deadlocked: each waits to acquire a lock or monitor
// (see Owned) that is held by another thread of the same cycle. It returns nil if there are none.
// It ports ThreadMXBean.findDeadlockedThreads; like it, it is a snapshot taken while threads run,
// meant for diagnosis. It sweeps ended foreign goroutines first, as [LiveThreads] does.
func FindDeadlocked() []*Thread {
	sweepForeignNow()
	return findDeadlocked(liveThreads())
}

func findDeadlocked(live []*Thread) []*Thread {
	next := func(t *Thread) *Thread {
		st := t.rawState()
		if st != Waiting && st != TimedWaiting && st != Blocked {
			return nil
		}
		if o, ok := t.Blocker().(Owned); ok {
			if w := o.Owner(); w != nil && w != t {
				return w
			}
		}
		return nil
	}
	const (
		unseen = iota
		onPath
		done
	)
	mark := map[*Thread]int{}
	inCycle := map[*Thread]bool{}
	for _, start := range live {
		var path []*Thread
		t := start
		for t != nil && mark[t] == unseen {
			mark[t] = onPath
			path = append(path, t)
			t = next(t)
		}
		if t != nil && mark[t] == onPath {
			// t closes a cycle: it and everything after it on the path are in it
			i := slices.Index(path, t)
			for _, c := range path[i:] {
				inCycle[c] = true
			}
		}
		for _, p := range path {
			mark[p] = done
		}
	}
	if len(inCycle) == 0 {
		return nil
	}
	var ts []*Thread
	for t := range inCycle {
		ts = append(ts, t)
	}
	slices.SortFunc(ts, func(a, b *Thread) int { return int(a.id - b.id) })
	return ts
}

// DumpFormat selects the format of [DumpThreads].
type DumpFormat int

const (
	// DumpText is the plain-text format of `jcmd <pid> Thread.dump_to_file`.
	DumpText DumpFormat = iota
	// DumpJSON is the JSON format of `jcmd <pid> Thread.dump_to_file -format=json`: threads
	// grouped in containers, platform threads under "<root>" and virtual threads under their
	// scheduler.
	DumpJSON
)

// DumpThreads writes a dump of every live thread (see [LiveThreads]) with its state and stack, and
// the deadlocks [FindDeadlocked] finds. It ports HotSpotDiagnosticMXBean.dumpThreads. It stops the
// world briefly to read the goroutine stacks.
func DumpThreads(w io.Writer, format DumpFormat) error {
	sweepForeignNow()
	stacks := goroutineStacks()
	ts := liveThreads()
	dead := findDeadlocked(ts)
	if format == DumpJSON {
		return dumpJSON(w, ts, stacks, dead)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d\n%s\n%s\n\n", os.Getpid(), time.Now().UTC().Format(time.RFC3339), runtime.Version())
	for _, t := range ts {
		kind := ""
		if t.isVirtual() {
			kind = " virtual"
		}
		fmt.Fprintf(&b, "#%d \"%s\"%s %s", t.id, t.Name(), kind, t.rawState())
		if c := t.Carrier(); c != "" {
			fmt.Fprintf(&b, " on %s", c)
		}
		if w := t.ioWait(); w != nil {
			fmt.Fprintf(&b, " in %s on %s", w.Op, describe(w.Blocker)) // a vio call (iopark.go)
		} else if bl := t.Blocker(); bl != nil {
			fmt.Fprintf(&b, " parked on %s", describe(bl))
		}
		b.WriteByte('\n')
		for _, f := range stacks[t.gid] {
			b.WriteString("      ")
			b.WriteString(f)
			b.WriteByte('\n')
		}
		b.WriteByte('\n')
	}
	if len(dead) > 0 {
		b.WriteString("Found one Java-level deadlock:\n=============================\n")
		for _, t := range dead {
			fmt.Fprintf(&b, "%q #%d:\n  waiting to lock %s,\n  which is held by %q #%d\n",
				t.Name(), t.id, describe(t.Blocker()), t.Blocker().(Owned).Owner().Name(), t.Blocker().(Owned).Owner().id)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func describe(x any) string { return fmt.Sprintf("<%p> (a %T)", x, x) }

type jsonThread struct {
	Tid         string   `json:"tid"`
	Name        string   `json:"name"`
	State       string   `json:"state"`
	Virtual     bool     `json:"virtual,omitempty"`
	Carrier     string   `json:"carrier,omitempty"`
	ParkBlocker string   `json:"parkBlocker,omitempty"`
	Deadlocked  bool     `json:"deadlocked,omitempty"`
	Stack       []string `json:"stack"`
}

type jsonContainer struct {
	Container   string       `json:"container"`
	Parent      *string      `json:"parent"`
	Owner       *string      `json:"owner"`
	Threads     []jsonThread `json:"threads"`
	ThreadCount string       `json:"threadCount"`
}

func dumpJSON(w io.Writer, ts []*Thread, stacks map[int64][]string, dead []*Thread) error {
	root := "<root>"
	containers := []*jsonContainer{{Container: root}}
	bySched := map[*Scheduler]*jsonContainer{}
	for _, t := range ts {
		c := containers[0]
		if t.isVirtual() {
			if c = bySched[t.sched]; c == nil {
				c = &jsonContainer{Container: fmt.Sprintf("java.util.concurrent.ForkJoinPool@ForkJoinPool-%d", t.sched.pool.Number()), Parent: &root}
				bySched[t.sched] = c
				containers = append(containers, c)
			}
		}
		jt := jsonThread{Tid: strconv.FormatInt(t.id, 10), Name: t.Name(), State: t.rawState().String(),
			Virtual: t.isVirtual(), Carrier: t.Carrier(), Deadlocked: slices.Contains(dead, t), Stack: stacks[t.gid]}
		if jt.Stack == nil {
			jt.Stack = []string{}
		}
		if bl := t.Blocker(); bl != nil {
			jt.ParkBlocker = describe(bl)
		}
		c.Threads = append(c.Threads, jt)
	}
	out := struct {
		ThreadDump struct {
			ProcessID        string           `json:"processId"`
			Time             string           `json:"time"`
			RuntimeVersion   string           `json:"runtimeVersion"`
			ThreadContainers []*jsonContainer `json:"threadContainers"`
		} `json:"threadDump"`
	}{}
	out.ThreadDump.ProcessID = strconv.Itoa(os.Getpid())
	out.ThreadDump.Time = time.Now().UTC().Format(time.RFC3339Nano)
	out.ThreadDump.RuntimeVersion = runtime.Version()
	for _, c := range containers {
		c.ThreadCount = strconv.Itoa(len(c.Threads))
		if c.Threads == nil {
			c.Threads = []jsonThread{}
		}
	}
	out.ThreadDump.ThreadContainers = containers
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// goroutineStacks returns the frames of every goroutine by id, each as "pkg.Func(file.go:12)".
func goroutineStacks() map[int64][]string {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	stacks := map[int64][]string{}
	for _, g := range bytes.Split(buf, []byte("\n\n")) {
		lines := strings.Split(string(g), "\n")
		if len(lines) == 0 || !strings.HasPrefix(lines[0], "goroutine ") {
			continue
		}
		f := strings.Fields(lines[0])
		id, err := strconv.ParseInt(f[1], 10, 64)
		if err != nil {
			continue
		}
		var frames []string
		for i := 1; i+1 < len(lines); i += 2 {
			fn := lines[i]
			if strings.HasPrefix(fn, "created by ") {
				break
			}
			if j := strings.LastIndexByte(fn, '('); j > 0 {
				fn = fn[:j]
			}
			loc := strings.TrimSpace(lines[i+1])
			if j := strings.LastIndex(loc, " +0x"); j > 0 {
				loc = loc[:j]
			}
			if j := strings.LastIndexByte(loc, '/'); j >= 0 {
				loc = loc[j+1:]
			}
			frames = append(frames, fn+"("+loc+")")
		}
		stacks[id] = frames
	}
	return stacks
}
