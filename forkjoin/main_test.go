package forkjoin_test

import (
	"testing"
	"time"

	"github.com/loomgo/loom/forkjoin"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	forkjoin.SetCommonKeepAlive(50 * time.Millisecond)
	goleak.VerifyTestMain(m)
}
