package loom_test

import (
	"errors"
	"fmt"
	"regexp"
	"runtime"
	"strings"
	"sync/atomic"
	"time"

	"github.com/loomgo/loom/executors"
	"github.com/loomgo/loom/locks"
	"github.com/loomgo/loom/queue"
	"github.com/loomgo/loom/scoped"
	"github.com/loomgo/loom/structured"
	"github.com/loomgo/loom/thread"
	"github.com/loomgo/loom/threadlocal"
)

// The API tour: a virtual thread from a builder, named, joined; and a platform thread.
//
//	Thread t = Thread.ofVirtual().name("duke").start(() -> System.out.println("hi"));
//	t.join();
func Example_builders() {
	t := thread.OfVirtual().Name("duke").Start(func() {
		me := thread.Current()
		fmt.Println("hello from", me.Name(), "virtual:", me.IsVirtual())
	})
	if err := t.Join(); err != nil {
		fmt.Println(err)
	}
	fmt.Println(t.State())

	p := thread.OfPlatform().NameCounter("worker-", 0).Unstarted(func() {})
	fmt.Println(p.Name(), p.State(), "virtual:", p.IsVirtual())
	p.Start()
	check(p.Join())
	fmt.Println(p.State())
	// Output:
	// hello from duke virtual: true
	// TERMINATED
	// worker-0 NEW virtual: false
	// TERMINATED
}

// Thread.startVirtualThread and isVirtual; the main goroutine is Java's main thread.
func Example_startVirtualThread() {
	var virtual atomic.Bool
	t := thread.StartVirtualThread(func() { virtual.Store(thread.Current().IsVirtual()) })
	check(t.Join())
	fmt.Println("task ran on a virtual thread:", virtual.Load())
	fmt.Println("t.IsVirtual():", t.IsVirtual())
	fmt.Println("main:", thread.Current(), "virtual:", thread.Current().IsVirtual())
	// Output:
	// task ran on a virtual thread: true
	// t.IsVirtual(): true
	// main: Thread[#1,main,5,main] virtual: false
}

// The executor most Java code moves to: a virtual thread per task, closed with
// try-with-resources (here: Close, which waits for every task).
//
//	try (var executor = Executors.newVirtualThreadPerTaskExecutor()) {
//	    Future<String> f = executor.submit(() -> "done on " + Thread.currentThread().isVirtual());
//	    System.out.println(f.get());
//	}
func Example_executor() {
	es := executors.NewVirtualThreadPerTaskExecutor()
	defer es.Close()
	f, err := executors.Submit(es, func() (string, error) {
		return fmt.Sprint("done on a virtual thread: ", thread.Current().IsVirtual()), nil
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	v, err := f.Get()
	fmt.Println(v, err, f.State())
	// Output:
	// done on a virtual thread: true <nil> SUCCESS
}

// 10,000 tasks that sleep on a fixed pool of 200 platform threads versus a virtual thread per
// task: the pool runs them 200 at a time (50 rounds of sleep), the virtual threads all at once.
// Here with the same 50 rounds at a hundredth of the tasks and a fiftieth of the sleep: 100 tasks
// × 20 ms on a pool of 2.
//
//	try (var executor = Executors.newFixedThreadPool(200)) {   // 50,436 ms
//	try (var executor = Executors.newVirtualThreadPerTaskExecutor()) {  // 1,582 ms
//	    IntStream.range(0, 10_000).forEach(i -> executor.submit(() -> { Thread.sleep(1000); return i; }));
//	}
func Example_fixedPoolVersusVirtualThreads() {
	const tasks, pool, sleep = 100, 2, 20 * time.Millisecond
	run := func(es executors.ExecutorService) time.Duration {
		start := time.Now()
		for range tasks {
			es.Execute(func() { check(thread.Sleep(sleep)) })
		}
		es.Close() // waits for every task
		return time.Since(start)
	}
	fixed := run(executors.NewFixedThreadPool(pool))
	virtual := run(executors.NewVirtualThreadPerTaskExecutor())
	fmt.Println("fixed pool took at least 50 rounds of sleep:", fixed >= tasks/pool*sleep)
	fmt.Println("virtual threads took under 10 rounds:", virtual < 10*sleep)
	fmt.Println("fixed pool at least 5× slower:", fixed > 5*virtual)
	// Output:
	// fixed pool took at least 50 rounds of sleep: true
	// virtual threads took under 10 rounds: true
	// fixed pool at least 5× slower: true
}

// A cached pool starts a platform thread for every task that finds no idle thread. With 10,000
// sleeping tasks Java dies with "OutOfMemoryError: unable to create native thread"; loom refuses
// the thread past its platform thread limit with an error, and the program goes on. The limit
// is lowered to 50 here to show it with 100 tasks.
func Example_cachedPoolThreadLimit() {
	thread.SetPlatformThreadLimit(50)
	defer thread.SetPlatformThreadLimit(0) // back to the limit derived from the OS

	es := executors.NewCachedThreadPool()
	var err error
	submitted := 0
	for range 100 {
		if err = es.Execute(func() { check(thread.Sleep(50 * time.Millisecond)) }); err != nil {
			break
		}
		submitted++
	}
	es.Close()
	fmt.Println("some tasks ran, then a task was refused:", submitted > 0 && submitted <= 50)
	fmt.Println("unable to create native thread:", errors.Is(err, thread.ErrThreadLimit))
	// Output:
	// some tasks ran, then a task was refused: true
	// unable to create native thread: true
}

// 100,000 virtual threads that each sleep 1 s finish in about a second (here 5,000 × 100 ms:
// in a few sleeps' time, not 5,000).
//
//	try (var executor = Executors.newVirtualThreadPerTaskExecutor()) {
//	    IntStream.range(0, 100_000).forEach(i -> executor.submit(() -> { Thread.sleep(Duration.ofSeconds(1)); return i; }));
//	}
func Example_manyVirtualThreads() {
	const n, sleep = 5_000, 100 * time.Millisecond
	var done atomic.Int64
	start := time.Now()
	es := executors.NewVirtualThreadPerTaskExecutor()
	for range n {
		es.Execute(func() {
			check(thread.Sleep(sleep))
			done.Add(1)
		})
	}
	es.Close()
	fmt.Println("done:", done.Load())
	// one after the other they would take 5,000 sleeps; overlapped, about one (the bound is wide
	// so that a loaded machine under the race detector passes too)
	fmt.Println("took under 100 sleeps:", time.Since(start) < 100*sleep)
	// Output:
	// done: 5000
	// took under 100 sleeps: true
}

// The same program on platform threads: each is an OS thread, and the process can have only so
// many at once (thread.PlatformThreadLimit; lowered to 100 here), so a program that starts more
// must wait for some to end — 400 threads × 20 ms take at least 4 rounds.
func Example_platformThreads() {
	thread.SetPlatformThreadLimit(100)
	defer thread.SetPlatformThreadLimit(0)

	var done atomic.Int64
	start := time.Now()
	refused := 0
	for range 400 {
		for {
			t := thread.OfPlatform().Daemon(true).Unstarted(func() {
				check(thread.Sleep(20 * time.Millisecond))
				done.Add(1)
			})
			if err := t.TryStart(); errors.Is(err, thread.ErrThreadLimit) {
				refused++
				check(thread.Sleep(time.Millisecond)) // wait for a thread to end
				continue
			}
			break
		}
	}
	for done.Load() < 400 {
		check(thread.Sleep(time.Millisecond))
	}
	fmt.Println("some starts were refused:", refused > 0)
	fmt.Println("took at least 4 rounds:", time.Since(start) >= 80*time.Millisecond)
	// Output:
	// some starts were refused: true
	// took at least 4 rounds: true
}

// 1,000,000 tasks that return id*2, summed through their futures (here 10,000).
//
//	List<Future<Long>> futures = ...; for (long i = 0; i < 1_000_000; i++) futures.add(executor.submit(() -> i * 2));
func Example_futuresSum() {
	const n = 10_000
	es := executors.NewVirtualThreadPerTaskExecutor()
	defer es.Close()
	futures := make([]executors.Future[int64], n)
	for i := range n {
		futures[i], _ = executors.Submit(es, func() (int64, error) { return int64(i) * 2, nil })
	}
	var sum int64
	for _, f := range futures {
		v, err := f.Get()
		if err != nil {
			fmt.Println(err)
			return
		}
		sum += v
	}
	fmt.Println("sum:", sum)
	// Output:
	// sum: 99990000
}

// What a sleeping thread costs: a virtual thread is a goroutine; a platform thread also has an
// OS thread, with the runtime's per-thread structures and stacks.
func Example_memoryOfSleepingThreads() {
	measure := func(start func(task func()) *thread.Thread) float64 {
		const n = 500
		var asleep atomic.Int64
		before := inUse()
		ths := make([]*thread.Thread, n)
		for i := range ths {
			ths[i] = start(func() { asleep.Add(1); waitForInterrupt() })
		}
		for asleep.Load() < n {
			check(thread.Sleep(time.Millisecond))
		}
		check(thread.Sleep(20 * time.Millisecond)) // let the last ones park
		per := float64(inUse()-before) / n
		for _, t := range ths {
			t.Interrupt() // wakes the sleep with thread.ErrInterrupted
		}
		for _, t := range ths {
			check(t.Join())
		}
		return per
	}
	virtual := measure(thread.StartVirtualThread)
	platform := measure(thread.OfPlatform().Daemon(true).Start)
	fmt.Println("a platform thread costs at least 3× a virtual one:", platform > 3*virtual)
	// Output:
	// a platform thread costs at least 3× a virtual one: true
}

func inUse() int64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapInuse + ms.StackInuse)
}

// Creating threads: a virtual thread is cheap to start, a platform thread needs an OS thread.
// (No Output: a timing on a shared machine; `loom demo -only create` measures 10,000.)
func Example_creatingThreads() {
	const n = 1000
	startAll := func(start func(func()) *thread.Thread) time.Duration {
		t0 := time.Now()
		ths := make([]*thread.Thread, n)
		for i := range ths {
			ths[i] = start(func() {})
		}
		for _, t := range ths {
			check(t.Join())
		}
		return time.Since(t0)
	}
	v := startAll(thread.StartVirtualThread)
	p := startAll(thread.OfPlatform().Daemon(true).Start)
	fmt.Printf("%d virtual threads: %v, %d platform threads: %v\n", n, v, n, p)
}

// One carrier, three virtual threads that each sleep 100 ms: they take about 100 ms in all, not
// 300, because a sleeping virtual thread gives its carrier back; all run on worker-1.
//
//	-Djdk.virtualThreadScheduler.parallelism=1   // 156 ms, all on ForkJoinPool-1-worker-1
func Example_oneCarrier() {
	s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 1})
	defer s.Close()
	var carriers [3]string
	start := time.Now()
	var ths []*thread.Thread
	for i := range 3 {
		ths = append(ths, thread.OfVirtual().Scheduler(s).Start(func() {
			check(thread.Sleep(100 * time.Millisecond))
			c := thread.Current().Carrier() // "ForkJoinPool-N-worker-1"
			carriers[i] = c[strings.LastIndex(c, "-worker")+1:]
		}))
	}
	for _, t := range ths {
		check(t.Join())
	}
	fmt.Println("took under 300ms (not 3 x 100):", time.Since(start) < 280*time.Millisecond)
	fmt.Println("carriers:", carriers)
	// Output:
	// took under 300ms (not 3 x 100): true
	// carriers: [worker-1 worker-1 worker-1]
}

// Thread.toString of a virtual thread names its carrier; after a sleep the thread may resume
// on another one.
//
//	VirtualThread[#21]/runnable@ForkJoinPool-1-worker-1
//	VirtualThread[#21]/runnable@ForkJoinPool-1-worker-3
func Example_carrierHopping() {
	format := regexp.MustCompile(`^VirtualThread\[#\d+\]/runnable@ForkJoinPool-\d+-worker-\d+$`)
	var before, after string
	check(thread.StartVirtualThread(func() {
		before = thread.Current().String()
		check(thread.Sleep(10 * time.Millisecond))
		after = thread.Current().String()
	}).Join())
	fmt.Println("before:", format.MatchString(before))
	fmt.Println("after: ", format.MatchString(after))
	// Output:
	// before: true
	// after:  true
}

// A ThreadLocal set in two virtual threads and in main: each sees only its own value, and main
// sees none (Java's null; Go's zero value) before it sets one.
func Example_threadLocal() {
	tl := threadlocal.New[string]()
	fmt.Printf("main first: %q\n", tl.Get())
	seen := make([]string, 2)
	var ths []*thread.Thread
	for i, name := range []string{"one", "two"} {
		ths = append(ths, thread.StartVirtualThread(func() {
			tl.Set(name)
			check(thread.Sleep(10 * time.Millisecond)) // unmounts; the value stays with the thread
			seen[i] = tl.Get()
		}))
	}
	tl.Set("main")
	for _, t := range ths {
		check(t.Join())
	}
	fmt.Println("threads:", seen)
	fmt.Println("main:", tl.Get())
	// Output:
	// main first: ""
	// threads: [one two]
	// main: main
}

// The Go tour's first goroutine program with virtual threads. On one carrier, with
// thread.Yield where the original sleeps, the two threads take turns deterministically (the
// original's interleaving depends on the timers).
//
//	func say(s string) { for i := 0; i < 5; i++ { time.Sleep(100 * time.Millisecond); fmt.Println(s) } }
//	go say("world"); say("hello")
func Example_sayHelloWorld() {
	s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 1})
	defer s.Close()
	say := func(w string) {
		for range 5 {
			thread.Yield() // the original sleeps 100 ms
			fmt.Println(w)
		}
	}
	// "main" runs on the scheduler too, so that the two share the one carrier
	check(thread.OfVirtual().Scheduler(s).Start(func() {
		world := thread.StartVirtualThread(func() { say("world") }) // inherits main's scheduler
		say("hello")
		check(world.Join()) // the Go original may exit before the last "world"
	}).Join())
	// Output:
	// hello
	// world
	// hello
	// world
	// hello
	// world
	// hello
	// world
	// hello
	// world
}

// The Go tour's channel program with a SynchronousQueue (an unbuffered channel): two virtual
// threads sum the halves of a slice and hand over their sums.
//
//	c := make(chan int); go sum(s[:len(s)/2], c); go sum(s[len(s)/2:], c); x, y := <-c, <-c
func Example_queueSum() {
	s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 1}) // FIFO: the first fork runs first
	defer s.Close()
	q := queue.NewSynchronousQueue[int](true)
	sum := func(s []int) {
		total := 0
		for _, v := range s {
			total += v
		}
		check(q.Put(total)) // waits for the taker, as c <- sum does
	}
	nums := []int{7, 2, 8, -9, 4, 0}
	b := thread.OfVirtual().Scheduler(s)
	b.Start(func() { sum(nums[:len(nums)/2]) })
	b.Start(func() { sum(nums[len(nums)/2:]) })
	x, err := q.Take()
	check(err)
	y, err := q.Take()
	check(err)
	fmt.Println(x, y, x+y)
	// Output:
	// 17 -5 12
}

// Pinning, the experiment that made Java 21 programmers replace synchronized with ReentrantLock:
// on one carrier, four virtual threads each sleep inside a synchronized block of their own.
// Under Java 21 rules (PinSynchronized) a thread sleeping inside a monitor keeps the carrier, so
// they run one after the other; under Java 24+ rules (PinNone, the default), or with a
// ReentrantLock, they overlap. Java: 831 vs 200 ms (21), 213 vs 200 ms (25) for 200 ms sleeps;
// here 100 ms.
func Example_pinning() {
	const sleep = 100 * time.Millisecond
	run := func(mode thread.PinningMode, critical func(func())) time.Duration {
		s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 1, MaxPoolSize: 1, Pinning: mode})
		defer s.Close()
		start := time.Now()
		var ths []*thread.Thread
		for range 4 {
			ths = append(ths, thread.OfVirtual().Scheduler(s).Start(func() {
				critical(func() { check(thread.Sleep(sleep)) })
			}))
		}
		for _, t := range ths {
			check(t.Join())
		}
		return time.Since(start)
	}
	synchronized := func(fn func()) {
		var m locks.Monitor // synchronized (new Object()) { ... }
		m.Synchronized(fn)
	}
	reentrantLock := func(fn func()) {
		var l locks.ReentrantLock
		l.Lock()
		defer l.Unlock()
		fn()
	}
	fmt.Println("Java 21, synchronized:  4 sleeps in turn:", run(thread.PinSynchronized, synchronized) >= 4*sleep)
	fmt.Println("Java 21, ReentrantLock: overlapped:", run(thread.PinSynchronized, reentrantLock) < 2*sleep)
	fmt.Println("Java 24, synchronized:  overlapped:", run(thread.PinNone, synchronized) < 2*sleep)
	// Output:
	// Java 21, synchronized:  4 sleeps in turn: true
	// Java 21, ReentrantLock: overlapped: true
	// Java 24, synchronized:  overlapped: true
}

// 100 virtual threads that each sleep 50 ms inside synchronized, on one carrier, under Java 24+
// rules: the monitors do not pin, so one carrier runs them all in about 50 ms (Java 25: 59 ms).
func Example_synchronizedHundredOnOneCarrier() {
	s := thread.NewScheduler(thread.SchedulerOptions{Parallelism: 1, MaxPoolSize: 1}) // PinNone
	defer s.Close()
	start := time.Now()
	var ths []*thread.Thread
	for range 100 {
		ths = append(ths, thread.OfVirtual().Scheduler(s).Start(func() {
			var m locks.Monitor
			m.Synchronized(func() { check(thread.Sleep(50 * time.Millisecond)) })
		}))
	}
	for _, t := range ths {
		check(t.Join())
	}
	fmt.Println("took under 500ms (not 5 s):", time.Since(start) < 500*time.Millisecond)
	fmt.Println("carriers used:", s.Stats().PeakPoolSize)
	// Output:
	// took under 500ms (not 5 s): true
	// carriers used: 1
}

// A StructuredTaskScope (Java 21's ShutdownOnFailure) with a fork that fails after 100 ms and
// one that would take 2 s: the failure cancels the scope, which interrupts the slow fork, and
// Join fails at once (Java: 143 ms).
func Example_structuredFailFast() {
	start := time.Now()
	s := structured.Open()
	defer s.Close()
	slow := structured.Fork(s, func() (string, error) {
		if err := thread.Sleep(2 * time.Second); err != nil {
			fmt.Println("slow fork:", err)
			return "", err
		}
		return "slow result", nil
	})
	structured.Fork(s, func() (string, error) {
		if err := thread.Sleep(100 * time.Millisecond); err != nil {
			return "", err
		}
		return "", errors.New("inventory service down")
	})
	_, err := s.Join()
	fmt.Println("join:", err)
	fmt.Println("slow fork state:", slow.State())
	fmt.Println("took under a second:", time.Since(start) < time.Second)
	// Output:
	// slow fork: thread: interrupted
	// join: structured: scope failed: inventory service down
	// slow fork state: UNAVAILABLE
	// took under a second: true
}

// A first-success scope (Java 21's ShutdownOnSuccess) over three sources that answer in 300, 50
// and 150 ms: the cache wins and the others are cancelled.
func Example_structuredFirstSuccess() {
	s := structured.OpenWith(structured.AnySuccessfulResultOrThrow[string]())
	defer s.Close()
	for _, src := range []struct {
		name string
		d    time.Duration
	}{{"database", 300 * time.Millisecond}, {"cache", 50 * time.Millisecond}, {"replica", 150 * time.Millisecond}} {
		structured.Fork(s, func() (string, error) {
			if err := thread.Sleep(src.d); err != nil {
				return "", err // cancelled: interrupted
			}
			return src.name, nil
		})
	}
	winner, err := s.Join()
	fmt.Println(winner, err)
	// Output:
	// cache <nil>
}

// ScopedValue: a binding visible for the extent of a call, and to the forks of a scope opened
// inside it.
//
//	ScopedValue.where(USER, "duke").run(() -> ... USER.get() ...);
func Example_scopedValue() {
	user := scoped.NewInstance[string]()
	scoped.Where(user, "duke").Run(func() {
		fmt.Println("in the call:", user.Get())
		s := structured.Open()
		defer s.Close()
		fork := structured.Fork(s, func() (string, error) { return user.Get(), nil })
		_, err := s.Join()
		check(err)
		fmt.Println("in a fork:", fork.Get())
	})
	fmt.Println("bound after the call:", user.IsBound())
	// Output:
	// in the call: duke
	// in a fork: duke
	// bound after the call: false
}

// Interrupting a sleeping virtual thread, as Java's t.interrupt(): Sleep returns
// thread.ErrInterrupted (InterruptedException) and the thread's state shows where it was.
func Example_interrupt() {
	asleep := make(chan struct{})
	t := thread.StartVirtualThread(func() {
		close(asleep)
		err := thread.Sleep(time.Hour)
		fmt.Println("sleep returned:", err, errors.Is(err, thread.ErrInterrupted))
	})
	<-asleep
	for t.State() != thread.TimedWaiting {
		check(thread.Sleep(time.Millisecond))
	}
	fmt.Println("state while sleeping:", t.State())
	t.Interrupt()
	check(t.Join())
	fmt.Println("state after:", t.State())
	// Output:
	// state while sleeping: TIMED_WAITING
	// sleep returned: thread: interrupted true
	// state after: TERMINATED
}

// A CompletableFuture pipeline: two lookups run concurrently on virtual threads, their results
// combine, and a transformation follows.
//
//	var price = CompletableFuture.supplyAsync(() -> fetchPrice("loom"));
//	var rate = CompletableFuture.supplyAsync(() -> fetchRate("EUR"));
//	var total = price.thenCombine(rate, (p, r) -> p * r).thenApply(t -> String.format("%.2f EUR", t));
//	System.out.println(total.join());
func Example_completableFuture() {
	price := executors.SupplyAsync(func() (float64, error) {
		if err := thread.Sleep(20 * time.Millisecond); err != nil { // a remote call
			return 0, err
		}
		return 40, nil
	})
	rate := executors.SupplyAsync(func() (float64, error) {
		if err := thread.Sleep(20 * time.Millisecond); err != nil {
			return 0, err
		}
		return 0.5, nil
	})
	euros := executors.ThenCombine(price, rate, func(p, r float64) (float64, error) { return p * r, nil })
	text := executors.ThenApply(euros, func(t float64) (string, error) { return fmt.Sprintf("%.2f EUR", t), nil })
	fmt.Println(text.Join())
	// Output:
	// 20.00 EUR <nil>
}

// check does for an example what "throws InterruptedException" on Java's main does: nothing
// interrupts an example's threads, and if something did, the example should fail loudly rather
// than go on as if the wait had happened.
func check(err error) {
	if err != nil {
		panic(err)
	}
}

// waitForInterrupt sleeps until the thread is interrupted, as a Java task that sleeps in a loop
// and returns from its catch (InterruptedException e) does.
func waitForInterrupt() {
	for thread.Sleep(time.Hour) == nil {
	}
}
