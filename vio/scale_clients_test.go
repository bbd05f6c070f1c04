package vio_test

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"strconv"
	"sync"
	"time"
)

// scaleClients is the child process of the scale test: it opens VIO_TEST_N connections to
// VIO_TEST_ARG (the server's fds are the parent's, the clients' are this process's), says
// "ready", waits for a line on stdin, then sends a line on every connection, reads its echo,
// closes them all and exits (0 if every echo came back).
func scaleClients() int {
	addr := os.Getenv("VIO_TEST_ARG")
	n, _ := strconv.Atoi(os.Getenv("VIO_TEST_N"))
	conns := make([]net.Conn, n)
	var wg sync.WaitGroup
	sem := make(chan struct{}, 200)
	failed := false
	var mu sync.Mutex
	for i := range conns {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			c, err := net.DialTimeout("tcp", addr, time.Minute)
			if err != nil {
				mu.Lock()
				failed = true
				mu.Unlock()
				fmt.Fprintln(os.Stderr, err)
				return
			}
			conns[i] = c
		}()
	}
	wg.Wait()
	if failed {
		return 1
	}
	fmt.Println("ready")
	bufio.NewReader(os.Stdin).ReadString('\n')
	bad := 0
	for i, c := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer c.Close()
			msg := fmt.Sprintf("ping %d\n", i)
			c.Write([]byte(msg))
			if got, err := bufio.NewReader(c).ReadString('\n'); got != msg || err != nil {
				mu.Lock()
				bad++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if bad > 0 {
		fmt.Fprintf(os.Stderr, "%d echoes missing\n", bad)
		return 1
	}
	return 0
}
