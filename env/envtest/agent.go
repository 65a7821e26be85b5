package envtest

import (
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/kingoal/kingoal/env"
)

// AgentOptions tune CheckAgent. The zero value plays 6 seeds under 4 rule variants.
type AgentOptions struct {
	Seeds int         // matches per rule variant (both sides); 0 means 6
	Rules []env.Rules // variants; nil means default league, knockout, Dynamic and ties-count with short halves
}

// CheckAgent plays agents made by newAgent against a random opponent, on both sides, under
// several rule variants, and reports every violation: an action outside the legal mask, or
// a different action sequence from a fresh agent given the same seed (agents with
// randomness must take it from a Reset(seed uint64) method).
func CheckAgent(newAgent func() env.Policy, opt AgentOptions) error {
	if opt.Seeds == 0 {
		opt.Seeds = 6
	}
	if opt.Rules == nil {
		opt.Rules = []env.Rules{
			{},
			{Knockout: true, ThrowsPerHalf: 8, ExtraThrowsPerHalf: 3},
			{Modes: [2]env.Mode{env.Dynamic, env.Dynamic}, ThrowsPerHalf: 10, DynamicTrigger: env.TriggerTurnover},
			{TiesCount: true, ThrowsPerHalf: 10, Moves: 1, Modes: [2]env.Mode{env.Basic, env.Dynamic}},
		}
	}
	var errs []error
	for _, r := range opt.Rules {
		for seed := range uint64(opt.Seeds) {
			side := env.Player(seed % 2)
			a, err := agentActions(newAgent(), r, side, seed)
			if err != nil {
				errs = append(errs, fmt.Errorf("envtest: agent as %s, seed %d, %s: %w", side, seed, r, err))
				continue
			}
			b, _ := agentActions(newAgent(), r, side, seed)
			if fmt.Sprint(a) != fmt.Sprint(b) {
				errs = append(errs, fmt.Errorf("envtest: agent as %s, seed %d, %s: two fresh agents with the same seed acted differently", side, seed, r))
			}
		}
	}
	return errors.Join(errs...)
}

// agentActions plays one match of the agent (side) against a seeded random opponent and
// returns the agent's actions.
func agentActions(agent env.Policy, r env.Rules, side env.Player, seed uint64) ([]int, error) {
	opp := &randomPolicy{}
	e, err := env.New(env.Config{Rules: r, Player: side, Opponent: opp})
	if err != nil {
		return nil, err
	}
	env.Reseed(agent, seed)
	obs, info := e.Reset(seed)
	var acts []int
	for steps := 0; ; steps++ {
		if steps > 100000 {
			return acts, errors.New("the match does not end")
		}
		a := agent.Act(obs, info.Mask)
		if !info.Mask.Has(a) {
			return acts, fmt.Errorf("illegal action %d at %s (%s, %d legal)", a, obs.Decision, obs.Period, info.Mask.Count())
		}
		acts = append(acts, a)
		t, err := e.Step(a)
		if err != nil {
			return acts, err
		}
		if t.Terminated || t.Truncated {
			return acts, nil
		}
		obs, info = t.Obs, t.Info
	}
}

// randomPolicy is the opponent of CheckAgent: uniform over legal actions, reseeded by Env.
type randomPolicy struct{ rng *rand.Rand }

func (p *randomPolicy) Reset(seed uint64) { p.rng = rand.New(rand.NewPCG(seed, 0x0bb)) }
func (p *randomPolicy) Act(_ env.Observation, m env.Mask) int {
	return m.Nth(p.rng.IntN(m.Count()))
}
