package solver

import (
	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/solver/dyngame"
	"github.com/kingoal/kingoal/solver/game"
	"github.com/kingoal/kingoal/solver/lineup"
)

// Game is a solved substitution game of either kind: two Basic sides (its breaks are matrix
// games: BreakMixes) or a Dynamic side (every decision after the kick-off is pure: Decisions).
// It is read-only and safe for concurrent use. What a consumer needs beyond this it asks for
// as an ability, never by the concrete type.
type Game interface {
	Rules() env.Rules
	Payoff() lineup.Payoff
	// Value is the game's value to home: the kick-off's matrix game.
	Value() float64
	// KickOff is both sides' equilibrium mix of starting line-ups.
	KickOff() lineup.LineupEquilibrium
	// Check is the best-response check its solve ran or its table stored (ok false: none).
	Check() (c game.Check, ok bool)
	// Stats measures the solve.
	Stats() game.Stats
}

// BreakMixes is the ability of a game of two Basic sides: both sides' equilibrium mixes and
// home's value at every break, and the kick-off under any pair of budgets.
type BreakMixes interface {
	Game
	At(game.State) (game.StageSolution, error)
	// Moves is the budget the game holds (capped at 5: no change costs more).
	Moves() int
	KickOffWith(homeMoves, awayMoves int) (lineup.LineupEquilibrium, error)
}

// Decisions is the ability of a game with a Dynamic side: the equilibrium's pure choice at
// every shift and break.
type Decisions interface {
	Game
	// ChoiceFor is the line-up the side deciding at o plays.
	ChoiceFor(o env.Observation) (env.Lineup, error)
	// Typical is side p's decision in a typical situation of the period per with left throws
	// left and home's goal difference diff, from line-ups home and away: a Dynamic side's
	// shift after winning a throw to midfield (at: the throws left then), a Basic side's
	// choice at the break. game.ErrNotSolved for a score no match reaches by then.
	Typical(p env.Player, per env.Period, left, diff int, home, away env.Lineup) (to env.Lineup, at int, err error)
}

// HasDynamic reports whether r has a Dynamic side: its game is the one with Decisions.
func HasDynamic(r env.Rules) bool { return dyngame.HasDynamic(r) }
