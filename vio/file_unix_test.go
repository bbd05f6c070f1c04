//go:build unix

package vio_test

import (
	"path/filepath"
	"syscall"
	"testing"

	"github.com/loomgo/loom/thread"
	"github.com/loomgo/loom/vio"
)

// A FIFO opened for reading waits for its writer inside open(2). With one carrier, the thread
// in open keeps it while the scheduler lends a temporary one, so the writer can run: without
// compensation the two would deadlock.
func TestFileCallCompensatesSoOthersRun(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	s := newScheduler(t, 1)
	var got []byte
	reader := thread.OfVirtual().Scheduler(s).Start(func() {
		f, err := vio.Open(fifo)
		if err != nil {
			t.Error(err)
			return
		}
		defer f.Close()
		got = make([]byte, 5)
		n, err := f.Read(got)
		got = got[:n]
		if err != nil {
			t.Error(err)
		}
	})
	for s.Stats().Compensations != 1 {
		if !reader.IsAlive() {
			t.Fatal("the reader ended before it blocked in open")
		}
		thread.Sleep(0)
	}
	runVirtual(t, s, func() {
		if err := vio.WriteFile(fifo, []byte("fifo!"), 0); err != nil {
			t.Error(err)
		}
	})
	reader.Join()
	if string(got) != "fifo!" {
		t.Errorf("read %q from the FIFO", got)
	}
	if c := s.Stats().Compensations; c != 0 {
		t.Errorf("compensations after the calls: %d, want 0", c)
	}
}
