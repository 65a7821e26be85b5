package dyngame

import (
	"context"
	"fmt"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/solver/game"
	"github.com/kingoal/kingoal/solver/internal/induction"
	"github.com/kingoal/kingoal/solver/lineup"
	"github.com/kingoal/kingoal/solver/zerosum"
)

// The substitution game with a Dynamic coach on at least one side. A Dynamic side makes no
// Basic moves; after each throw it wins (under the turnover trigger: each it wins back) it
// may shift one counter, in the open, before anything else happens. So after the kick-off
// the game has perfect information: a Dynamic side's shift is a max (home) or a min (away)
// inside the throw recursion, and a break — where only the Basic side, if there is one,
// chooses — is a max or a min over that side's reachable line-ups. Only the kick-off's
// line-ups stay a simultaneous hidden choice: a 121 × 121 matrix game. Solve
// goes backward over throws as SolveGame does (the same reachable and decided differences),
// with possession in the state under the turnover trigger, and keeps every decision it
// takes as a byte: the strategy a match plays (Game.Choice).

// Game is a solved substitution game with a Dynamic side. It is read-only and safe
// for concurrent use.
type Game struct {
	Problem game.Problem
	space   *dynSpace
	ls      *induction.Layers // the recursion's rules: lengths, spans, decided differences
	row     int               // a value row's length (values: configurations, or three times that with the check)
	kickOff zerosum.MatrixGame
	// kickValues[i][j] is home's value when the match kicks off with home's line-up i and
	// away's j: the kick-off's matrix game.
	kickValues [][]float64
	check      *game.Check
	stats      game.Stats
	// dec[per][t] is every decision taken at the throws and breaks with t throws left in
	// period per (see dynDecisions).
	dec [][]*dynDecisions
	// values, kept only by tests (keepValues), is every layer's values.
	values [][]*dynLayer
}

// Size is what Solve would hold, computed without solving.
type Size struct {
	Configs     int   // configurations: both sides' line-ups (and a Basic side's moves left)
	Layers      int   // (period, throws left) layers
	ThrowStates int64 // states before a throw with a value (difference, ball, possession, configuration)
	Decisions   int64 // bytes of the strategy kept: one a decision
	Working     int64 // bytes of values held at once (two layers of throws, their breaks and shifts)
	Verify      int64 // Working with both best responses riding along
}

// Peak is the estimated peak memory of a solve: 2.5 times what is live — Go's collector lets
// the heap grow to about twice that, and a period's first layer and the layers of the period
// before wait for it (twice was up to 10% under the peak RSS measured at the default length,
// BENCHMARKS.md).
func (s Size) Peak(verify bool) int64 {
	w := s.Working
	if verify {
		w = s.Verify
	}
	return 5 * (w + s.Decisions) / 2
}

// Estimate returns the size of the game with a Dynamic side under r for payoff p.
func Estimate(r env.Rules, p lineup.Payoff) (Size, error) {
	sp, ls, err := newDynamicRecursion(game.Problem{Rules: r, Payoff: p})
	if err != nil {
		return Size{}, err
	}
	n := int64(sp.configs)
	s := Size{Configs: sp.configs}
	var widest int64
	for per, length := range ls.Lengths {
		for t := 1; t <= length; t++ {
			lo, hi := ls.Span(per, t)
			d := int64(max(hi-lo+1, 0))
			s.Layers++
			s.ThrowStates += d * env.Sectors * int64(sp.poss) * n
			s.Decisions += d * n * sp.decisionsPerConfig()
			widest = max(widest, d)
		}
	}
	// Two throw layers, the shifted rows of each, and the breaks of a layer, of every
	// period's start and of the layer before, with their shifted rows.
	perLayer := widest * n * 8 * (2*env.Sectors*int64(sp.poss) + 2*env.Sectors*int64(sp.dynamicSides()) +
		int64(2+len(ls.Lengths))*int64(1+sp.dynamicSides()))
	s.Working, s.Verify = perLayer, 3*perLayer
	return s, nil
}

// Solve solves the substitution game when at least one side plays Dynamic (rules
// §6): every shift and every break is a max or a min, the kick-off a matrix game verified
// against every pure reply. With p.Verify, both sides' best responses to the other's
// strategy ride along (Check). With p.Table, the whole strategy is written there once solved
// (Game.WriteTable; Load reads it). A game larger than p.MaxBytes (0: DefaultGameBytes) is
// refused before anything is allocated, with an error wrapping policy.ErrTooLarge.
func Solve(p game.Problem) (*Game, error) {
	return solveDynamicGame(p, false)
}

func solveDynamicGame(p game.Problem, keepValues bool) (*Game, error) {
	size, err := Estimate(p.Rules, p.Payoff)
	if err != nil {
		return nil, err
	}
	if err := p.Fits(size.Peak(p.Verify), fmt.Sprintf("the substitution game with a Dynamic side under these rules holds %d throw states", size.ThrowStates)); err != nil {
		return nil, err
	}
	s, err := newDynSolver(p, keepValues)
	if err != nil {
		return nil, err
	}
	if err := s.run(); err != nil {
		return nil, err
	}
	g, err := s.finish()
	if err != nil || p.Table == nil {
		return g, err
	}
	ctx := p.Context
	if ctx == nil {
		ctx = context.Background()
	}
	return g, g.writeTable(ctx, p.Table)
}

// Value is the game's value to home.
func (g *Game) Value() float64 { return g.kickOff.Value }

// KickOff is the equilibrium of the kick-off's hidden choice of line-ups.
func (g *Game) KickOff() lineup.LineupEquilibrium {
	return lineup.LineupEquilibrium{Payoff: g.Problem.Payoff, Value: g.kickOff.Value, Home: lineup.MixOf(g.kickOff.X), Away: lineup.MixOf(g.kickOff.Y),
		Exploitability: g.kickOff.Exploitability, Dominated: g.kickOff.Dominated}
}

// Check is the best-response check the solve ran (GameProblem.Verify), if it ran.
func (g *Game) Check() (game.Check, bool) {
	if g.check == nil {
		return game.Check{}, false
	}
	return *g.check, true
}

// Rules are the rules the game was solved under.
func (g *Game) Rules() env.Rules { return g.Problem.Rules }

// Payoff is the payoff the game was solved for.
func (g *Game) Payoff() lineup.Payoff { return g.Problem.Payoff }

// Stats measures the solve: Layers, BreakStates (here: the throw states), StageGames (the
// kick-off's one), OneSided (decisions taken: shifts and Basic breaks) and Bytes (the
// strategy kept: a byte a decision, so equal to OneSided).
func (g *Game) Stats() game.Stats { return g.stats }
