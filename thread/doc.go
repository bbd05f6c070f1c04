// Package thread ports java.lang.Thread, Thread.Builder and LockSupport: virtual threads that run
// M:N on a pool of carriers, platform threads that own an OS thread, and the one blocking
// primitive (Park/Unpark) that every other loom package waits with.
//
// # Virtual threads
//
// A virtual thread is started by [StartVirtualThread], [OfVirtual] or a [Factory]. It runs only
// while it holds one of its [Scheduler]'s carriers (Parallelism of them, default GOMAXPROCS),
// named as the JDK names them, "ForkJoinPool-1-worker-1". Like the JDK's, it is a continuation:
// it runs on a coroutine ([iter.Pull]) that its carrier resumes. When it blocks in loom —
// [Sleep], [Thread.Join], [Park], a lock, a queue, a future — it unmounts: the coroutine yields
// back to the carrier, which runs the next queued virtual thread, and it re-mounts, possibly on
// another carrier, when it is woken. Runnable
// virtual threads take carriers in FIFO order. There is no time slicing: a virtual thread that
// computes without blocking keeps its carrier until it blocks, calls [Yield], or ends, as in Java.
//
// A virtual thread that has been started but has not run yet costs no goroutine: a carrier runs
// its task on a coroutine that runs the next such tasks after it, and only a task that blocks
// keeps a coroutine (the one it started on). A burst of a million short tasks therefore costs
// about what a worker pool costs. A virtual thread may call [runtime.LockOSThread] only inside
// [Native]: see there.
//
// Go's own blocking (channel operations, [sync.Mutex], [time.Sleep], syscalls) made on a virtual
// thread holds its carrier, as a Java virtual thread pinned by a native frame does. Wrap such
// calls in [Blocking] to run them unmounted, or use package vio, whose sockets, HTTP client and
// server, files, processes and channel waits unmount by themselves.
//
// # Pinning
//
// A virtual thread that blocks while pinned keeps its carrier, exactly like a platform thread.
// What pins is a scheduler setting, [SchedulerOptions.Pinning]: [PinNone] (the default, Java 24+,
// JEP 491: monitors do not pin) or [PinSynchronized] (Java 21-23: blocking while holding a
// locks.Monitor, or while entering one, pins; Monitor.Wait pins but the scheduler compensates with
// a temporary carrier, up to MaxPoolSize). Code inside [Native] is always pinned. Pinned parks
// longer than a threshold are reported as [PinnedEvent]s, like JFR's jdk.VirtualThreadPinned.
//
// # Execution traces
//
// While Go's execution tracer is on (runtime/trace.Start, `go test -trace`, a
// [trace.FlightRecorder]), each virtual thread is a task of the trace named as the thread
// ("VirtualThread[#21,name]"), and its start, end, parks (log loom.park, region loom.unmounted),
// mounts (log loom.mount), pinned parks (region and log loom.pinned) and refused starts (log
// loom.submitFailed) are annotated, as JFR records jdk.VirtualThreadStart, End, Pinned and
// SubmitFailed; open the trace with `go tool trace`. With tracing off this costs one
// [trace.IsEnabled] check per hook and no allocation.
//
// # Platform threads
//
// A platform thread, from [OfPlatform], is a goroutine locked to its own OS thread for its whole
// life, so it costs what a Java platform thread costs. Starting one past
// [PlatformThreadLimit] fails with [ErrThreadLimit] rather than letting the Go runtime abort the
// process. Virtual threads inside [Blocking] that have given their carrier back count against
// the same limit (each may hold an OS thread in a syscall); past it, Blocking keeps the carrier.
// [AwaitNonDaemon] waits for non-daemon platform threads as the JVM does before exiting.
//
// # Goroutines loom did not start
//
// [Current] works on any goroutine: one loom did not start is attached to a platform Thread for
// its life (the main goroutine is Thread[#1,main,5,main]), so locks, conditions, queues and
// thread-locals work there too. Go does not say when a goroutine ends, so attachments of ended
// goroutines are found by sweeping the list of live goroutines: the bookkeeping stays bounded,
// [LiveThreads] and the dumps never list an ended goroutine, and [Thread.State], IsAlive and Join
// of an attached Thread see its end within milliseconds, at a bounded cost that [Current]
// spells out. [Detach] ends an attachment at once, for nothing.
//
// # Interrupts
//
// [Thread.Interrupt] sets a thread's interrupt status and wakes it if it is blocked. Blocking
// calls that Java declares as throwing InterruptedException return [ErrInterrupted] and clear
// the status; [Park] returns and leaves it set; uninterruptible waits (Lock, Monitor.Enter) keep
// waiting and leave it set.
//
// # Errors
//
// Blocking calls return errors. Programming errors that Java reports with an unchecked exception
// (starting a thread twice, a negative name counter, SetDaemon(false) on a virtual thread) panic
// with an error that [errors.Is] recognises: [ErrIllegalThreadState], [ErrIllegalArgument],
// [ErrNilArgument].
package thread
