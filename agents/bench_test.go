package agents_test

import (
	"context"
	"testing"

	"github.com/kingoal/kingoal/agents"
	"github.com/kingoal/kingoal/env"
)

// halfTimeBreak is the half-time break of a default match, seen by home.
func halfTimeBreak() (env.Observation, env.Mask) {
	r := env.Rules{}
	s, _ := env.NewMatch(r, env.MustParseLineup("1-2-3-3-1"), env.MustParseLineup("2-2-2-2-2"))
	for s.Period() == env.FirstHalf || s.Node() != env.Decision {
		if s.Node() == env.Decision {
			s.Apply([2]int{s.Lineup(env.Home).Index(), s.Lineup(env.Away).Index()})
			continue
		}
		env.RunChance(&s, env.NewFastSampler(env.SeededSource(1, 1)))
	}
	return s.Observe(env.Home), s.Legal(env.Home)
}

// BenchmarkUCTPlayouts: one decoupled-UCT decision (1,000 simulations) at the half-time
// break of a default match; reports simulated playouts (segments from a decision or the
// start to the next decision or the end) per second. Target ≥ 100,000 per core.
func BenchmarkUCTPlayouts(b *testing.B) {
	m := agents.NewUCT(agents.UCTConfig{Iterations: 1000}, env.Rules{})
	obs, legal := halfTimeBreak()
	m.Playouts = 0
	for b.Loop() {
		m.Act(obs, legal)
	}
	b.ReportMetric(float64(m.Playouts)/b.Elapsed().Seconds(), "playouts/s")
}

// BenchmarkMCTSDecision: one simultaneous-move MCTS decision at 1,000 simulations at the
// half-time break of a default match (issue 11's target: ≤ 20 ms).
func BenchmarkMCTSDecision(b *testing.B) {
	m, err := agents.NewMCTS(agents.MCTSConfig{Iterations: 1000}, env.Rules{})
	if err != nil {
		b.Fatal(err)
	}
	obs, legal := halfTimeBreak()
	for b.Loop() {
		m.Act(obs, legal)
	}
	if err := m.Err(); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkOptimalDecision: one decision of the optimal agent once its policy is cached
// (target ≤ 1 ms).
func BenchmarkOptimalDecision(b *testing.B) {
	r := env.Rules{}
	a, _ := agents.New("optimal:lineup=2-2-2-2-2", agents.Setup{Rules: r})
	obs := env.Observation{Decision: env.Break, Period: env.SecondHalf, ThrowsLeft: 30, HalfThrows: 45, ExtraThrows: 15,
		Own: env.MustParseLineup("2-2-2-2-2"), Opp: env.MustParseLineup("1-3-3-2-1"), OwnGoals: 1, OwnMovesLeft: 3, Ball: 3}
	legal := obs.Own.Reachable(3)
	a.Act(obs, legal) // solve and cache
	b.ReportAllocs()
	for b.Loop() {
		a.Act(obs, legal)
	}
}

// BenchmarkQLearningTraining: Q-learning episodes against fixed:2-2-2-2-2 under the default
// rules, one core; reports episodes/s (target ≥ 200,000).
func BenchmarkQLearningTraining(b *testing.B) {
	q := agents.NewQLearning(agents.QConfig{}, env.Rules{})
	opp := agents.Fixed{Lineup: env.MustParseLineup("2-2-2-2-2")}
	if err := q.Train(context.Background(), agents.TrainConfig{Opponent: opp, Episodes: 200_000, Seed: 1}); err != nil { // warm the table
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		if err := q.Train(context.Background(), agents.TrainConfig{Opponent: opp, Episodes: 10_000, Seed: 2}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*10_000)/b.Elapsed().Seconds(), "episodes/s")
}

// BenchmarkOptimalVsRandom: one match of optimal against random under the default rules —
// random shows a new line-up at almost every break, so optimal solves at almost every break
// (issue 11's yardstick; target ≤ 5 ms a decision).
func BenchmarkOptimalVsRandom(b *testing.B) {
	r := env.Rules{}
	opt, err := agents.New("optimal:lineup=1-3-3-2-1", agents.Setup{Rules: r})
	if err != nil {
		b.Fatal(err)
	}
	rnd := agents.NewRandom(1)
	decisions := 0
	counted := env.PolicyFunc(func(o env.Observation, m env.Mask) int { decisions++; return opt.Act(o, m) })
	i := uint64(0)
	for b.Loop() {
		i++
		rnd.Reset(i)
		s, _ := env.NewState(r)
		if _, err := env.Play(s, counted, rnd, env.NewFastSampler(env.SeededSource(i, 0)), nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(max(decisions, 1))/1e6, "ms/decision")
}

// BenchmarkOptimalFreshSolve: the worst decision of optimal — at the first break a match can
// have (a goal after three throws) against a line-up it has not met, so it solves the rest of
// the match (issue 11's target: ≤ 5 ms).
func BenchmarkOptimalFreshSolve(b *testing.B) {
	r := env.Rules{}
	a, err := agents.New("optimal:lineup=2-2-2-2-2", agents.Setup{Rules: r})
	if err != nil {
		b.Fatal(err)
	}
	obs := env.Observation{Decision: env.Break, Period: env.FirstHalf, ThrowsLeft: r.HalfThrows() - 3, HalfThrows: 45, ExtraThrows: 15,
		Own: env.MustParseLineup("2-2-2-2-2"), OwnGoals: 1, OwnMovesLeft: 3, OppMovesLeft: 3, Ball: 3}
	legal := obs.Own.Reachable(3)
	i := 0
	for b.Loop() {
		obs.Opp = env.LineupAt(i % env.NumLineups) // a new line-up each time: never cached
		i++
		a.Act(obs, legal)
	}
	if err := env.ErrOf(a); err != nil {
		b.Fatal(err)
	}
}
