package match

import (
	"context"
	"fmt"

	"github.com/kingoal/kingoal/agents"
	"github.com/kingoal/kingoal/env"
)

// Agents is a match between two registry agents (see kingoal agents). With Dice every die is
// rolled (another random stream: another match).
type Agents struct {
	Rules env.Rules
	Specs [2]string // home, away
	Seed  uint64
	Dice  bool
}

// Play plays the match; observe, if not nil, sees every event. After ctx is done the agents
// only fall back, so the match is abandoned with ctx's error (observe sees no more events).
func (m Agents) Play(ctx context.Context, observe func(env.Event)) (env.State, error) {
	var players [2]agents.Agent
	for p, spec := range m.Specs {
		a, err := agents.New(spec, agents.Setup{Rules: m.Rules, Context: ctx})
		if err != nil {
			return env.State{}, SpecError{err}
		}
		env.Reseed(a, env.SeededSource(m.Seed, [2]uint64{streamHomeAgent, streamAwayAgent}[p]).Uint64())
		players[p] = a
	}
	var smp env.Sampler = env.NewFastSampler(env.SeededSource(m.Seed, streamDice))
	if m.Dice {
		smp = env.NewDiceSampler(env.SeededSource(m.Seed, streamDice))
	}
	s, err := env.NewState(m.Rules)
	if err != nil {
		return env.State{}, err
	}
	end, err := env.Play(s, players[0], players[1], smp, func(e env.Event) {
		if observe != nil && ctx.Err() == nil {
			observe(e)
		}
	})
	if err != nil {
		return end, err
	}
	if err := ctx.Err(); err != nil {
		return end, fmt.Errorf("match: interrupted; the match is abandoned: %w", err)
	}
	for p, a := range players {
		if err := env.ErrOf(a); err != nil {
			return end, fmt.Errorf("match: %s could not decide, so the match is not its play: %w", m.Specs[p], err)
		}
	}
	return end, nil
}
