//go:build !amd64 || race || purego

package locks

import (
	"github.com/loomgo/loom/internal/rt"
	"github.com/petermattis/goid"
)

// The fast paths in Go, where there is no assembly for them (see fastpath.go). Each reads the
// goroutine id as rt.Checked(goid.Get()), which the compiler inlines (gid cannot be).

func lockFast(l *ReentrantLock) {
	g := rt.Checked(goid.Get())
	if l.fair && l.s.q.HasQueuedThreads() || !l.s.owner.CompareAndSwap(0, g) {
		lockContended(l)
	} else if l.s.g.Load() != g || !l.s.live() { // took(g), inlined
		lockTook(l)
	}
}

func unlockFast(l *ReentrantLock) { unlockChecked(l) }

func enterFast(m *Monitor) {
	g := rt.Checked(goid.Get())
	if !m.s.owner.CompareAndSwap(0, g) {
		enterContended(m)
	} else if m.s.g.Load() != g || !m.s.live() {
		enterTook(m)
	} else {
		m.entered()
	}
}

func exitFast(m *Monitor) { exitChecked(m) }
