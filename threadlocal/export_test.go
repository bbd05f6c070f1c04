package threadlocal

import (
	"unsafe"

	"github.com/loomgo/loom/internal/rt"
	"github.com/loomgo/loom/thread"
)

// KeyOf returns tl's key (issuing it if need be): index in the low 32 bits, generation above.
func KeyOf[T any](tl *ThreadLocal[T]) uint64 { return tl.k.get() }

// Live reports whether key k belongs to a ThreadLocal that has not been collected.
var Live = rt.LiveKey

// Slots returns the length of t's dense slice of values and the size of its overflow map; t must
// be the current thread, or one that has not started or has ended.
func Slots(t *thread.Thread) (dense, more int) { return rt.DataAt(unsafe.Pointer(t)).Slots() }

const MaxInitDepth = maxInitDepth
