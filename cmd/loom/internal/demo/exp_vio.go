package demo

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/loomgo/loom/executors"
	"github.com/loomgo/loom/internal/viobench"
	"github.com/loomgo/loom/vio"
)

// The I/O experiments: what virtual threads are for. A thread-per-connection server and a burst
// of HTTP calls, each on virtual threads doing blocking I/O through package vio, beside the same
// program on goroutines. Java's shape: a thread blocked in I/O costs little, so the virtual
// threads take about the goroutines' time, however many of them wait at once.

// threadPerConnection serves clients keep-alive connections, each sending 5 lines 100 ms apart,
// with a goroutine per connection and then with a virtual thread per connection (2 carriers,
// vio conns), and compares the times.
func threadPerConnection(c *Config) Outcome {
	clients, lines, gap := c.n(300, 10), 5, 100*time.Millisecond
	var peak int
	run := func(side viobench.Side) (time.Duration, error) {
		addr, s, stop, err := viobench.StartEchoServer(side, 2)
		if err != nil {
			return 0, err
		}
		defer stop()
		if s != nil { // the most virtual threads parked (blocked in Read) at once
			blocked := samplePeak(time.Millisecond, func() int64 { return s.Stats().Parked })
			defer func() { peak = blocked.stop() }()
		}
		return viobench.EchoClients(addr, clients, lines, gap)
	}
	goroutines, err := run(viobench.Goroutines)
	if err != nil {
		return Outcome{Err: err}
	}
	virtual, err := run(viobench.Virtual)
	if err != nil {
		return Outcome{Err: err}
	}
	r := float64(virtual) / float64(goroutines)
	o := Outcome{
		Loom: fmt.Sprintf("virtual threads (vio, 2 carriers) %s, goroutines %s (%.2f×); up to %s virtual threads parked at once (in Read, and the acceptor in Accept)",
			ms(virtual), ms(goroutines), r, commas(int64(peak))),
		Same:    r <= 2,
		Verdict: fmt.Sprintf("virtual/goroutines = %.2f× (rule ≤ 2×; with plain conns holding the 2 carriers it was ~100×)", r),
		Figures: map[string]float64{"virtual_ms": msf(virtual), "goroutines_ms": msf(goroutines), "ratio": r, "peak_blocked": float64(peak),
			"clients": float64(clients), "lines": float64(lines), "gap_ms": msf(gap)},
	}
	if clients != 300 {
		o.Scaling = fmt.Sprintf("ran %s clients (full: 300)", commas(int64(clients)))
	}
	return o
}

// httpCalls makes calls HTTP GETs at once, at most 2,000 connections, to a loopback server that
// answers after 100 ms: from goroutines with the plain client, then from a virtual thread each
// with vio.Transport.
func httpCalls(c *Config) Outcome {
	calls, conns := c.n(10_000, 20), c.n(2_000, 4)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return Outcome{Err: err}
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(100 * time.Millisecond)
		io.WriteString(w, "ok")
	})}
	go srv.Serve(l)
	defer srv.Close()
	url := "http://" + l.Addr().String() + "/"
	base := http.DefaultTransport.(*http.Transport).Clone()
	base.MaxConnsPerHost, base.MaxIdleConnsPerHost = conns, conns
	run := func(rt http.RoundTripper, start func(func())) (time.Duration, int64) {
		defer rt.(interface{ CloseIdleConnections() }).CloseIdleConnections()
		client := &http.Client{Transport: rt}
		var ok atomic.Int64
		var wg sync.WaitGroup
		t0 := time.Now()
		for range calls {
			wg.Add(1)
			start(func() {
				defer wg.Done()
				resp, err := client.Get(url)
				if err != nil {
					return
				}
				if b, err := io.ReadAll(resp.Body); err == nil && string(b) == "ok" {
					ok.Add(1)
				}
				resp.Body.Close()
			})
		}
		wg.Wait()
		return time.Since(t0), ok.Load()
	}
	// best of 2 each, alternating, so that neither side pays alone for warming up the process
	es := executors.NewVirtualThreadPerTaskExecutor()
	goroutines, virtual := time.Duration(1<<62), time.Duration(1<<62)
	var gok, vok int64
	for range 2 {
		g, n := run(base.Clone(), func(f func()) { go f() })
		goroutines, gok = min(goroutines, g), n
		v, n := run(vio.Transport(base.Clone()), func(f func()) { es.Execute(f) })
		virtual, vok = min(virtual, v), n
	}
	es.Close()
	r := float64(virtual) / float64(goroutines)
	answered := fmt.Sprintf("all %s calls answered on both sides", commas(int64(calls)))
	if vok != int64(calls) || gok != int64(calls) {
		answered = fmt.Sprintf("calls answered: %s of %s on virtual threads, %s on goroutines", commas(vok), commas(int64(calls)), commas(gok))
	}
	o := Outcome{
		Loom: fmt.Sprintf("virtual threads (vio.Transport) %s, goroutines %s (best of 2; %.2f×); %s",
			ms(virtual), ms(goroutines), r, answered),
		Same:    r <= 2 && vok == int64(calls) && gok == int64(calls),
		Verdict: fmt.Sprintf("%s; virtual/goroutines = %.2f× (rule ≤ 2×)", answered, r),
		Figures: map[string]float64{"virtual_ms": msf(virtual), "goroutines_ms": msf(goroutines), "ratio": r,
			"calls": float64(calls), "conns": float64(conns)},
	}
	if calls != 10_000 {
		o.Scaling = fmt.Sprintf("ran %s calls over %s connections (full: 10,000 over 2,000)", commas(int64(calls)), commas(int64(conns)))
	}
	return o
}
