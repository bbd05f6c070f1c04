package thread_test

import (
	"errors"
	"testing"
	"time"

	"github.com/loomgo/loom/thread"
)

// Issue 15, defect 3: a start refused by a closed scheduler decremented the live count twice
// (once in start, once in terminate): Stats().Live became -1, a second Close hung, and a Close
// already waiting returned while a thread still ran.
func TestRefusedStartAfterCloseCountsTheThreadOnce(t *testing.T) {
	s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 1})
	s.Close()
	th := thread.OfVirtual().Scheduler(s).Unstarted(func() {})
	if err := th.TryStart(); !errors.Is(err, thread.ErrRejected) {
		t.Fatalf("TryStart on a closed scheduler = %v, want ErrRejected", err)
	}
	if th.State() != thread.Terminated {
		t.Errorf("refused thread: %v, want TERMINATED", th.State())
	}
	if live := s.Stats().Live; live != 0 {
		t.Errorf("Stats().Live = %d after a refused start, want 0", live)
	}
	closed := make(chan struct{})
	go func() { s.Close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(10 * time.Second):
		t.Fatal("a second Close hangs")
	}
}

func TestRefusedStartDoesNotReleaseAWaitingClose(t *testing.T) {
	s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 1})
	running := thread.OfVirtual().Scheduler(s).Start(thread.Park)
	waitState(t, running, thread.Waiting)
	closed := make(chan struct{})
	go func() { s.Close(); close(closed) }()
	// Close is waiting for running once a start is refused
	for {
		if err := thread.OfVirtual().Scheduler(s).Unstarted(func() {}).TryStart(); err != nil {
			break
		}
		time.Sleep(time.Millisecond)
	}
	for range 3 { // more refusals: each must leave the count alone
		thread.OfVirtual().Scheduler(s).Unstarted(func() {}).TryStart()
	}
	select {
	case <-closed:
		t.Fatalf("Close returned while %v still runs (Live = %d)", running, s.Stats().Live)
	case <-time.After(50 * time.Millisecond):
	}
	if live := s.Stats().Live; live != 1 {
		t.Errorf("Stats().Live = %d, want 1", live)
	}
	thread.Unpark(running)
	select {
	case <-closed:
	case <-time.After(10 * time.Second):
		t.Fatalf("Close does not return once every thread has ended (Live = %d)", s.Stats().Live)
	}
}
