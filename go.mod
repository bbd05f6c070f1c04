module github.com/loomgo/loom

go 1.26

require (
	github.com/google/go-cmp v0.7.0
	github.com/petermattis/goid v0.0.0-20261109124353-7cfa343ad0ab
	go.uber.org/goleak v1.3.0
)
