package vio_test

import (
	"io"
	"net"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/loomgo/loom/thread"
	"github.com/loomgo/loom/vio"
)

// onVirtual runs fn on a virtual thread of s and waits for it.
func onVirtual(s *thread.Scheduler, fn func()) {
	thread.OfVirtual().Scheduler(s).Start(fn).Join()
}

// BenchmarkReadDataThere: a Read whose data is already in the socket, on a virtual thread: the
// plain conn's Read against vio's (issue target: vio ≤ 1.15× plain).
func BenchmarkReadDataThere(b *testing.B) {
	for _, kind := range []string{"plain", "vio"} {
		b.Run(kind, func(b *testing.B) {
			s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 2})
			defer s.Close()
			c1, c2 := tcpPair(b)
			defer c1.Close()
			defer c2.Close()
			var r net.Conn = c2
			if kind == "vio" {
				r = vio.WrapConn(c2)
			}
			fill := make([]byte, 64<<10)
			buf := make([]byte, 64)
			onVirtual(s, func() {
				left := 0
				b.ResetTimer()
				for range b.N {
					if left < len(buf) {
						b.StopTimer()
						n, _ := c1.Write(fill)
						left += n
						b.StartTimer()
					}
					n, err := r.Read(buf)
					if err != nil {
						b.Fatal(err)
					}
					left -= n
				}
			})
		})
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

func tcpPair(tb testing.TB) (net.Conn, net.Conn) {
	tb.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	defer ln.Close()
	c1, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		tb.Fatal(err)
	}
	c2, err := ln.Accept()
	if err != nil {
		c1.Close()
		tb.Fatal(err)
	}
	return c1, c2
}
