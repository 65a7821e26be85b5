package match

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/kingoal/kingoal/agents"
	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/solver/lineup"
	"github.com/kingoal/kingoal/solver/odds"
)

// Human is a match a person plays against a registry agent: the person's decisions come
// from an Ask function, the dice are rolled (env.DiceSampler), and the agent's randomness
// comes from the seed too — the same seed and answers, the same match.
type Human struct {
	Rules    env.Rules
	Opponent string     // a registry spec
	Side     env.Player // the person's
	Seed     uint64
	Hints    bool // prompts carry the solver's advice (solved as the match goes)
	// Open and MaxBytes are the opponent's agents.Setup: where its files are opened and how
	// much it may solve when built (zero: agents' defaults).
	Open     func(name string) (*os.File, error)
	MaxBytes int64
}

// Prompt is a decision the person makes: what they see, what is legal, and the hints.
type Prompt struct {
	Obs     env.Observation
	Legal   env.Mask
	rules   env.Rules
	hints   bool
	advisor *agents.Optimal
}

// Ask answers a prompt with a legal action, or with an error that ends the match there (as
// ErrStopped: the person has not decided yet, or has gone).
type Ask func(Prompt) (int, error)

// ErrStopped ends a match at a prompt the person does not answer (yet): Play returns an
// error wrapping it and the state at that prompt.
var ErrStopped = errors.New("match: stopped at a decision")

// SpecError is an agent spec that names no agent: the caller's input, not a failure.
type SpecError struct{ Err error }

func (e SpecError) Error() string { return e.Err.Error() }
func (e SpecError) Unwrap() error { return e.Err }

// Play plays the match; observe, if not nil, sees every event. It returns the final state,
// or — when ask returns an error — that error (wrapped) with the state at its prompt.
func (m Human) Play(ctx context.Context, ask Ask, observe func(env.Event)) (env.State, error) {
	opp, err := agents.New(m.Opponent, agents.Setup{Rules: m.Rules, Context: ctx, Open: m.Open, MaxBytes: m.MaxBytes})
	if err != nil {
		return env.State{}, SpecError{err}
	}
	env.Reseed(opp, env.SeededSource(m.Seed, streamPlayOpponent).Uint64())
	p := &person{ask: ask, rules: m.Rules, hints: m.Hints}
	if m.Hints { // solved only when asked for: without hints, rules too large to solve are playable
		advisor, err := agents.New("optimal", agents.Setup{Rules: m.Rules, Context: ctx})
		if err != nil {
			return env.State{}, fmt.Errorf("match: no hints under these rules (play without them): %w", err)
		}
		p.advisor = advisor.(*agents.Optimal)
	}
	home, away := env.Policy(p), env.Policy(opp)
	if m.Side == env.Away {
		home, away = opp, p
	}
	s, err := env.NewState(m.Rules)
	if err != nil {
		return env.State{}, err
	}
	p.at = s
	end, err := env.Play(s, home, away, env.NewDiceSampler(env.SeededSource(m.Seed, streamDice)), func(e env.Event) {
		if p.err != nil {
			return // the match goes on only to end env.Play: not the person's
		}
		p.at = e.After
		if observe != nil {
			observe(e)
		}
	})
	if p.err != nil {
		return p.at, fmt.Errorf("match: %w", p.err)
	}
	if err != nil {
		return end, err
	}
	if err := env.ErrOf(opp); err != nil {
		return end, fmt.Errorf("match: %s could not decide: %w", m.Opponent, err)
	}
	return end, nil
}

// person is the person's env.Policy: it asks, and after an error only keeps its line-up.
type person struct {
	ask     Ask
	rules   env.Rules
	hints   bool
	advisor *agents.Optimal
	at      env.State // the state of the match as far as it has come
	err     error
}

func (p *person) Act(obs env.Observation, legal env.Mask) int {
	q := Prompt{Obs: obs, Legal: legal, rules: p.rules, hints: p.hints, advisor: p.advisor}
	if p.err != nil {
		return q.Default()
	}
	a, err := p.ask(q)
	if err != nil {
		p.err = err
		return q.Default()
	}
	return a
}

// Default is what a person who does not decide plays: at the kick-off the solver's line-up
// (the equilibrium's) with hints, env.DefaultOpponent without; later their line-up kept.
func (q Prompt) Default() int {
	if q.Obs.Decision != env.KickOff {
		return q.Obs.Own.Index()
	}
	if q.advisor == nil {
		return env.MustParseLineup(env.DefaultOpponent).Index()
	}
	return q.advisor.Act(q.Obs, q.Legal)
}

// KickOffHint is the solver's hint at the kick-off: the line-up equilibrium's mix and the
// best line-ups against it.
type KickOffHint struct {
	Payoff lineup.Payoff
	Mix    []env.Weighted
	Best   []lineup.Reply // the five best, best first
}

// KickOffHint computes the hint from the odds of every pair of line-ups (the game is
// symmetric: home's mix is either side's).
func (q Prompt) KickOffHint() (KickOffHint, error) {
	payoff := lineup.PayoffWinLoss
	if q.rules.Knockout {
		payoff = lineup.PayoffAdvance
	}
	m, err := odds.Matrix(q.rules)
	if err != nil {
		return KickOffHint{}, err
	}
	eq, err := lineup.Equilibrium(m, payoff)
	if err != nil {
		return KickOffHint{}, err
	}
	replies, err := lineup.BestResponses(m, payoff, eq.Away)
	if err != nil {
		return KickOffHint{}, err
	}
	return KickOffHint{Payoff: payoff, Mix: eq.Home, Best: replies[:5]}, nil
}

// Rules are the match's rules.
func (q Prompt) Rules() env.Rules { return q.rules }

// Hints reports whether the match gives hints.
func (q Prompt) Hints() bool { return q.hints }

// Advice is the solver's line-up at a break or shift (its best response if the opponent
// keeps theirs), and false at the kick-off or without hints.
func (q Prompt) Advice() (env.Lineup, bool) {
	if !q.hints || q.Obs.Decision == env.KickOff {
		return env.Lineup{}, false
	}
	return env.LineupAt(q.advisor.Act(q.Obs, q.Legal)), true
}
