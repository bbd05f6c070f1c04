package bench

import (
	"fmt"
	"testing"
	"time"

	"github.com/loomgo/loom/internal/viobench"
)

// vioScale divides the connection and request counts of the vio cases (the race detector allows
// 8,128 goroutines, and net/http spends three on each connection).
var vioScale = 1

// vioCases compare package vio on virtual threads with the standard library on goroutines, on
// the scenarios of issue 12 (bodies in internal/viobench, shared with vio's go test -bench).
func vioCases() []Case {
	conns, calls := 1000/vioScale, 2000/vioScale
	echo := fmt.Sprintf("thread-per-connection echo: %s keep-alive conns × 5 msgs 100 ms apart", num(float64(conns)))
	fan := fmt.Sprintf("HTTP fan-out: %s GETs at once, answered after 100 ms", num(float64(calls)))
	const read, serve = "a Read whose data is already there, on a virtual thread", "HTTP server, 100 keep-alive clients"
	return []Case{
		{Group: echo, Name: "goroutine per connection", Note: "per run", F: func(b *testing.B) {
			viobench.EchoServer(b, viobench.Goroutines, conns, 5, 100*time.Millisecond)
		}},
		{Group: echo, Name: "virtual thread per connection, vio, 2 carriers", Note: "per run", F: func(b *testing.B) {
			viobench.EchoServer(b, viobench.Virtual, conns, 5, 100*time.Millisecond)
		}},
		{Group: fan, Name: "goroutines, plain http.Client", Note: "per fan-out", F: func(b *testing.B) {
			viobench.HTTPFanOut(b, viobench.Goroutines, calls, 100*time.Millisecond)
		}},
		{Group: fan, Name: "virtual threads, vio.Transport, 2 carriers", Note: "per fan-out", F: func(b *testing.B) {
			viobench.HTTPFanOut(b, viobench.Virtual, calls, 100*time.Millisecond)
		}},
		{Group: read, Name: "plain conn", F: func(b *testing.B) { viobench.ReadDataThere(b, viobench.Goroutines) }},
		{Group: read, Name: "vio conn", F: func(b *testing.B) { viobench.ReadDataThere(b, viobench.Virtual) }},
		{Group: serve, Name: "net/http", Note: "per request", F: func(b *testing.B) {
			viobench.HandlerServer(b, viobench.Goroutines, 100)
		}},
		{Group: serve, Name: "vio.Handler (thread per request) over a vio listener", Note: "per request", F: func(b *testing.B) {
			viobench.HandlerServer(b, viobench.Virtual, 100)
		}},
	}
}
