package vio_test

import (
	"io"
	"net"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/loomgo/loom/internal/viobench"
	"github.com/loomgo/loom/thread"
	"github.com/loomgo/loom/vio"
)

// The benchmarks, both sides in this process (bodies in internal/viobench, shared with
// `loom bench`). Targets: echo ≤ 1.1× wall and ≤ 1.3× CPU of goroutines; fan-out ≤ 1.2× wall;
// Read with data there ≤ 1.15× the plain Read; Handler ≥ 0.8× plain net/http's requests/s.

func BenchmarkEchoServer1000ConnsX5Msgs(b *testing.B) {
	for _, side := range []viobench.Side{viobench.Goroutines, viobench.Virtual} {
		b.Run(side.String(), func(b *testing.B) { viobench.EchoServer(b, side, 1000, 5, 100*time.Millisecond) })
	}
}

func BenchmarkHTTPFanOut2000(b *testing.B) {
	for _, side := range []viobench.Side{viobench.Goroutines, viobench.Virtual} {
		b.Run(side.String(), func(b *testing.B) { viobench.HTTPFanOut(b, side, 2000, 100*time.Millisecond) })
	}
}

func BenchmarkReadDataThere(b *testing.B) {
	for _, side := range []viobench.Side{viobench.Goroutines, viobench.Virtual} {
		name := "plain conn"
		if side == viobench.Virtual {
			name = "vio conn"
		}
		b.Run(name, func(b *testing.B) { viobench.ReadDataThere(b, side) })
	}
}

func BenchmarkHandlerServer100Clients(b *testing.B) {
	for _, side := range []viobench.Side{viobench.Goroutines, viobench.Virtual} {
		name := "net/http"
		if side == viobench.Virtual {
			name = "vio.Handler"
		}
		b.Run(name, func(b *testing.B) { viobench.HandlerServer(b, side, 100) })
	}
}

// BenchmarkFileRead: 4 KiB reads of a page-cached file by 8 virtual threads on 2 carriers, while
// 8 more compute; plain os.File keeps the carrier, vio compensates or unmounts.
func BenchmarkFileRead(b *testing.B) {
	dir := b.TempDir()
	name := filepath.Join(dir, "f")
	if err := os.WriteFile(name, make([]byte, 1<<20), 0o644); err != nil {
		b.Fatal(err)
	}
	for _, mode := range []string{"plain", "compensate", "unmount"} {
		b.Run(mode, func(b *testing.B) {
			if mode != "plain" {
				defer vio.SetFileMode(mode)()
			}
			s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 2})
			defer s.Close()
			const readers = 8
			per := b.N/readers + 1
			var wg sync.WaitGroup
			b.ResetTimer()
			for range readers {
				wg.Add(1)
				thread.OfVirtual().Scheduler(s).Start(func() {
					defer wg.Done()
					var r io.ReaderAt
					if mode == "plain" {
						f, _ := os.Open(name)
						defer f.Close()
						r = f
					} else {
						f, _ := vio.Open(name)
						defer f.Close()
						r = f
					}
					buf := make([]byte, 4096)
					for i := range per {
						if _, err := r.ReadAt(buf, int64(i%256)*4096); err != nil {
							b.Error(err)
							return
						}
						if i%16 == 0 {
							thread.Yield() // let the others in, as a server thread would between requests
						}
					}
				})
			}
			wg.Wait()
		})
	}
}

// BenchmarkAcceptQueued: Accept of a connection already queued, on a virtual thread (one op: a
// client dials, the thread accepts, both close). vio's Listener looks with ppoll(2) on its
// duplicate of the listening socket whether a connection is queued, then calls the listener's
// own Accept: one system call more than the plain listener.
func BenchmarkAcceptQueued(b *testing.B) {
	for _, kind := range []string{"plain listener", "vio listener"} {
		b.Run(kind, func(b *testing.B) {
			s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 2})
			defer s.Close()
			l, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				b.Fatal(err)
			}
			if kind == "vio listener" {
				l = vio.WrapListener(l)
			}
			defer l.Close()
			thread.OfVirtual().Scheduler(s).Start(func() {
				for range b.N {
					c1, err := net.Dial("tcp", l.Addr().String())
					if err != nil {
						b.Error(err)
						return
					}
					c2, err := l.Accept()
					if err != nil {
						b.Error(err)
						return
					}
					c1.Close()
					c2.Close()
				}
			}).Join()
		})
	}
}
