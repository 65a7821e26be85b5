package env

import (
	"errors"
	"fmt"
)

type phase uint8

const (
	phaseLineups phase = iota
	phaseBreak
	phaseShift
	phaseThrow
	phaseCoin
	phaseKick
	phaseOver
)

const (
	midfield      = 3
	noPossession  = -1
	shootoutKicks = 5
)

// ruleset is the part of Rules the dynamics need, resolved to concrete numbers.
type ruleset struct {
	halfThrows, extraThrows uint16
	moves                   uint8
	tiesCount, turnover     bool
	knockout                bool
	modes                   [2]Mode
	points                  [3]int16
}

// State is the complete state of one match: a value, cheap to copy (search and solvers
// copy it freely). Its zero value is not usable: build one with NewState or NewMatch.
//
// A State is a node of an extensive-form game with simultaneous moves: chance nodes
// (ChanceOutcomes, ApplyChance), decision nodes for one or both players (Legal, Apply) and
// terminal nodes. Apply and ApplyChance are unchecked, for search; ApplyChecked and
// ApplyChanceChecked validate and return ErrIllegalAction for user input.
type State struct {
	lineups     [2]Lineup
	score       [2]uint16
	penTaken    [2]uint16
	penScored   [2]uint16
	throwsLeft  uint16
	movesUsed   [2]uint8
	ball        uint8
	period      Period
	phase       phase
	resume      phase // what follows a pending Dynamic shift
	shifter     Player
	firstKicker Player
	possession  int8 // the side that won the last decided throw since kick-off, or noPossession
	extraTime   bool // extra time has been reached
	rules       ruleset
}

// NewState returns the state before kick-off: both players must declare line-ups.
func NewState(r Rules) (State, error) {
	if err := r.Validate(); err != nil {
		return State{}, err
	}
	p := r.LeaguePoints()
	return State{
		phase:      phaseLineups,
		possession: noPossession,
		rules: ruleset{
			halfThrows:  uint16(r.HalfThrows()),
			extraThrows: uint16(r.ExtraThrows()),
			moves:       uint8(r.MoveBudget()),
			tiesCount:   r.TiesCount,
			turnover:    r.DynamicTrigger == TriggerTurnover,
			knockout:    r.Knockout,
			modes:       r.Modes,
			points:      [3]int16{int16(p.Win), int16(p.Draw), int16(p.Loss)},
		},
	}, nil
}

// NewMatch returns the state right after kick-off with the given line-ups declared.
func NewMatch(r Rules, home, away Lineup) (State, error) {
	s, err := NewState(r)
	if err != nil {
		return State{}, err
	}
	if err := s.ApplyChecked([2]int{home.Index(), away.Index()}); err != nil {
		return State{}, err
	}
	return s, nil
}

// Rules returns the rules the match is played under, with every default made explicit.
func (s State) Rules() Rules {
	r := Rules{
		ThrowsPerHalf:      int(s.rules.halfThrows),
		ExtraThrowsPerHalf: int(s.rules.extraThrows),
		Moves:              int(s.rules.moves),
		TiesCount:          s.rules.tiesCount,
		Knockout:           s.rules.knockout,
		Modes:              s.rules.modes,
		Points:             Points{int(s.rules.points[0]), int(s.rules.points[1]), int(s.rules.points[2])},
	}
	if s.rules.turnover {
		r.DynamicTrigger = TriggerTurnover
	}
	if r.ExtraThrowsPerHalf == 0 {
		r.ExtraThrowsPerHalf = NoExtraTime
	}
	if r.Moves == 0 {
		r.Moves = NoMoves
	}
	return r
}

// Acting reports whether p has a real choice at the current decision node.
func (s State) Acting(p Player) bool {
	switch s.phase {
	case phaseLineups:
		return true
	case phaseBreak:
		return s.rules.modes[p] == Basic && s.movesUsed[p] < s.rules.moves
	case phaseShift:
		return p == s.shifter
	}
	return false
}

// Legal returns p's legal actions (line-up indices). At a decision node it is never empty:
// a player who is not acting may only keep the current line-up. At other nodes it is empty.
func (s State) Legal(p Player) Mask {
	switch s.phase {
	case phaseLineups:
		return fullMask
	case phaseBreak:
		if s.Acting(p) {
			return s.lineups[p].Reachable(int(s.rules.moves - s.movesUsed[p]))
		}
	case phaseShift:
		if p == s.shifter {
			return s.lineups[p].Shifts()
		}
	default:
		return Mask{}
	}
	return singleMask(s.lineups[p].Index())
}

// Apply plays a decision: joint[p] is the line-up index player p chooses. Entries of players
// who are not acting are ignored. It does not check legality (see ApplyChecked); at a
// non-decision node it does nothing.
func (s *State) Apply(joint [2]int) {
	switch s.phase {
	case phaseLineups:
		s.lineups = [2]Lineup{LineupAt(joint[Home]), LineupAt(joint[Away])}
		s.period = FirstHalf
		s.throwsLeft = s.rules.halfThrows
		s.ball = midfield
		s.phase = phaseThrow
	case phaseBreak:
		to := s.lineups // a player not acting keeps its line-up (its action is ignored)
		for p := Home; p <= Away; p++ {
			if s.Acting(p) {
				to[p] = LineupAt(joint[p])
			}
		}
		s.endBreak(to)
	case phaseShift:
		s.endShift(LineupAt(joint[s.shifter]))
	}
}

// endBreak applies a break's choices: each player takes its line-up in to, paying its
// moves (a player not acting must keep its own).
func (s *State) endBreak(to [2]Lineup) {
	for p := Home; p <= Away; p++ {
		if to[p] != s.lineups[p] {
			s.movesUsed[p] += uint8(s.lineups[p].Moves(to[p]))
			s.lineups[p] = to[p]
		}
	}
	s.phase = phaseThrow
}

// endShift applies the shifting player's new line-up.
func (s *State) endShift(to Lineup) {
	s.lineups[s.shifter] = to
	// Clear the shift's bookkeeping so equal situations are equal values.
	s.phase, s.resume, s.shifter = s.resume, 0, 0
}

// keepAll applies "everyone keeps their formation" at a break or a shift (Playout's choice),
// without the round trip through action indices.
func (s *State) keepAll() {
	switch s.phase {
	case phaseBreak:
		s.endBreak(s.lineups)
	case phaseShift:
		s.endShift(s.lineups[s.shifter])
	}
}

// ErrIllegalAction is wrapped by every error for an action or outcome the rules forbid.
var ErrIllegalAction = errors.New("env: illegal action")

// ApplyChecked is Apply for untrusted input: it returns an error wrapping ErrIllegalAction,
// and leaves s unchanged, if the node is not a decision or an acting player's action is not legal.
func (s *State) ApplyChecked(joint [2]int) error {
	if s.Node() != Decision {
		return fmt.Errorf("%w: no decision is pending (%s node)", ErrIllegalAction, s.Node())
	}
	for p := Home; p <= Away; p++ {
		if err := s.CheckAction(p, joint[p]); err != nil {
			return err
		}
	}
	s.Apply(joint)
	return nil
}

// CheckAction returns nil if p may play action a now (or p is not acting, so a is
// ignored), and otherwise an error wrapping ErrIllegalAction that says why.
func (s State) CheckAction(p Player, a int) error {
	if s.Node() != Decision {
		return fmt.Errorf("%w: no decision is pending (%s node)", ErrIllegalAction, s.Node())
	}
	if !s.Acting(p) || s.Legal(p).Has(a) {
		return nil
	}
	return fmt.Errorf("%w %d for %s: %s", ErrIllegalAction, a, p, s.whyIllegal(p, a))
}

func (s State) whyIllegal(p Player, a int) string {
	if a < 0 || a >= NumActions {
		return fmt.Sprintf("actions are line-up indices 0..%d", NumActions-1)
	}
	to := LineupAt(a)
	switch s.phase {
	case phaseBreak:
		left := int(s.rules.moves - s.movesUsed[p])
		return fmt.Sprintf("%s → %s costs %s, %d left", s.lineups[p], to, Plural(s.lineups[p].Moves(to), "move"), left)
	case phaseShift:
		return fmt.Sprintf("%s → %s is not one counter to an adjacent sector", s.lineups[p], to)
	}
	return "not legal here"
}

// AppendChanceOutcomes appends the outcomes of the current chance node with their exact
// probabilities (they sum to 1) and returns the extended slice; at other nodes it appends
// nothing. It does not allocate when dst has room for 3.
func (s State) AppendChanceOutcomes(dst []ChanceOutcome) []ChanceOutcome {
	switch s.phase {
	case phaseThrow:
		hd, ad := s.Dice()
		h, a, t := ThrowOdds(hd, ad, s.rules.tiesCount)
		dst = append(dst, ChanceOutcome{HomeWins, h}, ChanceOutcome{AwayWins, a})
		if s.rules.tiesCount {
			dst = append(dst, ChanceOutcome{Tie, t})
		}
	case phaseCoin:
		dst = append(dst, ChanceOutcome{HomeKicksFirst, 0.5}, ChanceOutcome{AwayKicksFirst, 0.5})
	case phaseKick:
		dst = append(dst, ChanceOutcome{KickScored, PenaltyGoal}, ChanceOutcome{KickSaved, 1 - PenaltyGoal})
	}
	return dst
}

// ChanceOutcomes returns the outcomes of the current chance node (a fresh slice).
func (s State) ChanceOutcomes() []ChanceOutcome {
	return s.AppendChanceOutcomes(make([]ChanceOutcome, 0, 3))
}

// ApplyChanceChecked is ApplyChance for untrusted input.
func (s *State) ApplyChanceChecked(o Outcome) error {
	var buf [3]ChanceOutcome
	for _, c := range s.AppendChanceOutcomes(buf[:0]) {
		if c.Outcome == o && c.Prob > 0 {
			s.ApplyChance(o)
			return nil
		}
	}
	return fmt.Errorf("%w: outcome %q is not possible at this %s node", ErrIllegalAction, o, s.Node())
}

// ApplyChance plays the result of the current chance node. It does not check that o is
// one of ChanceOutcomes (see ApplyChanceChecked).
func (s *State) ApplyChance(o Outcome) {
	switch s.phase {
	case phaseThrow:
		s.applyThrow(o)
	case phaseCoin:
		s.firstKicker = Home
		if o == AwayKicksFirst {
			s.firstKicker = Away
		}
		s.phase = phaseKick
	case phaseKick:
		k := s.NextKicker()
		s.penTaken[k]++
		if o == KickScored {
			s.penScored[k]++
		}
		if s.shootoutDecided() {
			s.finish()
		}
	}
}
