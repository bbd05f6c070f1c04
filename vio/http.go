package vio

import (
	"context"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"runtime"
	"runtime/debug"
	"sync/atomic"

	"github.com/loomgo/loom/internal/rt"
	"github.com/loomgo/loom/thread"
)

// Transport returns an [http.RoundTripper] whose round trips and response body reads unmount a
// virtual thread: Java's HttpClient.send on a virtual thread. base is the transport to use (nil:
// [http.DefaultTransport]); an *http.Transport is cloned and given vio's dialer (its own
// [DialContext], if any, wrapped), so that its HTTP/1 connections are vio [*Conn]s and a body read
// unmounts only when it would block. A Transport passed in again comes back unchanged.
//
// RoundTrip waits in the transport's own machinery (a select on its connection goroutines), so on
// a virtual thread it unmounts for its whole length (WAITING, or TIMED_WAITING when the request's
// context has a deadline). Interrupting the thread cancels the request: RoundTrip returns an error
// that [errors.Is] reports as [thread.ErrInterrupted] and clears the interrupt status, as
// HttpClient.send throws InterruptedException. Calling it with the status set does the same at
// once. An interrupt while the thread reads the body closes the connection and the read returns
// [ErrClosedByInterrupt] with the status left set, as a read of the response's InputStream
// throws an IOException and re-asserts it.
//
// Use it as [http.Client]{Transport: [Transport](nil)}. On platform threads and goroutines loom
// did not start, round trips are base's.
func Transport(base http.RoundTripper) http.RoundTripper {
	if base == nil {
		base = http.DefaultTransport
	}
	if t, ok := base.(*transport); ok {
		return t
	}
	tr := &transport{base: base}
	if ht, ok := base.(*http.Transport); ok {
		ht = ht.Clone()
		dial, dialTLS := takeDeprecatedDials(ht)
		switch {
		case ht.DialContext != nil:
			ht.DialContext = wrapDial(ht.DialContext)
		case dial != nil:
			ht.DialContext = wrapDial(func(_ context.Context, network, addr string) (net.Conn, error) { return dial(network, addr) })
		default:
			ht.DialContext = new(Dialer).DialContext
		}
		tr.base = ht
		tr.vioConns = ht.DialTLSContext == nil && !dialTLS
	}
	return tr
}

// takeDeprecatedDials clears ht's Dial and returns it, with whether ht sets DialTLS. Both are
// deprecated (for [http.Transport.DialContext] and [http.Transport.DialTLSContext]), but net/http
// still uses them when their Context forms are unset, so a caller's Transport may rely on them:
// [Transport] dials through a Dial it finds, as net/http would (clearing it changes nothing
// where DialContext is set, which takes priority).
func takeDeprecatedDials(ht *http.Transport) (dial func(network, addr string) (net.Conn, error), dialTLS bool) {
	//lint:ignore SA1019 honouring a caller's deprecated Dial, as net/http does, is the point.
	dial, ht.Dial = ht.Dial, nil
	//lint:ignore SA1019 honouring a caller's deprecated DialTLS, as net/http does, is the point.
	return dial, ht.DialTLS != nil
}

func wrapDial(dial func(ctx context.Context, network, addr string) (net.Conn, error)) func(ctx context.Context, network, addr string) (net.Conn, error) {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := dial(ctx, network, addr)
		if err != nil || c == nil {
			return c, err
		}
		return wrapConn(c), nil
	}
}

type transport struct {
	base     http.RoundTripper
	vioConns bool // base's HTTP/1 connections are vio conns, whose reads unmount by themselves
}

// RoundTrip sends req and returns its response; see [Transport].
func (tr *transport) RoundTrip(req *http.Request) (*http.Response, error) {
	t, _ := rt.IOCurrent()
	if t == nil {
		return tr.base.RoundTrip(req)
	}
	if t.(*thread.Thread).IsInterrupted() {
		thread.Interrupted()
		if req.Body != nil {
			req.Body.Close() // a RoundTripper must close the body, even on errors
		}
		return nil, &interruptedError{what: roundTripName(req)}
	}
	ctx, cancel := context.WithCancel(req.Context())
	x := &exchange{cancel: cancel}
	x.wait = rt.IOWait{Op: "http round trip", Blocker: req, Interrupt: x.interrupt}
	_, timed := ctx.Deadline()
	var resp *http.Response
	var err error
	call(&x.wait, how(timed), func() { resp, err = tr.base.RoundTrip(req.WithContext(ctx)) })
	if x.interrupted.Load() {
		if resp != nil {
			resp.Body.Close()
		}
		cancel()
		thread.Interrupted() // as HttpClient.send's InterruptedException
		return nil, &interruptedError{what: roundTripName(req), err: err}
	}
	if err != nil {
		cancel()
		return nil, err
	}
	x.wait.Op, x.wait.Blocker = "http body read", resp
	x.direct = tr.vioConns && resp.ProtoMajor == 1
	x.left = resp.ContentLength
	x.body = resp.Body
	resp.Body = x
	return resp, nil
}

// CloseIdleConnections closes the idle connections of the transport it wraps, if it has any.
func (tr *transport) CloseIdleConnections() {
	if c, ok := tr.base.(interface{ CloseIdleConnections() }); ok {
		c.CloseIdleConnections()
	}
}

// exchange is one round trip and, after it, the response body.
type exchange struct {
	wait        rt.IOWait
	cancel      context.CancelFunc
	interrupted atomic.Bool
	direct      bool  // the body is read from a vio conn: no unmounted call around the read
	left        int64 // bytes of the body not read yet, -1 if unknown
	eof         bool  // the body has reported io.EOF
	body        io.ReadCloser
}

func (x *exchange) interrupt(any) {
	x.interrupted.Store(true)
	x.cancel()
}

// Read reads the response body. It unmounts a virtual thread while it blocks; an interrupt closes
// the connection (see [Transport]).
//
// An HTTP/1 body over a vio conn is read directly (the conn unmounts by itself), except for the
// read that reaches the end of a body of known length: at the end, net/http's body waits for its
// connection's reader goroutine to take the connection back (a channel hand-off), and that wait
// is better spent without a carrier.
func (x *exchange) Read(p []byte) (int, error) {
	var n int
	var err error
	if x.direct && (x.left < 0 || x.left > int64(len(p))) {
		n, err = x.body.Read(p)
	} else {
		t := call(&x.wait, rt.IOWaiting, func() { n, err = x.body.Read(p) })
		if err != nil && t != nil && x.interrupted.Load() {
			err = fmt.Errorf("vio: http body read: %w", ErrClosedByInterrupt)
		}
	}
	if x.left > 0 {
		x.left -= int64(n)
	}
	x.eof = x.eof || err == io.EOF
	return n, err
}

// Close closes the body and releases the request's context. Closing a body that was not read
// to its end waits for net/http to drop the connection, unmounted.
func (x *exchange) Close() error {
	var err error
	if x.eof {
		err = x.body.Close()
	} else {
		call(&x.wait, rt.IOWaiting, func() { err = x.body.Close() })
	}
	x.cancel()
	return err
}

func roundTripName(req *http.Request) string {
	return "vio: " + req.Method + " " + req.URL.Redacted()
}

// Handler returns an [http.Handler] that serves each request on a virtual thread of its own
// (thread-per-request, as Jetty, Tomcat or Helidon on virtual threads): h runs on a new virtual
// thread of the default scheduler, while the server's goroutine waits for it. Served through a
// vio [*Listener] (see [Serve], [ListenAndServe]), request body reads and response writes made
// by h unmount the thread when they would block.
//
// A panic in h is re-raised on the server's goroutine with the same value, so net/http's own
// recovery (and [http.ErrAbortHandler]) work as without Handler; the handler thread's stack is
// logged first (to the server's ErrorLog), since the re-raise loses it. [runtime.Goexit] in h ends
// the server's goroutine too. If the thread cannot start (its scheduler closed), the response is
// 503 Service Unavailable. Handler(nil) panics with [thread.ErrNilArgument].
func Handler(h http.Handler) http.Handler { return HandlerWith(nil, h) }

// HandlerWith is [Handler] with the threads made by f (nil: virtual threads of the default
// scheduler), for example [thread.OfVirtual]().Scheduler(s).Name("http-", 0).Factory().
func HandlerWith(f thread.Factory, h http.Handler) http.Handler {
	if h == nil {
		panic(fmt.Errorf("%w: vio.Handler(nil)", thread.ErrNilArgument))
	}
	if f == nil {
		f = thread.OfVirtual().Factory()
	}
	return &handler{f: f, h: h}
}

type handler struct {
	f thread.Factory
	h http.Handler
}

func (x *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	// Making the thread (it inherits the creator's inheritable thread-locals) and joining it
	// attach the server's goroutine to loom as a platform Thread, if it was not one; an attachment
	// made only for this request is ended after it, so that a server's connection goroutines do
	// not accumulate in loom's registry until a sweep finds them gone.
	attached, _ := rt.IOCurrent()
	var returned bool
	var panicked any
	var stack []byte
	t := x.f.NewThread(func() {
		defer func() {
			if !returned {
				if panicked = recover(); panicked != nil {
					stack = debug.Stack()
				}
			}
		}()
		x.h.ServeHTTP(w, r)
		returned = true
	})
	if err := t.TryStart(); err != nil {
		if attached == nil {
			thread.Detach()
		}
		http.Error(w, "vio: "+err.Error(), http.StatusServiceUnavailable)
		return
	}
	interrupted := false
	for t.Join() != nil {
		interrupted = true // the server's goroutine must outlive its handler: wait on
	}
	if attached == nil {
		thread.Detach()
	} else if interrupted {
		thread.Current().Interrupt()
	}
	switch {
	case returned:
	case panicked != nil:
		if panicked != http.ErrAbortHandler {
			logf := log.Printf
			if srv, ok := r.Context().Value(http.ServerContextKey).(*http.Server); ok && srv.ErrorLog != nil {
				logf = srv.ErrorLog.Printf
			}
			logf("vio: panic in handler thread %v: %v\n%s", t, panicked, stack)
		}
		panic(panicked)
	default:
		runtime.Goexit()
	}
}

// Serve accepts connections on l (wrapped by [WrapListener]) and serves each request with h on a
// virtual thread of its own ([Handler]), as [http.Serve]; h nil means [http.DefaultServeMux]. It
// returns when l fails, always with a non-nil error. For timeouts, TLS or a graceful Shutdown, use
// an [http.Server] directly: srv.Handler = [Handler](h); srv.Serve([WrapListener](l)).
func Serve(l net.Listener, h http.Handler) error {
	srv := &http.Server{Handler: Handler(orDefault(h))}
	return srv.Serve(WrapListener(l))
}

// ListenAndServe listens on the TCP address addr with a vio [*Listener] and serves each request
// with h on a virtual thread of its own, as [http.ListenAndServe] (addr "" means ":http", h nil
// means [http.DefaultServeMux]). It is the one-liner of a thread-per-request server:
//
//	log.Fatal(vio.ListenAndServe(":8080", mux))
func ListenAndServe(addr string, h http.Handler) error {
	if addr == "" {
		addr = ":http"
	}
	l, err := Listen("tcp", addr)
	if err != nil {
		return err
	}
	return Serve(l, h)
}

// ListenAndServeTLS is [ListenAndServe] over TLS, as [http.ListenAndServeTLS] (addr "" means
// ":https").
func ListenAndServeTLS(addr, certFile, keyFile string, h http.Handler) error {
	if addr == "" {
		addr = ":https"
	}
	l, err := Listen("tcp", addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: Handler(orDefault(h))}
	return srv.ServeTLS(l, certFile, keyFile)
}

func orDefault(h http.Handler) http.Handler {
	if h == nil {
		return http.DefaultServeMux
	}
	return h
}
