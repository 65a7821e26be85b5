package game

import (
	"context"
	"fmt"
	"math"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/solver/lineup"
	"github.com/kingoal/kingoal/solver/odds"
	"github.com/kingoal/kingoal/solver/policy"
)

// Check is the verification of a solved game: each side's best response to the other's
// equilibrium strategy (kick-off mix and break mixes), found by a separate solve —
// Verify's backward induction of both best responses, or VerifyByBasic's
// single-player solves.
type Check struct {
	HomeBest float64 `json:"home_best"` // home's payoff when home best-responds to away's strategy
	AwayBest float64 `json:"away_best"` // home's payoff when away best-responds to home's strategy
	// Exploitability is HomeBest − AwayBest: what the two best responses gain together
	// over the pair; 0 for an exact equilibrium (≥ 0 up to rounding).
	Exploitability float64 `json:"exploitability"`
	Solves         int     `json:"solves"` // single-player solves made (VerifyGameByBasic: one per opposing kick-off line-up; 0 otherwise)
	// HomeReply and AwayReply are the best responses' starting line-ups (Verify and
	// RespondToPolicies; not written to JSON).
	HomeReply, AwayReply env.Lineup `json:"-"`
}

// Tolerance is the largest exploitability, either way of 0, that a check takes for an exact
// equilibrium: the rounding of a backward induction over hundreds of millions of states.
const Tolerance = 1e-9

// Verified reports whether c shows an equilibrium: its exploitability within Tolerance of 0
// (a NaN never). Every check of a solved strategy — a Basic game's or a Dynamic one's, by the
// command line or the nash agent — reads it here (issue 65: two copies had drifted apart, one
// of them accepting any negative figure).
func (c Check) Verified() bool { return math.Abs(c.Exploitability) <= Tolerance }

// VerifyByBasic computes the best responses to g's strategies another way than
// Verify: SolveBasic against Drawing(the strategy) — the law of the next goal, breaks on
// demand — once per line-up in the support of each side's kick-off mix. Beyond SolveBasic's
// break limit it returns an error wrapping policy.ErrTooLarge; the tests hold Verify to it.
func VerifyByBasic(ctx context.Context, g *Game) (Check, error) {
	var c Check
	obj, toHome := gameObjective(g.Problem.Payoff)
	for _, p := range []env.Player{env.Home, env.Away} {
		opp := g.KickOff().Away
		if p == env.Away {
			opp = g.KickOff().Home
		}
		acc := make([]float64, env.NumLineups)
		for _, o := range opp {
			bp, err := policy.SolveBasic(policy.BasicProblem{Rules: g.Problem.Rules, Player: p, Own: o.Lineup, Opponent: o.Lineup,
				OpponentBreaks: policy.Drawing(g.Strategy(p.Other())), Objective: obj, Context: ctx})
			if err != nil {
				return Check{}, fmt.Errorf("solver: best response of %s to the equilibrium (opponent starting %v): %w", p, o.Lineup, err)
			}
			c.Solves++
			for l := range acc {
				acc[l] += o.Prob * bp.ValueFrom(env.LineupAt(l))
			}
		}
		best := math.Inf(-1)
		for _, v := range acc {
			best = max(best, v)
		}
		if p == env.Home {
			c.HomeBest = toHome(best)
		} else {
			c.AwayBest = -toHome(best)
		}
	}
	c.Exploitability = c.HomeBest - c.AwayBest
	return c, nil
}

// gameObjective is the single-player objective whose value is a side's own payoff, and the
// map from that value to the payoff (advance: P → 2P − 1).
func gameObjective(p lineup.Payoff) (odds.Objective, func(float64) float64) {
	switch p {
	case lineup.PayoffGoalDiff:
		return odds.ObjectiveGoalDiff, func(v float64) float64 { return v }
	case lineup.PayoffAdvance:
		return odds.ObjectiveAdvance, func(v float64) float64 { return 2*v - 1 }
	}
	return odds.ObjectiveWinLoss, func(v float64) float64 { return v }
}
