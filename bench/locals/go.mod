module github.com/loomgo/loom/bench/locals

go 1.26

require (
	github.com/loomgo/loom v0.0.0
	github.com/petermattis/goid v0.0.0-20261109124353-7cfa343ad0ab
)

require github.com/timandy/routine v1.1.6

replace github.com/loomgo/loom => ../..
