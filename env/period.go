package env

// The match's periods and their schedule (rules §5, §7).

// Period is the part of the match being played.
type Period uint8

const (
	PreMatch    Period = iota // line-ups not yet declared
	FirstHalf                 // regular time
	SecondHalf                //
	ExtraFirst                // extra time (knockout only)
	ExtraSecond               //
	Penalties                 // the shoot-out
	FullTime                  // the match is over
)

var periodNames = [...]string{"pre-match", "first half", "second half", "extra time 1", "extra time 2", "penalties", "full time"}

func (p Period) String() string { return nameOf(periodNames[:], uint8(p), "period") }

// breakOrThrow starts a kick-off: a break first if any Basic player has moves left.
func (s *State) breakOrThrow() {
	s.phase = phaseThrow
	for p := Home; p <= Away; p++ {
		if s.rules.modes[p] == Basic && s.movesUsed[p] < s.rules.moves {
			s.phase = phaseBreak
		}
	}
}

func (s *State) endPeriod() {
	switch next := afterPeriod(s.period, s.score[Home] == s.score[Away], s.rules.knockout, s.rules.extraThrows > 0); next {
	case SecondHalf:
		s.startPeriod(SecondHalf, s.rules.halfThrows)
	case ExtraFirst:
		s.extraTime = true
		s.startPeriod(ExtraFirst, s.rules.extraThrows)
	case ExtraSecond:
		s.startPeriod(ExtraSecond, s.rules.extraThrows)
	case Penalties:
		s.period = Penalties
		s.phase = phaseCoin
	default:
		s.finish()
	}
}

// afterPeriod is what follows the end of period p (rules §5, §7): the second half after the
// first; in a knockout that is level after regular time, extra time (if it has any) and then
// penalties; otherwise the end.
func afterPeriod(p Period, level, knockout, extra bool) Period {
	switch {
	case p == FirstHalf:
		return SecondHalf
	case p == ExtraFirst:
		return ExtraSecond
	case !knockout || !level:
		return FullTime
	case p == SecondHalf && extra:
		return ExtraFirst
	}
	return Penalties
}

// AfterPeriod returns what follows the end of period p (FirstHalf..ExtraSecond) when the
// score is level or not: the next period, Penalties, or FullTime. Solvers walk the match's
// periods with it instead of restating the rules.
func (r Rules) AfterPeriod(p Period, level bool) Period {
	return afterPeriod(p, level, r.Knockout, r.ExtraThrows() > 0)
}

// Periods lists the periods with play a match may have under r, in order: the longest path
// (a level score), which every shorter match follows as far as it goes.
func (r Rules) Periods() []Period {
	var ps []Period
	for p := FirstHalf; p >= FirstHalf && p <= ExtraSecond; p = r.AfterPeriod(p, true) {
		ps = append(ps, p)
	}
	return ps
}

// PeriodLength returns the throws of period p under r (0 outside FirstHalf..ExtraSecond).
func (r Rules) PeriodLength(p Period) int {
	switch p {
	case FirstHalf, SecondHalf:
		return r.HalfThrows()
	case ExtraFirst, ExtraSecond:
		return r.ExtraThrows()
	}
	return 0
}

func (s *State) startPeriod(p Period, throws uint16) {
	s.period = p
	s.throwsLeft = throws
	s.ball = midfield
	s.possession = noPossession
	s.breakOrThrow()
}

func (s *State) finish() {
	s.period = FullTime
	s.phase = phaseOver
}
