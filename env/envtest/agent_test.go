package envtest_test

import (
	"strings"
	"testing"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/env/envtest"
)

// cheater declares 1-1-1-2-5 (index 0), then asks for 5-2-1-1-1 (index 120, five moves
// away) at every decision.
type cheater struct{}

func (cheater) Act(o env.Observation, _ env.Mask) int {
	if o.Decision == env.KickOff {
		return 0
	}
	return 120
}

// drifting breaks reproducibility: its choices depend on how many agents were built before.
type drifting struct{ n int }

var built int

func (d *drifting) Act(_ env.Observation, m env.Mask) int {
	d.n++
	return m.Nth((d.n + built) % m.Count())
}

func TestCheckAgentCatchesBrokenAgents(t *testing.T) {
	if err := envtest.CheckAgent(func() env.Policy { return cheater{} }, envtest.AgentOptions{Seeds: 2}); err == nil || !strings.Contains(err.Error(), "illegal action") {
		t.Errorf("cheater: %v", err)
	}
	err := envtest.CheckAgent(func() env.Policy { built++; return &drifting{} }, envtest.AgentOptions{Seeds: 2})
	if err == nil || !strings.Contains(err.Error(), "acted differently") {
		t.Errorf("drifting: %v", err)
	}
	keep := env.Keep(env.MustParseLineup("1-2-3-3-1"))
	if err := envtest.CheckAgent(func() env.Policy { return keep }, envtest.AgentOptions{}); err != nil {
		t.Errorf("Keep: %v", err)
	}
}
