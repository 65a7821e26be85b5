package agents_test

import (
	"math"
	"testing"

	"github.com/kingoal/kingoal/agents"
	"github.com/kingoal/kingoal/env"
)

// scoreAgainst plays n matches of spec (alternating sides) against opp and returns the
// share of points (win 1, draw ½) that spec takes.
func scoreAgainst(t *testing.T, spec, opp string, r env.Rules, n int) float64 {
	t.Helper()
	total := 0.0
	for i := range n {
		a, err := agents.New(spec, agents.Setup{Rules: r})
		if err != nil {
			t.Fatal(err)
		}
		b, err := agents.New(opp, agents.Setup{Rules: r})
		if err != nil {
			t.Fatal(err)
		}
		for k, ag := range []agents.Agent{a, b} {
			if s, ok := ag.(agents.Seeded); ok {
				s.Reset(uint64(1000*i + k))
			}
		}
		home, away, me := a, b, env.Home
		if i%2 == 1 {
			home, away, me = b, a, env.Away
		}
		s, _ := env.NewState(r)
		end, err := env.Play(s, home, away, env.NewFastSampler(env.SeededSource(uint64(i), 77)), nil)
		if err != nil {
			t.Fatal(err)
		}
		total += float64(end.Result(me)+1) / 2
	}
	return total / float64(n)
}

// TestMCTSBeatsSimpleAgents: at 1,000 simulations a decision MCTS takes a clear majority of
// the points against random and fixed agents, in matches long enough for line-ups to tell
// (30-throw halves; in very short games most matches are drawn whatever one plays).
// With n = 200 matches (fixed seeds, sides alternating) a score's standard error is at most
// 0.035, so the bounds — 0.65 against random, 0.56 against 2-2-2-2-2 — are 4.3 and 1.7
// standard errors above an even score. Measured: 0.765 and 0.618 (see the log).
// For scale, the solver-backed optimal agent scores 0.82 and 0.72 in the same matches.
func TestMCTSBeatsSimpleAgents(t *testing.T) {
	r := env.Rules{ThrowsPerHalf: 30}
	for opp, bound := range map[string]float64{"random": 0.65, "fixed:2-2-2-2-2": 0.56} {
		got := scoreAgainst(t, "mcts:iters=1000", opp, r, 200)
		t.Logf("mcts:iters=1000 v %s: score %.3f over 200 matches", opp, got)
		if got < bound || math.IsNaN(got) {
			t.Errorf("mcts v %s: score %.3f, want ≥ %.2f", opp, got, bound)
		}
	}
}
