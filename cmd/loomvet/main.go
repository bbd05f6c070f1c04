// Command loomvet is a static analyzer for Go code that uses loom, most of all code ported from
// Java: it finds the mistakes that Java's compiler or runtime would have caught, or that only
// appear in Go.
//
//	carrierblock    Go-native blocking (time.Sleep, channel operations, select without default,
//	                sync.Mutex, WaitGroup and Cond waits, net and os I/O on values not from vio)
//	                in code that runs on a virtual thread: it holds the carrier, so other virtual
//	                threads cannot run.
//	lostinterrupt   an interruptible loom call (thread.Sleep, Join, Take, Put, Await, Get, ...)
//	                whose error is dropped: Java forces InterruptedException to be handled.
//	zeromonitor     locks.MonitorOf on a pointer to a zero-size type: unrelated objects may share
//	                one address, so one monitor.
//	unreleasedlock  a Lock or Enter (ReentrantLock, read/write locks, Monitor) not released on
//	                every path out of the function.
//
// Run it alone, with the packages to check:
//
//	go install github.com/loomgo/loom/cmd/loomvet@latest
//	loomvet ./...
//	loomvet -fix ./...      # apply the suggested fixes
//
// or as a vet tool:
//
//	go vet -vettool=$(which loomvet) ./...
//
// Each analyzer can be turned off (-carrierblock=false) or run alone (-lostinterrupt);
// "loomvet help NAME" describes one.
package main

import (
	"golang.org/x/tools/go/analysis/multichecker"

	"github.com/loomgo/loom/cmd/loomvet/internal/carrierblock"
	"github.com/loomgo/loom/cmd/loomvet/internal/lostinterrupt"
	"github.com/loomgo/loom/cmd/loomvet/internal/unreleasedlock"
	"github.com/loomgo/loom/cmd/loomvet/internal/zeromonitor"
)

func main() {
	multichecker.Main(
		carrierblock.Analyzer,
		lostinterrupt.Analyzer,
		unreleasedlock.Analyzer,
		zeromonitor.Analyzer,
	)
}
