package oracle_test

// knownDivergences lists the scenarios in which loom is known to behave differently from Java:
// each entry gives the reason and the DIVERGENCES.md entry that shows both logs and names the
// package at fault. TestOracle logs their diffs instead of failing, and fails when one of them
// starts agreeing with Java, so the list can only shrink as fixes land. A new divergence is
// either fixed or entered here with its DIVERGENCES.md entry.
var knownDivergences = map[string]string{
	"queue_interrupt_on_entry":            "LinkedBlockingDeque.Put/Take throw on a set interrupt status when they need not wait; Java's only when they wait (DIVERGENCES.md D2, package queue)",
	"cf_complete_once":                    "an incomplete CompletableFuture prints [Incomplete] (JDK 21) where JDK 25 prints [Not completed] (DIVERGENCES.md D3, package executors)",
	"cf_when_complete":                    "WhenComplete on a failed stage whose action panics fails with the panic, not the stage's error (DIVERGENCES.md D4, package executors)",
	"cf_dependents_order":                 "dependents run in registration order; Java runs them last-registered first (DIVERGENCES.md D5, package executors)",
	"io_interrupt_status_set_can_proceed": "a vio call that need not wait, started with the interrupt status set, closes its socket as SocketChannel does; the classic Socket API does the call (DIVERGENCES.md D6, package vio)",
}
