package scoped

import (
	"fmt"

	"github.com/loomgo/loom/internal/rt"
	"github.com/loomgo/loom/thread"
)

// Carrier is an immutable set of bindings of scoped values to values, made by Where and And, that
// Run and Call put in force for the extent of an operation. It ports ScopedValue.Carrier. A
// Carrier may be shared between threads and run any number of times.
type Carrier struct {
	b *binding // newest first: a later binding of the same Value shadows an earlier one
}

// binding is one key-value pair of a Carrier; the list is never modified once built.
type binding struct {
	key   *key
	value any
	next  *binding
}

func (b *binding) find(k *key) *binding {
	for ; b != nil; b = b.next {
		if b.key == k {
			return b
		}
	}
	return nil
}

// Where returns a Carrier that binds v to x. x may be any value of T, its zero value included
// (Java allows null). A nil v panics with an error wrapping [thread.ErrNilArgument]. It ports
// ScopedValue.where.
func Where[T any](v *Value[T], x T) *Carrier {
	if v == nil {
		panic(fmt.Errorf("%w: scoped: Where with a nil Value", thread.ErrNilArgument))
	}
	return &Carrier{b: &binding{key: &v.k, value: x}}
}

// And returns a new Carrier with c's bindings and other's; where both bind the same Value,
// other's binding wins. c and other are unchanged. It ports Carrier.where, which Go cannot
// express as a generic method:
//
//	scoped.Where(user, "duke").And(scoped.Where(level, 3))   // ScopedValue.where(USER, "duke").where(LEVEL, 3)
//
// A nil other panics with an error wrapping [thread.ErrNilArgument].
func (c *Carrier) And(other *Carrier) *Carrier {
	if other == nil {
		panic(fmt.Errorf("%w: scoped: And with a nil Carrier", thread.ErrNilArgument))
	}
	// copy other's list in front of c's
	var head *binding
	tail := &head
	for b := other.b; b != nil; b = b.next {
		n := &binding{key: b.key, value: b.value}
		*tail = n
		tail = &n.next
	}
	*tail = c.b
	return &Carrier{b: head}
}

// Get returns the value that c binds to key, as an any holding a T for a *Value[T]. It panics
// with [ErrNotBound] if c does not bind key (whether or not key is bound in the current thread),
// and with an error wrapping [thread.ErrNilArgument] for a nil key. It ports Carrier.get.
func (c *Carrier) Get(key Key) any {
	if key == nil || key.scopedKey() == nil {
		panic(fmt.Errorf("%w: scoped: Carrier.Get with a nil Value", thread.ErrNilArgument))
	}
	b := c.b.find(key.scopedKey())
	if b == nil {
		panic(ErrNotBound)
	}
	return b.value
}

// Run runs op on the current thread with c's bindings in force, over (and shadowing) the bindings
// already in force. When op returns, or panics, the bindings in force before Run are restored;
// a panic propagates unchanged. The bindings are seen by op and by the subtasks op forks in a
// structured.Scope it opens, not by other threads. A structured scope that op opens and leaves
// open has its threads shut down when op returns (Run waits for its running subtasks, without
// cancelling them, as Java's ScopedValueContainer closes the scope's thread flock), and Run then
// panics with structured.ErrStructureViolation, as Java's run throws
// StructureViolationException; if op panicked, that panic goes on unchanged. A nil op panics
// with an error wrapping [thread.ErrNilArgument]. It ports Carrier.run.
func (c *Carrier) Run(op func()) {
	if op == nil {
		panic(fmt.Errorf("%w: scoped: Run with a nil operation", thread.ErrNilArgument))
	}
	d := rt.CurrentData()
	prev := d.Scoped
	outer, _ := prev.(*frame)
	f := &frame{b: c.b, prev: outer}
	d.Scoped = f
	defer func() { d.Scoped = prev }()
	normal := false
	if exit := rt.ScopedRunExit; exit != nil {
		// a structured scope opened by op and left open has its threads shut down here, with the
		// bindings still in force, and (unless op panicked) is reported as a structure violation
		defer func() { exit(f, normal) }()
	}
	op()
	normal = true
}

// Call is Run for an operation that returns a result and an error, which Call returns unchanged.
// A nil op panics with an error wrapping [thread.ErrNilArgument]. It ports Carrier.call (Go has no
// generic methods, so it is a package function).
func Call[R any](c *Carrier, op func() (R, error)) (R, error) {
	if op == nil {
		panic(fmt.Errorf("%w: scoped: Call with a nil operation", thread.ErrNilArgument))
	}
	var r R
	var err error
	c.Run(func() { r, err = op() })
	return r, err
}
