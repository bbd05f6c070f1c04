package locks_test

import (
	"errors"
	"math"
	"testing"

	"github.com/loomgo/loom/locks"
)

// phaserModel is what a flat Phaser with the default onAdvance must report after each
// non-blocking operation.
type phaserModel struct {
	phase, parties, unarrived int
	terminated                bool
}

func (m *phaserModel) reported() int {
	if m.terminated {
		return int(int32(uint32(m.phase) | 1<<31)) // phase + math.MinInt32
	}
	return m.phase
}

// arrive models Arrive (deregister false) and ArriveAndDeregister; ok is false where Java
// throws IllegalStateException.
func (m *phaserModel) arrive(deregister bool) (phase int, ok bool) {
	if m.terminated {
		return m.reported(), true
	}
	if m.unarrived == 0 {
		return 0, false
	}
	phase = m.phase
	m.unarrived--
	if deregister {
		m.parties--
	}
	if m.unarrived == 0 {
		m.phase = (m.phase + 1) & math.MaxInt32
		if m.parties == 0 { // the default onAdvance terminates an empty phaser
			m.terminated = true
		} else {
			m.unarrived = m.parties
		}
	}
	return phase, true
}

func (m *phaserModel) register(n int) (phase int, ok bool) {
	if m.parties+n > 65535 {
		return 0, false
	}
	if m.terminated {
		return m.reported(), true
	}
	if n > 0 {
		m.parties += n
		m.unarrived += n
	}
	return m.phase, true
}

// FuzzPhaserModel runs random sequences of register, bulk register, arrive, deregister and
// termination on a phaser starting at a fuzzed phase (near the wrap at MaxInt32 too), and
// checks every result, panic and count against the model.
func FuzzPhaserModel(f *testing.F) {
	f.Add(uint32(0), []byte{0, 2, 2, 0, 3, 3, 1, 2})
	f.Add(uint32(math.MaxInt32-1), []byte{0, 0, 2, 2, 2, 2, 2, 2})
	f.Add(uint32(5), []byte{1, 200, 2, 3, 4, 2})
	f.Fuzz(func(t *testing.T, start uint32, ops []byte) {
		p := locks.NewPhaser(0)
		m := phaserModel{phase: int(start & math.MaxInt32)}
		locks.SetPhaserPhase(p, m.phase)
		call := func(f func() int) (got int, ise bool) {
			defer func() {
				if r := recover(); r != nil {
					err, _ := r.(error)
					if !errors.Is(err, locks.ErrIllegalState) {
						panic(r)
					}
					ise = true
				}
			}()
			return f(), false
		}
		for i := 0; i < len(ops); i++ {
			var got, want int
			var ise, ok bool
			switch ops[i] % 5 {
			case 0:
				got, ise = call(p.Register)
				want, ok = m.register(1)
			case 1: // bulk: the next byte says how many, scaled up to reach the limit
				n := 0
				if i+1 < len(ops) {
					i++
					n = int(ops[i]) * 300
				}
				got, ise = call(func() int { return p.BulkRegister(n) })
				want, ok = m.register(n)
			case 2:
				got, ise = call(p.Arrive)
				want, ok = m.arrive(false)
			case 3:
				got, ise = call(p.ArriveAndDeregister)
				want, ok = m.arrive(true)
			case 4:
				if ops[i]%3 == 0 { // rarely: termination ends everything
					p.ForceTermination()
					m.terminated = true
				}
				got, ise, want, ok = 0, false, 0, true
			}
			if ise != !ok || ok && got != want {
				t.Fatalf("op %d (%d): got %d (panic %v), want %d (panic %v); model %+v, phaser %v", i, ops[i]%5, got, ise, want, !ok, m, p)
			}
			if p.Phase() != m.reported() || p.RegisteredParties() != m.parties || p.IsTerminated() != m.terminated ||
				!m.terminated && (p.UnarrivedParties() != m.unarrived || p.ArrivedParties() != m.parties-m.unarrived) {
				t.Fatalf("after op %d: phaser %v (terminated %v), model %+v", i, p, p.IsTerminated(), m)
			}
		}
	})
}
