package demo

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
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

// ms formats d in milliseconds: whole ones with separators from 10 ms on ("1,582 ms"), with
// two significant digits below ("4.2 ms", "0.28 ms"), so that a short run does not print as
// "0 ms".
func ms(d time.Duration) string {
	v := float64(d) / float64(time.Millisecond)
	switch {
	case d <= 0:
		return "0 ms"
	case v < 1:
		return strconv.FormatFloat(v, 'f', 2, 64) + " ms"
	case v < 9.95:
		return strconv.FormatFloat(v, 'f', 1, 64) + " ms"
	}
	return commas(d.Round(time.Millisecond).Milliseconds()) + " ms"
}

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

// plural returns "1 experiment" or "3 experiments".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return commas(int64(n)) + " " + noun + "s"
}

// Summary is the sentence under the table: how many of the experiments have Java's shape,
// worded for any count ("The experiment has ...", "All 19 experiments have ...").
func Summary(same, total int) string {
	switch {
	case total == 1 && same == 1:
		return "The experiment has the same shape as in Java."
	case total == 1:
		return "The experiment does not have the same shape as in Java."
	case same == total && total == 2:
		return "Both experiments have the same shape as in Java."
	case same == total:
		return "All " + plural(total, "experiment") + " have the same shape as in Java."
	case same == 0:
		return "None of the " + plural(total, "experiment") + " has the same shape as in Java."
	case same == 1:
		return "1 of the " + plural(total, "experiment") + " has the same shape as in Java."
	}
	return commas(int64(same)) + " of the " + plural(total, "experiment") + " have the same shape as in Java."
}

// Commas formats n with thousands separators, for the command's lines: 9500 -> "9,500".
func Commas(n int) string { return commas(int64(n)) }

// Plural returns "1 experiment" or "19 experiments", for the command's progress lines.
func Plural(n int, noun string) string { return plural(n, noun) }

// Wrap breaks text into lines of at most width characters (runes: the table's ×, ≥ and µ take
// one column each), the first starting with first and the others with rest, both counted in the
// width. A word is broken only where it is longer than a line: after its last '/', '@', ',' or
// '-' that fits, else at the width.
func Wrap(text string, width int, first, rest string) []string {
	var lines []string
	line, used, count := first, utf8.RuneCountInString(first), 0
	flush := func() {
		lines = append(lines, line)
		line, used, count = rest, utf8.RuneCountInString(rest), 0
	}
	add := func(w string) {
		if count > 0 {
			line += " "
			used++
		}
		line += w
		used += utf8.RuneCountInString(w)
		count++
	}
	for _, word := range words(text) {
		for word != "" {
			n, gap := utf8.RuneCountInString(word), min(count, 1)
			switch room := width - used - gap; {
			case n <= room:
				add(word)
				word = ""
			case count > 0 && utf8.RuneCountInString(rest)+n <= width:
				flush() // the word fits on the next line
			case count > 0 && room < 1:
				flush()
			default: // longer than a line: as much of it as fits here
				head, tail := splitWord(word, max(room, 1))
				add(head)
				word = tail
				flush()
			}
		}
	}
	if count > 0 || len(lines) == 0 {
		lines = append(lines, line)
	}
	return lines
}

// unitRE matches a word that must stay on the line of the word before it: a unit after a number
// ("1,000 ms", "2 s)") or the table's scaled mark.
var unitRE = regexp.MustCompile(`^(ns|µs|ms|s|KB|MB|GB|\*)[),;:.]*$`)

// words splits text at its spaces, keeping each unit with its number ("1,000 ms" is one word
// for Wrap).
func words(text string) []string {
	var out []string
	for _, w := range strings.Fields(text) {
		if n := len(out); n > 0 && unitRE.MatchString(w) && (w == "*" || endsInDigit(out[n-1])) {
			out[n-1] += " " + w
			continue
		}
		out = append(out, w)
	}
	return out
}

func endsInDigit(w string) bool { return w != "" && w[len(w)-1] >= '0' && w[len(w)-1] <= '9' }

// splitWord splits w after at most n runes, preferring a break after '/', '@', ',' or '-'.
func splitWord(w string, n int) (string, string) {
	r := []rune(w)
	if len(r) <= n {
		return w, ""
	}
	for i := n; i > n/2; i-- {
		switch r[i-1] {
		case '/', '@', ',', '-':
			return string(r[:i]), string(r[i:])
		}
	}
	return string(r[:n]), string(r[n:])
}
