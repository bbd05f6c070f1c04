package locks

// ObjectMonitorCount exposes the size of the MonitorOf table to the tests.
var ObjectMonitorCount = objectMonitorCount

// SetHoldCount sets the hold count of an exclusive lock the current thread owns (a ReentrantLock
// or a Monitor), so that tests reach the top of the count without two billion Locks.
func SetHoldCount(l interface{ HoldCount() int }, n int) {
	switch l := l.(type) {
	case *ReentrantLock:
		l.s.holds = int32(n - 1)
	case *Monitor:
		l.s.holds = int32(n - 1)
	}
}

// SetWriteHoldCount sets the write hold count of a write lock the current thread owns.
func SetWriteHoldCount(rw *ReentrantReadWriteLock, n int) {
	c := rw.s.state.Load()
	rw.s.state.Store(c&^writeMask | int64(n))
}

// AddReadHolds adds n to the total read holds of rw without recording them for any thread.
func AddReadHolds(rw *ReentrantReadWriteLock, n int) { rw.s.state.Add(int64(n) * readUnit) }
