module github.com/loomgo/loom/internal/tracetest

go 1.26.0

require (
	github.com/google/go-cmp v0.7.0
	github.com/loomgo/loom v0.0.0
	go.uber.org/goleak v1.3.0
	golang.org/x/exp v0.0.0-20261113113407-e3970619a1a4
)

require github.com/petermattis/goid v0.0.0-20261109124353-7cfa343ad0ab // indirect

replace github.com/loomgo/loom => ../..
