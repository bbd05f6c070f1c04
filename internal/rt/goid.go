package rt

import (
	"bytes"
	"runtime"
	"strconv"

	"github.com/petermattis/goid"
)

// Goroutine identity for the synchronizers' fast paths.
//
// A lock must tell, on every Lock and Unlock, whether the current thread owns it. Looking the
// thread up (thread.Current) costs a cache probe behind the goroutine id; comparing the goroutine
// id alone costs the id: a goroutine runs one thread at a time and a thread never changes
// goroutine, so "the lock's owner runs on this goroutine and has not ended" is "the current thread
// owns it" (see locks' exclusive.go for how the "not ended" half is checked).
//
// github.com/petermattis/goid reads the id from the runtime's g structure (a couple of
// nanoseconds, inlined here); it depends on the runtime's private layout, so its answer is checked
// against runtime.Stack once, on two goroutines, and on any disagreement Goid parses
// runtime.Stack instead (about a microsecond). Package thread makes the same check for its own
// registry; both must agree, and do, since both fall back to the same source of truth.

// GoidOK reports whether [goid.Get] agrees with [runtime.Stack].
var GoidOK = goidAgrees()

// GoidOffset is the offset of the goroutine id in the runtime's g, for assembly that reads it
// there (the amd64 fast paths of locks' ReentrantLock and Monitor), or 0 where that is not
// known: on other architectures or with the purego tag, or when [GoidOK] is false or the id is
// not found where [goid.Get] finds it (checked, as [GoidOK] is, on two goroutines against
// [runtime.Stack]). Code that reads it must take its Go path when it is 0.
var GoidOffset = goidOffset()

// Goid returns the current goroutine's id.
func Goid() int64 {
	if GoidOK {
		return goid.Get()
	}
	return slowGoid()
}

// Checked returns g, what [goid.Get] just returned on the calling goroutine, if [goid.Get] can be
// trusted, and the goroutine's id from [runtime.Stack] otherwise. The hottest paths (a lock's Lock
// and Unlock) write [Checked]([goid.Get]()) instead of [Goid](): both calls are then inlined,
// which Goid itself cannot be (two calls exceed the inliner's budget), and an uncontended
// Lock/Unlock pair pays for the extra call and frame of Goid twice (measured: about 0.3x of a
// [sync.Mutex] pair).
func Checked(g int64) int64 {
	if GoidOK {
		return g
	}
	return slowGoid()
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
