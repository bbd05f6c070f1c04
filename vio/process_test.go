package vio_test

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/loomgo/loom/thread"
	"github.com/loomgo/loom/vio"
)

// helper returns a command that runs this test binary as a helper process.
func helper(what, arg string, env ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), append([]string{"VIO_TEST_HELPER=" + what, "VIO_TEST_ARG=" + arg}, env...)...)
	return cmd
}

// Five virtual threads on one carrier each wait for a process: all five wait at once, none holding
// the carrier (the processes are then ended by interrupting the threads).
func TestWaitUnmountsWhileTheProcessRuns(t *testing.T) {
	s := newScheduler(t, 1)
	var ths []*thread.Thread
	for range 5 {
		ths = append(ths, thread.OfVirtual().Scheduler(s).Start(func() {
			if err := vio.Run(helper("sleep", "1m")); !errors.Is(err, thread.ErrInterrupted) {
				t.Errorf("Run: %v", err)
			}
		}))
	}
	for _, th := range ths {
		waitParked(t, th)
	}
	if st := s.Stats(); st.Parked != 5 || st.Mounted != 0 {
		t.Errorf("5 threads waiting for processes: parked %d, mounted %d; want 5, 0", st.Parked, st.Mounted)
	}
	for _, th := range ths {
		th.Interrupt()
		th.Join()
	}
}

func TestOutputAndCombinedOutput(t *testing.T) {
	runVirtual(t, nil, func() {
		out, err := vio.Output(helper("echo", "hello"))
		if string(out) != "hello" || err != nil {
			t.Errorf("Output = %q, %v", out, err)
		}
		out, err = vio.Output(helper("echo", "failing", "VIO_TEST_CODE=3"))
		var ee *exec.ExitError
		if string(out) != "failing" || !errors.As(err, &ee) || ee.ExitCode() != 3 || string(ee.Stderr) != "to stderr" {
			t.Errorf("Output of a failing command = %q, %v (stderr %q)", out, err, ee.Stderr)
		}
		out, err = vio.CombinedOutput(helper("echo", "both "))
		if string(out) != "both to stderr" || err != nil {
			t.Errorf("CombinedOutput = %q, %v", out, err)
		}
		if _, err := vio.Output(exec.Command("/nonexistent/command")); err == nil {
			t.Error("Output of a missing command succeeded")
		}
	})
}

// An interrupt of a thread waiting for a process kills the process (an exec.Cmd can be waited for
// only once) and returns thread.ErrInterrupted with the status cleared, as Process.waitFor.
func TestWaitInterruptedKillsTheProcess(t *testing.T) {
	s := newScheduler(t, 1)
	cmd := helper("sleep", "1m")
	var err error
	th := thread.OfVirtual().Scheduler(s).Start(func() { err = vio.Run(cmd) })
	waitParked(t, th)
	th.Interrupt()
	if ok, _ := th.JoinTimeout(30 * time.Second); !ok {
		t.Fatal("the wait did not end after the interrupt")
	}
	if !errors.Is(err, thread.ErrInterrupted) || th.IsInterrupted() {
		t.Errorf("interrupted Run: %v (status %v); want thread.ErrInterrupted, status cleared", err, th.IsInterrupted())
	}
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || ws.Signal() != syscall.SIGKILL {
		t.Errorf("process state %v; want killed", cmd.ProcessState)
	}
	if !strings.Contains(err.Error(), "interrupted") {
		t.Errorf("error text %q", err)
	}
}
