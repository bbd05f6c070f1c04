package threadlocal

import "errors"

// ErrRecursiveInitialValue is what Get panics with (wrapped, with the depth and the thread) when
// initial-value suppliers are nested too deep on one thread: a supplier that calls Get on its own
// [ThreadLocal] without a way out. Java recurses into initialValue until StackOverflowError; Go
// would grow the goroutine's stack until the runtime killed the process, so loom stops the
// recursion first, with a panic that recover can inspect.
var ErrRecursiveInitialValue = errors.New("threadlocal: initial-value supplier recursion (Java: StackOverflowError)")
