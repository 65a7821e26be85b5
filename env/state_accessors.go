// What a State says about the match: line-ups, ball, score, time, moves, result.

package env

import (
	"fmt"
	"strings"
)

// Dice returns how many dice home and away throw at the current ball position.
func (s State) Dice() (homeDice, awayDice int) {
	return diceFor(&s.lineups[Home], &s.lineups[Away], int(s.ball))
}

// Lineup returns p's current line-up (the zero Lineup before kick-off).
func (s State) Lineup(p Player) Lineup { return s.lineups[p] }

// Mode returns p's mode.
func (s State) Mode(p Player) Mode { return s.rules.modes[p] }

// Ball returns the ball's sector in home coordinates (1..5); 3 before kick-off.
func (s State) Ball() int {
	if s.ball == 0 {
		return midfield
	}
	return int(s.ball)
}

// Goals returns p's goals in play (penalties not included).
func (s State) Goals(p Player) int { return int(s.score[p]) }

// Period returns the current period.
func (s State) Period() Period { return s.period }

// ThrowsLeft returns the throws left in the current period.
func (s State) ThrowsLeft() int { return int(s.throwsLeft) }

// MovesUsed returns the Basic moves p has spent.
func (s State) MovesUsed(p Player) int { return int(s.movesUsed[p]) }

// MovesLeft returns the Basic moves p may still spend (0 for a Dynamic player).
func (s State) MovesLeft(p Player) int {
	if s.rules.modes[p] == Dynamic {
		return 0
	}
	return int(s.rules.moves - s.movesUsed[p])
}

// Possession returns the side that won the last decided throw since the last kick-off.
func (s State) Possession() (Player, bool) {
	if s.possession == noPossession {
		return Home, false
	}
	return Player(s.possession), true
}

// Shifter returns the player who may shift at a Shift decision.
func (s State) Shifter() Player { return s.shifter }

// PeriodsPlayed is how many periods the match has reached: 2 halves, 2 more with extra
// time, 1 more with a shoot-out.
func (s State) PeriodsPlayed() int {
	n := 2
	if s.PlayedExtraTime() {
		n += 2
	}
	if s.PlayedShootout() {
		n++
	}
	return n
}

// PlayedExtraTime reports whether the match has reached extra time.
func (s State) PlayedExtraTime() bool { return s.extraTime }

// Winner returns the winner of a finished match (the side that advances in a knockout),
// and false for a draw or a match not yet over.
func (s State) Winner() (Player, bool) {
	if s.phase != phaseOver {
		return Home, false
	}
	h, a := s.score[Home], s.score[Away]
	if h == a && s.period == FullTime && (s.penTaken[Home] > 0 || s.penTaken[Away] > 0) {
		h, a = s.penScored[Home], s.penScored[Away]
	}
	switch {
	case h > a:
		return Home, true
	case a > h:
		return Away, true
	}
	return Home, false
}

// Result returns +1, 0 or −1 for a win, draw or loss of p in a finished match
// (in a knockout, winning the shoot-out counts as a win); 0 before the end.
func (s State) Result(p Player) int {
	w, ok := s.Winner()
	switch {
	case !ok:
		return 0
	case w == p:
		return 1
	}
	return -1
}

// LeaguePoints returns p's league points for a finished match, by the goals in play
// (rules §7: a league match has no shoot-out), or 0 before the end.
func (s State) LeaguePoints(p Player) int {
	if s.phase != phaseOver {
		return 0
	}
	switch d := int(s.score[p]) - int(s.score[p.Other()]); {
	case d > 0:
		return int(s.rules.points[0])
	case d == 0:
		return int(s.rules.points[1])
	}
	return int(s.rules.points[2])
}

// String is a one-line summary used in transcripts (see ExampleState_String).
func (s State) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s", s.period)
	if s.period != PreMatch && s.period < Penalties {
		fmt.Fprintf(&b, ", %d left | ball %d", s.throwsLeft, s.Ball())
	}
	fmt.Fprintf(&b, " | %d-%d", s.score[Home], s.score[Away])
	if s.penTaken[Home]+s.penTaken[Away] > 0 {
		fmt.Fprintf(&b, " (pens %d-%d of %d-%d)", s.penScored[Home], s.penScored[Away], s.penTaken[Home], s.penTaken[Away])
	}
	if s.period != PreMatch {
		fmt.Fprintf(&b, " | %s", s.lineups[Home])
		if s.movesUsed[Home] > 0 {
			fmt.Fprintf(&b, " (%d moved)", s.movesUsed[Home])
		}
		fmt.Fprintf(&b, " v %s", s.lineups[Away])
		if s.movesUsed[Away] > 0 {
			fmt.Fprintf(&b, " (%d moved)", s.movesUsed[Away])
		}
	}
	fmt.Fprintf(&b, " | %s", s.Node())
	if d := s.Decision(); d != NoDecision {
		fmt.Fprintf(&b, " %s", d)
		if d == Shift {
			fmt.Fprintf(&b, " by %s", s.shifter)
		}
	}
	return b.String()
}

// Node returns the kind of the current node.
func (s State) Node() NodeKind {
	switch s.phase {
	case phaseThrow, phaseCoin, phaseKick:
		return Chance
	case phaseOver:
		return Terminal
	}
	return Decision
}

// Decision returns which decision is pending (NoDecision at chance and terminal nodes).
func (s State) Decision() DecisionKind {
	switch s.phase {
	case phaseLineups:
		return KickOff
	case phaseBreak:
		return Break
	case phaseShift:
		return Shift
	}
	return NoDecision
}
