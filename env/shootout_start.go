package env

// NewShootout returns the state at the start of a penalty shoot-out (the coin toss
// pending), for solvers and tests of rules §8. The shoot-out has no knobs; r only sets the
// rules the returned state carries.
func NewShootout(r Rules) (State, error) {
	s, err := NewState(r)
	if err != nil {
		return State{}, err
	}
	l := MustParseLineup("2-2-2-2-2")
	s.lineups = [2]Lineup{l, l}
	s.ball = midfield
	s.period = Penalties
	s.phase = phaseCoin
	return s, nil
}
