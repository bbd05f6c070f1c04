//go:build !race

package vio_test

const raceEnabled = false
