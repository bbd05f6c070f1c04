//go:build race

package thread_test

const raceEnabled = true
