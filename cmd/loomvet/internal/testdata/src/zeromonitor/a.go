package zeromonitor

import "github.com/loomgo/loom/locks"

type token struct{}

type empty struct {
	_ [0]int
	n struct{}
}

type account struct{ balance int }

type generic[T any] struct{ v T }

func zero() {
	locks.MonitorOf(new(struct{})) // want `locks.MonitorOf on a pointer to struct\{\}, a zero-size type`
	t := &token{}
	locks.MonitorOf(t).Enter() // want `locks.MonitorOf on a pointer to token, a zero-size type`
	locks.MonitorOf(t).Exit()  // want `locks.MonitorOf on a pointer to token, a zero-size type`
	var e empty
	locks.MonitorOf(&e).Notify() // want `locks.MonitorOf on a pointer to empty, a zero-size type`
	var a [0]string
	locks.MonitorOf(&a).Notify()                   // want `locks.MonitorOf on a pointer to \[0\]string, a zero-size type`
	locks.MonitorOf(&generic[struct{}]{}).Notify() // want `locks.MonitorOf on a pointer to generic\[struct\{\}\], a zero-size type`
}

func fine[T any](p *T) {
	locks.MonitorOf(&account{}).Synchronized(func() {})
	locks.MonitorOf(new(int)).Notify()
	locks.MonitorOf(p).Notify() // the size is the instantiation's
	locks.MonitorOf(&generic[int]{}).Notify()
	var m locks.Monitor // a monitor of its own: fine
	m.Enter()
	m.Exit()
}
