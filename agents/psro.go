// Policy-space response oracles over the substitution game: populations of exact best responses, mixed by the meta-game's equilibrium.

package agents

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/solver/game"
	"github.com/kingoal/kingoal/solver/lineup"
	"github.com/kingoal/kingoal/solver/zerosum"
)

// PSRO learns the substitution game (Basic v Basic) by policy-space response oracles
// (Lanctot et al. 2017, double oracle at the level of whole policies). Each side keeps a
// population of policies, starting from the uniform one; the meta-game is the exact payoff of
// every home member against every away member (game.PlayPolicies: no sampling), its
// equilibrium found by linear programming (zerosum.SolveMatrixGame); and each iteration adds
// each side's exact best response (game.RespondToPolicies, the oracle) to the other side's
// meta-strategy.
//
// A mixture of stationary policies is not a stationary policy (its choices would depend on
// which member the match drew, which the opponent may infer), so the meta-strategy is played
// — by the oracle's opponent, by Table and by the learning curve — as the stationary policy
// that mixes, at every break state, the members' choices with the meta-game's weights. Its
// exploitability, measured in the oracle's own pass, is the curve: exact for that policy,
// which is what Table writes. An iteration costs one best-response pass and one head-to-head
// pass for every new meta-game entry (the two populations' sizes summed), so iteration k
// costs ~2k passes; memory: a byte a break state for every member.
type PSRO struct {
	rules    env.Rules
	pop      [2][]*purePolicy // pop[s][0] is nil: the uniform policy
	payoff   [][]float64      // home's payoff, home member i v away member j
	meta     [2][]float64     // the meta-game's equilibrium: each side's weights over its members
	iter     int
	passes   int
	training time.Duration
}

// NewPSRO starts PSRO under r from the uniform policies (whose head-to-head is solved here, a
// pass). Rules whose best responses would not fit in memory are refused before any work.
func NewPSRO(ctx context.Context, r env.Rules) (*PSRO, error) {
	// Each iteration adds a byte a break state a side: 64 iterations' members are checked here.
	if err := checkLearnerFits(r, "PSRO", func(float64) float64 { return 2 * 64 }); err != nil {
		return nil, err
	}
	p := &PSRO{rules: r, pop: [2][]*purePolicy{{nil}, {nil}}, meta: [2][]float64{{1}, {1}}}
	v, err := p.play(ctx, nil, nil)
	if err != nil {
		return nil, err
	}
	p.payoff = [][]float64{{v}}
	return p, nil
}

// Iterations is the number of iterations trained.
func (p *PSRO) Iterations() int { return p.iter }

// Train runs n iterations (stopping on ctx), calling progress after each with the exact
// exploitability of the meta-strategy it started from.
func (p *PSRO) Train(ctx context.Context, n int, progress func(FictitiousPoint)) error {
	for range n {
		if members := len(p.pop[env.Home]); members >= 64 { // beyond what NewPSRO checked
			if err := checkLearnerFits(p.rules, "PSRO", func(float64) float64 { return 2 * float64(members+1) }); err != nil {
				return err
			}
		}
		began := time.Now()
		brs := [2]*purePolicy{newPurePolicy(p.rules.MoveBudget()), newPurePolicy(p.rules.MoveBudget())}
		c, err := p.respond(ctx, nil, brs)
		if err != nil {
			return err
		}
		brs[env.Home].kick, brs[env.Away].kick = c.HomeReply, c.AwayReply
		if err := p.grow(ctx, brs); err != nil {
			return err
		}
		p.iter++
		p.training += time.Since(began)
		if progress != nil {
			x := max(c.Exploitability, 0)
			progress(FictitiousPoint{Iteration: p.iter, Exploitability: x / 4, NashConv: x / 2, Seconds: p.training.Seconds(), Passes: p.passes})
		}
	}
	return nil
}

// grow adds the best responses that are new to the populations, plays the meta-game's new
// entries and solves it again. (When neither is new, PSRO has reached its fixed point: the
// meta-strategies' best responses are already theirs to mix.)
func (p *PSRO) grow(ctx context.Context, brs [2]*purePolicy) error {
	newHome, newAway := !p.known(env.Home, brs[env.Home]), !p.known(env.Away, brs[env.Away])
	if newAway {
		p.pop[env.Away] = append(p.pop[env.Away], brs[env.Away])
		for i, home := range p.pop[env.Home] {
			v, err := p.play(ctx, home, brs[env.Away])
			if err != nil {
				return err
			}
			p.payoff[i] = append(p.payoff[i], v)
		}
	}
	if newHome {
		p.pop[env.Home] = append(p.pop[env.Home], brs[env.Home])
		row := make([]float64, 0, len(p.pop[env.Away]))
		for _, away := range p.pop[env.Away] {
			v, err := p.play(ctx, brs[env.Home], away)
			if err != nil {
				return err
			}
			row = append(row, v)
		}
		p.payoff = append(p.payoff, row)
	}
	if !newHome && !newAway {
		return nil
	}
	g, err := zerosum.SolveMatrixGame(p.payoff)
	if err != nil {
		return fmt.Errorf("agents: PSRO's meta-game: %w", err)
	}
	p.meta = [2][]float64{g.X, g.Y}
	return nil
}

// known reports whether m is already one of side's members.
func (p *PSRO) known(side env.Player, m *purePolicy) bool {
	for _, o := range p.pop[side][1:] {
		if o.equal(m) {
			return true
		}
	}
	return false
}

// play is home member home's exact payoff against away member away (nil: uniform), a pass.
func (p *PSRO) play(ctx context.Context, home, away *purePolicy) (float64, error) {
	p.passes++
	return game.PlayPolicies(game.PolicyProblem{Rules: p.rules, Payoff: lineup.ScorePayoff(p.rules), Context: ctx,
		Policies: func(int) (game.Policy, game.Policy, error) {
			return &mixedSide{members: []*purePolicy{home}, weights: []float64{1}, side: env.Home},
				&mixedSide{members: []*purePolicy{away}, weights: []float64{1}, side: env.Away}, nil
		}})
}

// respond is a pass of both best responses to the meta-strategies: recorded into brs where
// given, into table where given; its check measures the meta-strategies' exploitability.
func (p *PSRO) respond(ctx context.Context, table *game.PolicyTable, brs [2]*purePolicy) (game.Check, error) {
	p.passes++
	return game.RespondToPolicies(game.PolicyProblem{Rules: p.rules, Payoff: lineup.ScorePayoff(p.rules), Context: ctx,
		Policies: func(int) (home, away game.Policy, err error) {
			var sides [2]game.Policy
			for s := range sides {
				m := &mixedSide{members: p.pop[s], weights: p.meta[s], side: env.Player(s)}
				switch {
				case table != nil:
					sides[s] = table.Record(env.Player(s), m)
				default:
					sides[s] = &recordingSide{mixedSide: m, best: brs[s]}
				}
			}
			return sides[env.Home], sides[env.Away], nil
		}})
}

// Table is the meta-strategy, mixed at every break state, as a policy table named name, with
// its exact exploitability in score terms (as Fictitious.Table).
func (p *PSRO) Table(ctx context.Context, name string) (*game.PolicyTable, float64, error) {
	t, err := game.NewPolicyTable(p.rules, name)
	if err != nil {
		return nil, 0, err
	}
	c, err := p.respond(ctx, t, [2]*purePolicy{})
	if err != nil {
		return nil, 0, err
	}
	x := max(c.Exploitability, 0) / 4
	t.SetExploitability(x)
	return t, x, nil
}

// mixedSide plays one side's members (nil: uniform) mixed by weights at every break state;
// one a worker (its caches of the members' rows).
type mixedSide struct {
	members []*purePolicy
	weights []float64
	side    env.Player
	rows    []pureCache
	acc     [env.NumLineups]float64
}

func (m *mixedSide) KickOff() ([]env.Weighted, error) {
	clear(m.acc[:])
	for i, member := range m.members {
		if w := m.weights[i]; w > 0 {
			if member == nil {
				for l := range m.acc {
					m.acc[l] += w / env.NumLineups
				}
			} else {
				m.acc[member.kick.Index()] += w
			}
		}
	}
	return weightedMix(m.acc[:], nil), nil
}

func (m *mixedSide) Breaks(side env.Player, states []game.State, mixes [][]env.Weighted) error {
	if m.rows == nil {
		m.rows = make([]pureCache, len(m.members))
	}
	for i, s := range states {
		clear(m.acc[:])
		legal := s.Home.Reachable(s.HomeMoves)
		if side == env.Away {
			legal = s.Away.Reachable(s.AwayMoves)
		}
		for k, member := range m.members {
			w := m.weights[k]
			switch {
			case w <= 0:
			case member == nil:
				for j := range legal.Count() {
					m.acc[legal.Nth(j)] += w / float64(legal.Count())
				}
			default:
				l, err := m.rows[k].choice(member, s)
				if err != nil {
					return err
				}
				m.acc[l] += w
			}
		}
		mixes[i] = weightedMix(m.acc[:], mixes[i][:0])
	}
	return nil
}

// recordingSide is a meta-strategy whose side's best reply at every break it observes is
// recorded into best (game.ReplyObserver): the oracle.
type recordingSide struct {
	*mixedSide
	best  *purePolicy
	cache pureCache
}

func (r *recordingSide) ObserveReplies(side env.Player, s game.State, choices []env.Lineup, values []float64) {
	best, top := 0, math.Inf(-1)
	for i, v := range values {
		if v > top+1e-12 { // ties: the first, as the solver's replies
			best, top = i, v
		}
	}
	r.cache.set(r.best, s, choices[best])
}
