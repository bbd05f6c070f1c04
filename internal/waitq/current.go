package waitq

import (
	"bytes"
	"runtime"
	"strconv"
	"sync/atomic"

	"github.com/loomgo/loom/thread"
	"github.com/petermattis/goid"
)

// Current returns thread.Current(), faster.
//
// Locks compare their owner with the current thread on every Lock and Unlock, and
// thread.Current costs a registry look-up (a sharded mutex and a map, ~20 ns): twice that per
// Lock/Unlock pair would put an uncontended ReentrantLock at 3-4x a sync.Mutex. So the last
// thread seen on each goroutine is kept in a small direct-mapped cache indexed by goroutine id.
//
// Why an entry can be trusted: goroutine ids are never reused, and a goroutine runs one thread
// at a time. The only way the thread on a goroutine changes is that it ends (a virtual thread
// that ran inline on a dispatching goroutine, after which the next one runs there) or a foreign
// goroutine calls thread.Detach; in both cases the cached thread is TERMINATED, which the look-up
// checks, and the slow path refreshes the entry. A miss costs thread.Current plus one small
// allocation; the cache holds at most cacheSize threads alive.
//
// If goroutine ids from goid disagree with the runtime (a Go version goid does not know), the
// cache is off and Current is thread.Current.
func Current() *thread.Thread {
	if !cacheOn {
		return thread.Current()
	}
	gid := goid.Get()
	slot := &cache[gid&(cacheSize-1)]
	if e := slot.Load(); e != nil && e.gid == gid && e.t.State() != thread.Terminated {
		return e.t
	}
	t := thread.Current()
	slot.Store(&cacheEntry{gid: gid, t: t})
	return t
}

const cacheSize = 1024

type cacheEntry struct {
	gid int64
	t   *thread.Thread
}

var (
	cache   [cacheSize]atomic.Pointer[cacheEntry]
	cacheOn = goidAgrees()
)

func goidAgrees() bool {
	if goid.Get() <= 0 || goid.Get() != stackGoid() {
		return false
	}
	ok := make(chan bool)
	go func() { ok <- goid.Get() > 0 && goid.Get() == stackGoid() }()
	return <-ok
}

func stackGoid() int64 {
	var buf [64]byte
	b := buf[:runtime.Stack(buf[:], false)]
	b = bytes.TrimPrefix(b, []byte("goroutine "))
	if i := bytes.IndexByte(b, ' '); i > 0 {
		b = b[:i]
	}
	n, err := strconv.ParseInt(string(b), 10, 64)
	if err != nil {
		return -1
	}
	return n
}
