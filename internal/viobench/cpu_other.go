//go:build !unix

package viobench

import "time"

// cpuTime returns 0 where the process's CPU time is not read (outside Unix): the cpu-ns/op
// figures are then 0.
func cpuTime() time.Duration { return 0 }
