package threadlocal

import (
	"fmt"
	"runtime"
	"sync/atomic"

	"github.com/loomgo/loom/internal/rt"
	"github.com/loomgo/loom/thread"
)

// ThreadLocal is a variable with one value per thread. It ports java.lang.ThreadLocal (and, when
// made by [NewInheritable], java.lang.InheritableThreadLocal).
//
// The zero value is a ready ThreadLocal whose initial value is T's zero value, like
// `new ThreadLocal<T>()` (whose initial value is null). A ThreadLocal must not be copied after
// first use. Its methods are safe for concurrent use: each thread only ever sees its own value.
type ThreadLocal[T any] struct {
	_ noCopy
	c core
}

// noCopy makes go vet's copylocks check report copies.
type noCopy struct{}

func (*noCopy) Lock()   {}
func (*noCopy) Unlock() {}

// core is a ThreadLocal without its type: the key of its values in every thread, and its
// initial-value and childValue functions on values of type any. Its methods do the work, so
// that ThreadLocal's are a call and a type assertion, small enough for the compiler to inline
// into the caller: a method of a generic type that does more is compiled once per shape and
// called with a dictionary, which cost Get as much again as finding the current thread.
type core struct {
	k       atomic.Uint64        // 0 until first use (see key)
	initial func() any           // nil: T's zero value (a nil any)
	inherit func(parent any) any // nil: not inheritable
}

// key returns c's key, issuing it on first use so that the zero value works. Keys index a dense
// slice in each thread, and are freed for reuse (with a new generation, so a value left by a
// dead ThreadLocal is never seen by a new one) once their ThreadLocal has been
// garbage-collected: see internal/rt's locals.go for the argument.
func (c *core) key() uint64 {
	if k := c.k.Load(); k != 0 {
		return k
	}
	return c.issue()
}

func (c *core) issue() uint64 {
	k := rt.NewLocalKey()
	if !c.k.CompareAndSwap(0, k) {
		rt.FreeLocalKey(k) // another thread's first use won
		return c.k.Load()
	}
	// c lies inside its ThreadLocal: the cleanup runs once the whole ThreadLocal is unreachable.
	runtime.AddCleanup(c, rt.FreeLocalKey, k)
	return k
}

// get returns the current thread's value, storing the initial value first if it has none.
func (c *core) get() any { return rt.LocalValue(c.k.Load(), c) }

// MissLocal is get's slow path, when the goroutine's thread is not the one rt's cache last saw
// there, or it has no value: find the value, or store the initial one. k is c's key, or 0 before
// its first use.
func (c *core) MissLocal(k uint64) any {
	if k == 0 {
		k = c.key()
	}
	if e := rt.CurrentLocals().Local(k); e != nil {
		return e.Value
	}
	return c.setInitialValue(k)
}

// setInitialValue is get's miss: compute the initial value and store it.
func (c *core) setInitialValue(k uint64) any {
	var v any
	if c.initial != nil {
		v = c.callInitial()
	}
	// Looked up again: the supplier may have used other ThreadLocals, or this one.
	rt.CurrentLocals().SetLocal(k, v, c.inherit)
	runtime.KeepAlive(c) // k stays c's, not a newcomer's, until the value is stored
	return v
}

// maxInitDepth bounds the nesting of initial-value suppliers on one thread: deeper, a
// recursion is taken for a runaway one (Java's StackOverflowError) rather than let Go's stack
// grow until the runtime kills the process.
const maxInitDepth = 10_000

func (c *core) callInitial() any {
	d := rt.CurrentLocals()
	if d.InitDepth >= maxInitDepth {
		panic(fmt.Errorf("%w: initial-value suppliers nested %d deep on thread %v", ErrRecursiveInitialValue, d.InitDepth, thread.Current()))
	}
	d.InitDepth++
	defer func() { d.InitDepth-- }() // also when the supplier panics or calls runtime.Goexit
	return c.initial()
}

func (c *core) set(v any) { rt.CurrentLocals().SetLocal(c.key(), v, c.inherit) }

func (c *core) remove() { rt.CurrentLocals().RemoveLocal(c.key()) }

// New returns a [ThreadLocal] whose initial value in every thread is T's zero value. It ports
// `new ThreadLocal<T>()`.
func New[T any]() *ThreadLocal[T] {
	tl := &ThreadLocal[T]{}
	tl.c.key()
	return tl
}

// WithInitial returns a [ThreadLocal] whose initial value in a thread is computed by initial, called
// on that thread the first time it calls Get without having called Set (or after Remove). A nil
// initial panics with an error wrapping [thread.ErrNilArgument]. It ports ThreadLocal.withInitial.
func WithInitial[T any](initial func() T) *ThreadLocal[T] {
	if initial == nil {
		panic(fmt.Errorf("%w: threadlocal: initial value supplier", thread.ErrNilArgument))
	}
	tl := &ThreadLocal[T]{}
	tl.c.initial = func() any { return initial() }
	tl.c.key()
	return tl
}

// NewInheritable returns an inheritable [ThreadLocal]: a thread created by a thread that has a value
// for it (set, or computed by Get) starts with childValue(parent's value), computed on the
// creating thread when the new thread is created. A nil childValue copies the parent's value. A
// builder's InheritInheritableThreadLocals(false) stops the copy. The initial value is T's zero
// value. It ports java.lang.InheritableThreadLocal (childValue overridden when non-nil).
func NewInheritable[T any](childValue func(parent T) T) *ThreadLocal[T] {
	tl := &ThreadLocal[T]{}
	if childValue == nil {
		tl.c.inherit = func(parent any) any { return parent }
	} else {
		tl.c.inherit = func(parent any) any {
			p, _ := parent.(T)
			return childValue(p)
		}
	}
	tl.c.key()
	return tl
}

// Get returns the current thread's value of tl. If the thread has none (it never called Set, or
// called Remove since), Get stores and returns the initial value: T's zero value, or what the
// [WithInitial] supplier returns (the supplier is called once per thread until the next Remove). It
// ports ThreadLocal.get.
//
// As in Java, a supplier that calls Get on the same [ThreadLocal] (with no value set meanwhile) is
// called again, and the outermost call's value is the one kept. Where Java would end such a
// recursion with StackOverflowError, Get panics with an error wrapping
// [ErrRecursiveInitialValue] once suppliers are nested 10,000 deep on one thread; nothing
// is stored, and the next Get calls the supplier again.
func (tl *ThreadLocal[T]) Get() T {
	v, _ := tl.c.get().(T) // a nil any for T's zero value, or a nil interface stored for an interface T
	return v
}

// Set sets the current thread's value of tl to v. Setting T's zero value (Java's set(null)) is a
// real value: a later Get returns it without calling the initial supplier. It ports
// ThreadLocal.set.
func (tl *ThreadLocal[T]) Set(v T) { tl.c.set(v) }

// Remove removes the current thread's value of tl: the next Get in this thread returns the initial
// value again (calling the supplier again, if there is one). It ports ThreadLocal.remove.
func (tl *ThreadLocal[T]) Remove() { tl.c.remove() }
