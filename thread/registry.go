package thread

import (
	"bytes"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/petermattis/goid"

	"github.com/loomgo/loom/internal/carrier"
	"github.com/loomgo/loom/internal/rt"
	"github.com/loomgo/loom/internal/slab"
)

// Goroutine identity.
//
// Current must map the running goroutine to its Thread on every Park, lock and thread-local
// access, so it has to be cheap. github.com/petermattis/goid reads the goroutine id from the
// runtime's g structure in a few nanoseconds; parsing runtime.Stack costs about a microsecond.
// goid depends on the runtime's private layout, so at start-up its answer is checked against
// runtime.Stack on two goroutines; on any mismatch (an old goid on a new Go returns 0) loom falls
// back to parsing runtime.Stack and says so on stderr.

var gidFunc = goid.Get

func init() {
	if !rt.GoidOK { // internal/rt checked goid.Get against runtime.Stack on two goroutines
		fmt.Fprintln(os.Stderr, "loom: goroutine ids from github.com/petermattis/goid disagree with runtime.Stack; using the slow path")
		gidFunc = rt.Goid // parses runtime.Stack when goid cannot be trusted
	}
}

// The registries.
//
// Current maps the running goroutine to its Thread, and LiveThreads, FindDeadlocked and
// DumpThreads list every live thread. What each kind of thread costs for that:
//
//   - A mounted virtual thread is found through its carrier: mounting stores it in the carrier
//     slot (what runs there) and in curCache under its goroutine id. A task that runs inline and
//     never parks is in no registry at all: it costs two stores per mount.
//   - A virtual thread that has unmounted once (parked, yielded, or run unmounted in Blocking or an
//     I/O park) is in the registry of virtual threads from then until it ends: a slab of pointers
//     per shard (a slab.List: chunks of slots, and a stack of the free ones), and the thread's own
//     index (regIndex). Adding and removing are a few stores under the shard's mutex, with no
//     hashing, no rehashing and nothing to scan, so a million parked threads cost a million slots
//     of 8 bytes. It is for listing only. A thread whose task's owner lists it anyway (a
//     thread-per-task executor's task, rt.Listed) is not in it: liveThreads reads the owner's
//     list (rt.Lister) instead.
//   - A thread whose goroutine runs without a carrier (a platform thread for its whole life, a
//     foreign goroutine from its first Current, a virtual thread while it runs unmounted) is in
//     the goroutine-id map: that is how Current finds it. These are few, or short-lived.
//
// Foreign goroutines never say when they end, so their entries are swept: the live goroutine ids
// are read from runtime.Stack (all goroutines: it stops the world for a moment and costs about a
// microsecond per goroutine), and the Thread of every foreign goroutine not among them is
// terminated (its joiners return) and dropped. Go offers no cheaper liveness signal for another
// goroutine (no exit hook, no goroutine handle; a finalizer needs an object the goroutine alone
// keeps alive, and its stack is not one), so a sweep is what an answer about a foreign thread's
// liveness costs. Sweeps happen:
//
//   - when the number of foreign entries doubles since the last sweep, so the registry holds at
//     most about twice the foreign goroutines alive at the last sweep (plus 1024), at an
//     amortised cost of one scan per doubling;
//   - before LiveThreads, FindDeadlocked and DumpThreads answer (each time, if any foreign entry
//     exists), so a goroutine that has ended is never listed;
//   - when another goroutine asks a foreign Thread's State or IsAlive, or waits in its Join:
//     rate-limited to one sweep per 50 times what a sweep costs (at least 1 ms apart), so
//     polling costs at most about 2% of a core, and such a Thread may read as alive for that
//     long after its goroutine ended.
//
// A program that never calls Current on goroutines loom did not start never sweeps. Detach
// drops an entry at once, for nothing.
//
// A sweep must not drop a goroutine that attached after the scan of live goroutines began (it
// is alive but not in the scan): attach records the sweep epoch it saw, and a sweep drops only
// entries from earlier epochs.
//
// Designs measured and not taken: every virtual thread in the goroutine-id map from its first
// run to its end (loom's first registry): a map insert and delete per thread, 3% of a million
// trivial futures, and at a million parked threads maps of a million entries that the collector
// scans and that grow by rehashing.

const shards = 64

type shard struct {
	mu sync.Mutex
	m  map[int64]*Thread
	_  [40]byte // keep shards on separate cache lines
}

var (
	registry     [shards]shard
	foreignCount atomic.Int64
	foreignLimit atomic.Int64
	sweepMu      sync.Mutex
	sweepEpoch   atomic.Uint64
	lastSweepEnd atomic.Int64 // nanotime when the last sweep ended
	lastSweepDur atomic.Int64 // how long it took
)

func init() {
	for i := range registry {
		registry[i].m = make(map[int64]*Thread)
	}
	foreignLimit.Store(1024)
}

func register(gid int64, t *Thread) {
	sh := &registry[gid&(shards-1)]
	sh.mu.Lock()
	sh.m[gid] = t
	sh.mu.Unlock()
}

// unregister drops the entry of gid and reports whether there was one (a sweep may have dropped
// it first: whoever drops it counts it out).
func unregister(gid int64) bool {
	sh := &registry[gid&(shards-1)]
	sh.mu.Lock()
	_, ok := sh.m[gid]
	delete(sh.m, gid)
	sh.mu.Unlock()
	return ok
}

func lookup(gid int64) *Thread {
	sh := &registry[gid&(shards-1)]
	sh.mu.Lock()
	t := sh.m[gid]
	sh.mu.Unlock()
	return t
}

// The registry of virtual threads that have unmounted at least once: a slab.List per shard (in
// chunks, so that a burst of parked threads costs 8 bytes each and leaves no garbage of outgrown
// arrays behind).
type vshard struct {
	mu carrier.Lock // taken deep in a parking thread's stack: see carrier.Lock
	ts slab.List[Thread]
	_  [8]byte
}

var vregistry [shards]vshard

// regListed is the regIndex of a thread whose task's owner lists it (rt.Listed): not in the
// registry, but registered all the same (registerVirtual is not called again).
const regListed = -1

// registerVirtual adds t, which is about to unmount for the first time, to the registry, unless
// its task's owner lists it (rt.Listed). Only t calls it, and unregisterVirtual.
func registerVirtual(t *Thread) {
	if _, ok := t.task.(rt.Listed); ok {
		t.regIndex = regListed
		return
	}
	sh := &vregistry[t.id&(shards-1)]
	sh.mu.Lock()
	t.regIndex = sh.ts.Add(t) + 1
	sh.mu.Unlock()
}

func unregisterVirtual(t *Thread) {
	if t.regIndex == regListed {
		t.regIndex = 0
		return
	}
	sh := &vregistry[t.id&(shards-1)]
	sh.mu.Lock()
	sh.ts.Remove(t.regIndex - 1)
	t.regIndex = 0
	sh.mu.Unlock()
}

// The listers: the lists of threads that their tasks' owners keep (rt.Listed, rt.AddLister),
// which liveThreads reads besides the registries.
var (
	listersMu sync.Mutex
	listers   slab.List[rt.Lister]
)

func addLister(l rt.Lister) (remove func()) {
	p := &l
	listersMu.Lock()
	i := listers.Add(p)
	listersMu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			listersMu.Lock()
			listers.Remove(i)
			listersMu.Unlock()
		})
	}
}

// listedThreads calls f with every thread that a lister lists.
func listedThreads(f func(t *Thread)) {
	listersMu.Lock()
	defer listersMu.Unlock()
	listers.All(func(l *rt.Lister) bool {
		(*l).Threads(func(t any) bool {
			f(t.(*Thread))
			return true
		})
		return true
	})
}

func init() { rt.AddLister = addLister }

// mountedOn returns the virtual thread mounted on a carrier of any scheduler and running on
// goroutine gid, or nil: how Current finds a running thread whose curCache entry another
// goroutine has taken.
func mountedOn(gid int64) *Thread {
	var found *Thread
	forEachScheduler(func(s *Scheduler) bool {
		for _, m := range s.pool.Mounts() {
			if t := (*Thread)(m.Cur); t != nil && t.gid == gid && t.rawState() != Terminated {
				found = t
				return false
			}
		}
		return true
	})
	return found
}

// Current returns the thread running the caller: the virtual thread (never its carrier) when
// called from a virtual thread, the platform thread from a platform thread. On a goroutine loom
// did not start it returns a platform Thread attached to that goroutine, the same one for the
// goroutine's whole life; the program's main goroutine is Thread[#1,main,5,main]. It ports
// Thread.currentThread().
//
// An attached Thread lives as long as its goroutine, but Go does not say when a goroutine ends.
// loom finds out by sweeping: it reads the ids of the live goroutines ([runtime.Stack] of all
// goroutines, which stops the world for a moment: about a microsecond per goroutine, and tens of
// milliseconds in a process that has had a million goroutines at once, since Go keeps their
// structures) and terminates the Threads of the goroutines that have gone. [LiveThreads],
// [FindDeadlocked] and [DumpThreads] sweep every time before they answer; State, IsAlive, Join and
// JoinTimeout of an attached Thread, called from another goroutine, sweep at most once per 50
// times the last sweep's duration, so they never spend more than about 2% of a core on it and
// may report a goroutine that has just ended as alive for that long (milliseconds in a small
// program, seconds after a million-goroutine burst). Detach ends an attachment
// at once and costs nothing; a goroutine that is done with loom may call it.
func Current() *Thread {
	gid := gidFunc()
	if t := curCache[gid&(cacheSize-1)].Load(); t != nil && t.gid == gid && t.rawState() != Terminated {
		return t
	}
	return currentSlow(gid)
}

//go:noinline
func currentSlow(gid int64) *Thread {
	t := lookup(gid)
	if t == nil {
		if t = mountedOn(gid); t == nil {
			t = attach(gid)
		}
	}
	curCache[gid&(cacheSize-1)].Store(t)
	return t
}

// curCache is a direct-mapped cache in front of the registry: the last thread seen on each
// goroutine, indexed by goroutine id. Every Park, Lock and thread-local access calls Current, so
// it must cost a few nanoseconds, not a mutex and a map look-up.
//
// Why a hit can be trusted: goroutine ids are never reused, and a goroutine runs one thread at a
// time. The thread on a goroutine changes only when that thread ends (a virtual thread that ran
// on a continuation, after which the next one runs there) or a foreign goroutine
// detaches; either way the cached thread is TERMINATED, which the look-up checks, and the slow
// path refreshes the entry. Entries are *Thread (the goroutine id is the thread's own field,
// written before the Thread is stored anywhere), so filling the cache allocates nothing. Every
// mount stores the mounted thread's entry, so a running virtual thread misses only when a
// goroutine with a colliding id took the entry while it ran.
const cacheSize = 4096

var curCache [cacheSize]atomic.Pointer[Thread]

var mainThread *Thread

func attach(gid int64) *Thread {
	var t *Thread
	if gid == 1 {
		t = mainThread
	} else {
		t = newThread(kindForeign, nil)
		t.more().name.Store(ptr("Thread-" + itoa(platformNameSeq.Add(1)-1)))
	}
	t.gid = gid
	t.state.Store(int32(Runnable))
	t.more().attachEpoch = sweepEpoch.Load()
	register(gid, t)
	if gid != 1 && foreignCount.Add(1) > foreignLimit.Load() {
		sweepForeign(false)
	}
	return t
}

func ptr[T any](v T) *T { return &v }

// Detach ends the attachment of the calling foreign goroutine (one loom did not start) to its
// Thread: the Thread becomes TERMINATED, joiners return, and its thread-locals are released. A
// later Current on the same goroutine attaches a new Thread. Detach does nothing on threads loom
// started. Foreign goroutines need not call it (entries of dead goroutines are swept, see
// Current), but a goroutine that is done with loom can, and its Thread then reads TERMINATED at
// once, without the cost of a sweep.
func Detach() {
	gid := gidFunc()
	t := lookup(gid)
	if t == nil || !t.isForeign() {
		return
	}
	if unregister(gid) {
		foreignCount.Add(-1)
		t.terminate(nil)
	}
}

// sweepForeign terminates and drops the Threads of foreign goroutines that have ended (see the
// comment above register). If wait, it waits for a sweep in progress and then sweeps, so that
// every goroutine that ended before the call is found; otherwise it leaves the work to a sweep
// in progress.
func sweepForeign(wait bool) {
	if wait {
		sweepMu.Lock()
	} else if !sweepMu.TryLock() {
		return
	}
	defer sweepMu.Unlock()
	start := nanotime()
	epoch := sweepEpoch.Add(1) // entries attached from now on are not in the scan below
	live := liveGoroutines()
	n := int64(0)
	var dead []*Thread
	for i := range registry {
		sh := &registry[i]
		sh.mu.Lock()
		for gid, t := range sh.m {
			if !t.isForeign() {
				continue
			}
			if _, ok := live[gid]; ok || t.moreIfAny().attachEpoch >= epoch {
				n++
				continue
			}
			delete(sh.m, gid)
			dead = append(dead, t)
		}
		sh.mu.Unlock()
	}
	foreignCount.Add(-int64(len(dead)))
	foreignLimit.Store(2*n + 1024)
	for _, t := range dead {
		t.terminate(nil)
	}
	end := nanotime()
	lastSweepDur.Store(end - start)
	lastSweepEnd.Store(end)
}

// sweepForeignNow sweeps before a diagnostic answers (LiveThreads, FindDeadlocked, DumpThreads).
func sweepForeignNow() {
	if foreignCount.Load() > 0 {
		sweepForeign(true)
	}
}

// Rate limit of the sweeps that liveness questions about one foreign Thread trigger: at most one
// per 50 times the last sweep's duration (2% of a core). A sweep's cost is not just the live
// goroutines: runtime.Stack walks every goroutine structure the process has ever had at once
// (Go keeps them for reuse), so after a burst of a million goroutines even a sweep that finds a
// handful alive takes tens of milliseconds, and the lag of State grows to seconds.
const (
	sweepCostFactor = 50
	sweepMinGap     = int64(time.Millisecond)
)

// checkForeign sweeps, rate-limited, if t is a foreign Thread that still reads alive and the
// caller is not t's own goroutine (which is alive by definition): the answer the caller is
// about to give (State, IsAlive, Join) must not be a phantom's for long.
func (t *Thread) checkForeign() {
	if !t.isForeign() || t == mainThread {
		return
	}
	if st := t.rawState(); st == Terminated || st == New || t.gid == gidFunc() {
		return
	}
	gap := max(sweepMinGap, sweepCostFactor*lastSweepDur.Load())
	if nanotime()-lastSweepEnd.Load() >= gap {
		sweepForeign(false)
	}
}

// liveGoroutines returns the ids of every goroutine alive now.
func liveGoroutines() map[int64]struct{} {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	live := make(map[int64]struct{})
	for _, line := range bytes.Split(buf, []byte("\n")) {
		if !bytes.HasPrefix(line, []byte("goroutine ")) {
			continue
		}
		f := bytes.Fields(line)
		if len(f) < 2 {
			continue
		}
		if id, err := strconv.ParseInt(string(f[1]), 10, 64); err == nil {
			live[id] = struct{}{}
		}
	}
	return live
}
