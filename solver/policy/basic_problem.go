// The Basic problem: what a Basic player decides at a break, and against whom.

package policy

import (
	"context"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/solver/odds"
)

// BreakPolicy chooses a Basic player's line-up at a break, from that player's BreakState.
// BasicPolicy implements it, so a computed policy can be the opponent of another. As an
// opponent in SolveBasic it is shown the whole state, the player's line-up and remaining
// moves included (those capped at 5: no change costs more). A BreakPolicy whose choice does
// not depend on them may say so (OpponentBlind): it is then asked once per break instead of
// once per line-up and budget of the player.
type BreakPolicy interface {
	Best(s BreakState) (env.Lineup, error)
}

// MixedBreakPolicy chooses a Basic player's line-up at a break at random: Mix returns the
// line-ups (each within the player's moves) and their probabilities. Game.Strategy is one.
type MixedBreakPolicy interface {
	Mix(s BreakState) ([]env.Weighted, error)
}

// BasicProblem asks for the best Basic substitution policy of Player, who starts with Own,
// against an opponent who starts with Opponent and keeps it, or does at every break what
// OpponentBreaks says, with the rules' move budget.
type BasicProblem struct {
	Rules    env.Rules
	Player   env.Player
	Own      env.Lineup
	Opponent env.Lineup
	// OpponentBreaks is what the opponent does at breaks (the zero value: it keeps Opponent).
	OpponentBreaks OpponentBreaks
	Objective      odds.Objective
	// Context, if set, stops the solve when it is done: SolveBasic then returns its error
	// within a few milliseconds.
	Context context.Context
	// From, if set (against a fixed opponent only), solves the match from this break on:
	// only the breaks reachable from it, which Best then answers exactly as the whole-match
	// policy would — for a break late in the match a small part of the work. Value and
	// NoChangeValue are then the values at From; ValueFrom is not available.
	From *BreakState
	// MaxBreaks, if > 0, lowers the number of breaks a solve against an opponent policy may
	// hold (default and upper limit 100,000, ~8 KB each): beyond it SolveBasic returns an
	// error wrapping ErrTooLarge.
	MaxBreaks int
}

// adaptive reports whether the opponent may change its line-up.
func (p BasicProblem) adaptive() bool { return !p.OpponentBreaks.Keeps() }

// OpponentBreaks is what a Basic problem's opponent does at breaks, one of three: the zero
// value keeps its line-up all match; Playing(policy) plays a BreakPolicy, which is shown the
// whole state; Drawing(mix) draws its line-up at each break from a mix, and the player then
// maximises its expectation over the draw (it cannot see the draw before choosing) — a best
// response to an equilibrium.
type OpponentBreaks struct {
	policy BreakPolicy
	mix    MixedBreakPolicy
}

// Playing is an opponent that plays policy at every break.
func Playing(policy BreakPolicy) OpponentBreaks { return OpponentBreaks{policy: policy} }

// Drawing is an opponent that draws from mix at every break.
func Drawing(mix MixedBreakPolicy) OpponentBreaks { return OpponentBreaks{mix: mix} }

// Keeps reports whether the opponent keeps its line-up all match.
func (o OpponentBreaks) Keeps() bool { return o.policy == nil && o.mix == nil }

// BreakState is what a Basic decision depends on: a break before a kick-off, seen by the
// deciding player. At the start of a period ThrowsLeft is the period's length.
type BreakState struct {
	Period       env.Period // FirstHalf..ExtraSecond: the period about to (re)start
	ThrowsLeft   int        // throws left in that period
	GoalDiff     int        // own goals − opponent goals
	Own          env.Lineup // current line-up
	MovesLeft    int
	OppLineup    env.Lineup // the opponent's current line-up
	OppMovesLeft int
}

// BreakStateOf reads the BreakState of player p from an env state at a Break decision
// (or at the start of a period).
func BreakStateOf(s env.State, p env.Player) BreakState {
	return BreakState{
		Period:       s.Period(),
		ThrowsLeft:   s.ThrowsLeft(),
		GoalDiff:     s.Goals(p) - s.Goals(p.Other()),
		Own:          s.Lineup(p),
		MovesLeft:    s.MovesLeft(p),
		OppLineup:    s.Lineup(p.Other()),
		OppMovesLeft: s.MovesLeft(p.Other()),
	}
}
