package carrierblock

import (
	"net"
	"os"
	"os/exec"
	"time"

	"github.com/loomgo/loom/executors"
	"github.com/loomgo/loom/structured"
	"github.com/loomgo/loom/thread"
	"github.com/loomgo/loom/vio"
)

// Nothing here is reported.

func notVirtual(ch chan int) {
	go func() { <-ch }()
	thread.OfPlatform().Start(func() {
		time.Sleep(time.Millisecond)
		<-ch
	})
	pool := executors.NewFixedThreadPool(4)
	executors.SubmitRunnable(pool, func() { <-ch })
	pool.Execute(func() { <-ch })
	pf := executors.NewThreadPerTaskExecutor(thread.OfPlatform().Factory())
	pf.Execute(func() { <-ch })
	ps := structured.OpenWith(structured.AwaitAll[int](), structured.WithThreadFactory(thread.OfPlatform().Factory()))
	structured.Fork(ps, func() (int, error) { return <-ch, nil })
	time.Sleep(time.Millisecond) // main is not a virtual thread
	<-ch
}

// unseen takes an executor whose origin this package never shows: not assumed virtual.
func unseen(es executors.ExecutorService, ch chan int) {
	es.Execute(func() { <-ch })
}

func blockingIsFine(ch chan int, f *os.File) {
	thread.StartVirtualThread(func() {
		thread.Blocking(func() {
			<-ch
			time.Sleep(time.Millisecond)
			f.Read(nil)
			exec.Command("true").Run()
		})
		go func() { ch <- 1 }()
		thread.OfPlatform().Start(func() { <-ch })
		if err := thread.Sleep(time.Millisecond); err != nil {
			return
		}
		time.Now()
		_ = time.After(time.Second) // makes a channel; no wait
	})
}

func vioIsFine() {
	thread.StartVirtualThread(func() {
		c, err := vio.Dial("tcp", "localhost:80")
		if err != nil {
			return
		}
		c.Write(nil)
		ln, _ := vio.Listen("tcp", ":0")
		conn, _ := ln.Accept()
		conn.Read(nil)
		raw, _ := net.Pipe()
		w := vio.WrapConn(raw)
		w.Read(nil)
	})
}

func unseenConn(c net.Conn) {
	thread.StartVirtualThread(func() {
		c.Read(nil) // c's origin is not seen: it may be a vio conn
	})
}
