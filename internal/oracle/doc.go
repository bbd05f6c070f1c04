// Package oracle is loom's differential behaviour oracle: every scenario is written twice, once in
// Java against the JDK (java/*.java) and once in Go against loom (*_test.go), each writes a
// canonical log of what it observed, and TestOracle compares the two logs line by line. The
// package has no code of its own, only tests.
//
// # Running it
//
//	go test ./internal/oracle/...                         # every scenario
//	go test ./internal/oracle/... -run 'TestOracle/cf_'   # the CompletableFuture ones (all still run; only those are compared)
//
// It needs a JDK 21 or newer (found by [github.com/loomgo/loom/internal/jdk]: $JAVA_HOME, then
// /usr/lib/jvm/*, then java on $PATH); without one TestOracle skips, saying why — its only skip.
// The Java half is compiled once with javac into a temporary directory and runs in ONE JVM that
// prints a "== name" section per scenario; the Go half runs in the test process meanwhile, each
// scenario on a fresh platform thread named "scenario" (the Java half does the same). Both run
// with one carrier (-Djdk.virtualThreadScheduler.parallelism=1, and the same string in LOOM_OPTS),
// so virtual threads run in the same order on both sides. The whole run takes seconds.
//
// # What a scenario logs
//
// Thread states at fixed points, which exception or error each call ends with, the interrupt
// status after it, the order in which waiters are served, which subtasks a scope cancels, the
// scoped-value bindings forks see, toString with thread ids and pool numbers masked, and so on.
// Exceptions are written as the Java exception loom's error ports, by its simple name, through
// the table in exceptions_test.go (thread.ErrInterrupted is InterruptedException, a
// *executors.ExecutionError is ExecutionException(cause), ...).
//
// Scenarios are timing-free: they synchronise with latches and by polling thread states or queue
// lengths, never with a sleep that decides an outcome; a timed call is only ever asked to time out
// when nothing could satisfy it. Only the scenario thread writes to the log while other threads
// may run; a thread it started records its outcome and the scenario thread logs it after a join.
//
// # Divergences
//
// A scenario whose logs differ fails TestOracle with the two logs side by side (- java, + loom).
// Known divergences — behaviour loom gets wrong that is being fixed elsewhere — are listed in
// known_test.go, each with the entry in DIVERGENCES.md that shows both logs and names the package
// at fault; they are logged, not failed, and a listed scenario that starts agreeing with Java
// fails until it is taken off the list.
//
// # Coverage
//
// Threads and builders, interrupts, LockSupport (threads_test.go); ReentrantLock, Condition,
// ReentrantReadWriteLock (locks_test.go); monitors, Semaphore, CountDownLatch, CyclicBarrier
// (sync_test.go); every blocking queue (queues_test.go); executors, futures, FutureTask,
// invokeAll/invokeAny, scheduled executors, the completion service (executors_test.go);
// CompletableFuture (futures_test.go), and its async, either and both stages, timeouts, copies
// and minimal stages (completion_test.go); StructuredTaskScope and its joiners, JDK 25's preview API
// (structured_test.go); ScopedValue (scoped_test.go); ThreadLocal and InheritableThreadLocal
// (threadlocal_test.go); socket I/O on virtual threads, package vio against java.net.Socket,
// ServerSocket and SocketChannel: states while blocked, interrupts, timeouts, close, a
// thread-per-connection server on one carrier (vio_test.go).
package oracle
