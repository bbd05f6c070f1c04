package locks

// ObjectMonitorCount exposes the size of the MonitorOf table to the tests.
var ObjectMonitorCount = objectMonitorCount
