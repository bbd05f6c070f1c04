package bench_test

import (
	"github.com/loomgo/loom/cmd/loom/internal/bench"
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	bench.RunChildIfAsked()
	goleak.VerifyTestMain(m)
}
