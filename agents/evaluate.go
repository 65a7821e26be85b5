package agents

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/internal/memo"
	"github.com/kingoal/kingoal/solver/odds"
	"github.com/kingoal/kingoal/solver/policy"
)

// Report is an agent's record against one opponent. Score is P(win) + ½ P(draw) averaged
// over both sides; win, draw and loss shares are the agent's.
type Report struct {
	Opponent        string
	Exact           bool // computed exactly (deterministic agent v fixed opponent), else Monte Carlo
	Matches         int  // Monte Carlo matches (0 when exact)
	Win, Draw, Loss float64
	Score, ScoreCI  float64 // ScoreCI: half-width of the 95% interval (0 when exact)
	BestResponse    float64 // the optimum's score against this opponent; NaN when unknown
	Regret          float64 // BestResponse − Score; NaN when unknown
	RegretCI        float64 // = ScoreCI
}

// EvaluateAgainst measures the agents newAgent builds against the opponent spec under r.
// Against fixed:L with both players in Basic mode the optimum is known exactly (the best
// kick-off line-up with the optimal policy after it, policy.SolveBasic), and a deterministic
// agent is scored exactly; otherwise it plays matches (sides alternating; match i's dice
// and seeds from (seed, i); each agent is built once and reseeded every match) and reports
// a 95% interval. newAgent should build its agent with ctx (Setup.Context): when ctx is
// done the evaluation stops within milliseconds and returns ctx's error.
func EvaluateAgainst(ctx context.Context, newAgent func() (Agent, error), opponent string, r env.Rules, matches int, seed uint64) (Report, error) {
	rep := Report{Opponent: opponent, BestResponse: math.NaN(), Regret: math.NaN()}
	setup := Setup{Rules: r, Context: ctx}
	if _, err := New(opponent, setup); err != nil {
		return rep, err
	}
	fixed := fixedLineup(opponent)
	if fixed != nil && r.Modes == [2]env.Mode{} {
		best, err := bestResponseScore(r, *fixed)
		if err != nil {
			return rep, err
		}
		rep.BestResponse = best
	}
	a, err := newAgent()
	if err != nil {
		return rep, err
	}
	if fixed != nil && IsDeterministic(a) {
		err = evaluateExactly(ctx, &rep, a, *fixed, r)
	} else {
		err = evaluateByMatches(ctx, &rep, a, opponent, setup, matches, seed)
	}
	if err != nil {
		return rep, err
	}
	if !math.IsNaN(rep.BestResponse) {
		rep.Regret, rep.RegretCI = rep.BestResponse-rep.Score, rep.ScoreCI
	}
	return rep, nil
}

// evaluateExactly scores deterministic agent a against a keeper of fixed by the solver,
// playing each side once.
func evaluateExactly(ctx context.Context, rep *Report, a Agent, fixed env.Lineup, r env.Rules) error {
	keep := policy.Keeping{Lineup: fixed}
	home, err := policy.Evaluate(policy.PolicyOf(a), keep, r)
	if err != nil {
		return err
	}
	away, err := policy.Evaluate(keep, policy.PolicyOf(a), r)
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := ErrOf(a); err != nil {
		return err
	}
	rep.Exact = true
	rep.Win = (home.HomeWin + away.AwayWin) / 2
	rep.Draw = (home.Draw + away.Draw) / 2
	rep.Loss = (home.AwayWin + away.HomeWin) / 2
	rep.Score = rep.Win + rep.Draw/2
	return nil
}

// evaluateByMatches scores a against opponent over matches Monte Carlo matches, sides
// alternating, with the score's 95% interval.
func evaluateByMatches(ctx context.Context, rep *Report, a Agent, opponent string, setup Setup, matches int, seed uint64) error {
	if matches <= 0 {
		return fmt.Errorf("agents: evaluation needs at least one match")
	}
	var wins, draws int
	sq := 0.0
	opp, err := New(opponent, setup) // built once: solver-backed agents keep their caches
	if err != nil {
		return err
	}
	for i := range matches {
		if err := ctx.Err(); err != nil {
			return err
		}
		for k, ag := range []Agent{a, opp} {
			Reseed(ag, env.SeededSource(seed, uint64(2*i+k)).Uint64())
		}
		home, away, me := env.Policy(a), env.Policy(opp), env.Home
		if i%2 == 1 {
			home, away, me = opp, a, env.Away
		}
		s, err := env.NewState(setup.Rules)
		if err != nil {
			return err
		}
		end, err := env.Play(s, home, away, env.NewFastSampler(env.SeededSource(seed^streamEvalDice, uint64(i))), nil)
		if err != nil {
			return err
		}
		for _, ag := range []Agent{a, opp} {
			if err := ErrOf(ag); err != nil {
				if ctx.Err() != nil {
					return ctx.Err()
				}
				return err
			}
		}
		switch end.Result(me) {
		case 1:
			wins++
			sq++
		case 0:
			draws++
			sq += 0.25
		}
	}
	n := float64(matches)
	rep.Matches = matches
	rep.Win, rep.Draw = float64(wins)/n, float64(draws)/n
	rep.Loss = 1 - rep.Win - rep.Draw
	rep.Score = rep.Win + rep.Draw/2
	rep.ScoreCI = 1.96 * math.Sqrt(max(sq/n-rep.Score*rep.Score, 0)/n)
	return nil
}

// fixedLineup returns the line-up of a "fixed:…" spec, or nil.
func fixedLineup(spec string) *env.Lineup {
	a, err := New(spec, Setup{})
	if f, ok := a.(Fixed); err == nil && ok && strings.HasPrefix(strings.TrimSpace(spec), "fixed") {
		return &f.Lineup
	}
	return nil
}

// bestResponses memoises bestResponseScore (a pure function of its arguments); a number an
// entry, bounded so that a server fed many rule sets does not grow without end.
var bestResponses = memo.Cache[brKey, float64]{Limit: 1 << 14}

type brKey struct {
	rules env.Rules // Canonical
	opp   env.Lineup
}

// bestResponseScore is the optimum's score (P(win) + ½ P(draw)) against a player who keeps
// opp: the best kick-off line-up, then the optimal Basic policy. One solve covers every
// kick-off line-up (policy.BasicPolicy.ValueFrom).
func bestResponseScore(r env.Rules, opp env.Lineup) (float64, error) {
	return bestResponses.Get(context.Background(), brKey{r.Canonical(), opp}, func() (float64, error) {
		pol, err := policy.SolveBasic(policy.BasicProblem{Rules: r, Own: opp, Opponent: opp, Objective: odds.ObjectiveWinDraw})
		if err != nil {
			return 0, err
		}
		best := 0.0
		for _, own := range env.AllLineups() {
			best = max(best, pol.ValueFrom(own))
		}
		return best, nil
	})
}
