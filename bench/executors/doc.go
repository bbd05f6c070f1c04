// Package executors benchmarks loom's executors against Go's own idioms and popular goroutine
// pools: submit a trivial task and wait for its result, on loom's virtual-thread-per-task
// executor, a loom fixed pool, a bare goroutine with a channel, golang.org/x/sync/errgroup with a
// limit, github.com/panjf2000/ants and github.com/alitto/pond. It is a separate module so that
// loom's own go.mod stays free of these dependencies.
//
//	cd bench/executors && go test -bench . -benchmem
package executors
