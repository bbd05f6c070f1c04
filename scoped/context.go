package scoped

import (
	"context"

	"github.com/loomgo/loom/internal/rt"
)

type contextKey struct{}

// Context returns a copy of parent that carries the bindings in force in the current thread, for
// Go code that hands work to other goroutines with a [context.Context]. The bindings are a
// snapshot: later Runs on this thread do not change what the context carries. Use [FromContext] to
// put them in force elsewhere. Java has no counterpart (its scoped values only flow into
// StructuredTaskScope forks).
func Context(parent context.Context) context.Context {
	f, _ := rt.CurrentData().Scoped.(*frame)
	return context.WithValue(parent, contextKey{}, f)
}

// FromContext returns a Carrier with the bindings that Context stored in ctx (the innermost
// binding of each Value), or an empty Carrier if ctx carries none. Run it to put the bindings in
// force on the current thread:
//
//	go func() { scoped.FromContext(ctx).Run(work) }()
func FromContext(ctx context.Context) *Carrier {
	f, _ := ctx.Value(contextKey{}).(*frame)
	// flatten the frames, innermost first, so a lookup in the carrier finds the innermost binding
	var head *binding
	tail := &head
	for ; f != nil; f = f.prev {
		for b := f.b; b != nil; b = b.next {
			n := &binding{key: b.key, value: b.value}
			*tail = n
			tail = &n.next
		}
	}
	return &Carrier{b: head}
}
