package agents_test

import (
	"math"
	"testing"

	"github.com/kingoal/kingoal/agents"
	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/internal/testtool"
	"github.com/kingoal/kingoal/solver/lineup"
	"github.com/kingoal/kingoal/solver/odds"
)

// scoreAgainst plays n matches of spec (alternating sides) against opp and returns the
// share of points (win 1, draw ½) that spec takes.
func scoreAgainst(t *testing.T, spec, opp string, r env.Rules, n int) float64 {
	t.Helper()
	total := 0.0
	for _, s := range scoresAgainst(t, spec, opp, r, n) {
		total += s
	}
	return total / float64(n)
}

// scoresAgainst is each match's points for spec (1, ½ or 0) in scoreAgainst's matches.
func scoresAgainst(t *testing.T, spec, opp string, r env.Rules, n int) []float64 {
	t.Helper()
	scores := make([]float64, n)
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
			if s, ok := ag.(env.Seeded); ok {
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
		if err := env.ErrOf(a); err != nil {
			t.Fatal(err)
		}
		scores[i] = float64(end.Result(me)+1) / 2
	}
	return scores
}

// TestMCTSBeatsSimpleAgents: at 1,000 simulations a decision, both MCTS and the decoupled-UCT
// baseline take a clear majority of the points against random and fixed agents, in matches
// long enough for line-ups to tell (30-throw halves). With n = 200 matches (fixed seeds, sides
// alternating) a score's standard error is at most 0.035, so the bounds — 0.65 against random,
// 0.56 against 2-2-2-2-2 — are 4.3 and 1.7 standard errors above an even score. Without
// KINGOAL_HEAVY: MCTS alone over 100 matches (standard error ≤ 0.05; measured 0.760 and 0.620).
func TestMCTSBeatsSimpleAgents(t *testing.T) {
	if testing.Short() {
		t.Skip("-short (the race stage): 800 single-goroutine searches; go test ./... plays them")
	}
	r := env.Rules{ThrowsPerHalf: 30}
	specs, matches := []string{"mcts:iters=1000", "uct:iters=1000"}, 200
	if !testtool.Heavy() { // UCT is the same search with another selection rule; fewer matches
		specs, matches = specs[:1], 100
	}
	for _, spec := range specs {
		for opp, bound := range map[string]float64{"random": 0.65, "fixed:2-2-2-2-2": 0.56} {
			got := scoreAgainst(t, spec, opp, r, matches)
			t.Logf("%s v %s: score %.3f over %d matches", spec, opp, got, matches)
			if got < bound || math.IsNaN(got) {
				t.Errorf("%s v %s: score %.3f, want ≥ %.2f", spec, opp, got, bound)
			}
		}
	}
}

// TestMCTSConvergesToTheLineupEquilibrium: with no moves the match after kick-off is decided
// by the line-ups alone, so the kick-off is exactly the odds matrix's game. Searching every
// line-up (width 121) with no priors, the exploitability of MCTS's average kick-off mix —
// what the best reply gains over the game's value, computed from the matrix — must fall from
// the uniform mix's 0.20 to ≤ 0.01 at 300 simulations and ≤ 0.001 at 20,000 (measured:
// 0.0005 and < 0.00005; the bound is far from what is measured, so fixed seeds keep it firm).
func TestMCTSConvergesToTheLineupEquilibrium(t *testing.T) {
	r := env.Rules{ThrowsPerHalf: 6, Moves: env.NoMoves}
	m, err := odds.Matrix(r)
	if err != nil {
		t.Fatal(err)
	}
	eq, err := lineup.Equilibrium(m, lineup.PayoffWinLoss)
	if err != nil {
		t.Fatal(err)
	}
	exploit := func(mix []env.Weighted) float64 {
		worst := math.Inf(1)
		for b := range env.NumLineups {
			v := 0.0
			for _, w := range mix {
				v += w.Prob * lineup.PayoffWinLoss.Of(m.At(w.Lineup.Index(), b), r)
			}
			worst = min(worst, v)
		}
		return eq.Value - worst
	}
	s, _ := env.NewState(r)
	obs, legal := s.Observe(env.Home), s.Legal(env.Home)
	uniform := make([]env.Weighted, env.NumLineups)
	for i := range uniform {
		uniform[i] = env.Weighted{Lineup: env.LineupAt(i), Prob: 1.0 / env.NumLineups}
	}
	last := exploit(uniform)
	t.Logf("uniform mix: exploitability %.4f", last)
	for _, iters := range []int{300, 20000} {
		a, err := agents.NewMCTS(agents.MCTSConfig{Iterations: iters, Width: env.NumLineups, Prior: -1}, r)
		if err != nil {
			t.Fatal(err)
		}
		a.Reset(7)
		a.Act(obs, legal)
		e := exploit(a.RootStrategy(env.Home))
		t.Logf("%d simulations: exploitability %.4f (equilibrium value %.4f)", iters, e, eq.Value)
		if e > last || e > 0.01 || (iters == 20000 && e > 1e-3) {
			t.Errorf("%d simulations: exploitability %.5f, want ≤ %.5f and ≤ 0.01 (≤ 0.001 at 20,000)", iters, e, last)
		}
		last = e
	}
}
