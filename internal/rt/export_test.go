package rt

// Gen returns the generation index i was last issued with.
func Gen(i uint32) uint32 {
	keys.mu.Lock()
	defer keys.mu.Unlock()
	return keys.gen[i]
}

// SetGen sets it (to test the retirement of an index whose generation would wrap).
func SetGen(i uint32, g uint32) {
	keys.mu.Lock()
	defer keys.mu.Unlock()
	keys.gen[i] = g
}

const DenseSlots = denseSlots
