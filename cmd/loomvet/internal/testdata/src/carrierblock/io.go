package carrierblock

import (
	"net"
	"net/http"
	"os"
	"os/exec"

	"github.com/loomgo/loom/thread"
)

func files(f *os.File, l net.Listener) {
	thread.StartVirtualThread(func() {
		f.Read(nil)                               // want `\(\*os.File\).Read on a virtual thread .* thread.Blocking`
		f.WriteString("x")                        // want `\(\*os.File\).WriteString on a virtual thread`
		exec.Command("true").Run()                // want `\(\*os/exec.Cmd\).Run on a virtual thread|\(\*exec.Cmd\).Run on a virtual thread`
		http.Get("http://localhost")              // want `http.Get on a virtual thread .* vio.Transport`
		net.DialTimeout("tcp", "localhost:80", 0) // want `net.DialTimeout on a virtual thread`
		var d net.Dialer
		d.Dial("tcp", "localhost:80")       // want `\(\*net.Dialer\).Dial on a virtual thread .* vio.DialContext`
		tcp, _ := net.ListenTCP("tcp", nil) // want `net.ListenTCP on a virtual thread`
		tcp.Accept()                        // want `Accept on a listener from package net`
	})
}

func acceptLoop(ln net.Listener) {
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		thread.StartVirtualThread(func() { handle(c) })
	}
}

func handle(c net.Conn) {
	c.Write([]byte("hi")) // want `Conn.Write on a connection from package net`
}

func listen() {
	ln, _ := net.Listen("tcp", ":0")
	acceptLoop(ln)
}
