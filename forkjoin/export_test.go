package forkjoin

import "time"

// SetCommonKeepAlive shortens the common pool's keep-alive, so that its workers end soon after
// the tests that use it (goleak). It must be called before the common pool is first used.
func SetCommonKeepAlive(d time.Duration) { setCommonKeepAlive(d) }
