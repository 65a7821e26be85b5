package agents_test

import (
	"context"
	"math"
	"testing"

	"github.com/kingoal/kingoal/agents"
	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/solver/odds"
	"github.com/kingoal/kingoal/solver/policy"
)

// hidden wraps an agent so that EvaluateAgainst cannot know it is deterministic and must
// play matches: the Monte Carlo path, to compare with the exact one.
type hidden struct{ agents.Agent }

func TestEvaluateAgainstExactAndMonteCarloAgree(t *testing.T) {
	r := env.Rules{ThrowsPerHalf: 15}
	mk := func() (agents.Agent, error) { return agents.New("heuristic", agents.Setup{Rules: r}) }
	exact, err := agents.EvaluateAgainst(context.Background(), mk, "fixed:2-2-2-2-2", r, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	mc, err := agents.EvaluateAgainst(context.Background(), func() (agents.Agent, error) { a, err := mk(); return hidden{a}, err }, "fixed:2-2-2-2-2", r, 4000, 1)
	if err != nil {
		t.Fatal(err)
	}
	// 4,000 matches: the bound is 2.25 × the 95% half-width ≈ 4.4 standard errors.
	if !exact.Exact || mc.Exact || math.Abs(exact.Score-mc.Score) > 2.25*mc.ScoreCI {
		t.Fatalf("exact %+v\nmonte carlo %+v", exact, mc)
	}
	if exact.Regret < 0 || math.IsNaN(exact.Regret) || math.Abs(exact.Win+exact.Draw+exact.Loss-1) > 1e-12 {
		t.Fatalf("exact report %+v", exact)
	}
	if _, err := agents.EvaluateAgainst(context.Background(), mk, "nobody", r, 10, 1); err == nil {
		t.Error("an unknown opponent was accepted")
	}
}

// TestOptimalHasNoRegret: the optimal agent that kicks off with the best reply to a fixed
// line-up attains the best response exactly.
func TestOptimalHasNoRegret(t *testing.T) {
	r := env.Rules{ThrowsPerHalf: 12}
	opp := env.MustParseLineup("2-2-2-2-2")
	pol, err := policy.SolveBasic(policy.BasicProblem{Rules: r, Own: opp, Opponent: opp, Objective: odds.ObjectiveWinDraw})
	if err != nil {
		t.Fatal(err)
	}
	best := env.LineupAt(0)
	for _, l := range env.AllLineups() {
		if pol.ValueFrom(l) > pol.ValueFrom(best) {
			best = l
		}
	}
	rep, err := agents.EvaluateAgainst(context.Background(), func() (agents.Agent, error) {
		return agents.New("optimal:objective=win-draw,lineup="+best.String(), agents.Setup{Rules: r})
	}, "fixed:2-2-2-2-2", r, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Exact || math.Abs(rep.Regret) > 1e-9 {
		t.Fatalf("optimal from %s: %+v", best, rep)
	}
}

func TestSelfPlayIsReproducible(t *testing.T) {
	r := env.Rules{ThrowsPerHalf: 5}
	run := func() int {
		q := agents.NewQLearning(agents.QConfig{}, r)
		if err := q.Train(context.Background(), agents.TrainConfig{Episodes: 3000, Seed: 4}); err != nil {
			t.Fatal(err)
		}
		return q.States()
	}
	if a, b := run(), run(); a != b || a == 0 {
		t.Fatalf("self-play: %d and %d states", a, b)
	}
}
