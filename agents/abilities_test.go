package agents_test

import (
	"context"
	"testing"

	"github.com/kingoal/kingoal/agents"
	"github.com/kingoal/kingoal/env"
)

// A wrapper that embeds Wrapped answers every ability as the agent it wraps, for every
// registry agent, plays the same moves as it (reseeded alike), and reports its failure.
func TestWrappedForwardsEveryAbility(t *testing.T) {
	r := env.Rules{ThrowsPerHalf: 3, Moves: 1}
	for _, spec := range []string{"random", "fixed", "heuristic", "optimal", "mcts:iters=20", "uct:iters=20", "equilibrium", "nash"} {
		a, err := agents.New(spec, agents.Setup{Rules: r})
		if err != nil {
			t.Fatal(err)
		}
		b, _ := agents.New(spec, agents.Setup{Rules: r})
		w := agents.Wrapped{Inner: b}
		if env.IsDeterministic(w) != env.IsDeterministic(a) || env.KeepsLineup(w) != env.KeepsLineup(a) ||
			env.IgnoresOpponent(w) != env.IgnoresOpponent(a) {
			t.Errorf("%s: wrapped, its abilities change", spec)
		}
		env.Reseed(a, 7)
		env.Reseed(w, 7)
		s, _ := env.NewState(r)
		for i := range 4 {
			obs := s.Observe(env.Home)
			if x, y := a.Act(obs, s.Legal(env.Home)), w.Act(obs, s.Legal(env.Home)); x != y {
				t.Errorf("%s: decision %d: %d, wrapped %d", spec, i, x, y)
			}
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	m, err := agents.New("mcts", agents.Setup{Rules: r, Context: ctx})
	if err != nil {
		t.Fatal(err)
	}
	w := agents.Wrapped{Inner: m}
	s, _ := env.NewState(r)
	w.Act(s.Observe(env.Home), s.Legal(env.Home))
	if env.ErrOf(w) == nil || env.ErrOf(w) != env.ErrOf(m) {
		t.Fatalf("a wrapped agent's failure is not reported: %v", env.ErrOf(w))
	}
}
