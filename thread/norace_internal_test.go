//go:build !race

package thread

const raceInternal = false
