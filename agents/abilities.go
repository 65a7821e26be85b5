package agents

import (
	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/solver/policy"
)

// An agent is an env.Policy; what more it can do it declares with the one-method interfaces
// below. Each has a helper that asks any agent (false, nil or nothing for one that does not
// declare it), and Wrapped forwards all of them, so a wrapper of an agent embeds Wrapped and
// overrides only what it changes: no ability is lost by a wrapper that forgot it.

// Seeded is implemented by agents that use randomness: Reset starts a new match with a
// fresh stream from seed. env.Env calls it on its opponent at every Reset.
type Seeded interface {
	Reset(seed uint64)
}

// Failing is implemented by agents whose decisions can fail (a solve that cannot finish,
// an interrupted search). Such an agent still answers with a legal action, so a match can
// end, but the answer is not the agent's: Err reports the first failure, and the match
// must not count.
type Failing interface {
	Err() error
}

// Deterministic is implemented by agents whose choice may be a function of the
// observation: Deterministic reports whether it is, so that the agent's value can be
// computed exactly (policy.Evaluate).
type Deterministic interface {
	Deterministic() bool
}

// Keeper is implemented by agents that may promise to keep their line-up at every break
// and shift (env.Play then does not ask them there).
type Keeper = env.Keeper

// OpponentBlind is implemented by agents whose choice ignores the opponent's line-up and
// moves (a best response to them is then solved once per break).
type OpponentBlind = policy.OpponentBlind

// Reseed calls a's Reset if it is Seeded.
func Reseed(a Agent, seed uint64) {
	if s, ok := a.(Seeded); ok {
		s.Reset(seed)
	}
}

// ErrOf returns the first failure of a, or nil if a cannot fail or has not.
func ErrOf(a Agent) error {
	if f, ok := a.(Failing); ok {
		return f.Err()
	}
	return nil
}

// IsDeterministic reports whether a's choices depend on its observation only.
func IsDeterministic(a Agent) bool {
	d, ok := a.(Deterministic)
	return ok && d.Deterministic()
}

// KeepsLineup reports whether a has promised to keep its line-up after kick-off.
func KeepsLineup(a Agent) bool {
	k, ok := a.(Keeper)
	return ok && k.KeepsLineup()
}

// IgnoresOpponent reports whether a's choice ignores the opponent's line-up and moves.
func IgnoresOpponent(a Agent) bool {
	b, ok := a.(OpponentBlind)
	return ok && b.IgnoresOpponent()
}

// Wrapped is embedded by wrappers of an agent: it plays Inner and forwards every ability
// above to it.
type Wrapped struct{ Inner Agent }

func (w Wrapped) Act(obs env.Observation, legal env.Mask) int { return w.Inner.Act(obs, legal) }
func (w Wrapped) Reset(seed uint64)                           { Reseed(w.Inner, seed) }
func (w Wrapped) Err() error                                  { return ErrOf(w.Inner) }
func (w Wrapped) Deterministic() bool                         { return IsDeterministic(w.Inner) }
func (w Wrapped) KeepsLineup() bool                           { return KeepsLineup(w.Inner) }
func (w Wrapped) IgnoresOpponent() bool                       { return IgnoresOpponent(w.Inner) }

// Who declares what (the search agents, Random, Nash: Seeded and Failing, in their files).

func (Fixed) Deterministic() bool     { return true }
func (Heuristic) Deterministic() bool { return true }

// Deterministic reports whether Optimal's kick-off is a fixed line-up (not a mix).
func (o *Optimal) Deterministic() bool { return len(o.Mix[0]) == 0 && len(o.Mix[1]) == 0 }

// Deterministic: the greedy Q-learning policy never randomises.
func (q *QLearning) Deterministic() bool { return true }

func (Fixed) IgnoresOpponent() bool     { return true }
func (Heuristic) IgnoresOpponent() bool { return true }
