package thread

import (
	"fmt"
	"os"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/loomgo/loom/internal/carrier"
	"github.com/loomgo/loom/internal/rt"
)

// Thread is a thread of execution: a virtual thread (a goroutine that runs only while it holds one
// of its scheduler's carriers) or a platform thread (a goroutine locked to its own OS thread). It
// ports java.lang.Thread. Threads are made by the builders ([OfVirtual], [OfPlatform]) or
// [StartVirtualThread], and Current returns the running one. A Thread must not be copied.
type Thread struct {
	_ noCopy

	// The core: what every start, park and wake-up touches, in 96 bytes (one allocation of 96
	// for a thread that never parks). What few threads use lives in extra, made on first use;
	// what every parking thread needs to wait lives in its parker (park.go).
	//
	// Designs measured and not taken: everything in one struct (loom's first Thread: 240 bytes,
	// then 330 with the I/O park state, half of the bytes a million trivial futures allocated);
	// a sync.Cond or a wake channel in the core (56 and 8+112 bytes that a thread which never
	// parks would carry for nothing).
	park     atomic.Uint64 // seq<<seqShift | flags | phase; see park.go
	state    atomic.Int32  // State
	bits     bitFlags      // bitInterrupted, bitPermit, bitMonitorPermit
	pinDepth int32         // nesting of Native (the thread's own)
	monitors int32         // monitors held, locks.Monitor (the thread's own)
	regIndex int32         // 1 + index in the registry of virtual threads, 0 if not in it (registry.go)
	kind     uint8         // kindVirtual, kindPlatform or kindForeign; set before the Thread is shared
	id       int64
	gid      int64                        // goroutine the thread runs on (0 until it runs); set before published
	sched    *Scheduler                   // virtual threads only
	slot     atomic.Pointer[carrier.Slot] // the carrier it is mounted on, nil if none
	task     rt.Runner                    // nil once terminated
	wait     unsafe.Pointer               // a virtual thread's *coro while it runs (coro.go); a platform thread's *parker, made at its first park
	x        atomic.Pointer[extra]        // made on first use; see ext
}

// The bits of Thread.bits, each an atomic boolean.
const (
	bitInterrupted   = 1 << iota // the interrupt status
	bitPermit                    // LockSupport's park permit
	bitMonitorPermit             // the permit of monitor waits (see permitFor)
	bitJoined                    // a joiner has been registered in the join table once (see joinTable)
)

// bitFlags is a word of atomic booleans: one word instead of one per flag in every Thread.
// Each operation is one atomic instruction, sequentially consistent like sync/atomic's others.
type bitFlags struct{ v atomic.Uint32 }

func (f *bitFlags) get(m uint32) bool { return f.v.Load()&m != 0 }

func (f *bitFlags) set(m uint32) { f.v.Or(m) }

// clear clears m. Like take it looks first: a bit set after the load is set after the clear.
func (f *bitFlags) clear(m uint32) {
	if f.v.Load()&m != 0 {
		f.v.And(^m)
	}
}

// take clears m and reports whether it was set (Swap(false) and CompareAndSwap(true, false)).
// It looks first: most takes (of the interrupt status, of a permit before a park) find the bit
// clear, and a load is not a locked instruction. The load is where such a take happens: a bit
// set after it is left for the next take, as it would be if it were set after the And.
func (f *bitFlags) take(m uint32) bool { return f.v.Load()&m != 0 && f.v.And(^m)&m != 0 }

// The kinds of Thread.
const (
	kindVirtual  = iota + 1
	kindPlatform // started by OfPlatform, or the main goroutine's
	kindForeign  // attached to a goroutine loom did not start
)

// extra is what some threads use: the blocker of a park on a lock, a queue or a join (what
// threads that wait on each other use), and, behind one more pointer, what few threads use. A
// thread that waits on others costs these 32 bytes, not the whole of extraMore. (The threads
// waiting to join a thread are in the join table, not here: see joinTable.)
type extra struct {
	mu      sync.Mutex
	blocker any // what the thread is parked on (LockSupport.getBlocker), guarded by mu
	more    atomic.Pointer[extraMore]
}

// extraMore is what few threads use: names, platform attributes, the timer of a platform thread's
// timed parks, I/O park state, profiler labels and thread-local storage.
type extraMore struct {
	name        atomic.Pointer[string] // nil: ""
	daemon      atomic.Bool            // platform threads (virtual ones are always daemons)
	priority    atomic.Int32           // platform threads; 0: NormPriority
	ueh         func(*Thread, any)
	attachEpoch uint64      // foreign threads: the sweep epoch when they attached (registry.go)
	timer       *time.Timer // a platform thread's timed parks wait on its channel; made once, reused
	labelled    bool        // pprof labels set on the goroutine
	io          ioState     // an I/O call in progress; see iopark.go
	data        rt.Data
	trace       atomic.Pointer[vtrace] // the execution tracer's annotations (trace.go)
}

// ext returns t's extra, making it if t has none yet. Several goroutines may ask at once (a
// joiner, a SetName, the thread itself): one of them installs it.
func (t *Thread) ext() *extra {
	if x := t.x.Load(); x != nil {
		return x
	}
	return t.makeExt()
}

//go:noinline
func (t *Thread) makeExt() *extra {
	x := new(extra)
	if t.x.CompareAndSwap(nil, x) {
		return x
	}
	return t.x.Load()
}

// more returns t's extraMore, making it (and its extra) if t has none yet.
func (t *Thread) more() *extraMore {
	x := t.ext()
	if m := x.more.Load(); m != nil {
		return m
	}
	m := new(extraMore)
	if x.more.CompareAndSwap(nil, m) {
		return m
	}
	return x.more.Load()
}

// moreIfAny returns t's extraMore, or nil if it has none.
func (t *Thread) moreIfAny() *extraMore {
	if x := t.x.Load(); x != nil {
		return x.more.Load()
	}
	return nil
}

func (t *Thread) isVirtual() bool { return t.kind == kindVirtual }

func (t *Thread) isForeign() bool { return t.kind == kindForeign }

// funcTask is a func() as an rt.Runner: a func value is a pointer, so storing it in the task
// interface allocates nothing.
type funcTask func()

func (f funcTask) Run() { f() }

// noCopy makes go vet's copylocks check report copies.
type noCopy struct{}

func (*noCopy) Lock()   {}
func (*noCopy) Unlock() {}

var (
	idSeq           atomic.Int64 // main is #1; the others count from 2
	platformNameSeq atomic.Int64 // Thread-0, Thread-1, ...
)

func init() {
	idSeq.Store(1)
	mainThread = &Thread{id: 1, kind: kindPlatform}
	mainThread.more().name.Store(ptr("main"))
	rtInit()
}

// Priorities, as Thread.MIN_PRIORITY, NORM_PRIORITY and MAX_PRIORITY.
const (
	MinPriority  = 1
	NormPriority = 5
	MaxPriority  = 10
)

// newThread returns a Thread of the given kind. Nobody else can see it yet: plain stores.
func newThread(kind uint8, s *Scheduler) *Thread {
	return &Thread{id: idSeq.Add(1), kind: kind, sched: s}
}

// ThreadID returns the thread's id: positive, unique, assigned when the thread is created and
// never reused. The main goroutine's thread is #1. It ports Thread.threadId().
func (t *Thread) ThreadID() int64 { return t.id }

// Name returns the thread's name; virtual threads are unnamed ("") unless a builder named them.
// It ports Thread.getName().
func (t *Thread) Name() string {
	if m := t.moreIfAny(); m != nil {
		if n := m.name.Load(); n != nil {
			return *n
		}
	}
	return ""
}

// SetName renames the thread, in any state. It ports Thread.setName.
func (t *Thread) SetName(name string) { t.more().name.Store(&name) }

// IsVirtual reports whether t is a virtual thread. It ports Thread.isVirtual().
func (t *Thread) IsVirtual() bool { return t.isVirtual() }

// IsDaemon reports whether t is a daemon thread; virtual threads always are. It ports
// Thread.isDaemon().
func (t *Thread) IsDaemon() bool {
	if t.isVirtual() {
		return true
	}
	m := t.moreIfAny()
	return m != nil && m.daemon.Load()
}

// SetDaemon marks t as a daemon or user thread before it starts. It panics with
// [ErrIllegalArgument] for SetDaemon(false) on a virtual thread (in any state) and with
// [ErrIllegalThreadState] once the thread has started. It ports Thread.setDaemon.
func (t *Thread) SetDaemon(on bool) {
	if t.isVirtual() && !on {
		panic(fmt.Errorf("%w: 'false' not legal for virtual threads", ErrIllegalArgument))
	}
	if t.alive() {
		panic(fmt.Errorf("%w: thread is alive", ErrIllegalThreadState))
	}
	if !t.isVirtual() {
		t.more().daemon.Store(on)
	}
}

// Priority returns the thread's priority; always [NormPriority] (5) for virtual threads. Go has no
// thread priorities: the value is kept and reported, not applied. It ports Thread.getPriority().
func (t *Thread) Priority() int {
	if m := t.moreIfAny(); m != nil && !t.isVirtual() {
		if p := m.priority.Load(); p != 0 {
			return int(p)
		}
	}
	return NormPriority
}

// SetPriority sets the priority of a platform thread; on a virtual thread it is ignored. A
// priority outside [MinPriority]..MaxPriority panics with [ErrIllegalArgument]. It ports
// Thread.setPriority.
func (t *Thread) SetPriority(p int) {
	if p < MinPriority || p > MaxPriority {
		panic(fmt.Errorf("%w: priority %d not in 1..10", ErrIllegalArgument, p))
	}
	if !t.isVirtual() {
		t.more().priority.Store(int32(p))
	}
}

// State returns the thread's state. It ports Thread.getState().
//
// For a Thread that Current attached to a goroutine loom did not start, asked from another
// goroutine, finding out whether the goroutine has ended may cost a sweep of the live
// goroutines (rate-limited; see Current), and the answer may lag the goroutine's end by that
// limit.
func (t *Thread) State() State {
	t.checkForeign()
	return t.rawState()
}

func (t *Thread) rawState() State { return State(t.state.Load()) }

// IsAlive reports whether t has started and not yet terminated. It ports Thread.isAlive(). For
// an attached Thread it costs what State does.
func (t *Thread) IsAlive() bool {
	s := t.State()
	return s != New && s != Terminated
}

func (t *Thread) alive() bool {
	s := t.rawState()
	return s != New && s != Terminated
}

// IsInterrupted reports whether t's interrupt status is set, without clearing it. It ports
// Thread.isInterrupted().
func (t *Thread) IsInterrupted() bool { return t.bits.get(bitInterrupted) }

// Interrupt sets t's interrupt status and wakes it if it is blocked in a loom call: Sleep, Join,
// a lock, a condition, a queue or a future then return [ErrInterrupted] (clearing the status), and
// Park returns with the status left set. A thread blocked in package vio's I/O (a socket, a
// file) has that socket or file closed, as Java closes an interruptible channel. An interrupt of a
// thread that is not blocked is kept until its next interruptible call. Interrupting a thread
// that has not started or has ended just sets the status. It ports Thread.interrupt().
func (t *Thread) Interrupt() {
	t.bits.set(bitInterrupted)
	t.interruptWake()
	t.interruptIO()
}

// Blocker returns what t is parked on (a lock, a condition, a queue), or nil. It ports
// LockSupport.getBlocker.
//
// A thread notified in a monitor wait waits to re-enter the monitor: while it is BLOCKED its
// Blocker is the monitor, not the monitor's wait set.
func (t *Thread) Blocker() any {
	x := t.x.Load()
	if x == nil {
		return nil
	}
	x.mu.Lock()
	b := x.blocker
	x.mu.Unlock()
	if ws, ok := b.(rt.WaitSet); ok && t.rawState() == Blocked {
		return ws.Monitor()
	}
	return b
}

// setBlocker records what t parks on (nil: nothing). Only t calls it.
func (t *Thread) setBlocker(b any) {
	x := t.ext()
	x.mu.Lock()
	x.blocker = b
	x.mu.Unlock()
}

// Carrier returns the name of the carrier t is mounted on ("ForkJoinPool-1-worker-1"), or "" if
// t is not mounted (parked, queued, not started, ended, or a platform thread).
func (t *Thread) Carrier() string {
	if s := t.slot.Load(); s != nil {
		return s.Name
	}
	return ""
}

// String formats t as the JDK does: "VirtualThread[#22]/runnable@ForkJoinPool-1-worker-3" for a
// mounted virtual thread, "VirtualThread[#22,fred]/waiting" for an unmounted one, and
// "Thread[#1,main,5,main]" for a platform thread (the group is empty once it has terminated).
func (t *Thread) String() string {
	var b strings.Builder
	name := t.Name()
	if t.isVirtual() {
		b.WriteString("VirtualThread[#")
		b.WriteString(itoa(t.id))
		if name != "" {
			b.WriteByte(',')
			b.WriteString(name)
		}
		b.WriteString("]/")
		b.WriteString(strings.ToLower(t.rawState().String()))
		if s := t.slot.Load(); s != nil {
			b.WriteByte('@')
			b.WriteString(s.Name)
		}
		return b.String()
	}
	b.WriteString("Thread[#")
	b.WriteString(itoa(t.id))
	b.WriteByte(',')
	b.WriteString(name)
	b.WriteByte(',')
	b.WriteString(itoa(int64(t.Priority())))
	b.WriteByte(',')
	if t.rawState() != Terminated {
		b.WriteString("main")
	}
	b.WriteByte(']')
	return b.String()
}

// Start schedules t to run its task: a virtual thread is queued on its scheduler's carriers, a
// platform thread gets a goroutine locked to a new OS thread. It panics with
// [ErrIllegalThreadState] if t was started before (or has terminated), with [ErrThreadLimit] if a
// platform thread cannot be created (see TryStart), and with [ErrRejected] if the virtual thread's
// scheduler is closed. It ports Thread.start().
func (t *Thread) Start() {
	if err := t.TryStart(); err != nil {
		panic(err)
	}
}

// TryStart is Start, but it returns [ErrThreadLimit] and [ErrRejected] instead of panicking (the
// thread is then TERMINATED, as in Java). Starting twice still panics: that is a programming
// error.
func (t *Thread) TryStart() error {
	// New -> RUNNABLE happens once: a second Start, or a Start of a foreign, main or ended
	// thread, finds another state
	if t.kind == kindForeign || t == mainThread || !t.state.CompareAndSwap(int32(New), int32(Runnable)) {
		panic(fmt.Errorf("%w: thread already started", ErrIllegalThreadState))
	}
	if t.isVirtual() {
		return t.sched.start(t)
	}
	return startPlatform(t)
}

// runTask runs the task of a platform thread; a panic that escapes it is handled like Java's
// uncaught exception and ends only this thread. (A virtual thread's task runs in Carry, which
// does the same in its own deferred call: one frame less under every parked virtual thread.)
func (t *Thread) runTask() {
	defer func() {
		if r := recover(); r != nil {
			t.uncaught(r, debug.Stack())
		}
	}()
	t.task.Run()
}

// The global uncaught-exception handler; nil means print to stderr.
var defaultUEH atomic.Pointer[func(*Thread, any)]

// SetDefaultUncaughtExceptionHandler sets the handler for panics that end a thread that has no
// handler of its own (nil restores the default, which prints `Exception in thread "NAME" ...` and
// the stack to stderr). It ports Thread.setDefaultUncaughtExceptionHandler.
func SetDefaultUncaughtExceptionHandler(h func(t *Thread, panicValue any)) {
	if h == nil {
		defaultUEH.Store(nil)
		return
	}
	defaultUEH.Store(&h)
}

func (t *Thread) uncaught(v any, stack []byte) {
	var h func(*Thread, any)
	if m := t.moreIfAny(); m != nil {
		h = m.ueh
	}
	if h == nil {
		if p := defaultUEH.Load(); p != nil {
			h = *p
		}
	}
	if h != nil {
		func() {
			defer func() { _ = recover() }() // Java ignores exceptions thrown by the handler
			h(t, v)
		}()
		return
	}
	fmt.Fprintf(os.Stderr, "Exception in thread %q %v\n%s", t.Name(), v, stack)
}

// terminate marks t TERMINATED, releases its thread-locals and wakes its joiners. slot is the
// carrier it ends on, if any.
func (t *Thread) terminate(slot *carrier.Slot) {
	t.traceEnded()
	t.state.Store(int32(Terminated))
	t.task = nil
	// Most threads end unjoined and without an extra: skip both then. A joiner sets bitJoined
	// (under its shard's lock) before it looks at the state, and this looks at the bit after
	// storing the state, so either the joiner sees TERMINATED or this sees the joiner.
	if x := t.x.Load(); x != nil {
		if m := x.more.Load(); m != nil {
			m.data = rt.Data{}
		}
	}
	if t.bits.get(bitJoined) {
		t.wakeJoiners(slot)
	}
	if t.sched != nil {
		t.sched.threadEnded(t, slot)
	}
}

// The join table: the threads waiting in Join for each thread that has any, in shards by the
// joined thread's id. A join registers its caller there (and sets bitJoined on the joined
// thread) and the joined thread's end takes the entry out and wakes every joiner.
//
// Why not in the thread: loom's first joiners list lived in the joined thread's extra, so a Join
// of a running thread allocated the extra (64 bytes) and its list (8 more): two allocations and
// 72 bytes per start+join beside the Thread's 96, and the collector they kept busy (write
// barriers, assists, preemption for stack scans) was a fifth of a start+join from a virtual
// thread. Here a join allocates nothing: the shard's map reuses its slots, and it holds an entry
// only while a join of that thread is under way. A field in the Thread core was not taken
// either: 8 bytes more would move every Thread from the 96-byte size class to 112.
//
// A thread with one joiner, the common join, is kept in the shard's few pairs while one is free,
// and only the rest in its map: a map insert and delete (with the delete's clearing and reseeding
// of an emptied map) were 60 ns of a start+join's 940 from a virtual thread, a scan of four pairs
// under the lock the shard's mutex already takes costs a few.
type joinShard struct {
	mu   sync.Mutex
	few  [fewJoins]joinPair      // threads with one joiner (t nil: free); never also in m
	m    map[*Thread]joinWaiters // the others
	high int                     // the most entries m has had since it was made (see dropEntry)
	_    [40]byte                // keep shards on separate cache lines
}

// fewJoins is the number of one-joiner joins a shard keeps out of its map.
const fewJoins = 4

// joinPair is a thread t with its one joiner w.
type joinPair struct{ t, w *Thread }

// findFew returns the index of t's pair in sh.few, or -1.
func (sh *joinShard) findFew(t *Thread) int {
	for i := range sh.few {
		if sh.few[i].t == t {
			return i
		}
	}
	return -1
}

// dropEntry deletes t's entry. A map never shrinks, so one that is empty again after a burst of
// joins (over 1024 threads joined at once in this shard) is dropped, as the registry drops a
// burst's slab.
func (sh *joinShard) dropEntry(t *Thread) {
	delete(sh.m, t)
	if len(sh.m) == 0 && sh.high > 1024 {
		sh.m, sh.high = nil, 0
	}
}

// joinWaiters are the joiners of one thread: the first, and the rest in order.
type joinWaiters struct {
	first *Thread
	more  []*Thread
}

var joinTable [shards]joinShard

func joinShardOf(t *Thread) *joinShard { return &joinTable[t.id&(shards-1)] }

// addJoiner registers w as a joiner of t and reports true, or reports false if t has
// terminated (w is then not registered).
func (t *Thread) addJoiner(w *Thread) bool {
	sh := joinShardOf(t)
	sh.mu.Lock()
	t.bits.set(bitJoined) // before the state is read: see terminate
	if t.rawState() == Terminated {
		sh.mu.Unlock()
		return false
	}
	if i := sh.findFew(t); i >= 0 {
		// a second joiner: the two go to the map, in order
		sh.addMapLocked(t, sh.few[i].w)
		sh.few[i] = joinPair{}
		sh.addMapLocked(t, w)
	} else if _, inMap := sh.m[t]; !inMap {
		if i := sh.findFew(nil); i >= 0 {
			sh.few[i] = joinPair{t, w}
		} else {
			sh.addMapLocked(t, w)
		}
	} else {
		sh.addMapLocked(t, w)
	}
	sh.mu.Unlock()
	return true
}

// addMapLocked appends w to t's joiners in the map.
func (sh *joinShard) addMapLocked(t, w *Thread) {
	if sh.m == nil {
		sh.m = make(map[*Thread]joinWaiters)
	}
	ws := sh.m[t]
	if ws.first == nil {
		ws.first = w
	} else {
		ws.more = append(ws.more, w)
	}
	sh.m[t] = ws
	sh.high = max(sh.high, len(sh.m))
}

// removeJoiner takes w, which gave up waiting, out of t's joiners (if t's end has not already).
func (t *Thread) removeJoiner(w *Thread) {
	sh := joinShardOf(t)
	sh.mu.Lock()
	if i := sh.findFew(t); i >= 0 {
		if sh.few[i].w == w {
			sh.few[i] = joinPair{}
		}
	} else if ws, ok := sh.m[t]; ok {
		if ws.first == w {
			ws.first = nil
		} else if i := slices.Index(ws.more, w); i >= 0 {
			ws.more = slices.Delete(ws.more, i, i+1)
		}
		if ws.first == nil && len(ws.more) > 0 {
			ws.first, ws.more = ws.more[0], ws.more[1:]
		}
		if ws.first == nil {
			sh.dropEntry(t)
		} else {
			sh.m[t] = ws
		}
	}
	sh.mu.Unlock()
}

// wakeJoiners wakes the joiners of t, which has terminated on carrier slot (if any).
//
//go:noinline
func (t *Thread) wakeJoiners(slot *carrier.Slot) {
	sh := joinShardOf(t)
	sh.mu.Lock()
	var ws joinWaiters
	if i := sh.findFew(t); i >= 0 {
		ws.first = sh.few[i].w
		sh.few[i] = joinPair{}
	} else if m, ok := sh.m[t]; ok {
		ws = m
		sh.dropEntry(t)
	}
	sh.mu.Unlock()
	if ws.first != nil {
		ws.first.unparkFrom(slot) // the carrier goes on to the joiner next (see resume)
	}
	for _, w := range ws.more {
		w.unparkFrom(slot)
	}
}

// Join waits until t has terminated. It returns at once for a thread that was never started or
// has ended. While it waits, a virtual caller unmounts. If the caller is interrupted (before or
// while waiting, while t is alive), Join returns [ErrInterrupted] and clears the interrupt status.
// Termination of t synchronizes before Join returns. It ports Thread.join().
func (t *Thread) Join() error {
	_, err := t.join(-1)
	return err
}

// JoinTimeout waits at most d for t to terminate and reports whether it has. d <= 0 just tests.
// It panics with [ErrIllegalThreadState] if t was never started (as join(Duration) throws); see
// Join for interrupts. It ports Thread.join(Duration).
func (t *Thread) JoinTimeout(d time.Duration) (bool, error) {
	if t.State() == New {
		panic(fmt.Errorf("%w: thread not started", ErrIllegalThreadState))
	}
	if d <= 0 {
		return t.State() == Terminated, nil
	}
	return t.join(d)
}

func (t *Thread) join(d time.Duration) (bool, error) {
	if !t.IsAlive() {
		return t.State() == Terminated || t.State() == New, nil
	}
	me := Current()
	if me == t {
		// joining yourself waits forever in Java; that is a bug, not a state to emulate silently
		if d < 0 {
			panic(fmt.Errorf("%w: a thread cannot join itself", ErrIllegalThreadState))
		}
	}
	if me.bits.take(bitInterrupted) {
		return false, ErrInterrupted
	}
	if !t.addJoiner(me) {
		return true, nil
	}
	var deadline time.Time
	if d >= 0 {
		deadline = time.Now().Add(d)
	}
	// A foreign goroutine does not say when it ends: a joiner wakes now and then so that State
	// sweeps (rate-limited, see Current), starting after a millisecond and backing off to a
	// second.
	poll := time.Duration(-1)
	if t.isForeign() {
		poll = time.Millisecond
	}
	for t.State() != Terminated {
		if me.bits.take(bitInterrupted) {
			t.removeJoiner(me)
			return false, ErrInterrupted
		}
		wait, st := time.Duration(-1), Waiting
		if d >= 0 {
			if wait = time.Until(deadline); wait <= 0 {
				t.removeJoiner(me)
				return false, nil
			}
			st = TimedWaiting
		}
		if poll > 0 {
			if wait < 0 || poll < wait {
				wait = poll
			}
			poll = min(2*poll, time.Second)
		}
		me.parkFor(wait, rt.ParkWaiting, t, st)
	}
	return true, nil
}
