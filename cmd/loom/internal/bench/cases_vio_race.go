//go:build race

package bench

func init() { vioScale, scaleDiv = 10, 100 }
