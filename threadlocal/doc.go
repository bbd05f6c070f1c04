// Package threadlocal ports java.lang.ThreadLocal and java.lang.InheritableThreadLocal: variables
// that have a separate value in every thread that reads or writes them.
//
// A [ThreadLocal] keeps one value per loom thread (virtual or platform, or a goroutine loom did not
// start, which [thread.Current] attaches to a platform Thread). A virtual thread's values are its
// own, not its carrier's, and they survive unmounting. The values live in the thread and are
// released when it terminates, so a million short-lived virtual threads that each set a
// thread-local leave nothing behind. On a goroutine loom did not start, the values go when the
// goroutine calls [thread.Detach], or when loom sweeps the attachments of goroutines that have
// ended.
//
// An inheritable thread-local (see [NewInheritable]) is copied into a new thread when the thread
// is created (Unstarted or Start of a builder, not when it starts running), through the
// childValue function, computed on the creating thread. A builder's
// InheritInheritableThreadLocals(false) turns the copy off. As in Java, pool threads are reused,
// so values leak from one task to the next on a fixed pool, while a thread-per-task executor gives
// every task fresh values.
//
// Get finds the current thread (a goroutine-id lookup) and reads the value from a slot of the
// thread's slice of values, indexed by the [ThreadLocal]'s key; it does not allocate. Keys are
// reused once their [ThreadLocal] has been garbage-collected, with a new generation each time, so
// a thread's slice stays as long as the number of ThreadLocals alive at once, and a new
// [ThreadLocal] never sees a value a dead one left behind. Set stores the value in an interface,
// which allocates for most non-pointer types.
//
// Plain Go code passes request-scoped data in a [context.Context]; use a [ThreadLocal] when porting
// Java code that relies on one, and prefer package scoped (ScopedValue) for new code: its
// bindings are immutable and last only for a call.
//
// Java → Go:
//
//	new ThreadLocal<T>()                    var tl threadlocal.ThreadLocal[T] / threadlocal.New[T]()
//	ThreadLocal.withInitial(supplier)       threadlocal.WithInitial(supplier)
//	new InheritableThreadLocal<T>()         threadlocal.NewInheritable[T](nil)
//	  … with childValue overridden          threadlocal.NewInheritable(childValue)
//	tl.get() / tl.set(v) / tl.remove()      tl.Get() / tl.Set(v) / tl.Remove()
package threadlocal
