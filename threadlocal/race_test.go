//go:build race

package threadlocal_test

const droppedThreadLocals = 20_000
