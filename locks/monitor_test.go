package locks_test

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"weak"

	"github.com/loomgo/loom/internal/testutil"
	"github.com/loomgo/loom/locks"
	"github.com/loomgo/loom/thread"
)

func TestMonitorEnterIsReentrant256Deep(t *testing.T) {
	var m locks.Monitor
	for i := 1; i <= 256; i++ {
		m.Enter()
		if !m.IsHeldByCurrentThread() || m.HoldCount() != i {
			t.Fatalf("depth %d: held=%v count=%d", i, m.IsHeldByCurrentThread(), m.HoldCount())
		}
	}
	for range 256 {
		m.Exit()
	}
	if m.IsHeldByCurrentThread() || m.Owner() != nil {
		t.Fatal("monitor still held after 256 exits")
	}
}

func TestMonitorIllegalMonitorStateException(t *testing.T) {
	var m locks.Monitor
	testutil.MustPanic(t, locks.ErrIllegalMonitorState, m.Exit)
	testutil.MustPanic(t, locks.ErrIllegalMonitorState, func() { m.Wait() })
	testutil.MustPanic(t, locks.ErrIllegalMonitorState, func() { m.WaitTimeout(time.Millisecond) })
	testutil.MustPanic(t, locks.ErrIllegalMonitorState, m.Notify)
	testutil.MustPanic(t, locks.ErrIllegalMonitorState, m.NotifyAll)
	m.Enter()
	th := startVirtual(func() {
		testutil.MustPanic(t, locks.ErrIllegalMonitorState, m.Exit)
		testutil.MustPanic(t, locks.ErrIllegalMonitorState, m.Notify)
	})
	testutil.Join(t, th)
	m.Exit()
}

func TestMonitorWaitNegativeTimeoutPanicsIAE(t *testing.T) {
	var m locks.Monitor
	m.Synchronized(func() {
		testutil.MustPanic(t, thread.ErrIllegalArgument, func() { m.WaitTimeout(-time.Millisecond) })
		if !m.IsHeldByCurrentThread() {
			t.Error("monitor released by a bad WaitTimeout")
		}
	})
}

func TestMonitorSynchronizedExitsWhenFnPanics(t *testing.T) {
	var m locks.Monitor
	func() {
		defer func() { recover() }()
		m.Synchronized(func() { panic("boom") })
	}()
	if m.Owner() != nil {
		t.Fatal("monitor held after a panic in Synchronized")
	}
}

func TestMonitorWaitWhenEnteredManyTimesRestoresCount(t *testing.T) {
	var m locks.Monitor
	th := startVirtual(func() {
		for range 5 {
			m.Enter()
		}
		if err := m.WaitTimeout(20 * time.Millisecond); err != nil {
			t.Error(err)
		}
		if m.HoldCount() != 5 {
			t.Errorf("HoldCount after wait = %d, want 5", m.HoldCount())
		}
		for range 5 {
			m.Exit()
		}
	})
	testutil.Join(t, th)
	// while waiting the monitor is entirely free
	th = startVirtual(func() {
		m.Enter()
		m.Enter()
		m.Wait()
		m.Exit()
		m.Exit()
	})
	eventually(t, "waiting", func() bool { return th.State() == thread.Waiting })
	if !m.TryEnter() {
		t.Fatal("monitor not released by Wait")
	}
	m.Notify()
	m.Exit()
	testutil.Join(t, th)
}

func TestMonitorNotifyWakesOneThreadAndNotifyAllWakesAll(t *testing.T) {
	var m locks.Monitor
	var woken atomic.Int32
	var ths []*thread.Thread
	for i := range 4 {
		ths = append(ths, kinds[i%2].start(func() {
			m.Synchronized(func() {
				if err := m.Wait(); err != nil {
					t.Error(err)
				}
				woken.Add(1)
			})
		}))
	}
	eventually(t, "4 waiters", func() bool { return len(m.WaitingThreads()) == 4 })
	m.Synchronized(m.Notify)
	eventually(t, "one woken", func() bool { return woken.Load() == 1 })
	time.Sleep(20 * time.Millisecond)
	if woken.Load() != 1 || len(m.WaitingThreads()) != 3 {
		t.Fatalf("Notify woke %d, %d still waiting", woken.Load(), len(m.WaitingThreads()))
	}
	m.Synchronized(m.NotifyAll)
	for _, th := range ths {
		testutil.Join(t, th)
	}
	if woken.Load() != 4 {
		t.Fatal(woken.Load())
	}
}

func TestMonitorNotifyBeforeWaitIsLost(t *testing.T) {
	var m locks.Monitor
	m.Synchronized(func() {
		m.Notify()
		m.NotifyAll()
		start := time.Now()
		if err := m.WaitTimeout(30 * time.Millisecond); err != nil {
			t.Error(err)
		}
		if time.Since(start) < 30*time.Millisecond {
			t.Error("an earlier Notify cut the wait short")
		}
	})
}

func TestMonitorNotifiedWaiterIsBlockedUntilNotifierExits(t *testing.T) {
	for _, k := range kinds {
		t.Run(k.name, func(t *testing.T) {
			var m locks.Monitor
			th := k.start(func() { m.Synchronized(func() { m.Wait() }) })
			eventually(t, "waiting", func() bool { return len(m.WaitingThreads()) == 1 })
			testutil.WaitState(t, th, thread.Waiting)
			if _, ok := th.Blocker().(interface{ Owner() *thread.Thread }); ok || th.Blocker() == nil {
				t.Errorf("waiting thread's Blocker %v: want the wait set, without Owner", th.Blocker())
			}
			m.Enter()
			m.Notify()
			testutil.WaitState(t, th, thread.Blocked)
			if th.Blocker() != &m {
				t.Errorf("Blocker = %v, want the monitor", th.Blocker())
			}
			m.Exit()
			testutil.Join(t, th)
		})
	}
}

func TestMonitorTimedWaitReturnsAfterTimeout(t *testing.T) {
	var m locks.Monitor
	th := startVirtual(func() {
		m.Synchronized(func() {
			start := time.Now()
			if err := m.WaitTimeout(50 * time.Millisecond); err != nil {
				t.Error(err)
			}
			if el := time.Since(start); el < 50*time.Millisecond || el > 5*time.Second {
				t.Errorf("WaitTimeout(50ms) took %v", el)
			}
			// a later, longer wait is not cut short by the earlier one
			start = time.Now()
			m.WaitTimeout(100 * time.Millisecond)
			if el := time.Since(start); el < 100*time.Millisecond {
				t.Errorf("second WaitTimeout(100ms) took %v", el)
			}
		})
	})
	testutil.WaitState(t, th, thread.TimedWaiting)
	testutil.Join(t, th)
}

func TestMonitorWaitWithInterruptSet(t *testing.T) {
	var m locks.Monitor
	th := startVirtual(func() {
		m.Synchronized(func() {
			thread.Current().Interrupt()
			if err := m.Wait(); !errors.Is(err, thread.ErrInterrupted) {
				t.Errorf("Wait = %v, want ErrInterrupted", err)
			}
			if thread.Current().IsInterrupted() {
				t.Error("status not cleared")
			}
			if !m.IsHeldByCurrentThread() {
				t.Error("monitor not held")
			}
		})
	})
	testutil.Join(t, th)
}

// Interrupted while waiting: the thread must first re-enter (BLOCKED while another thread holds
// the monitor), then Wait returns ErrInterrupted with the status cleared.
func TestMonitorInterruptWait(t *testing.T) {
	for _, k := range kinds {
		t.Run(k.name, func(t *testing.T) {
			var m locks.Monitor
			th := k.start(func() {
				m.Synchronized(func() {
					if err := m.Wait(); !errors.Is(err, thread.ErrInterrupted) {
						t.Errorf("Wait = %v, want ErrInterrupted", err)
					}
					if thread.Current().IsInterrupted() {
						t.Error("status not cleared")
					}
				})
			})
			eventually(t, "waiting", func() bool { return len(m.WaitingThreads()) == 1 })
			m.Enter()
			th.Interrupt()
			testutil.WaitState(t, th, thread.Blocked)
			m.Exit()
			testutil.Join(t, th)
		})
	}
}

// Interrupted after a notification, while blocked re-entering: Wait returns normally with the
// status still set.
func TestMonitorInterruptReenterAfterWait(t *testing.T) {
	for _, k := range kinds {
		t.Run(k.name, func(t *testing.T) {
			var m locks.Monitor
			th := k.start(func() {
				m.Synchronized(func() {
					if err := m.Wait(); err != nil {
						t.Errorf("Wait = %v, want nil", err)
					}
					if !thread.Current().IsInterrupted() {
						t.Error("status not set")
					}
				})
			})
			eventually(t, "waiting", func() bool { return len(m.WaitingThreads()) == 1 })
			m.Enter()
			m.Notify()
			testutil.WaitState(t, th, thread.Blocked)
			th.Interrupt()
			m.Exit()
			testutil.Join(t, th)
		})
	}
}

func TestMonitorEnterIsNotInterruptible(t *testing.T) {
	var m locks.Monitor
	m.Enter()
	th := startVirtual(func() {
		m.Enter()
		if !thread.Current().IsInterrupted() {
			t.Error("status not set after an interrupted Enter")
		}
		m.Exit()
	})
	testutil.WaitState(t, th, thread.Blocked)
	if th.Blocker() != &m || m.Owner() != thread.Current() {
		t.Errorf("Blocker %v, Owner %v", th.Blocker(), m.Owner())
	}
	th.Interrupt()
	time.Sleep(10 * time.Millisecond)
	if th.State() != thread.Blocked {
		t.Errorf("state after interrupt %v, want BLOCKED", th.State())
	}
	if !th.IsInterrupted() {
		t.Error("interrupt status not visible while blocked entering")
	}
	m.Exit()
	testutil.Join(t, th)
}

func TestMonitorMutualExclusion(t *testing.T) {
	var m locks.Monitor
	var inside atomic.Int32
	n := 0
	var ths []*thread.Thread
	for i := range 8 {
		ths = append(ths, kinds[i%2].start(func() {
			for range 300 {
				m.Synchronized(func() {
					if inside.Add(1) != 1 {
						t.Error("two threads inside")
					}
					n++
					inside.Add(-1)
				})
			}
		}))
	}
	for _, th := range ths {
		testutil.Join(t, th)
	}
	if n != 2400 {
		t.Fatal(n)
	}
}

func TestMonitorOfSameObjectSameMonitor(t *testing.T) {
	type obj struct{ _ int } // not zero-size, so a and b have distinct addresses
	a, b := &obj{}, &obj{}
	if first, again := locks.MonitorOf(a), locks.MonitorOf(a); first != again {
		t.Error("two monitors for one object")
	}
	if locks.MonitorOf(a) == locks.MonitorOf(b) {
		t.Error("one monitor for two objects")
	}
	testutil.MustPanic(t, thread.ErrNilArgument, func() { locks.MonitorOf[obj](nil) })
	runtime.KeepAlive(a)
	runtime.KeepAlive(b)
}

func TestMonitorOfDoesNotKeepObjectAlive(t *testing.T) {
	type obj struct{ buf [64]byte }
	before := locks.ObjectMonitorCount()
	var weaks []weak.Pointer[obj]
	for range 100 {
		o := &obj{}
		locks.MonitorOf(o).Synchronized(func() { o.buf[0] = 1 })
		weaks = append(weaks, weak.Make(o))
	}
	eventually(t, "objects collected and monitors forgotten", func() bool {
		runtime.GC()
		for _, w := range weaks {
			if w.Value() != nil {
				return false
			}
		}
		return locks.ObjectMonitorCount() <= before
	})
}

func TestMonitorWorksAcrossForeignGoroutines(t *testing.T) {
	var m locks.Monitor
	var wg sync.WaitGroup
	n := 0
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer thread.Detach()
			for range 200 {
				m.Synchronized(func() { n++ })
			}
		}()
	}
	wg.Wait()
	if n != 800 {
		t.Fatal(n)
	}
}

// Issue 15, defect 11: Java's `final Object lock = new Object()` ports naturally to
// new(struct{}), and Go may give every such allocation one address, so unrelated objects would
// share a monitor and a Notify would wake the wrong waiter. MonitorOf rejects zero-size types
// with a panic that says what to use instead.
func TestMonitorOfRejectsZeroSizeTypes(t *testing.T) {
	a, b := new(struct{}), new(struct{})
	for _, f := range []func(){
		func() { locks.MonitorOf(a) },
		func() { locks.MonitorOf(b) },
		func() { locks.MonitorOf(new([0]int)) },
		func() { type empty struct{}; locks.MonitorOf(&empty{}) },
	} {
		testutil.MustPanic(t, thread.ErrIllegalArgument, f)
		func() {
			defer func() {
				if msg := fmt.Sprint(recover()); !strings.Contains(msg, "new(locks.Monitor)") {
					t.Errorf("panic %q does not say what to use instead", msg)
				}
			}()
			f()
		}()
	}
	type withField struct{ _ byte }
	if locks.MonitorOf(&withField{}) == nil {
		t.Fatal("no monitor for a non-empty type")
	}
}
