package vio

import "github.com/loomgo/loom/internal/rt"

// SetFileMode switches how a virtual thread waits in a regular-file call (for the benchmark that
// chose it): "compensate" or "unmount". It returns a function that restores the mode.
func SetFileMode(mode string) (restore func()) {
	old := fileHow
	switch mode {
	case "compensate":
		fileHow = rt.IOCompensated
	case "unmount":
		fileHow = rt.IORunnable
	}
	return func() { fileHow = old }
}
