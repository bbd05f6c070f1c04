//go:build !race

package threadlocal_test

const droppedThreadLocals = 1_000_000
