package java_test

import (
	"context"
	"io/fs"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/loomgo/loom/cmd/loom/java"
	"github.com/loomgo/loom/internal/jdk"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestParse(t *testing.T) {
	res, err := java.Parse([]byte("noise\nfigure elapsed_ms 101\nfigure ratio 2.5\ntext 101 ms total, all on worker-1\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := java.Result{Text: "101 ms total, all on worker-1", Figures: map[string]float64{"elapsed_ms": 101, "ratio": 2.5}}
	if diff := cmp.Diff(want, res); diff != "" {
		t.Errorf("Parse (-want +got):\n%s", diff)
	}
	for _, bad := range []string{"figure x\ntext t\n", "figure x y\ntext t\n", "figure x 1\n"} {
		if _, err := java.Parse([]byte(bad)); err == nil {
			t.Errorf("Parse(%q): no error", bad)
		}
	}
}

// TestEveryProgramIsASingleFileProgram checks what the source launcher needs: each file declares
// the public class it is named after, and says how to run it.
func TestEveryProgramIsASingleFileProgram(t *testing.T) {
	names, err := fs.Glob(java.Sources, "*.java")
	if err != nil || len(names) < 17 {
		t.Fatalf("%d programs, %v; want one per demo experiment and Bench.java", len(names), err)
	}
	for _, n := range names {
		b, _ := fs.ReadFile(java.Sources, n)
		class := strings.TrimSuffix(n, ".java")
		if !regexp.MustCompile(`(?m)^public class ` + class + ` \{`).Match(b) {
			t.Errorf("%s does not declare public class %s", n, class)
		}
		if !strings.Contains(string(b), "// Usage: java ") {
			t.Errorf("%s does not say how to run it", n)
		}
	}
}

// TestProgramsRunOnThisMachinesJDK compiles every program with the JDK found here and runs two
// of them; without a JDK, Start says why.
func TestProgramsRunOnThisMachinesJDK(t *testing.T) {
	jvm, err := java.Start(context.Background())
	if err != nil {
		if _, ferr := jdk.Find(); ferr == nil {
			t.Fatalf("a JDK is here but Start failed: %v", err)
		}
		if !strings.Contains(err.Error(), "no JDK") {
			t.Errorf("Start without a JDK: %v", err)
		}
		return
	}
	defer jvm.Close()
	res, err := jvm.Run("QueueSum", nil, nil)
	if err != nil || !regexp.MustCompile(`^(-5 17|17 -5) 12$`).MatchString(res.Text) {
		t.Errorf("QueueSum: %+v, %v", res, err)
	}
	res, err = jvm.Run("Bench", nil, []string{"reentrantlock-uncontended", "20"})
	if err != nil || res.Figures["ns_per_op"] <= 0 || res.Figures["n"] < 1 {
		t.Errorf("Bench: %+v, %v", res, err)
	}
	// Bench measures as loom's side does: on a virtual thread (timed from main, each join parked
	// an OS thread: 60-120 us a virtual thread's start and join, not 1-2 us), after a warm-up at
	// least as long as the benchtime, the median of the rounds asked for.
	res, err = jvm.Run("Bench", nil, []string{"virtual-start-join", "60", "3"})
	if f := res.Figures; err != nil || f["on_virtual_thread"] != 1 || f["rounds"] != 3 || f["warmup_ns"] < 60e6 || f["n"] < 1 ||
		!(f["ns_per_op_min"] <= f["ns_per_op"] && f["ns_per_op"] <= f["ns_per_op_max"]) {
		t.Errorf("Bench virtual-start-join: %+v, %v", res, err)
	}
	if _, err := jvm.Run("Bench", nil, []string{"no-such-case", "1"}); err == nil || !strings.Contains(err.Error(), "no case no-such-case") {
		t.Errorf("Bench of an unknown case: %v", err)
	}
	if !strings.HasPrefix(jvm.JDK(), "JDK ") {
		t.Errorf("JDK() = %q", jvm.JDK())
	}
}
