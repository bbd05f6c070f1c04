package thread_test

import (
	"errors"
	"fmt"
	"regexp"
	"time"

	"github.com/loomgo/loom/thread"
)

// Thread.startVirtualThread(() -> System.out.println("hello")).join();
func ExampleStartVirtualThread() {
	t := thread.StartVirtualThread(func() {
		fmt.Println("hello from a virtual thread:", thread.Current().IsVirtual())
	})
	t.Join()
	// Output: hello from a virtual thread: true
}

// Thread.ofVirtual().name("worker-", 0).start(task) — builders and factories.
func ExampleOfVirtual() {
	b := thread.OfVirtual().NameCounter("worker-", 0)
	var ts []*thread.Thread
	for range 3 {
		ts = append(ts, b.Start(func() {}))
	}
	for _, t := range ts {
		t.Join()
		fmt.Println(t.Name(), t.State())
	}
	// Output:
	// worker-0 TERMINATED
	// worker-1 TERMINATED
	// worker-2 TERMINATED
}

// Three virtual threads sleeping 100 ms on one carrier take about 100 ms, not 300: a sleeping
// virtual thread gives its carrier back.
func ExampleNewScheduler() {
	s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 1})
	defer s.Close()
	start := time.Now()
	var ts []*thread.Thread
	for range 3 {
		ts = append(ts, thread.OfVirtual().Scheduler(s).Start(func() { thread.Sleep(100 * time.Millisecond) }))
	}
	for _, t := range ts {
		t.Join()
	}
	fmt.Println("took less than 300ms:", time.Since(start) < 280*time.Millisecond)
	// Output: took less than 300ms: true
}

// A virtual thread prints as the JDK prints it: mounted on a carrier while it runs, unmounted
// while it is parked.
func ExampleThread_String() {
	s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 1})
	defer s.Close()
	shape := regexp.MustCompile(`#\d+`)
	var running string
	t := thread.OfVirtual().Scheduler(s).Name("fred").Start(func() {
		running = thread.Current().String()
		thread.Park()
	})
	for t.State() != thread.Waiting {
		time.Sleep(time.Millisecond)
	}
	parked := t.String()
	thread.Unpark(t)
	t.Join()
	p := regexp.MustCompile(`ForkJoinPool-\d+`)
	fmt.Println(p.ReplaceAllString(shape.ReplaceAllString(running, "#N"), "ForkJoinPool-P"))
	fmt.Println(shape.ReplaceAllString(parked, "#N"))
	fmt.Println(shape.ReplaceAllString(t.String(), "#N"))
	// Output:
	// VirtualThread[#N,fred]/runnable@ForkJoinPool-P-worker-1
	// VirtualThread[#N,fred]/waiting
	// VirtualThread[#N,fred]/terminated
}

// LockSupport.park/unpark: an unpark before park is remembered (one permit).
func ExampleUnpark() {
	t := thread.StartVirtualThread(func() {
		thread.Unpark(thread.Current()) // permit available
		thread.Park()                   // returns at once
		fmt.Println("park returned")
	})
	t.Join()
	// Output: park returned
}

// Interrupting a sleeping thread: Sleep returns ErrInterrupted and the status is cleared.
func ExampleThread_Interrupt() {
	t := thread.StartVirtualThread(func() {
		err := thread.Sleep(time.Hour)
		fmt.Println(err, thread.Current().IsInterrupted())
	})
	for t.State() != thread.TimedWaiting {
		time.Sleep(time.Millisecond)
	}
	t.Interrupt()
	t.Join()
	// Output: thread: interrupted false
}

// Java 21 pinning: with thread.Native (a native frame) a sleeping virtual thread keeps its
// carrier, and the scheduler reports the pinned park.
func ExampleNative() {
	s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 1, OnPinned: func(e thread.PinnedEvent) {
		fmt.Println("pinned:", e.Reason, e.BlockingOperation)
	}})
	defer s.Close()
	t := thread.OfVirtual().Scheduler(s).Start(func() {
		thread.Native(func() { thread.Sleep(30 * time.Millisecond) })
	})
	t.Join()
	// Output: pinned: NATIVE LockSupport.park
}

// Platform threads own an OS thread; past the process's limit, starting one fails cleanly
// (Java: OutOfMemoryError: unable to create native thread).
func ExampleThread_TryStart() {
	thread.SetPlatformThreadLimit(thread.PlatformThreads() + 1) // room for one more
	defer thread.SetPlatformThreadLimit(0)                      // back to the OS-derived limit
	first := thread.OfPlatform().Start(func() { thread.Sleep(50 * time.Millisecond) })
	second := thread.OfPlatform().Unstarted(func() {})
	err := second.TryStart()
	fmt.Println(errors.Is(err, thread.ErrThreadLimit), second.State())
	first.Join()
	// Output: true TERMINATED
}
