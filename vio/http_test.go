package vio_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/loomgo/loom/thread"
	"github.com/loomgo/loom/vio"
)

// server is a real http.Server on a loopback port, shut down when the test ends.
func server(t *testing.T, h http.Handler, wrap bool) (url string) {
	t.Helper()
	var l net.Listener
	var err error
	if wrap {
		l, err = vio.Listen("tcp", "127.0.0.1:0")
	} else {
		l, err = net.Listen("tcp", "127.0.0.1:0")
	}
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: h, ErrorLog: log.New(io.Discard, "", 0)}
	done := make(chan struct{})
	go func() { defer close(done); srv.Serve(l) }()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if srv.Shutdown(ctx) != nil {
			srv.Close()
		}
		<-done
	})
	return "http://" + l.Addr().String()
}

// client returns an http.Client over vio.Transport, whose idle connections are closed when the
// test ends.
func client(t *testing.T) *http.Client {
	tr := vio.Transport(nil)
	t.Cleanup(tr.(interface{ CloseIdleConnections() }).CloseIdleConnections)
	return &http.Client{Transport: tr}
}

func get(c *http.Client, url string) (string, error) {
	resp, err := c.Get(url)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return string(b), err
}

// 50 virtual threads on one carrier each GET a server that answers after 100 ms: the round trips
// overlap, because a virtual thread waiting for its response gives the carrier back.
func TestTransportRoundTripsUnmount(t *testing.T) {
	url := server(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(100 * time.Millisecond)
		io.WriteString(w, "hello "+r.URL.Path)
	}), false)
	c := client(t)
	s := newScheduler(t, 1)
	const n = 50
	start := time.Now()
	var ths []*thread.Thread
	for i := range n {
		ths = append(ths, thread.OfVirtual().Scheduler(s).Start(func() {
			body, err := get(c, fmt.Sprintf("%s/%d", url, i))
			if want := fmt.Sprintf("hello /%d", i); body != want || err != nil {
				t.Errorf("GET = %q, %v; want %q", body, err, want)
			}
		}))
	}
	for _, th := range ths {
		th.Join()
	}
	if el := time.Since(start); el > 2500*time.Millisecond {
		t.Errorf("%d GETs of 100 ms on one carrier took %v: the round trips did not overlap", n, el)
	}
}

func TestTransportRoundTripIsWaitingAndInterruptCancelsIt(t *testing.T) {
	arrived := make(chan struct{}, 1)
	cancelled := make(chan struct{}, 1)
	url := server(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		arrived <- struct{}{}
		<-r.Context().Done()
		cancelled <- struct{}{}
	}), false)
	c := client(t)
	s := newScheduler(t, 1)
	var err error
	th := thread.OfVirtual().Scheduler(s).Start(func() { _, err = get(c, url) })
	<-arrived
	if st := waitParked(t, th); st != thread.Waiting || th.Carrier() != "" {
		t.Errorf("thread in a round trip: %v on %q, want WAITING and unmounted", st, th.Carrier())
	}
	th.Interrupt()
	th.Join()
	if !errors.Is(err, thread.ErrInterrupted) || th.IsInterrupted() {
		t.Errorf("interrupted GET: %v (status %v); want thread.ErrInterrupted with the status cleared, as HttpClient.send", err, th.IsInterrupted())
	}
	select {
	case <-cancelled:
	case <-time.After(10 * time.Second):
		t.Error("the server never saw the request cancelled")
	}
}

func TestTransportWithInterruptSetFailsAtOnce(t *testing.T) {
	var hits atomic.Int64
	url := server(t, http.HandlerFunc(func(http.ResponseWriter, *http.Request) { hits.Add(1) }), false)
	c := client(t)
	runVirtual(t, nil, func() {
		thread.Current().Interrupt()
		_, err := get(c, url)
		if !errors.Is(err, thread.ErrInterrupted) || thread.Current().IsInterrupted() {
			t.Errorf("GET with the status set: %v; want thread.ErrInterrupted, status cleared", err)
		}
	})
	if hits.Load() != 0 {
		t.Error("the request was sent")
	}
}

// A body read that blocks (the server sent part of it) unmounts; an interrupt closes the
// connection and leaves the status set, as a read of HttpClient's response InputStream.
func TestTransportBodyReadUnmountsAndInterruptClosesTheConnection(t *testing.T) {
	url := server(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "part one|")
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}), false)
	c := client(t)
	s := newScheduler(t, 1)
	var got []byte
	var err error
	inBody := make(chan struct{})
	th := thread.OfVirtual().Scheduler(s).Start(func() {
		defer close(inBody)
		resp, e := c.Get(url)
		if e != nil {
			err = e
			return
		}
		defer resp.Body.Close()
		got = make([]byte, len("part one|"))
		if _, err = io.ReadFull(resp.Body, got); err != nil {
			return
		}
		inBody <- struct{}{}
		var rest []byte
		rest, err = io.ReadAll(resp.Body) // blocks: the rest never comes
		got = append(got, rest...)
	})
	<-inBody
	if st := waitParked(t, th); st != thread.Waiting || th.Carrier() != "" {
		t.Errorf("thread reading the body: %v on %q, want WAITING and unmounted", st, th.Carrier())
	}
	th.Interrupt()
	th.Join()
	if !isInterruptClose(err) || !th.IsInterrupted() {
		t.Errorf("interrupted body read: %v (status %v); want ErrClosedByInterrupt, status set", err, th.IsInterrupted())
	}
	if !bytes.HasPrefix(got, []byte("part one|")) {
		t.Errorf("body read before the interrupt: %q", got)
	}
}

func TestTransportOnForeignGoroutinesIsTheBase(t *testing.T) {
	url := server(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") }), false)
	c := client(t)
	if body, err := get(c, url); body != "ok" || err != nil {
		t.Errorf("GET from a goroutine = %q, %v", body, err)
	}
}

// A base Transport that sets only the deprecated Dial still dials through it, as net/http would
// use it.
func TestTransportHonoursTheBasesDeprecatedDial(t *testing.T) {
	url := server(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") }), false)
	var dials atomic.Int32
	base := &http.Transport{}
	//lint:ignore SA1019 the deprecated field is what this test sets.
	base.Dial = func(network, addr string) (net.Conn, error) { dials.Add(1); return net.Dial(network, addr) }
	tr := vio.Transport(base)
	t.Cleanup(tr.(interface{ CloseIdleConnections() }).CloseIdleConnections)
	c := &http.Client{Transport: tr}
	th := thread.OfVirtual().Start(func() {
		if body, err := get(c, url); body != "ok" || err != nil {
			t.Errorf("GET = %q, %v", body, err)
		}
	})
	th.Join()
	if dials.Load() != 1 {
		t.Errorf("the base's Dial ran %d times, want 1", dials.Load())
	}
	if base.DialContext != nil {
		t.Error("Transport changed its base")
	}
}

// Handler serves each request on a virtual thread of its own.
func TestHandlerRunsEachRequestOnItsOwnVirtualThread(t *testing.T) {
	var mu sync.Mutex
	ids := map[int64]bool{}
	url := server(t, vio.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		me := thread.Current()
		mu.Lock()
		ids[me.ThreadID()] = me.IsVirtual()
		mu.Unlock()
		io.WriteString(w, "ok")
	})), true)
	c := client(t)
	for range 10 {
		if body, err := get(c, url); body != "ok" || err != nil {
			t.Fatalf("GET = %q, %v", body, err)
		}
	}
	if len(ids) != 10 {
		t.Errorf("10 requests ran on %d threads, want 10", len(ids))
	}
	for id, virtual := range ids {
		if !virtual {
			t.Errorf("request thread #%d is not virtual", id)
		}
	}
}

// Served through a vio listener with one carrier: a handler blocked reading a slow request body
// unmounts, so another request is served meanwhile on the same carrier.
func TestHandlerBodyReadUnmounts(t *testing.T) {
	s := newScheduler(t, 1)
	slowIn := make(chan *thread.Thread, 1)
	url := server(t, vio.HandlerWith(thread.OfVirtual().Scheduler(s).Factory(), http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/slow" {
			slowIn <- thread.Current()
		}
		b, err := io.ReadAll(r.Body)
		if err != nil {
			t.Error(err)
		}
		w.Write(b)
	})), true)
	c := client(t)
	pr, pw := io.Pipe()
	done := make(chan string)
	go func() {
		resp, err := c.Post(url+"/slow", "text/plain", pr)
		if err != nil {
			t.Error(err)
			done <- ""
			return
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		done <- string(b)
	}()
	pw.Write([]byte("first half,"))
	slow := <-slowIn
	if st := waitParked(t, slow); st != thread.Waiting || slow.Carrier() != "" {
		t.Errorf("handler blocked reading the body: %v on %q; want WAITING, unmounted", st, slow.Carrier())
	}
	if body, err := c.Post(url+"/fast", "text/plain", strings.NewReader("fast")); err != nil {
		t.Error(err)
	} else {
		b, _ := io.ReadAll(body.Body)
		body.Body.Close()
		if string(b) != "fast" {
			t.Errorf("fast request = %q while the slow one waits", b)
		}
	}
	pw.Write([]byte("second half"))
	pw.Close()
	if got := <-done; got != "first half,second half" {
		t.Errorf("slow request echoed %q", got)
	}
}

// A panic in the handler reaches net/http as without Handler (the connection is closed, the
// value logged), after the handler thread's stack is logged.
func TestHandlerPanicIsReRaisedOnTheServersGoroutine(t *testing.T) {
	var logged bytes.Buffer
	var mu sync.Mutex
	l, err := vio.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{ErrorLog: log.New(writerFunc(func(p []byte) (int, error) {
		mu.Lock()
		defer mu.Unlock()
		return logged.Write(p)
	}), "", 0), Handler: vio.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/abort" {
			panic(http.ErrAbortHandler)
		}
		panic("boom")
	}))}
	go srv.Serve(l)
	defer srv.Close()
	c := client(t)
	for _, path := range []string{"/boom", "/abort"} {
		if _, err := get(c, "http://"+l.Addr().String()+path); err == nil {
			t.Errorf("GET %s succeeded; want the connection closed by the panic", path)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	for _, want := range []string{"vio: panic in handler thread VirtualThread[#", "boom", "TestHandlerPanicIsReRaisedOnTheServersGoroutine", "http: panic serving"} {
		if !strings.Contains(logged.String(), want) {
			t.Errorf("server log lacks %q:\n%s", want, logged.String())
		}
	}
	if strings.Count(logged.String(), "vio: panic") != 1 {
		t.Errorf("http.ErrAbortHandler was logged:\n%s", logged.String())
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

func TestHandlerOnAClosedSchedulerAnswers503(t *testing.T) {
	s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 1})
	s.Close()
	url := server(t, vio.HandlerWith(thread.OfVirtual().Scheduler(s).Factory(), http.NotFoundHandler()), true)
	resp, err := client(t).Get(url)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("status %d, want 503", resp.StatusCode)
	}
}

// Serve: a real server over a vio listener with thread-per-request; it returns when the
// listener is closed.
func TestServe(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan error)
	go func() {
		served <- vio.Serve(l, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprintf(w, "virtual=%v", thread.Current().IsVirtual())
		}))
	}()
	c := client(t)
	if body, err := get(c, "http://"+l.Addr().String()); body != "virtual=true" || err != nil {
		t.Errorf("GET = %q, %v", body, err)
	}
	c.CloseIdleConnections()
	l.Close()
	if err := <-served; err == nil {
		t.Error("Serve returned nil")
	}
	if err := vio.ListenAndServe("256.0.0.1:0", nil); err == nil {
		t.Error("ListenAndServe on a bad address returned nil")
	}
}

// HTTPS end to end: a TLS server over a vio listener with thread-per-request, and a client over
// vio.Transport trusting the test's certificate.
func TestHTTPSOverVio(t *testing.T) {
	srvConf, cliConf := testTLS(t)
	l, err := vio.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{TLSConfig: srvConf, ErrorLog: log.New(io.Discard, "", 0),
		Handler: vio.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			b, _ := io.ReadAll(r.Body)
			fmt.Fprintf(w, "%s over %s", b, r.Proto)
		}))}
	done := make(chan struct{})
	go func() { defer close(done); srv.ServeTLS(l, "", "") }()
	defer func() { srv.Close(); <-done }()
	base := http.DefaultTransport.(*http.Transport).Clone()
	base.TLSClientConfig = cliConf
	tr := vio.Transport(base)
	defer tr.(interface{ CloseIdleConnections() }).CloseIdleConnections()
	c := &http.Client{Transport: tr}
	runVirtual(t, nil, func() {
		resp, err := c.Post("https://"+l.Addr().String(), "text/plain", strings.NewReader("hello"))
		if err != nil {
			t.Error(err)
			return
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if !strings.HasPrefix(string(b), "hello over HTTP/") || err != nil {
			t.Errorf("HTTPS POST = %q, %v", b, err)
		}
	})
}

// The server's connection goroutines wait for their request threads without staying attached to
// loom: the live threads are the same before and after requests on many connections.
func TestHandlerLeavesNoAttachedServerGoroutines(t *testing.T) {
	url := server(t, vio.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") })), true)
	before := len(thread.LiveThreads())
	for range 20 {
		c := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
		if body, err := get(c, url); body != "ok" || err != nil {
			t.Fatalf("GET = %q, %v", body, err)
		}
	}
	if after := len(thread.LiveThreads()); after > before {
		t.Errorf("live threads %d → %d after 20 connections: server goroutines stayed attached: %v", before, after, thread.LiveThreads())
	}
}
