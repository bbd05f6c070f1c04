package vio_test

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"net"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/loomgo/loom/thread"
	"github.com/loomgo/loom/vio"
)

func stressSeeds() int {
	if raceEnabled || testing.Short() {
		return 100
	}
	return 400
}

// openFDs counts this process's open file descriptors.
func openFDs(t *testing.T) int {
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skipf("cannot count file descriptors: %v", err)
	}
	return len(ents)
}

// A reader blocked in vio reads while a writer sends a seeded stream in random chunks, and an
// interrupt, a close, or nothing happens at a random moment. Whatever the race, the reader
// returns (no stuck thread), what it received is a prefix of what was sent (nothing duplicated
// or corrupted), all of it when nothing interfered, an interrupt is never lost (the status is set
// at the end), the error says what happened, and no file descriptor leaks.
func TestStressReadRacingInterruptAndClose(t *testing.T) {
	s := newScheduler(t, 2)
	before := openFDs(t)
	for seed := range stressSeeds() {
		rng := rand.New(rand.NewPCG(uint64(seed), 7))
		c1, c2 := tcpPair(t)
		w, r := vio.WrapConn(c1), vio.WrapConn(c2)
		sent := make([]byte, 1+rng.IntN(256<<10))
		for i := range sent {
			sent[i] = byte(rng.Uint32())
		}
		var got []byte
		var rerr error
		buf := make([]byte, 1+rng.IntN(8<<10))
		reader := thread.OfVirtual().Scheduler(s).Start(readUntilError(r, buf, &got, &rerr))
		chunks := 1 + rng.IntN(20)
		pause := time.Duration(rng.IntN(300)) * time.Microsecond
		go func() {
			rest := sent
			for i := range chunks {
				n := len(rest) / (chunks - i)
				if _, err := w.Write(rest[:n]); err != nil {
					break
				}
				rest = rest[n:]
				time.Sleep(pause)
			}
			w.Close()
		}()
		action := rng.IntN(3) // 0: nothing, 1: interrupt, 2: close
		time.Sleep(time.Duration(rng.IntN(2000)) * time.Microsecond)
		switch action {
		case 1:
			reader.Interrupt()
		case 2:
			r.Close()
		}
		if ok, _ := reader.JoinTimeout(30 * time.Second); !ok {
			t.Fatalf("seed %d: reader stuck (%v)", seed, reader)
		}
		r.Close()
		if !bytes.Equal(got, sent[:min(len(got), len(sent))]) || len(got) > len(sent) {
			t.Fatalf("seed %d: received %d bytes that are not a prefix of the %d sent", seed, len(got), len(sent))
		}
		switch action {
		case 0:
			if rerr != io.EOF || len(got) != len(sent) {
				t.Fatalf("seed %d: undisturbed read got %d of %d bytes, then %v", seed, len(got), len(sent), rerr)
			}
		case 1:
			if !reader.IsInterrupted() {
				t.Fatalf("seed %d: the interrupt was lost", seed)
			}
			if rerr != io.EOF && !isInterruptClose(rerr) {
				t.Fatalf("seed %d: interrupted read ended with %v", seed, rerr)
			}
		case 2:
			if rerr != io.EOF && !isAsyncClose(rerr) {
				t.Fatalf("seed %d: read closed by another thread ended with %v", seed, rerr)
			}
		}
	}
	if after := openFDs(t); after > before+5 {
		t.Errorf("open file descriptors %d → %d after %d connections", before, after, stressSeeds())
	}
}

// readUntilError returns a task that reads r into buf until a read fails, appending what it
// reads to *got and storing the error in *rerr.
func readUntilError(r net.Conn, buf []byte, got *[]byte, rerr *error) func() {
	return func() {
		for {
			n, err := r.Read(buf)
			*got = append(*got, buf[:n]...)
			if err != nil {
				*rerr = err
				return
			}
		}
	}
}

// A writer blocked on a full socket buffer is interrupted at a random moment while the peer
// drains slowly: the count Write returns is exactly what the peer receives.
func TestStressWriteRacingInterrupt(t *testing.T) {
	s := newScheduler(t, 2)
	seeds := stressSeeds() / 4
	for seed := range seeds {
		rng := rand.New(rand.NewPCG(uint64(seed), 11))
		c1, c2 := tcpPair(t)
		w := vio.WrapConn(c1)
		var n int
		var werr error
		writer := thread.OfVirtual().Scheduler(s).Start(func() { n, werr = w.Write(make([]byte, 8<<20)) })
		received := make(chan int64)
		buf := make([]byte, 1+rng.IntN(64<<10))
		go func() {
			var total int64
			for {
				k, err := c2.Read(buf)
				total += int64(k)
				if err != nil {
					break
				}
			}
			received <- total
		}()
		time.Sleep(time.Duration(rng.IntN(3000)) * time.Microsecond)
		writer.Interrupt()
		if ok, _ := writer.JoinTimeout(30 * time.Second); !ok {
			t.Fatalf("seed %d: writer stuck", seed)
		}
		w.Close()
		got := <-received
		c2.Close()
		if got != int64(n) {
			t.Fatalf("seed %d: Write reported %d bytes (%v), the peer received %d", seed, n, werr, got)
		}
		if werr != nil && !isInterruptClose(werr) || !writer.IsInterrupted() {
			t.Fatalf("seed %d: Write ended with %v, status %v", seed, werr, writer.IsInterrupted())
		}
	}
}

// A receiver takes values from an unbuffered channel with vio.Recv while it is interrupted at
// random: every interrupted Recv takes nothing, so the values arrive exactly once, in order.
func TestStressRecvRacingInterruptsLosesNothing(t *testing.T) {
	s := newScheduler(t, 2)
	const n = 2000
	ch := make(chan int)
	var got []int
	interrupted := 0
	receiver := thread.OfVirtual().Scheduler(s).Start(func() {
		for len(got) < n {
			v, _, err := vio.Recv(ch)
			if errors.Is(err, thread.ErrInterrupted) {
				interrupted++
				continue
			}
			got = append(got, v)
		}
	})
	sender := thread.OfVirtual().Scheduler(s).Start(func() {
		for i := range n {
			for vio.Send(ch, i) != nil {
			}
		}
	})
	rng := rand.New(rand.NewPCG(1, 2))
	for receiver.IsAlive() {
		receiver.Interrupt()
		time.Sleep(time.Duration(rng.IntN(100)) * time.Microsecond)
	}
	sender.Join()
	for i, v := range got {
		if v != i {
			t.Fatalf("value %d arrived as %d: lost or duplicated (%d interrupted receives)", i, v, interrupted)
		}
	}
	if interrupted == 0 {
		t.Log("no receive was interrupted this run")
	}
}

// An acceptor blocked in Accept is interrupted while a client connects: it either accepts the
// connection or fails with ErrClosedByInterrupt, and never hangs.
func TestStressAcceptRacingInterrupt(t *testing.T) {
	s := newScheduler(t, 2)
	for seed := range stressSeeds() / 4 {
		rng := rand.New(rand.NewPCG(uint64(seed), 13))
		l, err := vio.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		var c net.Conn
		var aerr error
		acceptor := thread.OfVirtual().Scheduler(s).Start(func() { c, aerr = l.Accept() })
		dialAfter := time.Duration(rng.IntN(1000)) * time.Microsecond
		var dialer sync.WaitGroup
		dialer.Go(func() {
			time.Sleep(dialAfter)
			if d, err := net.Dial("tcp", l.Addr().String()); err == nil {
				d.Close()
			}
		})
		time.Sleep(time.Duration(rng.IntN(1000)) * time.Microsecond)
		acceptor.Interrupt()
		if ok, _ := acceptor.JoinTimeout(30 * time.Second); !ok {
			t.Fatalf("seed %d: acceptor stuck", seed)
		}
		if c != nil {
			c.Close()
		} else if !isInterruptClose(aerr) {
			t.Fatalf("seed %d: Accept failed with %v", seed, aerr)
		}
		l.Close()
		dialer.Wait() // a dial that raced the close ends at once (refused or accepted by the backlog)
	}
}
