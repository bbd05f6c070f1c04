package thread_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/loomgo/loom/internal/rt"
	"github.com/loomgo/loom/thread"
)

// fakeLock is a blocker owned by a thread, as loom's locks are.
type fakeLock struct{ owner atomic.Pointer[thread.Thread] }

func (l *fakeLock) Owner() *thread.Thread { return l.owner.Load() }

// waitFor parks until l is free.
func (l *fakeLock) waitFor() {
	for l.owner.Load() != nil {
		rt.Park(-1, rt.ParkWaiting, l)
	}
}

func TestFindDeadlockedFollowsOwnersAroundACycle(t *testing.T) {
	a, b := &fakeLock{}, &fakeLock{}
	var ta, tb *thread.Thread
	ready := make(chan struct{}, 2)
	ta = thread.OfVirtual().Name("A").Unstarted(func() { ready <- struct{}{}; b.waitFor() }) // holds a
	tb = thread.OfVirtual().Name("B").Unstarted(func() { ready <- struct{}{}; a.waitFor() }) // holds b
	a.owner.Store(ta)
	b.owner.Store(tb)
	bystander := thread.StartVirtualThread(a.waitFor) // waits, not in the cycle
	ta.Start()
	tb.Start()
	<-ready
	<-ready
	waitState(t, ta, thread.Waiting)
	waitState(t, tb, thread.Waiting)
	waitState(t, bystander, thread.Waiting)
	got := thread.FindDeadlocked()
	if len(got) != 2 || got[0] != ta || got[1] != tb {
		t.Fatalf("FindDeadlocked = %v, want [A B]", got)
	}
	var text bytes.Buffer
	if err := thread.DumpThreads(&text, thread.DumpText); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{fmt.Sprintf("#%d \"A\" virtual WAITING", ta.ThreadID()), "Found one Java-level deadlock", "thread_test.TestFindDeadlockedFollowsOwnersAroundACycle"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text dump lacks %q:\n%s", want, text.String())
		}
	}
	a.owner.Store(nil)
	b.owner.Store(nil)
	thread.Unpark(ta)
	thread.Unpark(tb)
	thread.Unpark(bystander)
	join(t, ta, tb, bystander)
	if d := thread.FindDeadlocked(); d != nil {
		t.Fatalf("after: %v", d)
	}
}

func TestDumpThreadsJSONGroupsVirtualThreadsUnderTheirScheduler(t *testing.T) {
	s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 1})
	defer s.Close()
	v := thread.OfVirtual().Scheduler(s).Name("sleeper").Start(func() { thread.Park() })
	p := thread.OfPlatform().Name("plat").Daemon(true).Start(func() { thread.Park() })
	waitState(t, v, thread.Waiting)
	waitState(t, p, thread.Waiting)
	var out bytes.Buffer
	if err := thread.DumpThreads(&out, thread.DumpJSON); err != nil {
		t.Fatal(err)
	}
	var d struct {
		ThreadDump struct {
			ThreadContainers []struct {
				Container string
				Parent    *string
				Threads   []struct {
					Tid, Name, State string
					Virtual          bool
					Stack            []string
				}
			}
		}
	}
	if err := json.Unmarshal(out.Bytes(), &d); err != nil {
		t.Fatal(err)
	}
	where := map[string]string{}
	for _, c := range d.ThreadDump.ThreadContainers {
		for _, th := range c.Threads {
			where[th.Name] = c.Container
			if th.Name == "sleeper" && (!th.Virtual || th.State != "WAITING" || !strings.Contains(strings.Join(th.Stack, "\n"), "thread.Park")) {
				t.Errorf("sleeper entry %+v", th)
			}
		}
	}
	if where["plat"] != "<root>" || !strings.HasPrefix(where["sleeper"], "java.util.concurrent.ForkJoinPool@") {
		t.Errorf("containers: %v\n%s", where, out.String())
	}
	thread.Unpark(v)
	thread.Unpark(p)
	join(t, v, p)
}
