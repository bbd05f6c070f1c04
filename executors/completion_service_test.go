package executors_test

import (
	"errors"
	"testing"
	"time"

	"github.com/loomgo/loom/executors"
	"github.com/loomgo/loom/locks"
	"github.com/loomgo/loom/thread"
)

// Futures come out in the order their tasks complete, not the order they were submitted: the
// tasks are released one by one (latches, not sleeps, so a loaded machine cannot reorder them).
func TestCompletionServiceTakesInCompletionOrder(t *testing.T) {
	e := executors.NewVirtualThreadPerTaskExecutor()
	defer e.Close()
	cs := executors.NewExecutorCompletionService[int](e)
	gates := map[int]*locks.CountDownLatch{}
	for _, v := range []int{60, 20, 40} {
		gate := locks.NewCountDownLatch(1)
		gates[v] = gate
		if _, err := cs.Submit(func() (int, error) { gate.Await(); return v, nil }); err != nil {
			t.Fatal(err)
		}
	}
	var got []int
	for _, v := range []int{20, 40, 60} {
		gates[v].CountDown()
		f, err := cs.Take()
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, f.ResultNow())
	}
	if got[0] != 20 || got[1] != 40 || got[2] != 60 {
		t.Fatalf("completion order %v", got)
	}
	if _, ok := cs.Poll(); ok {
		t.Fatal("Poll found a fourth future")
	}
}

func TestCompletionServicePollTimeoutAndInterrupt(t *testing.T) {
	e := executors.NewVirtualThreadPerTaskExecutor()
	defer e.Close()
	cs := executors.NewExecutorCompletionService[int](e)
	if _, ok, err := cs.PollTimeout(20 * time.Millisecond); ok || err != nil {
		t.Fatalf("PollTimeout on empty = %v %v", ok, err)
	}
	thread.OfVirtual().Start(func() {
		thread.Current().Interrupt()
		if _, err := cs.Take(); !errors.Is(err, thread.ErrInterrupted) {
			t.Errorf("Take = %v", err)
		}
	}).Join()
	mustPanicWith(t, thread.ErrNilArgument, func() { cs.Submit(nil) })
	mustPanicWith(t, thread.ErrNilArgument, func() { executors.NewExecutorCompletionService[int](nil) })
}

func TestCompletionServiceQueuesCancelledFutures(t *testing.T) {
	p := executors.NewFixedThreadPoolWithFactory(1, thread.OfVirtual().Factory())
	defer p.Close()
	cs := executors.NewExecutorCompletionService[int](p)
	var g gate
	p.Execute(func() { g.wait() })
	f, _ := cs.Submit(sleeper(0, 1))
	f.Cancel(false)
	got, ok, _ := cs.PollTimeout(time.Second)
	if !ok || !got.IsCancelled() {
		t.Fatal("cancelled future not queued")
	}
	g.release()
}
