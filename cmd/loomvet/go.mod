module github.com/loomgo/loom/cmd/loomvet

go 1.26.0

require (
	github.com/google/go-cmp v0.7.0
	github.com/loomgo/loom v0.0.0-00010101000000-000000000000
	go.uber.org/goleak v1.3.0
	golang.org/x/tools v0.52.0
)

require (
	github.com/petermattis/goid v0.0.0-20261109124353-7cfa343ad0ab // indirect
	golang.org/x/mod v0.42.0 // indirect
	golang.org/x/sync v0.24.0 // indirect
)

// loomvet is built against the loom of this repository, and its tests load that loom's packages.
replace github.com/loomgo/loom => ../..
