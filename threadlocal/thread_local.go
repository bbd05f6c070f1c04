package threadlocal

import (
	"fmt"
	"runtime"
	"sync/atomic"

	"github.com/loomgo/loom/internal/rt"
	"github.com/loomgo/loom/thread"
)

// ThreadLocal is a variable with one value per thread. It ports java.lang.ThreadLocal (and, when
// made by NewInheritable, java.lang.InheritableThreadLocal).
//
// The zero value is a ready ThreadLocal whose initial value is T's zero value, like
// `new ThreadLocal<T>()` (whose initial value is null). A ThreadLocal must not be copied after
// first use. Its methods are safe for concurrent use: each thread only ever sees its own value.
type ThreadLocal[T any] struct {
	_       noCopy
	k       key                  // tl's key in every thread's values
	initial func() T             // nil: T's zero value
	inherit func(parent any) any // nil: not inheritable
}

// noCopy makes go vet's copylocks check report copies.
type noCopy struct{}

func (*noCopy) Lock()   {}
func (*noCopy) Unlock() {}

// key is a ThreadLocal's key, 0 until first use. Keys index a dense slice in each thread, and are
// freed for reuse (with a new generation, so a value left by a dead ThreadLocal is never seen by
// a new one) once their ThreadLocal has been garbage-collected: see internal/rt's locals.go for
// the argument. Its methods are not generic, so that Get's fast path is inlined (the compiler
// inlines less into methods of generic types, which go through a dictionary).
type key struct{ v atomic.Uint64 }

// get returns the key, issuing it on first use so that the zero value works.
func (k *key) get() uint64 {
	if v := k.v.Load(); v != 0 {
		return v
	}
	return k.issue()
}

func (k *key) issue() uint64 {
	v := rt.NewLocalKey()
	if !k.v.CompareAndSwap(0, v) {
		rt.FreeLocalKey(v) // another thread's first use won
		return k.v.Load()
	}
	// k lies inside its ThreadLocal: the cleanup runs once the whole ThreadLocal is unreachable.
	runtime.AddCleanup(k, rt.FreeLocalKey, v)
	return v
}

// current returns the current thread's storage.
func current() *rt.Data { return rt.CurrentData() }

// New returns a ThreadLocal whose initial value in every thread is T's zero value. It ports
// `new ThreadLocal<T>()`.
func New[T any]() *ThreadLocal[T] {
	tl := &ThreadLocal[T]{}
	tl.k.get()
	return tl
}

// WithInitial returns a ThreadLocal whose initial value in a thread is computed by initial, called
// on that thread the first time it calls Get without having called Set (or after Remove). A nil
// initial panics with an error wrapping thread.ErrNilArgument. It ports ThreadLocal.withInitial.
func WithInitial[T any](initial func() T) *ThreadLocal[T] {
	if initial == nil {
		panic(fmt.Errorf("%w: threadlocal: initial value supplier", thread.ErrNilArgument))
	}
	tl := &ThreadLocal[T]{initial: initial}
	tl.k.get()
	return tl
}

// NewInheritable returns an inheritable ThreadLocal: a thread created by a thread that has a value
// for it (set, or computed by Get) starts with childValue(parent's value), computed on the
// creating thread when the new thread is created. A nil childValue copies the parent's value. A
// builder's InheritInheritableThreadLocals(false) stops the copy. The initial value is T's zero
// value. It ports java.lang.InheritableThreadLocal (childValue overridden when non-nil).
func NewInheritable[T any](childValue func(parent T) T) *ThreadLocal[T] {
	tl := &ThreadLocal[T]{}
	if childValue == nil {
		tl.inherit = func(parent any) any { return parent }
	} else {
		tl.inherit = func(parent any) any {
			p, _ := parent.(T)
			return childValue(p)
		}
	}
	tl.k.get()
	return tl
}

// Get returns the current thread's value of tl. If the thread has none (it never called Set, or
// called Remove since), Get stores and returns the initial value: T's zero value, or what the
// WithInitial supplier returns (the supplier is called once per thread until the next Remove). It
// ports ThreadLocal.get.
//
// As in Java, a supplier that calls Get on the same ThreadLocal (with no value set meanwhile) is
// called again, and the outermost call's value is the one kept. Where Java would end such a
// recursion with StackOverflowError, Get panics with an error wrapping
// [ErrRecursiveInitialValue] once suppliers are nested 10,000 deep on one thread; nothing
// is stored, and the next Get calls the supplier again.
func (tl *ThreadLocal[T]) Get() T {
	k := tl.k.get()
	if e := current().Local(k); e != nil {
		v, _ := e.Value.(T) // a nil interface value stored for an interface T
		return v
	}
	return tl.setInitialValue(k)
}

// setInitialValue is Get's miss: compute the initial value and store it. Out of line, so that
// Get's frame stays small.
//
//go:noinline
func (tl *ThreadLocal[T]) setInitialValue(k uint64) T {
	var v T
	if tl.initial != nil {
		v = tl.callInitial()
	}
	// Looked up again: the supplier may have used other ThreadLocals, or this one.
	current().SetLocal(k, v, tl.inherit)
	runtime.KeepAlive(tl) // k stays tl's, not a newcomer's, until the value is stored
	return v
}

// maxInitDepth bounds the nesting of initial-value suppliers on one thread: deeper, a
// recursion is taken for a runaway one (Java's StackOverflowError) rather than let Go's stack
// grow until the runtime kills the process.
const maxInitDepth = 10_000

func (tl *ThreadLocal[T]) callInitial() T {
	d := current()
	if d.InitDepth >= maxInitDepth {
		panic(fmt.Errorf("%w: initial-value suppliers nested %d deep on thread %v", ErrRecursiveInitialValue, d.InitDepth, thread.Current()))
	}
	d.InitDepth++
	defer func() { d.InitDepth-- }() // also when the supplier panics or calls runtime.Goexit
	return tl.initial()
}

// Set sets the current thread's value of tl to v. Setting T's zero value (Java's set(null)) is a
// real value: a later Get returns it without calling the initial supplier. It ports
// ThreadLocal.set.
func (tl *ThreadLocal[T]) Set(v T) {
	current().SetLocal(tl.k.get(), v, tl.inherit)
}

// Remove removes the current thread's value of tl: the next Get in this thread returns the initial
// value again (calling the supplier again, if there is one). It ports ThreadLocal.remove.
func (tl *ThreadLocal[T]) Remove() {
	current().RemoveLocal(tl.k.get())
}
