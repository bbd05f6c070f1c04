package oracle_test

// knownDivergences lists the scenarios in which loom is known to behave differently from Java:
// each entry gives the reason and the DIVERGENCES.md entry that shows both logs and names the
// package at fault. TestOracle logs their diffs instead of failing, and fails when one of them
// starts agreeing with Java, so the list can only shrink as fixes land. A new divergence is
// either fixed or entered here with its DIVERGENCES.md entry.
var knownDivergences = map[string]string{
	"io_channel_interrupt_status_set": "by design: a vio call that can proceed, started with the interrupt status set, does the call as java.net.Socket does; SocketChannel closes itself (DIVERGENCES.md D8, package vio)",
}
