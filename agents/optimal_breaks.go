// optimal's (and equilibrium's) whole decision table, for exact exploitability: one one-sided solve per side and opponent line-up.

package agents

import (
	"sync"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/solver/game"
	"github.com/kingoal/kingoal/solver/policy"
)

// optimalPolicy is an Optimal agent on one side as a game.Policy. Its choice at a
// break is the best response to the opponent's current line-up kept to the end — what a
// SolveBasic from the kick-off against that line-up answers at every break (BasicProblem.From
// documents that a solve from a break answers as the whole-match one) — so its whole table is
// one solve per opponent line-up, shared by the workers, not a solve per break state.
type optimalPolicy struct {
	o      *Optimal
	side   env.Player
	solves *BreakSolves
}

// BreakSolves are the policies against each opponent line-up, per side, solved once: what
// Optimal agents of one spec answer at every break (Optimal.AtBreaks), shared by them all.
// The zero value is ready to use.
type BreakSolves struct {
	mu   sync.Mutex
	once map[cacheKey]*optimalSolve
}

type optimalSolve struct {
	once sync.Once
	pol  *policy.BasicPolicy
	err  error
}

func (s *BreakSolves) get(o *Optimal, k cacheKey) (*policy.BasicPolicy, error) {
	s.mu.Lock()
	if s.once == nil {
		s.once = map[cacheKey]*optimalSolve{}
	}
	e := s.once[k]
	if e == nil {
		e = &optimalSolve{}
		s.once[k] = e
	}
	s.mu.Unlock()
	e.once.Do(func() {
		e.pol, e.err = policy.SolveBasic(policy.BasicProblem{Rules: o.Rules, Player: k.player, Own: k.opp, Opponent: k.opp, Objective: o.Objective, Context: o.Context})
	})
	return e.pol, e.err
}

// AtBreaks is o on side as a game.Policy, its choices at every break state read off solves
// (see optimalPolicy): one solve per opponent line-up, not one per break state.
func (o *Optimal) AtBreaks(side env.Player, solves *BreakSolves) game.Policy {
	return optimalPolicy{o, side, solves}
}

func (p optimalPolicy) KickOff() ([]env.Weighted, error) {
	if mix := p.o.Mix[p.side]; len(mix) > 0 {
		return mix, nil
	}
	return []env.Weighted{{Lineup: p.o.Lineup, Prob: 1}}, nil
}

func (p optimalPolicy) Breaks(side env.Player, states []game.State, mixes [][]env.Weighted) error {
	for i, s := range states {
		own, opp, moves, diff := s.Home, s.Away, s.HomeMoves, s.GoalDiff
		if side == env.Away {
			own, opp, moves, diff = s.Away, s.Home, s.AwayMoves, -s.GoalDiff
		}
		pol, err := p.solves.get(p.o, cacheKey{side, opp})
		if err != nil {
			return err
		}
		to, err := pol.Best(policy.BreakState{Period: s.Period, ThrowsLeft: s.ThrowsLeft, GoalDiff: diff, Own: own, MovesLeft: moves})
		if err != nil {
			return err
		}
		mixes[i] = append(mixes[i][:0], env.Weighted{Lineup: to, Prob: 1})
	}
	return nil
}
