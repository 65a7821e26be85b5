package env

// The policy family. Every policy of Kingoal answers one question — which line-up a side
// plays — at one of three kinds of node, purely (one answer) or mixed (a law over
// answers). One table, so that env, the solvers, the agents and the Python bridge speak of
// the same things:
//
//	interface              answers                          at                              pure/mixed
//	env.Policy             Act(obs, legal) → action          any decision, from one side's   pure (a draw, for a
//	                                                         Observation                     stochastic one)
//	env.Mixer              Mix(obs, legal) → []Weighted      the same                        mixed
//	policy.Policy          Action(state, side) → action      any decision, from the State    pure
//	policy.BreakPolicy     Best(BreakState) → Lineup         a Basic break, one side's view  pure
//	policy.MixedBreakPolicy Mix(BreakState) → []Weighted     the same                        mixed
//	game.Policy            KickOff, Breaks(side, states)     the kick-off and a batch of     mixed
//	                                                         break states
//
// env.Policy is what plays (agents, the Python policies of the environments); the other
// rows are what the solvers read a policy through (solver/policy, solver/game), each made
// from the first where the policy allows (agents.Optimal.AtBreaks, exploit's tabulation,
// the Python bridge's batched policies). A mix is a []Weighted summing to 1.
//
// What more an env.Policy can do it declares with the one-method abilities below — Seeded,
// Numbered, Failing, Deterministic, Keeper, OpponentBlind, Mixer — and a policy that wraps
// another says so with Unwrap: the helpers (Reseed, StartMatch, ErrOf, IsDeterministic,
// KeepsLineup, IgnoresOpponent, MixerOf) look through wrappers as errors.As does, so a wrapper declares
// only what it changes and loses no ability of what it wraps.

// Policy chooses a player's action from its observation and legal actions.
type Policy interface {
	Act(obs Observation, legal Mask) int
}

// PolicyFunc adapts a function to Policy.
type PolicyFunc func(obs Observation, legal Mask) int

// Act calls f.
func (f PolicyFunc) Act(obs Observation, legal Mask) int { return f(obs, legal) }

// Weighted is a line-up with its probability in a mixed strategy: the form every mixed
// answer takes, at any decision and in every solver.
type Weighted struct {
	Lineup Lineup
	Prob   float64
}

// Wrapper is a policy that plays another, Unwrap's, changing some of what it does.
type Wrapper interface {
	Unwrap() Policy
}

// Seeded is implemented by policies that use randomness: Reset starts a new match with a
// fresh stream from seed. Env calls it on its opponent at every Reset.
type Seeded interface {
	Reset(seed uint64)
}

// Numbered is implemented by policies that keep state from match to match and by the match
// (a live policy answered outside Go): StartMatch tells them which match begins, by the
// ID its runner gives it (the arena's match_id). Called after Reset, before the kick-off.
type Numbered interface {
	StartMatch(id int64)
}

// Failing is implemented by policies whose decisions can fail (a solve that cannot finish,
// an interrupted search). Such a policy still answers with a legal action, so a match can
// end, but the answer is not the policy's: Err reports the first failure, and the match
// must not count.
type Failing interface {
	Err() error
}

// Deterministic is implemented by policies whose choice may be a function of the
// observation: Deterministic reports whether it is, so that the policy's value can be
// computed exactly.
type Deterministic interface {
	Deterministic() bool
}

// A Keeper may promise to keep its formation at every break and shift (as Keep does): Play
// then neither builds its observation nor asks it there, which makes matches of such
// policies almost as cheap as Playout.
type Keeper interface {
	KeepsLineup() bool
}

// OpponentBlind is implemented by policies whose choice ignores the opponent's line-up and
// moves (a best response to them is then solved once per break).
type OpponentBlind interface {
	IgnoresOpponent() bool
}

// Mixer is implemented by stochastic policies that can say their mix: the probability of
// each line-up they would play on obs (over legal), without drawing. They are then measured
// exactly.
type Mixer interface {
	Mix(obs Observation, legal Mask) []Weighted
}

// unwrapped finds the first policy that implements A along the Unwrap chain of p, a
// policy that does not implement A itself. The helpers below assert p's own abilities
// first, without this generic walk: on a match's hot path (Play asks KeepsLineup, the arena
// Reseed and ErrOf) a generic assertion costs more than the plain one.
func unwrapped[A any](p Policy) (A, bool) {
	for {
		w, ok := p.(Wrapper)
		if !ok {
			var zero A
			return zero, false
		}
		if p = w.Unwrap(); p == nil {
			var zero A
			return zero, false
		}
		if a, ok := p.(A); ok {
			return a, true
		}
	}
}

// Reseed calls Reset on p (or what it wraps) if it is Seeded.
func Reseed(p Policy, seed uint64) {
	s, ok := p.(Seeded)
	if !ok {
		s, ok = unwrapped[Seeded](p)
	}
	if ok {
		s.Reset(seed)
	}
}

// StartMatch calls StartMatch on p (or what it wraps) if it is Numbered.
func StartMatch(p Policy, id int64) {
	n, ok := p.(Numbered)
	if !ok {
		n, ok = unwrapped[Numbered](p)
	}
	if ok {
		n.StartMatch(id)
	}
}

// ErrOf returns the first failure of p, or nil if it cannot fail or has not.
func ErrOf(p Policy) error {
	f, ok := p.(Failing)
	if !ok {
		f, ok = unwrapped[Failing](p)
	}
	if ok {
		return f.Err()
	}
	return nil
}

// IsDeterministic reports whether p's choices depend on its observation only.
func IsDeterministic(p Policy) bool {
	d, ok := p.(Deterministic)
	if !ok {
		d, ok = unwrapped[Deterministic](p)
	}
	return ok && d.Deterministic()
}

// KeepsLineup reports whether p has promised to keep its line-up after kick-off.
func KeepsLineup(p Policy) bool {
	k, ok := p.(Keeper)
	if !ok {
		k, ok = unwrapped[Keeper](p)
	}
	return ok && k.KeepsLineup()
}

// IgnoresOpponent reports whether p's choice ignores the opponent's line-up and moves.
func IgnoresOpponent(p Policy) bool {
	b, ok := p.(OpponentBlind)
	if !ok {
		b, ok = unwrapped[OpponentBlind](p)
	}
	return ok && b.IgnoresOpponent()
}

// MixerOf returns p (or what it wraps) as a Mixer, if it is one.
func MixerOf(p Policy) (Mixer, bool) {
	if m, ok := p.(Mixer); ok {
		return m, true
	}
	return unwrapped[Mixer](p)
}
