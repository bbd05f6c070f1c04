//go:build race

package bench

func init() { vioScale = 10 }
