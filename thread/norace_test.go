//go:build !race

package thread_test

const raceEnabled = false
