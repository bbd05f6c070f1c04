package vio

import (
	"bytes"
	"errors"
	"fmt"
	"os/exec"
	"sync/atomic"

	"github.com/loomgo/loom/internal/rt"
	"github.com/loomgo/loom/thread"
)

// Processes: the os/exec calls that block, for virtual threads (Java's Process.waitFor and
// ProcessBuilder.start). Start keeps the carrier while the scheduler lends one, as file calls do;
// Wait, Run, Output and CombinedOutput unmount while the process runs (the thread is WAITING).
//
// An interrupt differs from Java's in one way, on purpose: Process.waitFor throws
// InterruptedException and leaves the process running, but an exec.Cmd can be waited for only
// once, so a Wait that gave up would leave the process unreaped and its output half-copied. vio
// therefore kills the process (as exec.CommandContext does when its context ends), waits for it,
// and returns an error that [errors.Is] reports as [thread.ErrInterrupted] (and as the wait's own
// error, an [*exec.ExitError]), with the interrupt status cleared, as waitFor's
// InterruptedException clears it.

// Start starts cmd, as [exec.Cmd.Start]. On a virtual thread the fork and exec keep the carrier
// while the scheduler lends a temporary one. It ports ProcessBuilder.start.
func Start(cmd *exec.Cmd) error {
	if cmd == nil {
		panic(fmt.Errorf("%w: vio.Start(nil)", thread.ErrNilArgument))
	}
	var err error
	w := &rt.IOWait{Op: "start", Blocker: cmd, Interrupt: func(any) {}} // a fork cannot be cut short
	call(w, fileHow, func() { err = cmd.Start() })
	return err
}

// Wait waits for the started cmd to exit and for its I/O to be copied, as [exec.Cmd.Wait]; a
// virtual thread unmounts meanwhile. An interrupt kills the process (see above). It ports
// Process.waitFor.
func Wait(cmd *exec.Cmd) error {
	if cmd == nil {
		panic(fmt.Errorf("%w: vio.Wait(nil)", thread.ErrNilArgument))
	}
	var killed atomic.Bool
	w := &rt.IOWait{Op: "wait", Blocker: cmd, Interrupt: func(any) {
		if cmd.Process != nil && !killed.Swap(true) {
			cmd.Process.Kill()
		}
	}}
	var err error
	call(w, rt.IOWaiting, func() { err = cmd.Wait() })
	if killed.Load() {
		thread.Interrupted() // as waitFor's InterruptedException
		return &interruptedError{what: "vio: wait " + cmd.Path, err: err}
	}
	return err
}

// Run starts cmd and waits for it, as [exec.Cmd.Run]: [Start], then [Wait].
func Run(cmd *exec.Cmd) error {
	if err := Start(cmd); err != nil {
		return err
	}
	return Wait(cmd)
}

// Output runs cmd and returns its standard output, as [exec.Cmd.Output]: if cmd.Stderr is nil,
// the start of the standard error is kept in the returned [*exec.ExitError]'s Stderr.
func Output(cmd *exec.Cmd) ([]byte, error) {
	if cmd == nil {
		panic(fmt.Errorf("%w: vio.Output(nil)", thread.ErrNilArgument))
	}
	if cmd.Stdout != nil {
		return nil, errors.New("exec: Stdout already set")
	}
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	var stderr *headBuffer
	if cmd.Stderr == nil {
		stderr = &headBuffer{max: 32 << 10}
		cmd.Stderr = stderr
	}
	err := Run(cmd)
	if stderr != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			ee.Stderr = stderr.b
		}
	}
	return stdout.Bytes(), err
}

// CombinedOutput runs cmd and returns its standard output and standard error together, as
// [exec.Cmd.CombinedOutput].
func CombinedOutput(cmd *exec.Cmd) ([]byte, error) {
	if cmd == nil {
		panic(fmt.Errorf("%w: vio.CombinedOutput(nil)", thread.ErrNilArgument))
	}
	if cmd.Stdout != nil {
		return nil, errors.New("exec: Stdout already set")
	}
	if cmd.Stderr != nil {
		return nil, errors.New("exec: Stderr already set")
	}
	var b bytes.Buffer
	cmd.Stdout, cmd.Stderr = &b, &b
	err := Run(cmd)
	return b.Bytes(), err
}

// headBuffer keeps the first max bytes written to it.
type headBuffer struct {
	b   []byte
	max int
}

func (h *headBuffer) Write(p []byte) (int, error) {
	if room := h.max - len(h.b); room > 0 {
		h.b = append(h.b, p[:min(room, len(p))]...)
	}
	return len(p), nil
}

// interruptedError is the error of a call that an interrupt cut short and that, as Java's
// InterruptedException, clears the interrupt status: a round trip, a process wait.
type interruptedError struct {
	what string
	err  error // the call's own error, if any
}

func (e *interruptedError) Error() string { return e.what + ": interrupted" }

func (e *interruptedError) Unwrap() []error {
	if e.err == nil || e.err == thread.ErrInterrupted {
		return []error{thread.ErrInterrupted}
	}
	return []error{thread.ErrInterrupted, e.err}
}
