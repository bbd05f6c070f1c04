package thread

import (
	"context"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"weak"

	"github.com/loomgo/loom/internal/carrier"
	"github.com/loomgo/loom/internal/rt"
)

// PinningMode says what pins a virtual thread to its carrier, as the JDK version does.
type PinningMode int

const (
	// PinNone is Java 24+ (JEP 491): monitors do not pin; only Native does.
	PinNone PinningMode = iota
	// PinSynchronized is Java 21-23: a virtual thread that parks while holding a monitor, or
	// blocks entering one, keeps its carrier; Monitor.Wait keeps it too but the scheduler
	// compensates with a temporary extra carrier (up to MaxPoolSize).
	PinSynchronized
)

// String returns "[PinNone]" or "[PinSynchronized]".
func (m PinningMode) String() string {
	if m == PinSynchronized {
		return "PinSynchronized"
	}
	return "PinNone"
}

// PinnedEvent reports a park that kept its carrier, like the JFR event jdk.VirtualThreadPinned.
type PinnedEvent struct {
	Thread   *Thread       // the virtual thread that parked, as the event's eventThread
	Carrier  string        // the carrier it kept
	Duration time.Duration // how long it was parked
	// Reason is why the carrier was kept: "MONITOR" (a monitor held or entered under
	// [PinSynchronized]), "NATIVE" (inside Native), or "NATIVE_BLOCKING" (the watchdog saw the thread
	// blocked in Go's own ways while mounted: a channel, [sync.Mutex], a plain [net.Conn], a syscall;
	// see [SchedulerOptions.WatchdogThreshold]).
	Reason string
	// BlockingOperation is what the thread waited in: "LockSupport.park", "Contended monitor
	// enter", "Object.wait", or for NATIVE_BLOCKING the Go runtime's wait reason ("chan receive",
	// "[sync.Mutex.Lock]", "IO wait", "sleep", ...).
	BlockingOperation string
	// Stack is the goroutine's stack: when it unparked, or (NATIVE_BLOCKING) while it was blocked.
	Stack []byte
}

// SchedulerOptions configure a Scheduler. The zero value is the default: GOMAXPROCS carriers,
// Java 24+ pinning.
type SchedulerOptions struct {
	// Parallelism is the number of carriers (jdk.virtualThreadScheduler.parallelism); 0 means
	// [runtime.GOMAXPROCS](0).
	Parallelism int
	// MaxPoolSize caps the carriers including compensation (jdk.virtualThreadScheduler.maxPoolSize);
	// 0 means max(Parallelism, 256).
	MaxPoolSize int
	// Pinning chooses Java 21-23 ([PinSynchronized]) or Java 24+ ([PinNone]) monitor behaviour.
	Pinning PinningMode
	// OnPinned, if set, is called for every pinned park that lasted at least PinnedThreshold,
	// like the JFR event jdk.VirtualThreadPinned: when the pinned thread unparks, which waits
	// (keeping its carrier) until OnPinned returns, and by the watchdog. It runs on a goroutine
	// of its own, not on the pinned thread (the event names it), so that nothing it does can
	// unwind through the wait the thread is in: a panic in OnPinned is printed to stderr and
	// otherwise ignored, and [runtime.Goexit] ends only that goroutine.
	OnPinned func(PinnedEvent)
	// PinnedThreshold is the shortest pinned park reported; 0 means 20 ms (JFR's default).
	PinnedThreshold time.Duration
	// TracePinned prints each pinned park to TraceOutput like Java 21's
	// -Djdk.tracePinnedThreads: "short" (the thread and the reason) or "full" (also the stack).
	// Each stack is printed once.
	TracePinned string
	// TraceOutput receives TracePinned output; nil means [os.Stdout] (as in the JDK). Its Write
	// is called as OnPinned is.
	TraceOutput io.Writer
	// ProfilerLabels sets pprof labels (loom.thread, loom.name) on the goroutine of every virtual
	// thread that parks, so Go's goroutine profiles name the threads. It costs about a microsecond
	// and some garbage per thread, so it is off by default (LOOM_OPTS: -Dloom.profilerLabels=true).
	ProfilerLabels bool
	// WatchdogThreshold, if positive, starts a watchdog that reports a virtual thread holding its
	// carrier for longer than this while blocked in Go's own ways (channel, [sync.Mutex], syscall,
	// [time.Sleep], a plain [net.Conn]) as a [PinnedEvent] with reason "NATIVE_BLOCKING" (LOOM_OPTS:
	// -Dloom.watchdog=100ms), passed to OnPinned and printed by TracePinned like a pinned park.
	// See package vio and Blocking for the cure.
	WatchdogThreshold time.Duration
	// WatchdogCompensate makes the watchdog lend a temporary carrier (up to MaxPoolSize) while
	// such a thread stays blocked (LOOM_OPTS: -Dloom.watchdogCompensate=true).
	WatchdogCompensate bool
}

// Scheduler is a pool of carriers that runs virtual threads, as the JDK's ForkJoinPool-based
// virtual-thread scheduler. Use [DefaultScheduler], or [NewScheduler] for one of your own (for
// example with one carrier, to watch threads take turns).
type Scheduler struct {
	opts SchedulerOptions
	pool *carrier.Pool

	// Counts written on every start, end and unmounting park, one shard per carrier (by worker
	// number; starts by thread id), summed when read (see live): no cache line that every
	// carrier writes.
	counts [countShards]countShard

	pinnedParks  atomic.Int64 // parked and pinned now
	pinnedEvents atomic.Int64
	wdRunning    atomic.Bool
	wdIdle       chan struct{} // wakes the watchdog when no thread is live (see wakeWatchdog)
	timers       timerQueue    // timed parks of its virtual threads
	coros        coroPool      // continuations kept for new threads (coro.go)
	closing      atomic.Bool   // Close has begun: every end checks whether it was the last

	mu      sync.Mutex
	waiters []*Thread // Close callers waiting for no live thread
	traced  map[string]bool
}

const countShards = 16

// The counts of a shard.
const (
	cStarted = iota // virtual threads started (ever)
	cEnded          // virtual threads terminated (ever)
	cParked         // unmounting parks begun minus ended (the sum is what is parked now)
	nCounts
)

type countShard struct {
	n [nCounts]atomic.Int64
	_ [64 - 8*nCounts]byte
}

// count adds delta to count c of the shard of carrier slot (shard 0 for none).
func (s *Scheduler) count(slot *carrier.Slot, c int, delta int64) {
	i := 0
	if slot != nil {
		i = slot.ID & (countShards - 1)
	}
	s.counts[i].n[c].Add(delta)
}

func (s *Scheduler) sum(c int) int64 {
	var n int64
	for i := range s.counts {
		n += s.counts[i].n[c].Load()
	}
	return n
}

// live returns the virtual threads started and not terminated. It reads the ends first and the
// starts second, so that a zero is true: a thread counted as ended was counted as started (its
// start came before its end, which came before the ends were read, before the starts were), and
// a thread started by one that has ended was started before that end, so it is counted too.
// Otherwise (threads starting and ending meanwhile) it is a snapshot.
func (s *Scheduler) live() int64 {
	ended := s.sum(cEnded)
	return s.sum(cStarted) - ended
}

// NewScheduler returns a scheduler with the given options. Carriers are started on demand and a
// scheduler with no runnable virtual thread holds no goroutine. Close it when done.
func NewScheduler(opts SchedulerOptions) *Scheduler {
	if opts.Parallelism <= 0 {
		opts.Parallelism = runtime.GOMAXPROCS(0)
	}
	if opts.MaxPoolSize <= 0 {
		opts.MaxPoolSize = max(opts.Parallelism, 256)
	} else if opts.MaxPoolSize < opts.Parallelism {
		opts.Parallelism = opts.MaxPoolSize // as the JDK lowers parallelism to maxPoolSize
	}
	if opts.PinnedThreshold <= 0 {
		opts.PinnedThreshold = 20 * time.Millisecond
	}
	if opts.TraceOutput == nil {
		opts.TraceOutput = os.Stdout
	}
	s := &Scheduler{opts: opts, pool: carrier.New(opts.Parallelism, opts.MaxPoolSize), wdIdle: make(chan struct{}, 1)}
	s.timers.init()
	s.pool.SetResume(resumeKey)
	s.pool.SetOnIdle(s.slotIdle)
	if opts.WatchdogThreshold > 0 {
		s.pool.Watch()
	}
	addScheduler(s)
	return s
}

// The schedulers, for Current and LiveThreads, which look for threads on their carriers. Weak
// references: a scheduler nobody refers to any more (none of its threads runs) drops out.
var (
	schedMu sync.Mutex
	scheds  []weak.Pointer[Scheduler]
)

func addScheduler(s *Scheduler) {
	schedMu.Lock()
	scheds = slices.DeleteFunc(scheds, func(w weak.Pointer[Scheduler]) bool { return w.Value() == nil })
	scheds = append(scheds, weak.Make(s))
	schedMu.Unlock()
}

func removeScheduler(s *Scheduler) {
	schedMu.Lock()
	scheds = slices.DeleteFunc(scheds, func(w weak.Pointer[Scheduler]) bool { v := w.Value(); return v == nil || v == s })
	schedMu.Unlock()
}

// forEachScheduler calls f for each scheduler until f returns false.
func forEachScheduler(f func(*Scheduler) bool) {
	schedMu.Lock()
	ss := make([]*Scheduler, 0, len(scheds))
	for _, w := range scheds {
		if s := w.Value(); s != nil {
			ss = append(ss, s)
		}
	}
	schedMu.Unlock()
	for _, s := range ss {
		if !f(s) {
			return
		}
	}
}

var (
	defaultOnce  sync.Once
	defaultSched *Scheduler
)

// DefaultScheduler returns the scheduler of virtual threads made without Scheduler(...). It is
// created on first use from the environment variable LOOM_OPTS, which takes the JDK's system
// properties:
//
//	LOOM_OPTS="-Djdk.virtualThreadScheduler.parallelism=1 -Djdk.virtualThreadScheduler.maxPoolSize=8
//	           -Djdk.tracePinnedThreads=short -Dloom.pinning=synchronized"
//
// loom.pinning is "none" (the default, Java 24+) or "synchronized" (Java 21-23). The default
// scheduler is never closed.
func DefaultScheduler() *Scheduler {
	defaultOnce.Do(func() { defaultSched = NewScheduler(OptionsFromJavaProperties(os.Getenv("LOOM_OPTS"))) })
	return defaultSched
}

// OptionsFromJavaProperties parses JDK-style system properties ("-Dkey=value" words) into
// [SchedulerOptions], as [DefaultScheduler] does with LOOM_OPTS. Unknown properties are ignored.
func OptionsFromJavaProperties(env string) SchedulerOptions {
	var o SchedulerOptions
	for _, f := range strings.Fields(env) {
		k, v, _ := strings.Cut(strings.TrimPrefix(f, "-D"), "=")
		n, _ := strconv.Atoi(v)
		switch k {
		case "jdk.virtualThreadScheduler.parallelism":
			o.Parallelism = n
		case "jdk.virtualThreadScheduler.maxPoolSize":
			o.MaxPoolSize = n
		case "jdk.tracePinnedThreads":
			if v == "" {
				v = "full"
			}
			o.TracePinned = v
		case "loom.pinning":
			if v == "synchronized" {
				o.Pinning = PinSynchronized
			}
		case "loom.watchdog":
			if d, err := time.ParseDuration(v); err == nil {
				o.WatchdogThreshold = d
			}
		case "loom.watchdogCompensate":
			o.WatchdogCompensate = v == "true"
		case "loom.profilerLabels":
			o.ProfilerLabels = v == "true"
		case "loom.pinnedThreshold":
			if d, err := time.ParseDuration(v); err == nil {
				o.PinnedThreshold = d
			}
		}
	}
	return o
}

// Options returns the scheduler's options, with defaults filled in.
func (s *Scheduler) Options() SchedulerOptions { return s.opts }

// SchedulerStats is a snapshot of a scheduler.
type SchedulerStats struct {
	Parallelism   int   // carriers when not compensating
	PoolSize      int   // carriers that exist now (busy or idle), including compensation
	PeakPoolSize  int   // the most carriers that existed at once
	Mounted       int   // carriers running a virtual thread now
	Queued        int   // virtual threads waiting for a carrier
	Parked        int64 // virtual threads parked and unmounted
	PinnedParked  int64 // virtual threads parked while pinned (holding their carrier)
	Live          int64 // virtual threads started and not yet terminated
	PinnedEvents  int64 // pinned parks reported (at least PinnedThreshold long)
	Compensations int   // temporary carriers in force
	Submitted     int64 // virtual threads ever queued on the carriers: starts plus resumptions of unmounted threads
	// Goroutines is the number of goroutines the scheduler has started that have not ended: the
	// carriers' drivers, and the continuations (coroutines) its virtual threads run on, free or
	// held by a parked thread. PeakGoroutines is the most drivers alive at once plus the most
	// continuations alive at once since the scheduler began (each at its own peak: a bound of
	// the two together). A burst of tasks that never block keeps both near Parallelism.
	Goroutines int64
	// PeakGoroutines: see Goroutines.
	PeakGoroutines int64
}

// Stats returns a snapshot of the scheduler's counters.
func (s *Scheduler) Stats() SchedulerStats {
	ps := s.pool.Stats()
	return SchedulerStats{
		Parallelism:    ps.Parallelism,
		PoolSize:       ps.PoolSize,
		PeakPoolSize:   ps.PeakPoolSize,
		Mounted:        ps.Mounted,
		Queued:         ps.Queued,
		Parked:         s.sum(cParked),
		PinnedParked:   s.pinnedParks.Load(),
		Live:           s.live(),
		PinnedEvents:   s.pinnedEvents.Load(),
		Compensations:  ps.Compensations,
		Submitted:      ps.Submitted,
		Goroutines:     ps.Goroutines + s.coros.live.Load(),
		PeakGoroutines: ps.PeakGoroutines + s.coros.peak.Load(),
	}
}

// Close stops the scheduler: starting a virtual thread on it fails with [ErrRejected] from then
// on, and Close waits (unmounted, if the caller is a virtual thread of another scheduler) until
// every virtual thread already started on it has terminated. Its carriers then exit. Close on
// the default scheduler panics with [ErrIllegalThreadState]; closing twice is harmless. A virtual
// thread of s must not call s.Close (it would wait for itself).
func (s *Scheduler) Close() {
	if s == defaultSched {
		panic(fmt.Errorf("%w: the default scheduler cannot be closed", ErrIllegalThreadState))
	}
	me := Current()
	if me.sched == s {
		panic(fmt.Errorf("%w: a virtual thread cannot close its own scheduler", ErrIllegalThreadState))
	}
	s.closing.Store(true)
	s.pool.Close()
	defer removeScheduler(s)
	for {
		s.mu.Lock()
		if s.live() == 0 {
			s.mu.Unlock()
			s.awaitCarriersIdle()
			s.dropCoros()
			return
		}
		s.waiters = append(s.waiters, me)
		s.mu.Unlock()
		// Close is not interruptible: like ExecutorService.close it waits for every thread
		for s.live() != 0 {
			me.parkFor(-1, rt.ParkWaiting, s, Waiting)
		}
	}
}

// awaitCarriersIdle waits, after the last thread has terminated, until the carriers have let go
// of their slots: the goroutine the last thread ended on counts it out (waking Close) before it
// gives its carrier back, so Stats could otherwise still show it mounted when Close returns. It is
// a few instructions' wait, bounded anyway.
func (s *Scheduler) awaitCarriersIdle() {
	for deadline := time.Now().Add(time.Second); s.pool.Busy() && time.Now().Before(deadline); {
		runtime.Gosched()
	}
}

// start queues t, whose state is already RUNNABLE, as a new task.
func (s *Scheduler) start(t *Thread) error {
	s.counts[t.id&(countShards-1)].n[cStarted].Add(1)
	if s.opts.WatchdogThreshold > 0 {
		s.startWatchdog()
	}
	t.traceStarted()
	submit := s.pool.Submit
	if wakerSlot(s.pool) != nil {
		submit = s.pool.SubmitFromCarrier
	}
	if err := submit(t.newTask()); err != nil {
		err = fmt.Errorf("%w: %v", ErrRejected, err)
		t.traceSubmitFailed(err)
		t.terminate(nil) // counts the thread out, as for every thread that ends
		return err
	}
	return nil
}

// threadEnded counts t out. The end that leaves no live thread wakes Close and the watchdog;
// only while one of them waits does an end sum the counts to find out. (An end that reads
// closing as false came before Close set it, so Close's own first count sees it.)
func (s *Scheduler) threadEnded(t *Thread, slot *carrier.Slot) {
	s.count(slot, cEnded, 1)
	if !s.closing.Load() && !s.wdRunning.Load() || s.live() != 0 {
		return
	}
	s.wakeWatchdog()
	s.mu.Lock()
	w := s.waiters
	s.waiters = nil
	s.mu.Unlock()
	for _, t := range w {
		t.unpark()
	}
}

// pinned reports a park of t that kept its carrier for d.
func (s *Scheduler) pinned(t *Thread, d time.Duration, reason string, parkReason int) {
	t.tracePinned(d, reason, blockingOperation(parkReason))
	if d < s.opts.PinnedThreshold || (s.opts.OnPinned == nil && s.opts.TracePinned == "") {
		if d >= s.opts.PinnedThreshold {
			s.pinnedEvents.Add(1)
		}
		return
	}
	s.pinnedEvents.Add(1)
	op := blockingOperation(parkReason)
	stack := debug.Stack()
	if s.opts.OnPinned != nil {
		ev := PinnedEvent{Thread: t, Carrier: t.Carrier(), Duration: d, Reason: reason, BlockingOperation: op, Stack: stack}
		callUser("SchedulerOptions.OnPinned", func() { s.opts.OnPinned(ev) })
	}
	if s.opts.TracePinned != "" {
		callUser("SchedulerOptions.TraceOutput", func() { s.trace(t, reason, stack) })
	}
}

// blockingOperation names what a park with the given reason waits in, as JFR does.
func blockingOperation(parkReason int) string {
	switch parkReason {
	case rt.ParkBlocked:
		return "Contended monitor enter"
	case rt.ParkMonitorWait:
		return "Object.wait"
	}
	return "LockSupport.park"
}

// trace prints a pinned park as Java 21's -Djdk.tracePinnedThreads does: the thread, the reason,
// then (full) the stack with each frame indented by four spaces. Each stack is printed once.
func (s *Scheduler) trace(t *Thread, reason string, stack []byte) {
	lines := strings.Split(strings.TrimSpace(string(stack)), "\n")
	if len(lines) > 0 {
		lines = lines[1:] // "goroutine N [running]:"
	}
	// the identity of a stack is its functions and lines, not its argument values, offsets or
	// goroutine numbers (the JDK keys on method and bytecode index)
	var key strings.Builder
	for _, l := range lines {
		l = strings.TrimSpace(l)
		if i := strings.LastIndex(l, " +0x"); i > 0 {
			l = l[:i]
		} else if i := strings.LastIndexByte(l, '('); i > 0 {
			l = l[:i]
		}
		if i := strings.Index(l, " in goroutine "); i > 0 {
			l = l[:i]
		}
		key.WriteString(l)
		key.WriteByte('\n')
	}
	s.mu.Lock()
	if s.traced == nil {
		s.traced = make(map[string]bool)
	}
	seen := s.traced[key.String()]
	s.traced[key.String()] = true
	s.mu.Unlock()
	if seen {
		return
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%v reason:%s\n", t, reason)
	if s.opts.TracePinned == "full" {
		for _, l := range lines {
			b.WriteString("    ")
			b.WriteString(strings.TrimSpace(l))
			b.WriteByte('\n')
		}
	}
	io.WriteString(s.opts.TraceOutput, b.String())
}

// labelGoroutine sets pprof labels on a virtual thread's goroutine when it first parks, so Go's
// goroutine profiles (and the thread dump) show which thread each parked goroutine is.
func (t *Thread) labelGoroutine() {
	if !t.sched.opts.ProfilerLabels {
		return
	}
	x := t.more()
	if x.labelled {
		return
	}
	x.labelled = true
	pprof.SetGoroutineLabels(pprof.WithLabels(context.Background(),
		pprof.Labels("loom.thread", "#"+itoa(t.id), "loom.name", t.Name())))
}

func (t *Thread) unlabelGoroutine() {
	if x := t.moreIfAny(); x != nil && x.labelled {
		x.labelled = false
		pprof.SetGoroutineLabels(context.Background())
	}
}

var runtimeGosched = runtime.Gosched

func rtInit() {
	rt.CurrentData = func() *rt.Data { return &Current().more().data }
	rt.DataOf = func(x any) *rt.Data { return &x.(*Thread).more().data }
	rt.Park = func(d time.Duration, reason int, blocker any) {
		st := Waiting
		if reason == rt.ParkBlocked {
			st = Blocked
		} else if d >= 0 {
			st = TimedWaiting
		}
		if t := Current(); t.parkStart(d, 0, reason, blocker, st) {
			t.parkEnd()
		}
	}
	rt.Unpark = func(x any, reason int) {
		if t := x.(*Thread); reason == rt.ParkWaiting {
			t.unpark()
		} else {
			t.unparkMonitor()
		}
	}
	rt.Notified = func(x any) bool { return x.(*Thread).notified() }
	rt.WaitEnded = func() { Current().waitEnded() }
	rt.MonitorEntered = func() { Current().monitors++ }
	rt.MonitorExited = func() { Current().monitors-- }
	rt.CurrentID = func() int64 { return Current().id }
	rt.Terminated = func(x any) bool { return x.(*Thread).rawState() == Terminated }
}
