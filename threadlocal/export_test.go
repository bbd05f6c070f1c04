package threadlocal

import (
	"github.com/loomgo/loom/internal/rt"
)

// KeyOf returns tl's key (issuing it if need be): index in the low 32 bits, generation above.
func KeyOf[T any](tl *ThreadLocal[T]) uint64 { return tl.c.key() }

// Live reports whether key k belongs to a ThreadLocal that has not been collected.
var Live = rt.LiveKey

// Slots returns the length of the current thread's dense slice of values and the size of its
// overflow map.
func Slots() (dense, more int) { return rt.CurrentData().Slots() }

const MaxInitDepth = maxInitDepth
