// Package locals benchmarks loom's threadlocal and scoped packages against their Go peers:
// github.com/timandy/routine's ThreadLocal, sync.Map, a plain map, and context.Value. It is a
// separate module so that the peers stay out of loom's own go.mod.
//
//	cd bench/locals && go test -bench . -benchmem
package locals
