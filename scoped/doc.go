// Package scoped ports java.lang.ScopedValue (JEP 506, final in JDK 25): immutable values bound
// for the dynamic extent of a call, visible to the code that call runs on the same thread and to
// the subtasks it forks in a structured.Scope — and to nothing else.
//
// A [Value] is a key. [Where] binds it to a value in a [Carrier]; [Carrier.Run] and [Call] run an
// operation with the carrier's bindings in force, and when the operation returns (or panics) the
// previous bindings are back. Inside, [Value.Get] reads the innermost binding:
//
//	var user = scoped.NewInstance[string]()
//	var level = scoped.NewInstance[int]()
//
//	scoped.Where(user, "duke").And(scoped.Where(level, 3)).Run(func() {
//		fmt.Println(user.Get(), level.Get()) // duke 3
//	})
//
// Java → Go:
//
//	ScopedValue.newInstance()                  scoped.NewInstance[T]()
//	ScopedValue.where(k, v)                    scoped.Where(k, v)
//	carrier.where(k2, v2)                      carrier.And(scoped.Where(k2, v2))
//	carrier.run(op)                            carrier.Run(op)
//	carrier.call(op)                           scoped.Call(carrier, op)   (op returns (R, error))
//	carrier.get(k)                             carrier.Get(k)             (returns any)
//	k.get() / k.isBound() / k.orElse(v)        k.Get() / k.IsBound() / k.OrElse(v)
//	k.orElseThrow(supplier)                    k.OrElseThrow(func() error) (returns the error)
//	NoSuchElementException                     ErrNotBound
//
// Go methods cannot have type parameters, so a carrier cannot grow with a typed Where method as
// Java's does; a typed [Where] per binding joined with [Carrier.And] keeps every binding
// type-checked at compile time. For the same reason Call is a package function.
//
// Bindings are not inherited by threads created with the thread builders or executors, exactly as
// in Java: only structured.Fork passes the bindings captured when its scope was opened to its
// subtask. Go code that already passes a [context.Context] can carry the bindings across goroutines
// with [Context] and re-establish them with [FromContext].
//
// Differences from Java: Java 25 rejects orElse(null) with a NullPointerException; in Go any value
// of T, including its zero value, is a valid fallback.
//
// As in Java, a structured.Scope opened inside Run and still open when Run's operation returns is
// closed then (its subtasks interrupted and waited for), and Run panics with
// structured.ErrStructureViolation.
//
// Cost: Get, IsBound and OrElse find the current thread (a goroutine-id lookup) and walk the
// bindings in force, innermost first; they do not allocate. Run allocates one small frame.
package scoped
