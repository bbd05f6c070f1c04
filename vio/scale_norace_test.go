//go:build !race && unix

package vio_test

import (
	"bufio"
	"io"
	"os"
	"strconv"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/loomgo/loom/executors"
	"github.com/loomgo/loom/thread"
)

// 10,000 connections, each served by its own virtual thread blocked in Read, on 2 carriers: all
// of them park without a carrier, another virtual thread still runs, and every echo comes back.
// The clients run in a child process (this test binary), so that this process needs file
// descriptors for the server side only; Go raised the soft RLIMIT_NOFILE to the hard limit at
// start-up, and the test skips if even that is too low.
func TestScaleTenThousandConnectionsBlockedInRead(t *testing.T) {
	const n = 10_000
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &rl); err != nil {
		t.Fatal(err)
	}
	if rl.Cur < n+500 {
		t.Skipf("RLIMIT_NOFILE is %d (hard %d): 10,000 connections need %d file descriptors", rl.Cur, rl.Max, n+500)
	}
	s := newScheduler(t, 2)
	l := listen(t)
	es := executors.NewThreadPerTaskExecutor(thread.OfVirtual().Scheduler(s).Factory())
	var echoed atomic.Int64
	acceptor := thread.OfVirtual().Scheduler(s).Start(func() {
		for range n {
			c, err := l.Accept()
			if err != nil {
				t.Error(err)
				return
			}
			es.Execute(func() {
				defer c.Close()
				line, err := bufio.NewReader(c).ReadString('\n')
				if err != nil {
					t.Error(err)
					return
				}
				if _, err := io.WriteString(c, line); err == nil {
					echoed.Add(1)
				}
			})
		}
	})
	cmd := helper("clients", l.Addr().String(), "VIO_TEST_N="+strconv.Itoa(n))
	cmd.Stderr = os.Stderr
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waited := false
	defer func() {
		if !waited {
			cmd.Process.Kill()
			cmd.Wait()
		}
	}()
	if line, err := bufio.NewReader(stdout).ReadString('\n'); line != "ready\n" {
		t.Fatalf("clients said %q, %v", line, err)
	}
	acceptor.Join()
	deadline := time.Now().Add(time.Minute)
	for s.Stats().Parked < n && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	st := s.Stats()
	if st.Parked < n || st.Mounted > 1 {
		t.Fatalf("with %d connections idle: %+v; want all %d handler threads parked, no carrier held", n, st, n)
	}
	ran := false
	runVirtual(t, s, func() { ran = true })
	if !ran {
		t.Fatal("another virtual thread did not run")
	}
	io.WriteString(stdin, "go\n")
	es.Close()
	waited = true
	if err := cmd.Wait(); err != nil {
		t.Errorf("clients: %v", err)
	}
	if echoed.Load() != n {
		t.Errorf("%d echoes, want %d", echoed.Load(), n)
	}
}
