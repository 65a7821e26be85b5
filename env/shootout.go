package env

// The penalty shoot-out (rules §8).

// NextKicker returns who takes the next penalty (meaningful during the shoot-out).
func (s State) NextKicker() Player {
	if s.penTaken[s.firstKicker] == s.penTaken[s.firstKicker.Other()] {
		return s.firstKicker
	}
	return s.firstKicker.Other()
}

// shootoutDecided: one side cannot be caught in the first five rounds, or a sudden-death
// round is complete with one side ahead (rules §8).
func (s State) shootoutDecided() bool {
	th, ta := int(s.penTaken[Home]), int(s.penTaken[Away])
	gh, ga := int(s.penScored[Home]), int(s.penScored[Away])
	if th <= shootoutKicks && ta <= shootoutKicks {
		if gh > ga+shootoutKicks-ta || ga > gh+shootoutKicks-th {
			return true
		}
	}
	return th == ta && th >= shootoutKicks && gh != ga
}

// Shootout returns the penalties taken and scored by each side.
func (s State) Shootout() (taken, scored [2]int) {
	for p := range taken {
		taken[p], scored[p] = int(s.penTaken[p]), int(s.penScored[p])
	}
	return taken, scored
}

// PlayedShootout reports whether the match has reached the shoot-out.
func (s State) PlayedShootout() bool {
	return s.period >= Penalties && s.phase != phaseOver || s.penTaken != [2]uint16{}
}

// FirstKicker returns who kicked first in the shoot-out.
func (s State) FirstKicker() Player { return s.firstKicker }
