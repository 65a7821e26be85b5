package env

// RunChance plays chance nodes with outcomes from smp until a decision node or the end.
// Simulators, search playouts and environments step through it.
func RunChance(s *State, smp Sampler) {
	for {
		switch s.phase {
		case phaseThrow:
			// The samplers with a fast path through runs of throws get the whole run (by
			// their concrete types: through an interface, s would escape to the heap).
			switch f := smp.(type) {
			case *FastSampler:
				f.runThrows(s)
				continue
			case *GoalSampler:
				f.runThrows(s)
				continue
			}
			fallthrough
		case phaseCoin, phaseKick:
			s.ApplyChance(smp.Sample(*s))
		default:
			return
		}
	}
}

// Playout plays s to the end with every player keeping its formation, drawing chance
// outcomes from smp. It is the fixed-line-up simulator (no moves, no shifts). It panics if
// the line-ups have not been declared (use NewMatch).
func Playout(s *State, smp Sampler) {
	if s.phase == phaseLineups {
		panic("env: Playout before the line-ups are declared")
	}
	for {
		RunChance(s, smp)
		if s.phase == phaseOver {
			return
		}
		s.keepAll()
	}
}
