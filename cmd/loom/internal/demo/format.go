package demo

import (
	"fmt"
	"strconv"
	"time"
)

// commas formats n with thousands separators: 10000 -> "10,000".
func commas(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := n < 0
	if neg {
		s = s[1:]
	}
	var out []byte
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	if neg {
		return "-" + string(out)
	}
	return string(out)
}

// ms formats d in whole milliseconds with separators: "1,582 ms".
func ms(d time.Duration) string { return commas(d.Round(time.Millisecond).Milliseconds()) + " ms" }

// mb formats a byte count in megabytes: "7.8 MB".
func mb(b int64) string {
	v := float64(b) / 1e6
	switch {
	case v >= 100:
		return fmt.Sprintf("%.0f MB", v)
	case v >= 10:
		return fmt.Sprintf("%.1f MB", v)
	default:
		return fmt.Sprintf("%.2f MB", v)
	}
}

// kb formats a byte count in kilobytes: "2.7 KB".
func kb(b float64) string { return fmt.Sprintf("%.1f KB", b/1e3) }

// ratio formats a/b as "33×".
func ratio(a, b float64) string {
	if b <= 0 {
		return "∞×"
	}
	r := a / b
	switch {
	case r >= 10:
		return fmt.Sprintf("%.0f×", r)
	case r < 0.1:
		return fmt.Sprintf("%.2f×", r) // not "0.0×"
	}
	return fmt.Sprintf("%.1f×", r)
}

// secs returns d in seconds, for Figures.
func secs(d time.Duration) float64 { return d.Seconds() }

// msf returns d in milliseconds, for Figures.
func msf(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// nTasks describes a task count and a sleep: "10,000 × 1 s".
func nTasks(n int, d time.Duration) string {
	return commas(int64(n)) + " × " + dur(d)
}

// dur prints a duration the way the articles do: "1 s", "100 ms".
func dur(d time.Duration) string {
	if d >= time.Second && d%time.Second == 0 {
		return strconv.FormatInt(int64(d/time.Second), 10) + " s"
	}
	if d%time.Millisecond == 0 {
		return strconv.FormatInt(d.Milliseconds(), 10) + " ms"
	}
	return d.String()
}

// under states a < limit the way it came out: "101 ms < 250 ms", or "300 ms ≥ 250 ms".
func under(a, limit time.Duration) string {
	if a < limit {
		return ms(a) + " < " + ms(limit)
	}
	return ms(a) + " ≥ " + ms(limit)
}

// over states a > limit the way it came out.
func over(a, limit time.Duration) string {
	if a > limit {
		return ms(a) + " > " + ms(limit)
	}
	return ms(a) + " ≤ " + ms(limit)
}
