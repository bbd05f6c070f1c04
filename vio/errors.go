package vio

import (
	"net"

	"github.com/loomgo/loom/thread"
)

// ErrClosedByInterrupt is the error of a vio call whose socket, file or process was closed
// because the calling thread was interrupted: [thread.Thread.Interrupt] of a thread blocked in
// the call, or a socket call that had to wait started with the interrupt status set (a file
// call: any call started with it set). It is the SocketException "Closed by interrupt" a virtual
// thread's java.net.Socket call throws (and Java's ClosedByInterruptException). [errors.Is] reports it as both [thread.ErrInterrupted] and [net.ErrClosed]. Unlike
// the other loom calls that return [thread.ErrInterrupted], the call leaves the interrupt status
// set, as Java does. Calls on sockets return it inside a [*net.OpError] (files: [*fs.PathError]),
// as the standard library wraps its own errors.
var ErrClosedByInterrupt error = closedByInterrupt{}

type closedByInterrupt struct{}

func (closedByInterrupt) Error() string   { return "vio: closed by interrupt" }
func (closedByInterrupt) Unwrap() []error { return []error{thread.ErrInterrupted, net.ErrClosed} }
