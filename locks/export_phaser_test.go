package locks

// SetPhaserPhase sets the phase of root phaser p (which must have no waiters), so tests can
// reach the wrap at math.MaxInt32 without two billion advances.
func SetPhaserPhase(p *Phaser, phase int) {
	s := p.load()
	p.store(s&phCountsMask | phaseBits(phase))
}
