package carrierblock

import (
	"net"
	"time"

	"github.com/loomgo/loom/executors"
	"github.com/loomgo/loom/thread"
)

func sleeper() {
	thread.StartVirtualThread(func() {
		time.Sleep(100 * time.Millisecond) // want `time.Sleep on a virtual thread \(in a task of thread.StartVirtualThread\) blocks while holding its carrier`
	})
}

func submitter() {
	es := executors.NewVirtualThreadPerTaskExecutor()
	executors.Submit(es, func() (int, error) {
		time.Sleep(time.Second) // want `time.Sleep on a virtual thread \(in a task of executors.Submit on a virtual-thread executor\)`
		return 1, nil
	})
	executors.Submit(es, compute)
}

func compute() (string, error) {
	time.Sleep(time.Second) // want `time.Sleep on a virtual thread`
	return "done", nil
}

func lookup(n int) bool {
	time.Sleep(time.Millisecond) // want `time.Sleep on a virtual thread \(in a task of \(\*thread.VirtualBuilder\).Start, via lookup\)`
	return n > 0
}

func client() {
	thread.OfVirtual().Name("client").Start(func() {
		lookup(1)
		c, err := net.Dial("tcp", "localhost:80") // want `net.Dial on a virtual thread .* use vio.Dial`
		if err != nil {
			return
		}
		c.Read(nil)                      // want `Conn.Read on a connection from package net`
		ln, _ := net.Listen("tcp", ":0") // want `net.Listen on a virtual thread .* use vio.Listen`
		ln.Accept()                      // want `Accept on a listener from package net`
	})
}
