package threadlocal

import (
	"fmt"
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
	id      atomic.Uint64        // 0 until first use; see key
	initial func() T             // nil: T's zero value
	inherit func(parent any) any // nil: not inheritable
}

// noCopy makes go vet's copylocks check report copies.
type noCopy struct{}

func (*noCopy) Lock()   {}
func (*noCopy) Unlock() {}

// ids numbers ThreadLocals; a thread's values are kept in a map keyed by these numbers. They are
// never reused, so a ThreadLocal that is garbage-collected cannot alias a newer one (Java uses a
// hash code sequence and weak keys; loom's maps die with their thread, which is enough).
var ids atomic.Uint64

// key returns tl's id, allocating it on first use so the zero value works.
func (tl *ThreadLocal[T]) key() uint64 {
	if id := tl.id.Load(); id != 0 {
		return id
	}
	tl.id.CompareAndSwap(0, ids.Add(1)) // the loser's number is simply never used
	return tl.id.Load()
}

// New returns a ThreadLocal whose initial value in every thread is T's zero value. It ports
// `new ThreadLocal<T>()`.
func New[T any]() *ThreadLocal[T] {
	tl := &ThreadLocal[T]{}
	tl.key()
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
	tl.key()
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
	tl.key()
	return tl
}

// Get returns the current thread's value of tl. If the thread has none (it never called Set, or
// called Remove since), Get stores and returns the initial value: T's zero value, or what the
// WithInitial supplier returns (the supplier is called once per thread until the next Remove). It
// ports ThreadLocal.get.
func (tl *ThreadLocal[T]) Get() T {
	id := tl.key()
	d := rt.CurrentData()
	if e, ok := d.Locals[id]; ok {
		v, _ := e.Value.(T) // a nil interface value stored for an interface T
		return v
	}
	var v T
	if tl.initial != nil {
		v = tl.initial()
	}
	tl.store(d, id, v)
	return v
}

// Set sets the current thread's value of tl to v. Setting T's zero value (Java's set(null)) is a
// real value: a later Get returns it without calling the initial supplier. It ports
// ThreadLocal.set.
func (tl *ThreadLocal[T]) Set(v T) {
	tl.store(rt.CurrentData(), tl.key(), v)
}

func (tl *ThreadLocal[T]) store(d *rt.Data, id uint64, v T) {
	if d.Locals == nil {
		d.Locals = make(map[uint64]rt.Entry)
	}
	d.Locals[id] = rt.Entry{Value: v, Inherit: tl.inherit}
}

// Remove removes the current thread's value of tl: the next Get in this thread returns the initial
// value again (calling the supplier again, if there is one). It ports ThreadLocal.remove.
func (tl *ThreadLocal[T]) Remove() {
	d := rt.CurrentData()
	delete(d.Locals, tl.key())
}
