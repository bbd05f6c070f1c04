package vio

import (
	"context"
	"fmt"
	"net"
	"sync/atomic"

	"github.com/loomgo/loom/internal/rt"
	"github.com/loomgo/loom/thread"
)

// Dialer is a [net.Dialer] whose dials unmount a virtual thread and return vio [*Conn]s. Its
// zero value dials as the zero [net.Dialer] does. Its [DialContext] fits [net/http.Transport]'s
// [DialContext] field and the custom dialers of database drivers (pgx's DialFunc,
// go-sql-driver/mysql's RegisterDialContext), so that their connections unmount too.
type Dialer struct {
	net.Dialer
}

// Dial connects to the address on the named network, as [net.Dial], and returns a vio [*Conn].
// See [Dialer.DialContext].
func Dial(network, address string) (net.Conn, error) {
	var d Dialer
	return d.DialContext(context.Background(), network, address)
}

// DialContext is [Dial] with a context, as [net.Dialer.DialContext]. See [Dialer.DialContext].
func DialContext(ctx context.Context, network, address string) (net.Conn, error) {
	var d Dialer
	return d.DialContext(ctx, network, address)
}

// Dial is [Dialer.DialContext] with [context.Background].
func (d *Dialer) Dial(network, address string) (net.Conn, error) {
	return d.DialContext(context.Background(), network, address)
}

// DialContext connects to the address on the named network, as [net.Dialer.DialContext], and
// returns a vio [*Conn]. It blocks until the connection is made, ctx is done, or the dial fails
// (name resolution included); a virtual thread unmounts meanwhile (WAITING, or TIMED_WAITING
// under a timeout). Interrupting the thread cancels the dial: DialContext returns a
// [*net.OpError] wrapping [ErrClosedByInterrupt] and the interrupt status stays set, as
// Socket.connect on an interrupted virtual thread. It ports Socket.connect /
// SocketChannel.open(address). A nil ctx panics, as in net.
func (d *Dialer) DialContext(ctx context.Context, network, address string) (net.Conn, error) {
	if ctx == nil {
		panic(fmt.Errorf("%w: nil context", thread.ErrNilArgument))
	}
	t, _ := rt.IOCurrent()
	if t == nil {
		c, err := d.Dialer.DialContext(ctx, network, address)
		if err != nil {
			return nil, err
		}
		return wrapConn(c), nil
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var by atomic.Bool
	w := &rt.IOWait{Op: "connect", Blocker: d, Interrupt: func(any) { by.Store(true); cancel() }}
	_, timed := ctx.Deadline()
	var c net.Conn
	var err error
	call(w, how(timed || d.Timeout > 0), func() { c, err = d.Dialer.DialContext(ctx, network, address) })
	if by.Load() {
		if c != nil {
			c.Close() // connected as the interrupt came: Java closes the channel too
		}
		return nil, &net.OpError{Op: "dial", Net: network, Err: ErrClosedByInterrupt}
	}
	if err != nil {
		return nil, err
	}
	return wrapConn(c), nil
}
