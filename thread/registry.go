package thread

import (
	"bytes"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/petermattis/goid"
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
	if !goidAgrees() {
		fmt.Fprintln(os.Stderr, "loom: goroutine ids from github.com/petermattis/goid disagree with runtime.Stack; using the slow path")
		gidFunc = slowGoid
	}
}

func goidAgrees() bool {
	if goid.Get() != slowGoid() || goid.Get() <= 0 {
		return false
	}
	ok := make(chan bool)
	go func() { ok <- goid.Get() == slowGoid() }()
	return <-ok
}

// slowGoid parses "goroutine 123 [running]:" from the current goroutine's stack.
func slowGoid() int64 {
	var buf [64]byte
	b := buf[:runtime.Stack(buf[:], false)]
	b = bytes.TrimPrefix(b, []byte("goroutine "))
	if i := bytes.IndexByte(b, ' '); i > 0 {
		b = b[:i]
	}
	n, err := strconv.ParseInt(string(b), 10, 64)
	if err != nil {
		panic("loom: cannot parse goroutine id: " + err.Error())
	}
	return n
}

// The registry maps goroutine ids to threads. Virtual threads are registered while they run
// (inline on a dispatcher or on their own goroutine), platform threads for their whole life,
// and foreign goroutines (not started by loom) when they first call Current.
//
// Foreign goroutines never say when they end, so their entries are swept: goroutine ids are
// never reused, and when the number of foreign entries doubles since the last sweep, the live
// goroutine ids are read from runtime.Stack and the dead entries dropped. The registry therefore
// holds at most about twice the foreign goroutines alive at the last sweep (plus 1024), at an
// amortised cost of one stack scan per doubling. Detach drops an entry at once.

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

func unregister(gid int64) {
	sh := &registry[gid&(shards-1)]
	sh.mu.Lock()
	delete(sh.m, gid)
	sh.mu.Unlock()
}

func lookup(gid int64) *Thread {
	sh := &registry[gid&(shards-1)]
	sh.mu.Lock()
	t := sh.m[gid]
	sh.mu.Unlock()
	return t
}

// Current returns the thread running the caller: the virtual thread (never its carrier) when
// called from a virtual thread, the platform thread from a platform thread. On a goroutine loom
// did not start it returns a platform Thread attached to that goroutine, the same one for the
// goroutine's whole life; the program's main goroutine is Thread[#1,main,5,main]. It ports
// Thread.currentThread().
func Current() *Thread {
	gid := gidFunc()
	c := &curCache[gid&(cacheSize-1)]
	if t := c.Load(); t != nil && t.gid.Load() == gid && t.State() != Terminated {
		return t
	}
	t := lookup(gid)
	if t == nil {
		t = attach(gid)
	}
	c.Store(t)
	return t
}

// curCache is a direct-mapped cache in front of the registry: the last thread seen on each
// goroutine, indexed by goroutine id. Every Park, Lock and thread-local access calls Current, so
// it must cost a few nanoseconds, not a mutex and a map look-up.
//
// Why a hit can be trusted: goroutine ids are never reused, and a goroutine runs one thread at a
// time. The thread on a goroutine changes only when that thread ends (a virtual thread that ran
// inline on a dispatching goroutine, after which the next one runs there) or a foreign goroutine
// detaches; either way the cached thread is TERMINATED, which the look-up checks, and the slow
// path refreshes the entry. Entries are *Thread (the goroutine id is the thread's own atomic
// field), so filling the cache allocates nothing.
const cacheSize = 4096

var curCache [cacheSize]atomic.Pointer[Thread]

var mainThread *Thread

func attach(gid int64) *Thread {
	var t *Thread
	if gid == 1 {
		t = mainThread
	} else {
		t = newThread(false, nil)
		t.foreign = true
		t.name.Store(ptr("Thread-" + itoa(platformNameSeq.Add(1)-1)))
	}
	t.gid.Store(gid)
	t.state.Store(int32(Runnable))
	t.started.Store(true)
	register(gid, t)
	if gid != 1 && foreignCount.Add(1) > foreignLimit.Load() {
		sweepForeign()
	}
	return t
}

func ptr[T any](v T) *T { return &v }

// Detach ends the attachment of the calling foreign goroutine (one loom did not start) to its
// Thread: the Thread becomes TERMINATED, joiners return, and its thread-locals are released. A
// later Current on the same goroutine attaches a new Thread. Detach does nothing on threads loom
// started. Foreign goroutines need not call it (entries of dead goroutines are swept), but a
// long-lived goroutine that is done with loom can.
func Detach() {
	gid := gidFunc()
	t := lookup(gid)
	if t == nil || !t.foreign {
		return
	}
	unregister(gid)
	foreignCount.Add(-1)
	t.terminate()
}

func sweepForeign() {
	if !sweepMu.TryLock() {
		return
	}
	defer sweepMu.Unlock()
	live := liveGoroutines()
	n := int64(0)
	var dead []*Thread
	for i := range registry {
		sh := &registry[i]
		sh.mu.Lock()
		for gid, t := range sh.m {
			if !t.foreign {
				continue
			}
			if _, ok := live[gid]; ok {
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
		t.terminate()
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
