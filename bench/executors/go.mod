module github.com/loomgo/loom/bench/executors

go 1.26.0

require (
	github.com/alitto/pond/v2 v2.7.1
	github.com/loomgo/loom v0.0.0
	github.com/panjf2000/ants/v2 v2.12.1
	golang.org/x/sync v0.25.0
)

require github.com/petermattis/goid v0.0.0-20261109124353-7cfa343ad0ab // indirect

replace github.com/loomgo/loom => ../..
