package structured_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"sync/atomic"
	"testing"
	"time"

	"github.com/loomgo/loom/structured"
	"github.com/loomgo/loom/thread"
)

// Stress: owners on virtual threads open scopes with random joiners, fork random mixes of
// successes, failures and panics of random durations, and race timeouts and interrupts (from
// another thread) against completion. Invariants: Join returns (no lost wake-up); unless it
// returned ErrInterrupted no task is still running when it returns; none is after Close; results
// agree with what the tasks did.
func TestStressRandomScopes(t *testing.T) {
	const owners, rounds = 8, 250
	var bad atomic.Int64
	report := func(format string, args ...any) {
		if bad.Add(1) <= 10 {
			t.Errorf(format, args...)
		}
	}
	var ths []*thread.Thread
	for o := range owners {
		ths = append(ths, thread.OfVirtual().Start(func() {
			r := rand.New(rand.NewPCG(uint64(o), 99))
			me := thread.Current()
			var running atomic.Int64 // this owner's tasks
			for round := range rounds {
				n := 1 + r.IntN(6)
				kinds := make([]int, n) // 0 success, 1 failure, 2 panic
				for i := range kinds {
					kinds[i] = r.IntN(3)
					if r.IntN(2) == 0 {
						kinds[i] = 0
					}
				}
				task := func(i int, d time.Duration) func() (int, error) {
					return func() (int, error) {
						running.Add(1)
						defer running.Add(-1)
						if err := thread.Sleep(d); err != nil {
							return 0, err
						}
						switch kinds[i] {
						case 1:
							return 0, fmt.Errorf("task %d failed", i)
						case 2:
							panic(fmt.Sprintf("task %d panicked", i))
						}
						return i, nil
					}
				}
				var opts []structured.Option
				timed := r.IntN(4) == 0
				if timed {
					opts = append(opts, structured.WithTimeout(time.Duration(r.IntN(3000))*time.Microsecond))
				}
				interrupt := r.IntN(5) == 0
				var interrupter *thread.Thread
				if interrupt {
					d := time.Duration(r.IntN(3000)) * time.Microsecond
					interrupter = thread.OfVirtual().Start(func() {
						thread.Sleep(d)
						me.Interrupt()
					})
				}
				check := func(err error) {
					if errors.Is(err, thread.ErrInterrupted) {
						return
					}
					if got := running.Load(); got != 0 {
						report("round %d/%d: %d tasks still running after Join (%v)", o, round, got, err)
					}
				}
				switch r.IntN(3) {
				case 0:
					s := structured.OpenWith(structured.AllSuccessfulOrThrow[int](), opts...)
					for i := range n {
						structured.Fork(s, task(i, time.Duration(r.IntN(2000))*time.Microsecond))
					}
					subs, err := s.Join()
					check(err)
					if err == nil {
						for i, st := range subs {
							if kinds[i] != 0 || st.Get() != i {
								report("AllSuccessful: subtask %d kind %d: %v", i, kinds[i], st)
							}
						}
					}
					s.Close()
				case 1:
					s := structured.OpenWith(structured.AnySuccessfulResultOrThrow[int](), opts...)
					for i := range n {
						structured.Fork(s, task(i, time.Duration(r.IntN(2000))*time.Microsecond))
					}
					v, err := s.Join()
					check(err)
					if err == nil && kinds[v] != 0 {
						report("AnySuccessful returned %d, a task of kind %d", v, kinds[v])
					}
					anyOK := false
					for _, k := range kinds {
						anyOK = anyOK || k == 0
					}
					if err != nil && anyOK && !timed && !interrupt {
						report("AnySuccessful failed (%v) though a task succeeds", err)
					}
					s.Close()
				case 2:
					s := structured.Open()
					subs := make([]structured.Subtask[int], n)
					for i := range n {
						subs[i] = structured.Fork(s, task(i, time.Duration(r.IntN(2000))*time.Microsecond))
					}
					_, err := s.Join()
					check(err)
					if err == nil {
						for i, st := range subs {
							if st.Get() != i {
								report("Open: subtask %d: %v", i, st)
							}
						}
					}
					s.Close()
				}
				if got := running.Load(); got != 0 {
					report("round %d/%d: %d tasks running after Close", o, round, got)
				}
				if interrupter != nil {
					interrupter.Join()
				}
				thread.Interrupted() // clear a late interrupt
			}
		}))
	}
	for _, th := range ths {
		th.Join()
	}
}
