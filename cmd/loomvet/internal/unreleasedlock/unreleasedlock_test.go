package unreleasedlock_test

import (
	"path/filepath"
	"testing"

	"go.uber.org/goleak"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/loomgo/loom/cmd/loomvet/internal/unreleasedlock"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestUnreleasedLock(t *testing.T) {
	testdata, _ := filepath.Abs("../testdata")
	analysistest.RunWithSuggestedFixes(t, testdata, unreleasedlock.Analyzer, "unreleasedlock")
}
