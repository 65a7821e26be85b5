package agents_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/kingoal/kingoal/agents"
	"github.com/kingoal/kingoal/env"
)

// TestOptimalIsExact: optimal's and equilibrium's exploitability is exact now — their table
// read off one solve per opponent line-up — and that table is their play: matches of the live
// agent against changing opponents, the table agent asked beside it at every break, agree
// (the live agent solving from each break it meets). The Monte Carlo lower bound they had
// before stays below the exact figure (its 95% interval allowing).
func TestOptimalIsExact(t *testing.T) {
	r := env.Rules{ThrowsPerHalf: 6, Moves: 1}
	for _, spec := range []string{"optimal", "equilibrium"} {
		path, x := saveTable(t, spec, r)
		if e := exploit(t, spec, r, 0); !e.Exact || e.Value != x.Value || e.Value <= 0 {
			t.Fatalf("%s: %+v, tabulated %+v", spec, e, x)
		}
		newAgent := func() (agents.Agent, error) { return agents.New(spec, agents.Setup{Rules: r}) }
		estimated := 2000
		if testing.Short() { // the race stage
			estimated = 300
		}
		est, err := agents.EstimateExploitability(context.Background(), newAgent, r, estimated, 1)
		if err != nil {
			t.Fatal(err)
		}
		if est.Exact || est.Value-est.CI > x.Value {
			t.Errorf("%s: the estimate %+v above the exact %v", spec, est, x.Value)
		}
		table, _ := agents.New("table:file="+path, agents.Setup{Rules: r})
		breaks, differ, moved := 0, 0, 0
		matches := 200
		if testing.Short() { // the race stage
			matches = 60
		}
		for i := range matches {
			live, _ := newAgent()
			agents.Reseed(live, uint64(i))
			both := env.PolicyFunc(func(obs env.Observation, legal env.Mask) int {
				a := live.Act(obs, legal)
				if obs.Decision == env.Break {
					if breaks++; a != table.Act(obs, legal) {
						differ++
					}
					if a != obs.Own.Index() {
						moved++
					}
				}
				return a
			})
			opp, _ := agents.New([]string{"heuristic:late=1", "random"}[i%2], agents.Setup{Rules: r})
			agents.Reseed(opp, uint64(i))
			home, away := env.Policy(both), env.Policy(opp)
			if i%4 >= 2 {
				home, away = away, home
			}
			start, _ := env.NewState(r)
			if _, err := env.Play(start, home, away, env.NewFastSampler(rand.NewPCG(uint64(i), 5)), nil); err != nil {
				t.Fatal(err)
			}
		}
		t.Logf("%s: %d breaks, %d changes, the estimate %+v", spec, breaks, moved, est)
		if differ != 0 || moved == 0 || agents.ErrOf(table) != nil {
			t.Errorf("%s: the table differs from the live agent at %d of %d breaks (%d changes; %v)", spec, differ, breaks, moved, agents.ErrOf(table))
		}
	}
}
