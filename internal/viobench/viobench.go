// Package viobench holds the benchmarks of package vio, shared by vio's own `go test -bench` and
// by `loom bench`: each compares vio on virtual threads with the plain standard library on
// goroutines, both sides in the same process, on the scenarios.
package viobench

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/loomgo/loom/executors"
	"github.com/loomgo/loom/thread"
	"github.com/loomgo/loom/vio"
)

// Side says which side of a comparison runs: the plain standard library on goroutines, or vio on
// virtual threads.
type Side bool

// The two sides.
const (
	Goroutines Side = false
	Virtual    Side = true
)

// String names the side for the tables: "goroutines" or "virtual threads".
func (s Side) String() string {
	if s == Virtual {
		return "virtual threads"
	}
	return "goroutines"
}

// reportCPU reports the CPU time per op since start as "cpu-ns/op".
func reportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
}

// EchoServer is the thread-per-connection server: per op, conns keep-alive clients connect and
// each sends msgs lines gap apart, reading each echo. The server gives every connection a
// goroutine, or (Virtual) a virtual thread of a 2-carrier scheduler reading a vio conn. It
// reports the wall time per op and "cpu-ns/op".
func EchoServer(b *testing.B, side Side, conns, msgs int, gap time.Duration) {
	addr, _, stop, err := StartEchoServer(side, 2)
	if err != nil {
		b.Fatal(err)
	}
	defer stop()
	b.ResetTimer()
	cpu := cpuTime()
	for range b.N {
		if _, err := EchoClients(addr, conns, msgs, gap); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, cpu)
}

// Echo serves c until the peer closes it: every line it reads is written back.
func Echo(c net.Conn) {
	defer c.Close()
	r := bufio.NewReader(c)
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return
		}
		if _, err := io.WriteString(c, line); err != nil {
			return
		}
	}
}

// StartEchoServer starts an echo server on a loopback port that serves each connection with
// Echo: on a goroutine of its own (Goroutines: [net.Listen] and go), or (Virtual) on a virtual
// thread of its own, on a new scheduler with the given carriers, accepting from a vio listener as
// the Java program does (ServerSocket.accept, a virtual thread per socket), and returns that
// scheduler. stop closes the listener and waits for every connection's goroutine or thread.
func StartEchoServer(side Side, carriers int) (addr string, s *thread.Scheduler, stop func(), err error) {
	if side == Goroutines {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return "", nil, nil, err
		}
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				c, err := l.Accept()
				if err != nil {
					return
				}
				wg.Add(1)
				go func() { defer wg.Done(); Echo(c) }()
			}
		}()
		return l.Addr().String(), nil, func() { l.Close(); wg.Wait() }, nil
	}
	l, err := vio.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, nil, err
	}
	s = thread.NewScheduler(thread.SchedulerOptions{Parallelism: carriers})
	es := executors.NewThreadPerTaskExecutor(thread.OfVirtual().Scheduler(s).Factory())
	acceptor := thread.OfVirtual().Scheduler(s).Start(func() {
		for {
			c, err := l.Accept() // unmounts while no client comes
			if err != nil {
				return
			}
			es.Execute(func() { Echo(c) })
		}
	})
	return l.Addr().String(), s, func() { l.Close(); acceptor.Join(); es.Close(); s.Close() }, nil
}

// EchoClients runs n clients (goroutines, plain conns) against the echo server at addr, each
// sending lines lines gap apart and checking each echo, and returns how long they all took.
func EchoClients(addr string, n, lines int, gap time.Duration) (time.Duration, error) {
	start := time.Now()
	var wg sync.WaitGroup
	var failed atomic.Pointer[error]
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, err := net.Dial("tcp", addr)
			if err != nil {
				failed.Store(&err)
				return
			}
			defer c.Close()
			r := bufio.NewReader(c)
			for j := range lines {
				if j > 0 {
					time.Sleep(gap)
				}
				msg := fmt.Sprintf("client %d line %d\n", i, j)
				io.WriteString(c, msg)
				if got, err := r.ReadString('\n'); err != nil || got != msg {
					err = fmt.Errorf("client %d: echo %q, %v; sent %q", i, got, err, msg)
					failed.Store(&err)
					return
				}
			}
		}()
	}
	wg.Wait()
	if err := failed.Load(); err != nil {
		return 0, *err
	}
	return time.Since(start), nil
}

// HTTPFanOut is "n HTTP calls at once": per op, n goroutines with the plain client, or n virtual
// threads of a 2-carrier scheduler with [vio.Transport], each GET a loopback server that answers
// after delay. Both clients keep up to n idle connections.
func HTTPFanOut(b *testing.B, side Side, n int, delay time.Duration) {
	srv, addr := slowServer(b, delay)
	defer srv.Close()
	base := http.DefaultTransport.(*http.Transport).Clone()
	base.MaxIdleConnsPerHost = n
	var rt http.RoundTripper = base
	var s *thread.Scheduler
	if side == Virtual {
		rt = vio.Transport(base)
		s = thread.NewScheduler(thread.SchedulerOptions{Parallelism: 2})
		defer s.Close()
	}
	defer rt.(interface{ CloseIdleConnections() }).CloseIdleConnections()
	client := &http.Client{Transport: rt}
	url := "http://" + addr + "/"
	call := func() { get(b, client, url) }
	b.ResetTimer()
	cpu := cpuTime()
	for range b.N {
		if side == Goroutines {
			var wg sync.WaitGroup
			for range n {
				wg.Add(1)
				go func() { defer wg.Done(); call() }()
			}
			wg.Wait()
			continue
		}
		ths := make([]*thread.Thread, n)
		for i := range ths {
			ths[i] = thread.OfVirtual().Scheduler(s).Start(call)
		}
		for _, t := range ths {
			t.Join()
		}
	}
	reportCPU(b, cpu)
}

func slowServer(b *testing.B, delay time.Duration) (*http.Server, string) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(delay)
		io.WriteString(w, "ok")
	})}
	go srv.Serve(l)
	return srv, l.Addr().String()
}

// ReadDataThere is a Read whose data is already in the socket, on a virtual thread of a
// 2-carrier scheduler: the plain conn's Read (Goroutines: the conn vio would wrap), or vio's.
func ReadDataThere(b *testing.B, side Side) {
	s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 2})
	defer s.Close()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	w, err := net.Dial("tcp", l.Addr().String())
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close()
	c, err := l.Accept()
	l.Close()
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	if side == Virtual {
		c = vio.WrapConn(c)
	}
	fill := make([]byte, 64<<10)
	buf := make([]byte, 64)
	thread.OfVirtual().Scheduler(s).Start(func() {
		left := 0
		b.ResetTimer()
		for range b.N {
			if left < len(buf) {
				b.StopTimer()
				n, _ := w.Write(fill)
				left += n
				b.StartTimer()
			}
			n, err := c.Read(buf)
			if err != nil {
				b.Error(err)
				return
			}
			left -= n
		}
	}).Join()
}

// HandlerServer is an HTTP server's throughput: clients concurrent keep-alive clients (plain
// goroutines and client) GET a tiny response from a plain net/http server, or (Virtual) from one
// serving through a vio listener with [vio.Handler] (a virtual thread per request, on the default
// scheduler). One op is one request.
func HandlerServer(b *testing.B, side Side, clients int) {
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "hello") })
	var l net.Listener
	var err error
	srv := &http.Server{Handler: h}
	if side == Virtual {
		srv.Handler = vio.Handler(h)
		l, err = vio.Listen("tcp", "127.0.0.1:0")
	} else {
		l, err = net.Listen("tcp", "127.0.0.1:0")
	}
	if err != nil {
		b.Fatal(err)
	}
	go srv.Serve(l)
	defer srv.Close()
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConnsPerHost = clients
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr}
	url := fmt.Sprintf("http://%s/", l.Addr())
	var left atomic.Int64
	left.Store(int64(b.N))
	b.ResetTimer()
	cpu := cpuTime()
	var wg sync.WaitGroup
	for range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for left.Add(-1) >= 0 && get(b, client, url) {
			}
		}()
	}
	wg.Wait()
	b.StopTimer()
	reportCPU(b, cpu)
}

// get GETs url with client and reads the body; it reports whether that worked.
func get(b *testing.B, client *http.Client, url string) bool {
	resp, err := client.Get(url)
	if err != nil {
		b.Error(err)
		return false
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return true
}
