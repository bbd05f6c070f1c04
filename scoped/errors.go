package scoped

import "errors"

// ErrNotBound is Java's NoSuchElementException from ScopedValue.get and Carrier.get: the value is
// not bound in the current thread (or in the carrier). [Value.Get] panics with it.
var ErrNotBound = errors.New("scoped: value not bound")
