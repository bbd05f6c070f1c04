package oracle_test

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/loomgo/loom/thread"
	"go.uber.org/goleak"
)

// jvmProps are the scheduler settings both halves run with: the JVM gets them as system
// properties, loom reads the same string from LOOM_OPTS (set in TestMain, before loom's default
// scheduler is created). One carrier makes the order in which virtual threads run the same on
// both sides.
var jvmProps = []string{"-Djdk.virtualThreadScheduler.parallelism=1"}

func TestMain(m *testing.M) {
	os.Setenv("LOOM_OPTS", strings.Join(jvmProps, " "))
	goleak.VerifyTestMain(m)
}

// scenario is one behaviour, written once here with loom and once in java/ with the JDK.
type scenario struct {
	suite string // the Java class that holds its twin
	name  string
	run   func(lg *Log)
}

// suites lists every scenario, suite by suite, in the order the Java half registers them.
func suites() []scenario {
	var all []scenario
	for _, s := range [][]scenario{
		threadScenarios(), lockScenarios(), syncScenarios(), queueScenarios(), executorScenarios(),
		futureScenarios(), completionScenarios(), scopeScenarios(), scopedValueScenarios(), localScenarios(), ioScenarios(),
	} {
		all = append(all, s...)
	}
	return all
}

const scenarioTimeout = 30 * time.Second

// runGo runs one scenario on a fresh platform thread named "scenario", as the Java half does.
func runGo(s scenario) []string {
	lg := &Log{}
	th := thread.OfPlatform().Name("scenario").Start(func() {
		defer func() {
			if r := recover(); r != nil {
				lg.P("unexpected %s", panicName(r))
			}
		}()
		s.run(lg)
	})
	if ok, _ := th.JoinTimeout(scenarioTimeout); !ok {
		lg.P("TIMEOUT after %s s", int(scenarioTimeout.Seconds()))
	}
	return lg.Lines()
}
