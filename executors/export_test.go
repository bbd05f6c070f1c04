package executors

// NewHandoffQueue exposes the package's own work queue to the tests.
func NewHandoffQueue(capacity int) WorkQueue { return newHandoffQueue(capacity) }
