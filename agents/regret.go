// Regret matching+ over the substitution game: at every break state and at the kick-off, each
// side plays its cumulative regrets, regret-matched, and learns its average.

package agents

import (
	"context"
	"time"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/solver/game"
	"github.com/kingoal/kingoal/solver/lineup"
)

// RegretMatching learns the substitution game (Basic v Basic) by full-width regret
// matching+, CFR+'s update: at every break state and at the kick-off each side keeps its
// cumulative regrets, clamped at 0, plays them regret-matched (in proportion to the positive
// regrets; uniform while none is), and learns the average of what it played, weighted
// linearly (iteration t counts t, as in CFR+). An iteration is one pass of
// game.RespondToPolicies against the current strategies, which gives every break's value of
// each line-up — the regrets' increments — continued by the side's own best response (as
// fictitious play's replies; CFR proper would continue by the current strategies); then a
// second pass measures the average's exact exploitability, so the learning curve is exact.
// Twice fictitious play's memory (regrets and averages) and its time an iteration.
type RegretMatching struct {
	regret, avg *breakMixes
	rules       env.Rules
	iter        int
	training    time.Duration
}

// NewRegretMatching starts regret matching+ under r from no regrets (uniform strategies).
// Rules whose best responses would not fit in memory are refused here.
func NewRegretMatching(r env.Rules) (*RegretMatching, error) {
	if err := checkLearnerFits(r, "regret matching", func(choices float64) float64 { return 32 * choices }); err != nil {
		return nil, err
	}
	return &RegretMatching{regret: newBreakMixes(r.MoveBudget(), true), avg: newBreakMixes(r.MoveBudget(), false), rules: r}, nil
}

// Iterations is the number of iterations trained.
func (m *RegretMatching) Iterations() int { return m.iter }

// average is the average strategy as fictitious play holds its own: its measurement and table.
func (m *RegretMatching) average() *Fictitious {
	return &Fictitious{breakMixes: m.avg, rules: m.rules, iter: m.iter, training: m.training}
}

// Train runs n iterations (stopping on ctx), calling progress after each with the exact
// exploitability of the average so far (the point's Seconds: training time, measurement
// passes left out).
func (m *RegretMatching) Train(ctx context.Context, n int, progress func(FictitiousPoint)) error {
	for range n {
		began := time.Now()
		alpha := 2 / float64(m.iter+2) // linear weights: iteration t's share of the average is t / (1 + … + t)
		_, err := game.RespondToPolicies(game.PolicyProblem{Rules: m.rules, Payoff: lineup.ScorePayoff(m.rules), Context: ctx,
			Policies: func(int) (home, away game.Policy, err error) {
				return m.side(env.Home, alpha), m.side(env.Away, alpha), nil
			}})
		if err != nil {
			return err
		}
		m.iter++
		m.training += time.Since(began)
		c, err := m.average().respond(ctx, nil, false)
		if err != nil {
			return err
		}
		if progress != nil {
			x := max(c.Exploitability, 0)
			progress(FictitiousPoint{Iteration: m.iter, Exploitability: x / 4, NashConv: x / 2, Seconds: m.training.Seconds(), Passes: 2 * m.iter})
		}
	}
	return nil
}

// Table is the average strategy as a policy table named name, with its exact exploitability
// (as Fictitious.Table).
func (m *RegretMatching) Table(ctx context.Context, name string) (*game.PolicyTable, float64, error) {
	return m.average().Table(ctx, name)
}

// side is one side's current strategy for a training pass; one a worker (its row caches).
func (m *RegretMatching) side(p env.Player, alpha float64) *rmSide {
	return &rmSide{regret: rowCache{m: m.regret}, avg: rowCache{m: m.avg}, side: p, alpha: alpha}
}

// rmSide plays a side's regrets regret-matched and learns from the values it observes.
type rmSide struct {
	regret, avg rowCache
	side        env.Player
	alpha       float64
	sigma       []float64
	at          []int
}

// matched is the strategy of regrets r (over the legal line-ups, as r): in proportion to the
// positive regrets, uniform where none is; in p.sigma.
func (p *rmSide) matched(r []float64) []float64 {
	p.sigma = append(p.sigma[:0], r...)
	sum := 0.0
	for _, x := range r {
		sum += max(x, 0)
	}
	for i, x := range r {
		if sum > 0 {
			p.sigma[i] = max(x, 0) / sum
		} else {
			p.sigma[i] = 1 / float64(len(r))
		}
	}
	return p.sigma
}

func (p *rmSide) KickOff() ([]env.Weighted, error) {
	return weightedMix(p.matched(p.regret.m.kick[p.side]), nil), nil
}

func (p *rmSide) Breaks(side env.Player, states []game.State, mixes [][]env.Weighted) error {
	for i, s := range states {
		r, legal := p.regret.mixOf(side, s)
		mixes[i] = weightedMix(p.matched(r), mixes[i][:0], legal)
	}
	return nil
}

// ObserveReplies moves the regrets at s by each line-up's value over the strategy's, and the
// average toward the strategy played (game.ReplyObserver).
func (p *rmSide) ObserveReplies(side env.Player, s game.State, choices []env.Lineup, values []float64) {
	r, legal := p.regret.mixOf(side, s)
	avg, _ := p.avg.mixOf(side, s)
	p.at = p.at[:0]
	for _, c := range choices {
		p.at = append(p.at, legal.Rank(c.Index()))
	}
	p.learn(r, avg, p.at, values)
}

// ObserveKickOff is ObserveReplies at the kick-off (game.KickOffObserver).
func (p *rmSide) ObserveKickOff(side env.Player, values []float64) {
	at := make([]int, len(values))
	for l := range at {
		at[l] = l
	}
	p.learn(p.regret.m.kick[side], p.avg.m.kick[side], at, values)
}

// learn is regret matching+'s step where the regrets r and average avg are kept: values[i] is
// the value of the line-up at r[at[i]].
func (p *rmSide) learn(r, avg []float64, at []int, values []float64) {
	sigma := p.matched(r)
	played := 0.0
	for i, v := range values {
		played += sigma[at[i]] * v
	}
	for j := range avg {
		avg[j] += p.alpha * (sigma[j] - avg[j])
	}
	for i, v := range values {
		r[at[i]] = max(r[at[i]]+v-played, 0)
	}
}
