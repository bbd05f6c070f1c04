package lostinterrupt_test

import (
	"path/filepath"
	"testing"

	"go.uber.org/goleak"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/loomgo/loom/cmd/loomvet/internal/lostinterrupt"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestLostInterrupt(t *testing.T) {
	testdata, _ := filepath.Abs("../testdata")
	analysistest.RunWithSuggestedFixes(t, testdata, lostinterrupt.Analyzer, "lostinterrupt")
}
