package rt_test

import (
	"math"
	"testing"
	"time"

	"github.com/loomgo/loom/internal/rt"
)

func TestAddSatSaturatesInsteadOfWrapping(t *testing.T) {
	for _, c := range []struct {
		t    int64
		d    time.Duration
		want int64
	}{
		{0, 5, 5},
		{10, -3, 7},
		{1, math.MaxInt64, math.MaxInt64},
		{math.MaxInt64, 1, math.MaxInt64},
		{math.MaxInt64 - 1, 1, math.MaxInt64},
		{-1, math.MinInt64, math.MinInt64},
		{math.MinInt64, -1, math.MinInt64},
		{math.MinInt64, math.MaxInt64, -1},
		{math.MaxInt64, math.MinInt64, -1},
	} {
		if got := rt.AddSat(c.t, c.d); got != c.want {
			t.Errorf("AddSat(%d, %d) = %d, want %d", c.t, c.d, got, c.want)
		}
	}
}

func TestDeadlineOfMaxDurationNeverPasses(t *testing.T) {
	if got := rt.Deadline(math.MaxInt64); got != math.MaxInt64 {
		t.Fatalf("Deadline(MaxInt64) = %d, want MaxInt64", got)
	}
	now := rt.Nanotime()
	if d := rt.Deadline(time.Hour); d < now+int64(time.Hour) {
		t.Fatalf("Deadline(1h) = %d, before now+1h = %d", d, now+int64(time.Hour))
	}
}

// time.Time deadlines saturate by themselves; the project relies on it (see deadline.go).
func TestTimeAddAndUntilSaturate(t *testing.T) {
	end := time.Now().Add(math.MaxInt64)
	if left := time.Until(end); left < 100*365*24*time.Hour {
		t.Fatalf("time.Until(time.Now().Add(MaxInt64)) = %v, want about 292 years", left)
	}
}
