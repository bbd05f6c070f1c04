package testutil_test

import (
	"errors"
	"testing"

	"go.uber.org/goleak"

	"github.com/loomgo/loom/internal/testutil"
	"github.com/loomgo/loom/thread"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestMustPanicAcceptsAWrappedError(t *testing.T) {
	testutil.MustPanic(t, thread.ErrIllegalArgument, func() {
		panic(errors.Join(errors.New("context"), thread.ErrIllegalArgument))
	})
}

func TestMustPanicRejectsTheWrongPanic(t *testing.T) {
	var rec recorder
	testutil.MustPanic(&rec, thread.ErrIllegalArgument, func() { panic("not an error") })
	testutil.MustPanic(&rec, thread.ErrIllegalArgument, func() {})
	if rec.errors != 2 {
		t.Fatalf("%d failures reported, want 2", rec.errors)
	}
}

type recorder struct {
	testing.TB
	errors int
}

func (r *recorder) Helper()               {}
func (r *recorder) Errorf(string, ...any) { r.errors++ }

func TestWaitStateAndJoin(t *testing.T) {
	th := thread.StartVirtualThread(thread.Park)
	testutil.WaitState(t, th, thread.Waiting)
	thread.Unpark(th)
	testutil.Join(t, th)
	if th.State() != thread.Terminated {
		t.Fatal(th.State())
	}
}
