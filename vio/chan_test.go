package vio_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/loomgo/loom/thread"
	"github.com/loomgo/loom/vio"
)

func TestRecvAndSendFastPaths(t *testing.T) {
	runVirtual(t, nil, func() {
		ch := make(chan int, 1)
		if err := vio.Send(ch, 7); err != nil {
			t.Error(err)
		}
		if v, ok, err := vio.Recv(ch); v != 7 || !ok || err != nil {
			t.Errorf("Recv = %d, %v, %v", v, ok, err)
		}
		close(ch)
		if v, ok, err := vio.Recv(ch); v != 0 || ok || err != nil {
			t.Errorf("Recv from a closed channel = %d, %v, %v; want 0, false, nil", v, ok, err)
		}
	})
}

// A blocked Recv or Send unmounts (one carrier, the other side is a virtual thread too), is
// WAITING, and is woken by the channel, not by polling.
func TestRecvAndSendUnmount(t *testing.T) {
	s := newScheduler(t, 1)
	ch := make(chan string)
	var got string
	r := thread.OfVirtual().Scheduler(s).Start(func() {
		v, _, err := vio.Recv(ch)
		if err != nil {
			t.Error(err)
		}
		got = v
	})
	if waitParked(t, r) != thread.Waiting || r.Carrier() != "" || r.Blocker() == nil {
		t.Errorf("receiver: %v on %q, blocker %v; want WAITING, unmounted, on the channel", r.State(), r.Carrier(), r.Blocker())
	}
	runVirtual(t, s, func() {
		if err := vio.Send(ch, "hello"); err != nil {
			t.Error(err)
		}
	})
	r.Join()
	if got != "hello" {
		t.Errorf("received %q", got)
	}
	w := thread.OfVirtual().Scheduler(s).Start(func() { vio.Send(ch, "again") })
	if waitParked(t, w) != thread.Waiting || w.Carrier() != "" {
		t.Errorf("sender: %v on %q; want WAITING, unmounted", w.State(), w.Carrier())
	}
	if v := <-ch; v != "again" {
		t.Errorf("received %q", v)
	}
	w.Join()
}

func TestRecvSendAwaitInterrupted(t *testing.T) {
	for name, wait := range map[string]func() error{
		"Recv":  func() error { _, _, err := vio.Recv(make(chan int)); return err },
		"Send":  func() error { return vio.Send(make(chan int), 1) },
		"Await": func() error { return vio.Await(context.Background()) },
	} {
		s := newScheduler(t, 1)
		var err error
		th := thread.OfVirtual().Scheduler(s).Start(func() { err = wait() })
		waitParked(t, th)
		th.Interrupt()
		th.Join()
		if !errors.Is(err, thread.ErrInterrupted) || th.IsInterrupted() {
			t.Errorf("%s interrupted: %v (status %v); want thread.ErrInterrupted, status cleared", name, err, th.IsInterrupted())
		}
	}
}

// As BlockingQueue.take, Recv with the interrupt status set fails even if a value is there, and
// takes nothing.
func TestRecvWithInterruptSetTakesNothing(t *testing.T) {
	runVirtual(t, nil, func() {
		ch := make(chan int, 1)
		ch <- 1
		thread.Current().Interrupt()
		if _, _, err := vio.Recv(ch); !errors.Is(err, thread.ErrInterrupted) {
			t.Errorf("Recv with the status set: %v", err)
		}
		if len(ch) != 1 || thread.Interrupted() {
			t.Error("Recv took the value or left the status set")
		}
	})
}

func TestAwait(t *testing.T) {
	s := newScheduler(t, 1)
	ctx, cancel := context.WithTimeout(context.Background(), time.Hour)
	th := thread.OfVirtual().Scheduler(s).Start(func() {
		if err := vio.Await(ctx); err != nil {
			t.Error(err)
		}
	})
	if st := waitParked(t, th); st != thread.TimedWaiting || th.Carrier() != "" {
		t.Errorf("awaiting a context with a deadline: %v on %q; want TIMED_WAITING, unmounted", st, th.Carrier())
	}
	cancel()
	th.Join()
	runVirtual(t, s, func() {
		if err := vio.Await(ctx); err != nil {
			t.Errorf("Await of a done context: %v", err)
		}
	})
}

func TestChannelsOnForeignGoroutinesArePlain(t *testing.T) {
	ch := make(chan int, 1)
	done := make(chan struct{})
	go func() {
		defer close(done)
		vio.Send(ch, 3)
		if v, ok, err := vio.Recv(ch); v != 3 || !ok || err != nil {
			t.Errorf("Recv = %d, %v, %v", v, ok, err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if err := vio.Await(ctx); err != nil {
			t.Error(err)
		}
	}()
	<-done
}
