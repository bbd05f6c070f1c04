package vio_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/loomgo/loom/executors"
	"github.com/loomgo/loom/thread"
	"github.com/loomgo/loom/vio"
)

// A thread-per-connection echo server, as a Java programmer writes it with a ServerSocket and a
// virtual thread per connection. With vio, a thread blocked reading its connection gives its
// carrier back, so one carrier serves every connection.
func ExampleListen() {
	l, err := vio.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	es := executors.NewVirtualThreadPerTaskExecutor()
	acceptor := thread.StartVirtualThread(func() {
		for {
			c, err := l.Accept() // unmounts while no client comes
			if err != nil {
				return // the listener was closed
			}
			es.Execute(func() {
				defer c.Close()
				r := bufio.NewReader(c)
				for {
					line, err := r.ReadString('\n') // unmounts while the client is quiet
					if err != nil {
						return
					}
					io.WriteString(c, strings.ToUpper(line))
				}
			})
		}
	})

	c, _ := net.Dial("tcp", l.Addr().String())
	r := bufio.NewReader(c)
	for _, word := range []string{"hello", "virtual", "threads"} {
		fmt.Fprintln(c, word)
		echo, _ := r.ReadString('\n')
		fmt.Print(echo)
	}
	c.Close()
	l.Close()
	acceptor.Join()
	es.Close()
	// Output:
	// HELLO
	// VIRTUAL
	// THREADS
}

// Interrupting a thread blocked in a socket read closes the socket, as Java does: the read
// returns vio.ErrClosedByInterrupt, which is both thread.ErrInterrupted and net.ErrClosed, and
// the interrupt status stays set.
func ExampleErrClosedByInterrupt() {
	l, _ := vio.Listen("tcp", "127.0.0.1:0")
	defer l.Close()
	c, _ := vio.Dial("tcp", l.Addr().String())
	reader := thread.StartVirtualThread(func() {
		_, err := c.Read(make([]byte, 10)) // nothing comes: blocks until the interrupt
		fmt.Println(errors.Is(err, thread.ErrInterrupted), errors.Is(err, net.ErrClosed))
		fmt.Println("still interrupted:", thread.Current().IsInterrupted())
	})
	for reader.State() != thread.Waiting {
		time.Sleep(time.Millisecond)
	}
	reader.Interrupt()
	reader.Join()
	// Output:
	// true true
	// still interrupted: true
}

// HTTP calls from virtual threads, the shape of "10,000 HTTP calls on virtual threads": each
// GET waits for its response without holding a carrier.
func ExampleTransport() {
	srv := &http.Server{Handler: vio.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(50 * time.Millisecond) // a slow backend
		fmt.Fprintf(w, "item %s", r.URL.Query().Get("id"))
	}))}
	l, _ := vio.Listen("tcp", "127.0.0.1:0")
	go srv.Serve(l)
	defer srv.Close()

	client := &http.Client{Transport: vio.Transport(nil)}
	defer client.CloseIdleConnections()
	es := executors.NewVirtualThreadPerTaskExecutor()
	var futures []executors.Future[string]
	for i := range 3 {
		f, _ := executors.Submit(es, func() (string, error) {
			resp, err := client.Get(fmt.Sprintf("http://%s/?id=%d", l.Addr(), i))
			if err != nil {
				return "", err
			}
			defer resp.Body.Close()
			b, err := io.ReadAll(resp.Body)
			return string(b), err
		})
		futures = append(futures, f)
	}
	for _, f := range futures {
		body, err := f.Get()
		fmt.Println(body, err)
	}
	es.Close()
	// Output:
	// item 0 <nil>
	// item 1 <nil>
	// item 2 <nil>
}

// Ported code receiving from a Go channel: vio.Recv waits without holding a carrier and answers
// interrupts as BlockingQueue.take does.
func ExampleRecv() {
	results := make(chan string)
	go func() {
		time.Sleep(10 * time.Millisecond)
		results <- "computed by a goroutine"
	}()
	thread.StartVirtualThread(func() {
		v, ok, err := vio.Recv(results)
		fmt.Println(v, ok, err)
	}).Join()
	// Output:
	// computed by a goroutine true <nil>
}

// Waiting for a context on a virtual thread, interruptibly.
func ExampleAwait() {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	thread.StartVirtualThread(func() {
		err := vio.Await(ctx)
		fmt.Println(err, ctx.Err())
	}).Join()
	// Output:
	// <nil> context deadline exceeded
}
