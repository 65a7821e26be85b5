package env

import (
	"errors"
	"fmt"
)

// Observation is what one player sees: the whole public state, from its own point of view.
// (Line-ups are hidden only while being declared; at the kick-off decision the opponent's
// line-up is the zero Lineup.)
type Observation struct {
	Player       Player       // who observes
	Decision     DecisionKind // the pending decision, NoDecision if the player is not acting
	Period       Period
	ThrowsLeft   int    // in the current period
	Own, Opp     Lineup // each in its owner's coordinates (sector 1 = that side's defence)
	OwnMode      Mode
	OppMode      Mode
	Ball         int // 1..5 in the observer's coordinates (5 = attacking the opponent's goal)
	OwnGoals     int
	OppGoals     int
	OwnMovesLeft int
	OppMovesLeft int
	Possession   int // +1 the observer won the last throw since kick-off, −1 the opponent, 0 none
	Knockout     bool
	// HalfThrows and ExtraThrows are the period lengths (for normalising time).
	HalfThrows, ExtraThrows int
}

// Observe returns p's observation of s.
func (s State) Observe(p Player) Observation {
	o := Observation{
		Player:       p,
		Period:       s.period,
		ThrowsLeft:   int(s.throwsLeft),
		Own:          s.lineups[p],
		Opp:          s.lineups[p.Other()],
		OwnMode:      s.rules.modes[p],
		OppMode:      s.rules.modes[p.Other()],
		Ball:         s.Ball(),
		OwnGoals:     int(s.score[p]),
		OppGoals:     int(s.score[p.Other()]),
		OwnMovesLeft: s.MovesLeft(p),
		OppMovesLeft: s.MovesLeft(p.Other()),
		Knockout:     s.rules.knockout,
		HalfThrows:   int(s.rules.halfThrows),
		ExtraThrows:  int(s.rules.extraThrows),
	}
	if s.phase == phaseLineups {
		o.Opp = Lineup{}
	}
	o.Ball = HomeSector(p, o.Ball)
	if w, ok := s.Possession(); ok {
		o.Possession = 1
		if w != p {
			o.Possession = -1
		}
	}
	if s.Acting(p) {
		o.Decision = s.Decision()
	}
	return o
}

// ObservationSize is the length of Observation.Vector.
const ObservationSize = 36

// Vector returns the observation as ObservationSize float32s for learners (a fresh slice).
// See AppendVector for the layout.
func (o Observation) Vector() []float32 {
	return o.AppendVector(make([]float32, 0, ObservationSize))
}

// AppendVector appends the ObservationSize slots to dst. Every slot is in [−1, 1] except
// goal counts (slots 16–17, which grow with goals). Layout:
//
//	0–4    own counters in own sectors 1..5, ÷5
//	5–9    opponent counters facing own sectors 1..5 (opponent sector 6−k), ÷5
//	10–14  ball one-hot, own sectors 1..5
//	15     (own goals − opponent goals) ÷ 5
//	16,17  own goals ÷ 10, opponent goals ÷ 10
//	18–23  period one-hot: pre-match, first half, second half, extra 1, extra 2, penalties/over
//	24     throws left in the period ÷ the period's length
//	25     own Basic moves left ÷ 5 (at most 1), 26 opponent's
//	27,28  own mode is Dynamic, opponent's mode is Dynamic (0/1)
//	29     possession: +1 own, −1 opponent, 0 none (just after a kick-off)
//	30–32  pending decision one-hot for the observer: kick-off, break, shift
//	33     knockout match (0/1)
//	34     the observer is Away (0/1)
//	35     throws left in the match's regular and extra time, as far as known now, ÷ (2×half)
func (o Observation) AppendVector(dst []float32) []float32 {
	start := len(dst)
	dst = append(dst, make([]float32, ObservationSize)...)
	v := dst[start:]
	for k := 0; k < Sectors; k++ {
		v[k] = float32(o.Own.c[k]) / MaxPerLine
		v[5+k] = float32(o.Opp.c[Sectors-1-k]) / MaxPerLine
	}
	if o.Ball >= 1 && o.Ball <= Sectors {
		v[10+o.Ball-1] = 1
	}
	v[15] = float32(o.OwnGoals-o.OppGoals) / 5
	v[16] = float32(o.OwnGoals) / 10
	v[17] = float32(o.OppGoals) / 10
	switch {
	case o.Period <= ExtraSecond:
		v[18+int(o.Period)] = 1
	default:
		v[23] = 1
	}
	length := o.HalfThrows
	if o.Period == ExtraFirst || o.Period == ExtraSecond {
		length = o.ExtraThrows
	}
	if length > 0 && o.Period >= FirstHalf && o.Period <= ExtraSecond {
		v[24] = float32(o.ThrowsLeft) / float32(length)
	}
	v[25] = min(float32(o.OwnMovesLeft)/5, 1)
	v[26] = min(float32(o.OppMovesLeft)/5, 1)
	v[27] = b2f(o.OwnMode == Dynamic)
	v[28] = b2f(o.OppMode == Dynamic)
	v[29] = float32(o.Possession)
	if o.Decision != NoDecision {
		v[30+int(o.Decision)-1] = 1
	}
	v[33] = b2f(o.Knockout)
	v[34] = b2f(o.Player == Away)
	if o.HalfThrows > 0 {
		left := o.ThrowsLeft
		switch o.Period {
		case PreMatch:
			left = 2 * o.HalfThrows
		case FirstHalf:
			left += o.HalfThrows
		case ExtraFirst:
			left += o.ExtraThrows
		case Penalties, FullTime:
			left = 0
		}
		v[35] = float32(left) / float32(2*o.HalfThrows)
	}
	return dst
}

func b2f(b bool) float32 {
	if b {
		return 1
	}
	return 0
}

// StateFromObservation rebuilds the state an acting player is deciding in from its
// observation: everything after kick-off is public. At the kick-off decision it is the state
// before the line-ups (the opponent's choice is hidden). Search agents use it as their model.
// It returns an error when the observation is not one of a decision the observer acts in.
func StateFromObservation(o Observation, r Rules) (State, error) {
	s, err := NewState(r)
	if err != nil {
		return State{}, err
	}
	switch o.Decision {
	case KickOff:
		return s, nil
	case Break, Shift:
	default:
		return State{}, fmt.Errorf("env: observation of %s is not at one of its decisions", o.Player)
	}
	if !o.Own.Valid() || !o.Opp.Valid() || o.Ball < 1 || o.Ball > Sectors || o.Period < FirstHalf || o.Period > ExtraSecond {
		return State{}, errors.New("env: observation is not of a match in play")
	}
	me, them := o.Player, o.Player.Other()
	s.lineups[me], s.lineups[them] = o.Own, o.Opp
	s.score[me], s.score[them] = uint16(o.OwnGoals), uint16(o.OppGoals)
	s.period, s.throwsLeft = o.Period, uint16(o.ThrowsLeft)
	s.extraTime = o.Period >= ExtraFirst
	s.ball = uint8(HomeSector(me, o.Ball))
	for p, left := range map[Player]int{me: o.OwnMovesLeft, them: o.OppMovesLeft} {
		if s.rules.modes[p] == Basic {
			s.movesUsed[p] = s.rules.moves - uint8(left)
		}
	}
	s.possession = noPossession
	switch o.Possession {
	case 1:
		s.possession = int8(me)
	case -1:
		s.possession = int8(them)
	}
	if o.Decision == Break {
		s.phase = phaseBreak
		return s, nil
	}
	// A shift resumes at a throw, or at the break of a kick-off when one just happened
	// (possession is reset exactly then).
	s.shifter = me
	s.resume = phaseThrow
	if s.possession == noPossession {
		s.breakOrThrow()
		s.resume = s.phase
	}
	s.phase = phaseShift
	return s, nil
}
