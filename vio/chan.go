package vio

import (
	"context"
	"fmt"

	"github.com/loomgo/loom/internal/rt"
	"github.com/loomgo/loom/thread"
)

// Go channels and contexts, for ported code that talks to ordinary Go code: a receive, a send and
// a wait for a context that unmount a virtual thread and answer interrupts as Java's blocking
// queue calls do. They live in vio rather than in package thread because they are Go's own
// blocking operations made fit for virtual threads, as sockets and files are; package thread
// keeps Java's API (and Blocking, the general escape hatch).
//
// Each first tries its operation without waiting (no carrier hand-off if it can proceed); if it
// must wait, it unmounts and selects on the channel and on a wake-up channel that an interrupt
// signals, so nothing polls. As BlockingQueue.take and put, they check the interrupt status
// first, and return [thread.ErrInterrupted] with the status cleared when they are interrupted
// before or while waiting. On platform threads they wait in place (interruptibly); on goroutines
// loom did not start they are the plain channel operations.

// Recv receives from ch, as v, ok := <-ch, waiting until a value or the close of ch arrives. A
// virtual thread unmounts meanwhile (WAITING). It returns [thread.ErrInterrupted] (status cleared)
// if the thread is interrupted before or while it waits; then nothing was received. A nil ch
// blocks until an interrupt. It ports BlockingQueue.take.
func Recv[T any](ch <-chan T) (v T, ok bool, err error) {
	t, mounted := rt.IOCurrent()
	if t == nil {
		v, ok = <-ch
		return v, ok, nil
	}
	if thread.Interrupted() {
		return v, false, thread.ErrInterrupted
	}
	select {
	case v, ok = <-ch:
		return v, ok, nil
	default:
	}
	wake, prev := waitBegin(t, mounted, "receive", ch)
	select {
	case v, ok = <-ch:
	case <-wake:
		err = thread.ErrInterrupted
	}
	return v, ok, waitEnd(t, prev, err)
}

// Send sends v on ch, as ch <- v, waiting until a receiver takes it (or there is room in ch's
// buffer). A virtual thread unmounts meanwhile (WAITING). It returns [thread.ErrInterrupted] (status
// cleared) if the thread is interrupted before or while it waits; then v was not sent. Sending on
// a closed channel panics, as in Go. It ports BlockingQueue.put.
func Send[T any](ch chan<- T, v T) error {
	t, mounted := rt.IOCurrent()
	if t == nil {
		ch <- v
		return nil
	}
	if thread.Interrupted() {
		return thread.ErrInterrupted
	}
	select {
	case ch <- v:
		return nil
	default:
	}
	wake, prev := waitBegin(t, mounted, "send", ch)
	defer rt.IOEnd(t, prev) // a send on a closed channel panics: re-mount regardless
	select {
	case ch <- v:
		return nil
	case <-wake:
		thread.Interrupted() // as Java's InterruptedException, which clears the status
		return thread.ErrInterrupted
	}
}

// Await waits until ctx is done and returns nil (ctx.Err says why). A virtual thread unmounts
// meanwhile (WAITING, or TIMED_WAITING if ctx has a deadline). It returns [thread.ErrInterrupted]
// (status cleared) if the thread is interrupted before or while it waits. A ctx that is never done
// ([context.Background]) waits until an interrupt. It ports CountDownLatch.await, with the context
// as the latch. A nil ctx panics with [thread.ErrNilArgument].
func Await(ctx context.Context) error {
	if ctx == nil {
		panic(fmt.Errorf("%w: vio.Await(nil)", thread.ErrNilArgument))
	}
	t, mounted := rt.IOCurrent()
	if t == nil {
		<-ctx.Done()
		return nil
	}
	if thread.Interrupted() {
		return thread.ErrInterrupted
	}
	if ctx.Err() != nil {
		return nil
	}
	_, timed := ctx.Deadline()
	op := "await"
	if timed {
		op = "await until deadline"
	}
	wake, prev := waitBeginHow(t, mounted, op, ctx, how(timed))
	var err error
	select {
	case <-ctx.Done():
	case <-wake:
		err = thread.ErrInterrupted
	}
	return waitEnd(t, prev, err)
}

// waitBegin registers a wait of thread t that an interrupt ends by signalling the returned
// channel, and unmounts t if mounted.
func waitBegin(t any, mounted bool, op string, blocker any) (<-chan struct{}, *rt.IOWait) {
	return waitBeginHow(t, mounted, op, blocker, rt.IOWaiting)
}

func waitBeginHow(t any, mounted bool, op string, blocker any, how int) (<-chan struct{}, *rt.IOWait) {
	wake := make(chan struct{}, 1)
	w := &rt.IOWait{Op: op, Blocker: blocker, Interrupt: func(any) {
		select {
		case wake <- struct{}{}:
		default:
		}
	}}
	prev := rt.IOBegin(t, w)
	if mounted {
		rt.IOPark(t, how)
	}
	return wake, prev
}

// waitEnd ends the wait waitBegin began; an interrupted wait clears the status, as Java's
// InterruptedException does.
func waitEnd(t any, prev *rt.IOWait, err error) error {
	rt.IOEnd(t, prev)
	if err != nil {
		thread.Interrupted()
	}
	return err
}
