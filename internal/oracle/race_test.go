//go:build race

package oracle_test

import (
	"strings"
	"testing"
)

// TestScenariosUnderRace runs the Go half of every scenario under the race detector (the
// comparison with the JDK runs in the non-race step, see oracle_test.go): each must end, and
// none may fail in a way its Java twin cannot (an unexpected panic, a timeout).
func TestScenariosUnderRace(t *testing.T) {
	for _, s := range suites() {
		lines := runGo(s)
		for _, l := range lines {
			if strings.HasPrefix(l, "unexpected ") || strings.HasPrefix(l, "TIMEOUT") {
				t.Errorf("%s: %s\n%s", s.name, l, strings.Join(lines, "\n"))
			}
		}
	}
}
