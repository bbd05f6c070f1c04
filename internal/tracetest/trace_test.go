package tracetest_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	rtrace "runtime/trace"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/loomgo/loom/locks"
	"github.com/loomgo/loom/thread"
	"github.com/loomgo/loom/vio"
	xtrace "golang.org/x/exp/trace"
)

// A task as the trace shows it: what loom annotated for one virtual thread.
type task struct {
	id, parent xtrace.TaskID
	name       string
	begun      bool // its TaskBegin is in the trace
	ended      bool
	logs       []logLine
	regions    map[string]int // region type -> regions begun and ended on the task's goroutine
	open       map[string]int // region type -> begun and not (yet) ended
}

type logLine struct{ category, message string }

// has reports whether the task logged category with a message that starts with prefix.
func (k *task) has(category, prefix string) bool {
	for _, l := range k.logs {
		if l.category == category && strings.HasPrefix(l.message, prefix) {
			return true
		}
	}
	return false
}

func (k *task) count(category string) int {
	n := 0
	for _, l := range k.logs {
		if l.category == category {
			n++
		}
	}
	return n
}

// parsed is a trace, read with x/exp/trace, as tasks.
type parsed struct {
	tasks  map[xtrace.TaskID]*task
	byName map[string]*task
}

// record runs fn with the execution tracer on and returns the trace, parsed. The parser fails on
// any misuse of regions (a region ended on another goroutine, or out of nesting order), so a
// trace that parses has loom's regions well formed.
func record(t *testing.T, fn func()) *parsed {
	t.Helper()
	var buf bytes.Buffer
	if err := rtrace.Start(&buf); err != nil {
		t.Skipf("the execution tracer is in use already (go test -trace?): %v", err)
	}
	func() {
		defer rtrace.Stop()
		fn()
	}()
	return parse(t, &buf)
}

func parse(t *testing.T, r io.Reader) *parsed {
	t.Helper()
	rd, err := xtrace.NewReader(r)
	if err != nil {
		t.Fatal(err)
	}
	p := &parsed{tasks: map[xtrace.TaskID]*task{}, byName: map[string]*task{}}
	get := func(id xtrace.TaskID) *task {
		k := p.tasks[id]
		if k == nil {
			k = &task{id: id, regions: map[string]int{}, open: map[string]int{}}
			p.tasks[id] = k
		}
		return k
	}
	for {
		ev, err := rd.ReadEvent()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("reading the trace: %v", err)
		}
		switch ev.Kind() {
		case xtrace.EventTaskBegin:
			x := ev.Task()
			k := get(x.ID)
			k.parent, k.name, k.begun = x.Parent, x.Type, true
			p.byName[x.Type] = k
		case xtrace.EventTaskEnd:
			get(ev.Task().ID).ended = true
		case xtrace.EventLog:
			l := ev.Log()
			k := get(l.Task)
			k.logs = append(k.logs, logLine{l.Category, l.Message})
		case xtrace.EventRegionBegin:
			r := ev.Region()
			get(r.Task).open[r.Type]++
		case xtrace.EventRegionEnd:
			r := ev.Region()
			if k := get(r.Task); k.open[r.Type] > 0 {
				k.open[r.Type]--
				k.regions[r.Type]++
			}
		}
	}
	return p
}

// of returns the task of virtual thread th, named as loom names it.
func (p *parsed) of(t *testing.T, th *thread.Thread) *task {
	t.Helper()
	name := fmt.Sprintf("VirtualThread[#%d]", th.ThreadID())
	if n := th.Name(); n != "" {
		name = fmt.Sprintf("VirtualThread[#%d,%s]", th.ThreadID(), n)
	}
	k := p.byName[name]
	if k == nil {
		t.Fatalf("no task %q in the trace", name)
	}
	return k
}

// awaitState waits until th shows state st (each check a park of the caller if it is a thread).
func awaitState(t *testing.T, th *thread.Thread, st thread.State) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); th.State() != st; {
		if time.Now().After(deadline) {
			t.Fatalf("%v never reached %v", th, st)
		}
		time.Sleep(time.Millisecond)
	}
}

// JfrEvents.testVirtualThreadStartAndEnd: a started virtual thread is a task named as the thread
// (jdk.VirtualThreadStart), with its toString logged on its first carrier, a loom.run region for
// its life, and an end (jdk.VirtualThreadEnd).
func TestJfrEvents_testVirtualThreadStartAndEnd(t *testing.T) {
	s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 2})
	defer s.Close()
	var th, unnamed *thread.Thread
	p := record(t, func() {
		th = thread.OfVirtual().Scheduler(s).Name("greeter").Start(func() {})
		unnamed = thread.OfVirtual().Scheduler(s).Start(func() {})
		th.Join()
		unnamed.Join()
	})
	for _, x := range []*thread.Thread{th, unnamed} {
		k := p.of(t, x)
		if !k.begun || !k.ended {
			t.Errorf("task %q: begun %v, ended %v; want both", k.name, k.begun, k.ended)
		}
		if !k.has("loom.start", k.name+"/runnable@ForkJoinPool-") {
			t.Errorf("task %q logs %v, want loom.start %q", k.name, k.logs, k.name+"/runnable@ForkJoinPool-…")
		}
		if !k.has("loom.end", k.name+"/") {
			t.Errorf("task %q logs %v, want loom.end", k.name, k.logs)
		}
		if diff := cmp.Diff(map[string]int{"loom.run": 1}, k.regions); diff != "" {
			t.Errorf("task %q regions (-want +got):\n%s", k.name, diff)
		}
	}
}

// Every kind of wait that unmounts shows as a loom.park log saying what it waits in and on,
// a loom.unmounted region from the unmount to the next mount, and a loom.mount log naming the
// carrier: Thread.sleep, a contended ReentrantLock (LockSupport.park on the lock), Thread.join,
// Blocking, an I/O wait of package vio, Object.wait. A thread started by a traced virtual thread
// is a child task of the starter's; the task's own regions nest with loom's.
func TestTraceShowsParksAndMounts(t *testing.T) {
	s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 2})
	defer s.Close()
	vb := func(name string) *thread.VirtualBuilder { return thread.OfVirtual().Scheduler(s).Name(name) }
	var sleeper, holder, contender, joiner, blocking, acceptor, waiter, parent, child *thread.Thread
	p := record(t, func() {
		gate := locks.NewCountDownLatch(1)
		sleeper = vb("sleeper").Start(func() {
			rtrace.WithRegion(context.Background(), "user", func() { thread.Sleep(time.Millisecond) })
			gate.Await()
		})
		joiner = vb("joiner").Start(func() { sleeper.Join() })
		awaitState(t, joiner, thread.Waiting) // joining the sleeper, which waits for the gate
		gate.CountDown()

		var lock locks.ReentrantLock
		locked := make(chan struct{})
		holder = vb("holder").Start(func() {
			lock.Lock()
			close(locked)
			contender = vb("contender").Start(func() {
				lock.Lock() // contended: parks until the holder unlocks
				defer lock.Unlock()
			})
			for contender.State() != thread.Waiting {
				thread.Sleep(time.Millisecond)
			}
			lock.Unlock()
			contender.Join()
		})
		<-locked

		blocking = vb("blocking").Start(func() {
			thread.Blocking(func() { time.Sleep(time.Millisecond) })
		})

		ln, err := vio.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		acceptor = vb("acceptor").Start(func() {
			c, err := ln.Accept()
			if err == nil {
				c.Close()
			}
		})
		awaitState(t, acceptor, thread.Waiting) // parked in Accept
		c, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		acceptor.Join()
		c.Close()
		ln.Close()

		var m locks.Monitor
		waiter = vb("waiter").Start(func() {
			m.Enter()
			m.WaitTimeout(time.Millisecond)
			m.Exit()
		})

		parent = vb("parent").Start(func() {
			child = vb("child").Start(func() {})
			child.Join()
		})
		for _, x := range []*thread.Thread{sleeper, joiner, holder, blocking, waiter, parent} {
			x.Join()
		}
	})

	parked := []struct {
		th   *thread.Thread
		park string // the start of the loom.park message
	}{
		{sleeper, "Thread.sleep timeout "},
		{contender, "LockSupport.park on *locks.ReentrantLock"},
		{joiner, fmt.Sprintf("Thread.join on VirtualThread[#%d,sleeper]", sleeper.ThreadID())},
		{blocking, "Blocking"},
		{acceptor, "I/O"},
		{waiter, "Object.wait on *locks.monitorWaitSet timeout "},
	}
	for _, c := range parked {
		k := p.of(t, c.th)
		if !k.has("loom.park", c.park) {
			t.Errorf("task %q logs %q, want loom.park %q…", k.name, k.logs, c.park)
		}
		if !k.has("loom.mount", "ForkJoinPool-") {
			t.Errorf("task %q logs %q, want loom.mount ForkJoinPool-…", k.name, k.logs)
		}
		if n := k.regions["loom.unmounted"]; n == 0 || n != k.count("loom.park") || n != k.count("loom.mount") {
			t.Errorf("task %q: %d loom.unmounted regions, %d loom.park and %d loom.mount logs; want as many, at least one",
				k.name, n, k.count("loom.park"), k.count("loom.mount"))
		}
		if len(k.open) != 0 && k.open["loom.unmounted"]+k.open["loom.run"] != 0 {
			t.Errorf("task %q has regions left open: %v", k.name, k.open)
		}
		if !k.ended {
			t.Errorf("task %q did not end", k.name)
		}
	}
	if k := p.tasks[xtrace.BackgroundTask]; k == nil || k.regions["user"] != 1 {
		t.Errorf("the sleeper's own region (on the background task) was not traced whole")
	}
	if pk, ck := p.of(t, parent), p.of(t, child); ck.parent != pk.id {
		t.Errorf("child task's parent is %v, want the parent thread's task %v", ck.parent, pk.id)
	}
	if k := p.of(t, sleeper); k.parent != xtrace.NoTask && k.parent != xtrace.BackgroundTask {
		t.Errorf("a thread started by the test goroutine has parent task %v, want none", k.parent)
	}
}

// JfrEvents.testVirtualThreadPinned: a park that keeps its carrier (jdk.VirtualThreadPinned) is
// a loom.pinned region, and its end is logged with the reason, the blocking operation and the
// duration: MONITOR for a sleep inside a monitor and a contended monitor entry under
// PinSynchronized, NATIVE for a sleep inside thread.Native.
func TestJfrEvents_testVirtualThreadPinned(t *testing.T) {
	s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 2, Pinning: thread.PinSynchronized})
	defer s.Close()
	vb := func(name string) *thread.VirtualBuilder { return thread.OfVirtual().Scheduler(s).Name(name) }
	var inMonitor, entering, native *thread.Thread
	p := record(t, func() {
		var m locks.Monitor
		entered := make(chan struct{})
		var blocked atomic.Pointer[thread.Thread]
		inMonitor = vb("inMonitor").Start(func() {
			m.Enter()
			close(entered)
			thread.Sleep(2 * time.Millisecond)
			for e := blocked.Load(); e == nil || e.State() != thread.Blocked; e = blocked.Load() {
				thread.Sleep(time.Millisecond)
			}
			m.Exit()
		})
		<-entered
		entering = vb("entering").Start(func() {
			m.Enter()
			m.Exit()
		})
		blocked.Store(entering)
		native = vb("native").Start(func() {
			thread.Native(func() { thread.Sleep(2 * time.Millisecond) })
		})
		inMonitor.Join()
		entering.Join()
		native.Join()
	})
	for _, c := range []struct {
		th           *thread.Thread
		park, pinned string
	}{
		{inMonitor, "Thread.sleep timeout ", "MONITOR LockSupport.park "},
		{entering, "Contended monitor enter on *locks.Monitor (pinned: MONITOR)", "MONITOR Contended monitor enter "},
		{native, "Thread.sleep timeout ", "NATIVE LockSupport.park "},
	} {
		k := p.of(t, c.th)
		if !k.has("loom.pinned", c.pinned) {
			t.Errorf("task %q logs %q, want loom.pinned %q…", k.name, k.logs, c.pinned)
		}
		if !k.has("loom.park", c.park) {
			t.Errorf("task %q logs %q, want loom.park %q…", k.name, k.logs, c.park)
		}
		if n := k.regions["loom.pinned"]; n == 0 || n != k.count("loom.pinned") {
			t.Errorf("task %q: %d loom.pinned regions, %d loom.pinned logs; want as many, at least one", k.name, n, k.count("loom.pinned"))
		}
		if k.regions["loom.unmounted"] != 0 {
			t.Errorf("task %q unmounted (%v) though pinned", k.name, k.regions)
		}
	}
}

// The watchdog's NATIVE_BLOCKING report (a virtual thread blocked in a channel receive on its
// carrier) is logged on the thread's task as loom.pinned, like a pinned park.
func TestTraceLogsNativeBlocking(t *testing.T) {
	events := make(chan thread.PinnedEvent, 4)
	s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 2, WatchdogThreshold: 20 * time.Millisecond,
		OnPinned: func(e thread.PinnedEvent) { events <- e }})
	defer s.Close()
	var stuck *thread.Thread
	p := record(t, func() {
		release := make(chan struct{})
		stuck = thread.OfVirtual().Scheduler(s).Name("stuck").Start(func() { <-release })
		select {
		case <-events:
		case <-time.After(30 * time.Second):
			t.Error("no NATIVE_BLOCKING event")
		}
		close(release)
		stuck.Join()
	})
	if k := p.of(t, stuck); !k.has("loom.pinned", "NATIVE_BLOCKING chan receive") {
		t.Errorf("task %q logs %q, want loom.pinned NATIVE_BLOCKING chan receive…", k.name, k.logs)
	}
}

// JfrEvents.testVirtualThreadSubmitFailed: a start that the scheduler refuses (it is closed) is
// logged on the thread's task (jdk.VirtualThreadSubmitFailed), and the task ends.
func TestJfrEvents_testVirtualThreadSubmitFailed(t *testing.T) {
	s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 1})
	s.Close()
	th := thread.OfVirtual().Scheduler(s).Name("refused").Unstarted(func() {})
	var err error
	p := record(t, func() { err = th.TryStart() })
	if !errors.Is(err, thread.ErrRejected) {
		t.Fatalf("TryStart = %v, want ErrRejected", err)
	}
	k := p.of(t, th)
	if !k.has("loom.submitFailed", err.Error()) || !k.ended {
		t.Errorf("task %q (ended %v) logs %q, want loom.submitFailed %q", k.name, k.ended, k.logs, err)
	}
}

// Tracing that begins while a virtual thread runs: the thread's task is made at its first traced
// event, without a loom.run region (its goroutine may be inside regions the trace never saw
// begin, which loom.run could not enclose), and a region the task began before tracing began
// ends without upsetting the parser.
func TestTraceBeginsWhileThreadsRun(t *testing.T) {
	s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 2})
	defer s.Close()
	go1 := locks.NewCountDownLatch(1)
	th := thread.OfVirtual().Scheduler(s).Name("early").Start(func() {
		r := rtrace.StartRegion(context.Background(), "before")
		go1.Await()
		thread.Sleep(time.Millisecond)
		r.End()
	})
	awaitState(t, th, thread.Waiting)
	p := record(t, func() {
		go1.CountDown()
		th.Join()
	})
	k := p.of(t, th)
	if k.regions["loom.run"] != 0 || k.regions["loom.unmounted"] == 0 || !k.has("loom.park", "Thread.sleep") || !k.ended {
		t.Errorf("task %q: regions %v, ended %v, logs %q; want loom.unmounted and no loom.run, a sleep, an end", k.name, k.regions, k.ended, k.logs)
	}
}
