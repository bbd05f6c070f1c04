module github.com/loomgo/loom/bench/locks

go 1.26.0

require (
	github.com/loomgo/loom v0.0.0
	golang.org/x/sync v0.25.0
)

require github.com/petermattis/goid v0.0.0-20261109124353-7cfa343ad0ab // indirect

replace github.com/loomgo/loom => ../..
