package scoped

import (
	"fmt"

	"github.com/loomgo/loom/internal/rt"
	"github.com/loomgo/loom/thread"
)

// Value is a scoped value: a key that a thread binds to a value of type T for the extent of a
// call (see Where). It ports java.lang.ScopedValue.
//
// A Value is unbound in every thread until bound. The zero value is a ready Value, but as in Java
// the usual way to make one is [NewInstance], kept in a package variable. A Value is identified by
// its address: it must not be copied after first use. Its methods are safe for concurrent use.
type Value[T any] struct {
	_ noCopy
	k key
}

// key is what bindings are matched on: a Value's address. It has a non-zero size so that two
// Values never share an address.
type key struct{ _ byte }

// Key is implemented by every *Value[T]; it lets [Carrier.Get] take a Value of any type. Its method
// is unexported, so no other type implements it.
type Key interface {
	scopedKey() *key
}

func (v *Value[T]) scopedKey() *key {
	if v == nil {
		return nil
	}
	return &v.k
}

// noCopy makes go vet's copylocks check report copies.
type noCopy struct{}

func (*noCopy) Lock()   {}
func (*noCopy) Unlock() {}

// NewInstance returns a new Value, unbound in every thread. It ports ScopedValue.newInstance.
func NewInstance[T any]() *Value[T] { return new(Value[T]) }

// Get returns the value bound to v in the current thread: the innermost binding of the Runs and
// Calls in progress (or, in a subtask of a structured.Scope, the binding captured when the scope
// was opened). It panics with [ErrNotBound] if v is not bound. It ports ScopedValue.get.
func (v *Value[T]) Get() T {
	b := current().find(&v.k)
	if b == nil {
		panic(ErrNotBound)
	}
	x, _ := b.value.(T) // a nil interface value bound for an interface T
	return x
}

// IsBound reports whether v is bound in the current thread. It ports ScopedValue.isBound.
func (v *Value[T]) IsBound() bool { return current().find(&v.k) != nil }

// OrElse returns the value bound to v in the current thread, or other if it is not bound. It
// ports ScopedValue.orElse (where Java 25 rejects a null other, any T is accepted here).
func (v *Value[T]) OrElse(other T) T {
	b := current().find(&v.k)
	if b == nil {
		return other
	}
	x, _ := b.value.(T)
	return x
}

// OrElseThrow returns the value bound to v in the current thread; if v is not bound it returns
// T's zero value and the error made by supplier (Java throws it). A nil supplier panics with an
// error wrapping [thread.ErrNilArgument]. It ports ScopedValue.orElseThrow.
func (v *Value[T]) OrElseThrow(supplier func() error) (T, error) {
	if supplier == nil {
		panic(fmt.Errorf("%w: scoped: exception supplier", thread.ErrNilArgument))
	}
	b := current().find(&v.k)
	if b == nil {
		var zero T
		return zero, supplier()
	}
	x, _ := b.value.(T)
	return x, nil
}

// frame is one level of a thread's bindings: the bindings of the carrier being run, over the
// frames of the Runs and Calls that enclose it. Frames are immutable once pushed, so a frame
// pointer is a snapshot of a thread's bindings that can be shared with other threads
// (structured.Fork, Context) without copying.
//
// Java keeps a per-thread cache of recent lookups because its bindings are a chain of
// snapshots, as here; bindings are few and shallow in practice, so loom walks the chain.
type frame struct {
	b    *binding
	prev *frame
}

func current() *frame {
	f, _ := rt.CurrentData().Scoped.(*frame)
	return f
}

// find returns the innermost binding of k, or nil.
func (f *frame) find(k *key) *binding {
	for ; f != nil; f = f.prev {
		if b := f.b.find(k); b != nil {
			return b
		}
	}
	return nil
}
