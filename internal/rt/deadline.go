package rt

import (
	"math"
	"time"
)

// Deadlines.
//
// Java's idiom for "wait forever" with a timed call is Long.MAX_VALUE nanoseconds, and ported
// code passes math.MaxInt64 (time.Duration(math.MaxInt64)) for it. A deadline computed as
// now+timeout then overflows into the past, and a wait loop that re-parks for "the time left"
// returns at once, again and again: a spin that reports TIMED_WAITING. Every deadline in loom is
// therefore a saturating sum: a timeout too large to add is a deadline that never passes.
//
// Go's time.Time.Add saturates already (on overflow of the monotonic reading it falls back to
// the wall clock, whose range is 292 billion years), and time.Until and Time.Sub saturate at
// math.MaxInt64, so deadlines kept as a time.Time (time.Now().Add(d)) are safe. Deadlines kept
// as int64 nanoseconds, the cheaper form the timer queues use, must go through AddSat.

// Nanotime returns monotonic nanoseconds since the process started (it never goes back and is
// unaffected by changes of the wall clock).
func Nanotime() int64 { return int64(time.Since(clockBase)) }

var clockBase = time.Now()

// Deadline returns Nanotime()+d, saturated: a d too large to add gives [math.MaxInt64], a deadline
// that never passes.
func Deadline(d time.Duration) int64 { return AddSat(Nanotime(), d) }

// AddSat returns t+d, clamped to [math.MinInt64, math.MaxInt64] instead of wrapping around.
func AddSat(t int64, d time.Duration) int64 {
	s := t + int64(d)
	switch {
	case d > 0 && s < t:
		return math.MaxInt64
	case d < 0 && s > t:
		return math.MinInt64
	}
	return s
}
