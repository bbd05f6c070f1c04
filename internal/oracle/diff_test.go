package oracle_test

import (
	"strings"
	"testing"
)

// lineDiff writes the difference between two logs line by line: unchanged lines indented,
// Java's lines prefixed "- ", loom's "+ ". It is a longest-common-subsequence diff: the logs are
// a few dozen lines, so the quadratic table is nothing.
func lineDiff(java, loom []string) string {
	n, m := len(java), len(loom)
	lcs := make([][]int, n+1)
	for i := range lcs {
		lcs[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if java[i] == loom[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var b strings.Builder
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && java[i] == loom[j]:
			b.WriteString("    " + java[i] + "\n")
			i, j = i+1, j+1
		case i < n && (j == m || lcs[i+1][j] >= lcs[i][j+1]):
			b.WriteString("  - " + java[i] + "\n")
			i++
		default:
			b.WriteString("  + " + loom[j] + "\n")
			j++
		}
	}
	return b.String()
}

func TestLineDiff(t *testing.T) {
	got := lineDiff([]string{"a", "b", "c"}, []string{"a", "x", "c", "d"})
	want := "    a\n  - b\n  + x\n    c\n  + d\n"
	if got != want {
		t.Errorf("lineDiff =\n%s\nwant\n%s", got, want)
	}
}
