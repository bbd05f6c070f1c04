package thread

import (
	"context"
	"fmt"
	"runtime/trace"
	"strings"
	"time"

	"github.com/loomgo/loom/internal/rt"
)

// Virtual threads in the execution tracer (go tool trace).
//
// Java records what virtual threads do with JFR events; Go's equivalent is the execution tracer
// (runtime/trace: trace.Start, `go test -trace`, or a trace.FlightRecorder), read with `go tool
// trace`. While it is on, loom annotates the trace with the tracer's user annotations, so that a
// trace shows virtual threads, not only the goroutines that happen to carry them:
//
//	JFR event (JDK)                  runtime/trace annotation (loom)
//	jdk.VirtualThreadStart           task "VirtualThread[#21]" or "VirtualThread[#21,name]" begins
//	                                 (trace.NewTask, a child of the starting thread's task if it
//	                                 has one); on the thread: log loom.start with its String(),
//	                                 "VirtualThread[#21]/runnable@ForkJoinPool-1-worker-1", and
//	                                 region loom.run, which lasts until the thread ends
//	jdk.VirtualThreadEnd             log loom.end; region loom.run and the task end
//	JVMTI unmount / mount            region loom.unmounted, from the unmount to the next mount,
//	                                 after a log loom.park saying why it unmounts; log loom.mount
//	                                 with the carrier it mounts on
//	jdk.ThreadPark, jdk.ThreadSleep  log loom.park: the blocking operation (Thread.sleep,
//	                                 LockSupport.park, Object.wait, Contended monitor enter, I/O,
//	                                 Blocking), what it parks on (the blocker's type, or the joined
//	                                 thread) and the timeout
//	jdk.VirtualThreadPinned          region loom.pinned around a park that keeps its carrier, and
//	                                 at its end a log loom.pinned: the reason (MONITOR, NATIVE),
//	                                 the blocking operation and the duration; the watchdog's
//	                                 NATIVE_BLOCKING reports are logged the same way
//	jdk.VirtualThreadSubmitFailed    log loom.submitFailed with the error (the scheduler is closed)
//
// Every pinned park is logged, not only those past PinnedThreshold as for OnPinned: the trace
// has the durations, and a reader filters. Task names follow Java's toString without the parts
// that change (state, carrier), so a thread keeps one name; the parts that change are in the logs.
//
// Nothing is paid while tracing is off: each hook in the paths of start, end, park, mount and
// pinning is inlined as one trace.IsEnabled load and a branch around a call to a function here.
// The frames that parked threads keep (Sleep, Carry, parkStart, parkEnd, Yield, Blocking) are
// the size they were without the hooks; BenchmarkTraceHooksOff measures the hooks, and
// BenchmarkPingPongOneCarrier and BenchmarkStartJoin show the same time and allocations as
// without them. While tracing is on, a virtual thread's annotations cost its extraMore (made on
// first use) and a few small allocations per park.
//
// Regions must nest on their goroutine, and a virtual thread keeps one goroutine for its whole
// life (park.go), so loom.run (begun before the task runs, ended after it returns) encloses the
// task's own regions, and loom.unmounted and loom.pinned, begun and ended around a park with no
// user code between, nest inside them. loom.run is begun only at the thread's first mount: a
// thread that was already running when tracing began gets its task at its next traced event,
// without loom.run, because the user regions it may have open then were not traced and cannot
// be nested in it. (Blocking's fn runs inside loom.unmounted: a region it ends must have begun
// inside it.) A thread whose task was made in an earlier tracing session keeps that task; a
// parser then sees events of a task whose start it did not see, which it allows.

// The hooks: one line each in the paths they annotate, each small enough to be inlined there, so
// that with tracing off a hook is the trace.IsEnabled load and a branch. The work is in the
// out-of-line ...Slow functions below. A hook is called on the thread itself unless it says
// otherwise.

// traceStarted: t is being started (Scheduler.start, on the starter).
func (t *Thread) traceStarted() {
	if trace.IsEnabled() {
		t.traceStartedSlow()
	}
}

// traceSubmitFailed: starting t failed with err (Scheduler.start, on the starter).
func (t *Thread) traceSubmitFailed(err error) {
	if trace.IsEnabled() {
		trace.Log(t.traced(context.Background()).ctx, traceSubmitFailedLog, err.Error())
	}
}

// traceRunning: t is mounted for the first time, before its task runs (Carry).
func (t *Thread) traceRunning() {
	if trace.IsEnabled() {
		t.traceRunningSlow()
	}
}

// traceEnded: t terminates (terminate: on the thread, or on its starter when the start failed).
func (t *Thread) traceEnded() {
	if trace.IsEnabled() {
		t.traceEndedSlow()
	}
}

// traceSleep: t is in Sleep, which parks next.
func (t *Thread) traceSleep() {
	if trace.IsEnabled() {
		t.traceSleepSlow()
	}
}

// traceUnmount: t has given (or is about to give) its carrier up to wait: op is the blocking
// operation ("": a park's, named from reason), blocker what it waits on, timeout its timeout
// (< 0: none). The next mount ends the wait.
func (t *Thread) traceUnmount(op string, reason int, blocker any, timeout time.Duration) {
	if trace.IsEnabled() {
		t.traceUnmountSlow(op, reason, blocker, timeout)
	}
}

// traceYield: t has queued itself behind the runnable threads in Yield, and waits for a carrier.
// (Yield and Blocking have hooks without arguments, so that their frames, which a yielding
// thread or a Blocking call keeps, stay as they were.)
func (t *Thread) traceYield() {
	if trace.IsEnabled() {
		t.traceYieldSlow()
	}
}

// traceBlocking: t gives its carrier up to run Blocking's fn.
func (t *Thread) traceBlocking() {
	if trace.IsEnabled() {
		t.traceBlockingSlow()
	}
}

// traceIOPark: t gives its carrier up for an I/O park (iopark.go).
func (t *Thread) traceIOPark() {
	if trace.IsEnabled() {
		t.traceIOParkSlow()
	}
}

// traceMount: t has mounted (mount).
func (t *Thread) traceMount() {
	if trace.IsEnabled() {
		t.traceMountSlow()
	}
}

// tracePinnedPark: t parks keeping its carrier, pinned by pinnedBy ("MONITOR", "NATIVE").
func (t *Thread) tracePinnedPark(pinnedBy string, reason int, blocker any, timeout time.Duration) {
	if trace.IsEnabled() {
		t.tracePinnedParkSlow(pinnedBy, reason, blocker, timeout)
	}
}

// tracePinned: a park of t kept its carrier for d, with reason and op as in PinnedEvent
// (Scheduler.pinned; on the watchdog's goroutine for NATIVE_BLOCKING).
func (t *Thread) tracePinned(d time.Duration, reason, op string) {
	if trace.IsEnabled() {
		t.tracePinnedSlow(d, reason, op)
	}
}

// vtrace is a virtual thread's annotations, made when it is first traced and kept in its
// extraMore. ctx and task are set before it is published and not changed; the rest is touched
// only by the thread itself.
type vtrace struct {
	ctx      context.Context // carries the task: the logs and regions of the thread
	task     *trace.Task
	run      *trace.Region // loom.run, nil if the thread was not traced from its start
	parked   *trace.Region // loom.unmounted or loom.pinned, nil outside a traced park
	sleeping bool          // in Sleep: the next park is Thread.sleep's (a Sleep that ends without parking leaves it to the next mount or park to clear)
}

// Log categories and region types.
const (
	traceStart           = "loom.start"
	traceEnd             = "loom.end"
	tracePark            = "loom.park"
	traceMountLog        = "loom.mount"
	tracePinnedLog       = "loom.pinned"
	traceSubmitFailedLog = "loom.submitFailed"
	traceRun             = "loom.run"
	traceUnmounted       = "loom.unmounted"
	tracePinnedRegion    = "loom.pinned"
)

// taskName is t's name in the trace: Java's toString without the state and the carrier.
func (t *Thread) taskName() string {
	var b strings.Builder
	b.WriteString("VirtualThread[#")
	b.WriteString(itoa(t.id))
	if name := t.Name(); name != "" {
		b.WriteByte(',')
		b.WriteString(name)
	}
	b.WriteByte(']')
	return b.String()
}

// traced returns t's annotations, making its task first if it has none, as a child of the task
// in parent (context.Background(): a top-level task).
//
//go:noinline
func (t *Thread) traced(parent context.Context) *vtrace {
	m := t.more()
	if v := m.trace.Load(); v != nil {
		return v
	}
	ctx, task := trace.NewTask(parent, t.taskName())
	v := &vtrace{ctx: ctx, task: task}
	if !m.trace.CompareAndSwap(nil, v) {
		task.End() // the watchdog made it at the same moment: keep one
		return m.trace.Load()
	}
	return v
}

// traceStarted is jdk.VirtualThreadStart on the starting side (Scheduler.start): t's task is
// made as a child of the starter's, if the starter is a traced loom thread.
//
//go:noinline
func (t *Thread) traceStartedSlow() {
	parent := context.Background()
	if c := currentIfAttached(); c != nil {
		if m := c.moreIfAny(); m != nil {
			if v := m.trace.Load(); v != nil {
				parent = v.ctx
			}
		}
	}
	t.traced(parent)
}

// traceRunning is jdk.VirtualThreadStart on the thread, at its first mount, before its task runs.
//
//go:noinline
func (t *Thread) traceRunningSlow() {
	v := t.traced(context.Background())
	trace.Log(v.ctx, traceStart, t.String())
	v.run = trace.StartRegion(v.ctx, traceRun)
}

// traceEnded is jdk.VirtualThreadEnd (terminate; on the thread, or on its starter when the start
// failed).
//
//go:noinline
func (t *Thread) traceEndedSlow() {
	m := t.moreIfAny()
	if !t.isVirtual() || m == nil {
		return // not traced (a virtual thread that was never traced has no task to end)
	}
	v := m.trace.Load()
	if v == nil {
		return
	}
	trace.Log(v.ctx, traceEnd, t.String())
	if v.run != nil {
		v.run.End()
		v.run = nil
	}
	v.task.End()
}

// traceSleepSlow tells the next park of t that Sleep is its caller.
//
//go:noinline
func (t *Thread) traceSleepSlow() {
	if t.isVirtual() {
		t.traced(context.Background()).sleeping = true
	}
}

// traceUnmount records that t gives its carrier up for a park: op is the blocking operation
// (for a park, from reason; "" when it is Thread.sleep's or LockSupport.park's), blocker what it
// parks on, timeout its timeout (< 0: none). On the thread, before it waits.
//
//go:noinline
func (t *Thread) traceUnmountSlow(op string, reason int, blocker any, timeout time.Duration) {
	v := t.traced(context.Background())
	trace.Log(v.ctx, tracePark, v.parkMessage(op, reason, blocker, timeout))
	v.parked = trace.StartRegion(v.ctx, traceUnmounted)
}

// tracePinnedPark records that t parks keeping its carrier, pinned by reason pinnedBy.
//
//go:noinline
func (t *Thread) tracePinnedParkSlow(pinnedBy string, reason int, blocker any, timeout time.Duration) {
	v := t.traced(context.Background())
	trace.Log(v.ctx, tracePark, v.parkMessage("", reason, blocker, timeout)+" (pinned: "+pinnedBy+")")
	v.parked = trace.StartRegion(v.ctx, tracePinnedRegion)
}

//go:noinline
func (t *Thread) traceYieldSlow() { t.traceUnmountSlow("Thread.yield", rt.ParkWaiting, nil, -1) }

//go:noinline
func (t *Thread) traceBlockingSlow() { t.traceUnmountSlow("Blocking", rt.ParkWaiting, nil, -1) }

//go:noinline
func (t *Thread) traceIOParkSlow() {
	var blocker any
	if w := t.more().io.wait.Load(); w != nil {
		blocker = w.Blocker
	}
	t.traceUnmountSlow("I/O", rt.ParkWaiting, blocker, -1)
}

// traceMount ends t's loom.unmounted region, if a traced unmount began one, and logs the carrier
// t now runs on.
//
//go:noinline
func (t *Thread) traceMountSlow() {
	v := t.traced(context.Background())
	v.sleeping = false
	if v.parked != nil {
		v.parked.End()
		v.parked = nil
		trace.Log(v.ctx, traceMountLog, t.Carrier())
	}
}

// tracePinned is jdk.VirtualThreadPinned: a park of t kept its carrier for d (reason, op as
// PinnedEvent's). On the thread for a park (it ends loom.pinned), on the watchdog's goroutine for
// NATIVE_BLOCKING.
//
//go:noinline
func (t *Thread) tracePinnedSlow(d time.Duration, reason, op string) {
	v := t.traced(context.Background())
	if reason != "NATIVE_BLOCKING" && v.parked != nil {
		v.parked.End()
		v.parked = nil
	}
	trace.Log(v.ctx, tracePinnedLog, reason+" "+op+" "+d.String())
}

// parkMessage describes a park for the log loom.park: "Thread.sleep timeout 10ms",
// "LockSupport.park on *locks.ReentrantLock", "Thread.join on VirtualThread[#22]",
// "Object.wait on *locks.monitorWaitSet timeout 1s".
func (v *vtrace) parkMessage(op string, reason int, blocker any, timeout time.Duration) string {
	if op == "" {
		op = blockingOperation(reason)
		if v.sleeping {
			op = "Thread.sleep"
		} else if _, join := blocker.(*Thread); join && reason == rt.ParkWaiting {
			op = "Thread.join"
		}
	}
	v.sleeping = false
	var b strings.Builder
	b.WriteString(op)
	switch x := blocker.(type) {
	case nil:
	case *Thread:
		b.WriteString(" on ")
		b.WriteString(x.taskName())
	default:
		b.WriteString(" on ")
		b.WriteString(fmt.Sprintf("%T", blocker))
	}
	if timeout >= 0 {
		b.WriteString(" timeout ")
		b.WriteString(timeout.String())
	}
	return b.String()
}
