// Package tracetest checks loom's annotations in Go's execution trace (thread/trace.go) by
// reading traces back with golang.org/x/exp/trace, the trace parser that `go tool trace` uses,
// published outside the standard library (whose own copy, internal/trace, cannot be imported).
//
// It is a module of its own so that golang.org/x/exp stays out of loom's go.mod: loom itself
// depends only on the standard library for tracing. It has no code of its own, only tests.
package tracetest
