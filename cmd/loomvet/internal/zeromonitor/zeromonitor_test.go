package zeromonitor_test

import (
	"path/filepath"
	"testing"

	"go.uber.org/goleak"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/loomgo/loom/cmd/loomvet/internal/zeromonitor"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestZeroMonitor(t *testing.T) {
	testdata, _ := filepath.Abs("../testdata")
	analysistest.Run(t, testdata, zeromonitor.Analyzer, "zeromonitor")
}
