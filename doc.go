// Package loom ports the Java 21–25 threading API — Project Loom's virtual threads, and the
// java.util.concurrent executors, locks, queues, ThreadLocal, ScopedValue and
// StructuredTaskScope built around them — to Go, faithfully: the names, the thread states, the
// interrupts, the timeouts, the pinning rules and the timing behaviour a Java programmer relies
// on hold here too, in idiomatic Go (errors instead of checked exceptions, generics, defer,
// [iter.Seq], context).
//
// This package holds no code: it is the map. The API lives in the packages below, and the
// examples of this package port the programs that articles about virtual threads run (go test
// -run Example . runs them; go run ./cmd/loom demo runs them at full scale beside Java's
// published figures).
//
// # The model
//
// A virtual thread is a continuation, as in Java: a coroutine ([iter.Pull]) that may execute only
// while one of its scheduler's carriers (GOMAXPROCS of them by default, named like the JDK's
// ForkJoinPool-1-worker-1) resumes it. When it blocks through loom — thread.Sleep, Join, a lock,
// a condition, a queue, a future, a monitor wait — it unmounts: it yields its carrier so another
// virtual thread can run, and re-mounts, possibly on another carrier, when it is unparked.
// Runnable virtual threads wait in FIFO order. A virtual thread that has started but not yet run
// costs no goroutine, and virtual threads whose tasks never block run one after another on the
// same coroutine.
//
// A platform thread is a goroutine locked to an OS thread of its own ([runtime.LockOSThread]), so
// it costs what a Java platform thread costs. The Go runtime aborts the process when it needs
// more OS threads than debug.SetMaxThreads allows; loom refuses a platform thread past
// thread.PlatformThreadLimit with thread.ErrThreadLimit instead, a recoverable error where Java
// throws "OutOfMemoryError: unable to create native thread".
//
// Every loom blocking operation ends in one primitive, thread.Park / thread.Unpark (Java's
// LockSupport), so unmounting, interrupts, timeouts, thread states and pinning are implemented
// once and behave the same in every package. thread.Current works on any goroutine: one that
// loom did not start is attached to a platform Thread (the main goroutine is
// Thread[#1,main,5,main]).
//
// # Java → Go
//
//	Java                                            loom
//	Thread.ofVirtual().name("w").start(r)           thread.OfVirtual().Name("w").Start(r)
//	Thread.ofPlatform().daemon().unstarted(r)       thread.OfPlatform().Daemon(true).Unstarted(r)
//	Thread.startVirtualThread(r)                    thread.StartVirtualThread(r)
//	Thread.currentThread()                          thread.Current()
//	t.join() / t.join(Duration)                     t.Join() / t.JoinTimeout(d)
//	t.interrupt() / Thread.interrupted()            t.Interrupt() / thread.Interrupted()
//	Thread.sleep(ms)                                thread.Sleep(d)            (returns thread.ErrInterrupted)
//	t.isVirtual() / t.getState() / t.threadId()     t.IsVirtual() / t.State() / t.ThreadID()
//	LockSupport.park / parkNanos / unpark           thread.Park / thread.ParkNanos / thread.Unpark
//	Executors.newVirtualThreadPerTaskExecutor()     executors.NewVirtualThreadPerTaskExecutor()
//	Executors.newFixedThreadPool(n)                 executors.NewFixedThreadPool(n)
//	executor.submit(callable).get()                 f, _ := executors.Submit(es, task); f.Get()
//	try (var es = ...) { ... }                      defer es.Close()
//	CompletableFuture.supplyAsync(s).thenApply(f)   executors.ThenApply(executors.SupplyAsync(task), fn)
//	new ReentrantLock() / lock.newCondition()       var l locks.ReentrantLock / l.NewCondition()
//	synchronized (this) { ... wait(); notify() }    var m locks.Monitor; m.Synchronized(func() { m.Wait(); m.Notify() })
//	new Semaphore(n) / new CountDownLatch(n)        locks.NewSemaphore(n, false) / locks.NewCountDownLatch(n)
//	new CyclicBarrier(n, action)                    locks.NewCyclicBarrier(n, action)
//	new Phaser(n) / new Exchanger<>() / StampedLock locks.NewPhaser(n) / locks.Exchanger[T] / locks.StampedLock
//	ForkJoinPool.commonPool().invoke(recursiveTask) forkjoin.Invoke(forkjoin.CommonPool(), forkjoin.NewRecursiveTask(f))
//	new ArrayBlockingQueue<>(n) put/take            queue.NewArrayBlockingQueue[T](n, false) Put/Take
//	new SynchronousQueue<>()                        queue.NewSynchronousQueue[T](false)
//	ThreadLocal.withInitial(s)                      threadlocal.WithInitial(s)
//	ScopedValue.where(k, v).run(op)                 scoped.Where(k, v).Run(op)
//	StructuredTaskScope.open() / fork / join        structured.Open() / structured.Fork(s, f) / s.Join()
//	jcmd <pid> Thread.dump_to_file -format=json     thread.DumpThreads(w, thread.DumpJSON)
//	ThreadMXBean.findDeadlockedThreads()            thread.FindDeadlocked()
//	InterruptedException                            thread.ErrInterrupted
//	RejectedExecutionException                      executors.ErrRejected
//	ExecutionException (getCause)                   *executors.ExecutionError (errors.Unwrap)
//	IllegalMonitorStateException                    panic wrapping locks.ErrIllegalMonitorState
//	new ServerSocket(port).accept() / Socket        vio.Listen(net, addr) / l.Accept() / vio.Dial(net, addr)
//	HttpClient.send / HttpServer (thread/request)   http.Client{Transport: vio.Transport(nil)} / vio.ListenAndServe(addr, h)
//	FileChannel / Process.waitFor                   vio.Open(name) / vio.Run(cmd)
//	ClosedByInterruptException                      vio.ErrClosedByInterrupt
//
// The README has the full cheat sheet, one row per Java method.
//
// # Pinning
//
// A virtual thread that blocks while pinned keeps its carrier, as a platform thread would. What
// pins is a scheduler setting, so a program can be run under either JDK generation's rules:
//
//   - thread.PinNone (the default; Java 24+, JEP 491): monitors (locks.Monitor, Java's
//     synchronized) do not pin. Only thread.Native pins.
//   - thread.PinSynchronized (Java 21–23): a virtual thread that parks while holding a
//     monitor, or while blocked entering one, keeps its carrier; Monitor.Wait keeps it too, but
//     the scheduler compensates with a temporary extra carrier, up to MaxPoolSize.
//
// Code inside thread.Native(fn) is always pinned (Java's native frames). Every pinned park that
// lasts at least PinnedThreshold (20 ms, as JFR) is counted in Stats().PinnedEvents, reported to
// SchedulerOptions.OnPinned (the JFR event jdk.VirtualThreadPinned), and printed when
// TracePinned is "short" or "full" (-Djdk.tracePinnedThreads).
//
// Go's own blocking calls — channel operations, [sync.Mutex], [time.Sleep], syscalls, a plain
// [net.Conn] — made on a virtual thread also hold the carrier, because Go cannot unmount a
// goroutine it does not control. Package vio gives sockets, HTTP, files, processes, channels and
// contexts that unmount by themselves, as the JDK's I/O does on virtual threads; for anything
// else, thread.Blocking(fn) gives the carrier back while fn runs (the ForkJoinPool's managed
// blocker). The scheduler's watchdog (SchedulerOptions.WatchdogThreshold, -Dloom.watchdog=100ms)
// finds such calls: it reports them as pinned events with reason NATIVE_BLOCKING (printed by
// -Djdk.tracePinnedThreads), and can lend a temporary carrier meanwhile.
//
// # Configuring the scheduler
//
// The default scheduler is configured on first use from the environment variable LOOM_OPTS,
// which takes the JDK's system properties:
//
//	LOOM_OPTS="-Djdk.virtualThreadScheduler.parallelism=1 -Djdk.virtualThreadScheduler.maxPoolSize=8 \
//	           -Djdk.tracePinnedThreads=short -Dloom.pinning=synchronized -Dloom.pinnedThreshold=20ms \
//	           -Dloom.watchdog=100ms -Dloom.watchdogCompensate=true -Dloom.profilerLabels=true"
//
// (see thread.DefaultScheduler). A program can also make schedulers of its own with
// thread.NewScheduler(thread.SchedulerOptions{Parallelism: 1, Pinning: thread.PinSynchronized})
// and run virtual threads on one with thread.OfVirtual().Scheduler(s); Close them when done.
//
// # Packages
//
//   - [github.com/loomgo/loom/thread]: Thread, the builders, Sleep, Join, interrupts, Park and
//     Unpark, schedulers, pinning, platform thread limits, thread dumps and deadlock detection.
//   - [github.com/loomgo/loom/executors]: ExecutorService, Future, the thread-per-task, fixed,
//     cached, single and scheduled executors, ThreadPoolExecutor, InvokeAll/InvokeAny,
//     ExecutorCompletionService and CompletableFuture.
//   - [github.com/loomgo/loom/locks]: ReentrantLock, Condition, ReentrantReadWriteLock,
//     Semaphore, CountDownLatch, CyclicBarrier and Monitor (synchronized, wait, notify).
//   - [github.com/loomgo/loom/queue]: the BlockingQueue implementations (array, linked, deque,
//     priority, delay, synchronous, transfer).
//   - [github.com/loomgo/loom/threadlocal]: ThreadLocal and InheritableThreadLocal.
//   - [github.com/loomgo/loom/scoped]: ScopedValue (JEP 506).
//   - [github.com/loomgo/loom/structured]: StructuredTaskScope (JEP 505) and its joiners.
//   - [github.com/loomgo/loom/vio]: blocking I/O that unmounts — sockets, listeners, UDP, HTTP
//     client and thread-per-request server, files, processes, channels and contexts.
//   - cmd/loom: the demo (the classic experiments beside Java's figures) and the benchmarks.
//
// # Limitations
//
// Virtual threads are not preempted and have no time slices (as in Java): a virtual thread that
// computes without blocking keeps its carrier until it blocks, yields or ends. Go-native blocking
// holds the carrier (see Pinning). Goroutine identity comes from
// github.com/petermattis/goid, checked against [runtime.Stack] at start-up, with a slower fallback
// if they disagree.
package loom
