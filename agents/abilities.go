package agents

import (
	"github.com/kingoal/kingoal/env"
)

// An agent is an env.Policy; what more it can do it declares with env's abilities
// (env.Seeded, env.Failing, env.Deterministic, env.Keeper, env.OpponentBlind, env.Mixer),
// and env's helpers (env.Reseed, env.ErrOf, …) find them through wrappers.

// Wrapped is embedded by wrappers of an agent: it plays Inner, and env's helpers find
// Inner's abilities through Unwrap, so a wrapper declares only what it changes.
type Wrapped struct{ Inner Agent }

func (w Wrapped) Act(obs env.Observation, legal env.Mask) int { return w.Inner.Act(obs, legal) }

// Unwrap is the agent w plays.
func (w Wrapped) Unwrap() env.Policy { return w.Inner }

// Who declares what (the search agents, Random, Nash: Seeded and Failing, in their files).

func (Fixed) Deterministic() bool     { return true }
func (Heuristic) Deterministic() bool { return true }

// Deterministic reports whether Optimal's kick-off is a fixed line-up (not a mix).
func (o *Optimal) Deterministic() bool { return len(o.Mix[0]) == 0 && len(o.Mix[1]) == 0 }

// Deterministic: the greedy Q-learning policy never randomises.
func (q *QLearning) Deterministic() bool { return true }

func (Fixed) IgnoresOpponent() bool     { return true }
func (Heuristic) IgnoresOpponent() bool { return true }
