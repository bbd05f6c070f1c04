//go:build !linux

package testutil

import "time"

// processCPU returns 0 outside Linux, where Pair does not read the process's CPU time: it
// then reports no cpu-ratio, only the wall-time figures.
func processCPU() time.Duration { return 0 }
