// Package structured ports java.util.concurrent.StructuredTaskScope as JDK 25 shapes it (JEP
// 505): structured concurrency, where a task splits into concurrent subtasks that all finish
// before the task goes on, so that errors and cancellation flow along the structure of the code.
//
// The owner thread opens a [Scope], forks subtasks into it with [Fork] (each runs on a new thread,
// a virtual thread by default), waits for them once with [Scope.Join], and closes the scope with
// [Scope.Close] (defer it right after opening). A [Joiner] decides what Join waits for and
// returns; the built-in ones are:
//
//	AwaitAllSuccessfulOrThrow  all must succeed; the first failure cancels (the default, Open)
//	AllSuccessfulOrThrow       the same, and Join returns the subtasks
//	AnySuccessfulResultOrThrow the first success cancels the rest; Join returns its result
//	AwaitAll                   wait for everything, never cancel
//	AllUntil(predicate)        wait for everything until the predicate says stop
//
// Cancelling a scope (a joiner's decision, the timeout of [WithTimeout], or Close before Join
// completed) interrupts the threads of the unfinished subtasks; their results are discarded and
// they stay Unavailable. Join then waits for those threads to end before it returns, so no
// subtask is running after Join (Java's join may return before the interrupted threads have
// ended; its close waits for them).
//
// Subtasks see the scoped values (package scoped) that were bound when the scope was opened:
// forks are the only threads that inherit bindings. Inheritable thread-locals are copied into
// subtask threads as into any new thread.
//
// Java → Go:
//
//	try (var scope = StructuredTaskScope.open()) {      s := structured.Open()
//	                                                    defer s.Close()
//	    Subtask<String> u = scope.fork(() -> user());   u := structured.Fork(s, user)
//	    scope.join();                                   if _, err := s.Join(); err != nil { ... }
//	    u.get()                                         u.Get()
//	open(joiner, cf -> cf.withName(n).withTimeout(d))   structured.OpenWith(joiner, structured.WithName(n), structured.WithTimeout(d))
//	Joiner.<T>anySuccessfulResultOrThrow()              structured.AnySuccessfulResultOrThrow[T]()
//	StructuredTaskScope.FailedException                 *structured.FailedError (Unwrap: the cause)
//	StructuredTaskScope.TimeoutException                structured.ErrTimeout
//	InterruptedException                                thread.ErrInterrupted
//	WrongThreadException                                panic: structured.ErrWrongThread
//	StructureViolationException                         panic: structured.ErrStructureViolation
//	IllegalStateException                               panic: structured.ErrIllegalState
//
// Java 21's policies (JEP 453) are joiners here:
//
//	new StructuredTaskScope.ShutdownOnFailure()   OpenWith(AwaitAllSuccessfulOrThrow[T]()) — or Open();
//	    scope.join().throwIfFailed()              if _, err := s.Join(); err != nil (a *FailedError)
//	new StructuredTaskScope.ShutdownOnSuccess<T>() OpenWith(AnySuccessfulResultOrThrow[T]());
//	    scope.join().result()                     r, err := s.Join()
//	scope.joinUntil(deadline)                     OpenWith(j, WithTimeout(time.Until(deadline)))
//	scope.shutdown()                              a custom Joiner whose OnComplete returns true
//
// Go has no subtyping, so a scope has a type T for the results its joiner sees; Fork accepts a
// task of any result type U assignable to T, and Open's scopes use T = any so that subtasks of
// different types can be forked into one scope, as in Java.
//
// Rules, as in JDK 25: only the owner forks, joins and closes (the scope's own subtasks may not
// fork into it; a subtask opens a scope of its own instead); Join is called once, after the
// forks; scopes are closed in the reverse order they were opened. Closing a scope while a scope
// opened after it is still open, or returning from the scoped.Carrier.Run that encloses a
// scope's opening while it is open, shuts that scope's threads down as JDK 25 does (no new
// thread starts in it, and the closer waits for the running ones, without cancelling them) and
// panics with [ErrStructureViolation]; the scope itself must still be joined and closed.
//
// Prefer golang.org/x/sync/errgroup in Go code that does not need Java's shape; use this package
// when porting code written against StructuredTaskScope, or to get interrupts, virtual threads and
// scoped values along with it.
package structured
