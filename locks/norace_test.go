//go:build !race

package locks_test

const raceEnabled = false
