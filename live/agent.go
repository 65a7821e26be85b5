package live

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/kingoal/kingoal/env"
)

// streamLive is the stream of a live agent's draws from its answers (env.SeededSource).
const streamLive uint64 = 0x11e5

// Agent is a live agent: each decision queued in its Hub and answered from outside. Not
// safe for concurrent use (build one per goroutine, as every agent).
type Agent struct {
	hub   *Hub
	index int
	ctx   context.Context
	rng   *rand.Rand
	match int64
	req   Request
	err   error
}

// Agent builds a live agent playing name's decisions through the hub; ctx bounds its waits
// (done: it answers with a legal action and Err reports ctx's error).
func (h *Hub) Agent(ctx context.Context, name string) (*Agent, error) {
	i := slices.Index(h.names, name)
	if i < 0 {
		return nil, fmt.Errorf("live: no live agent %q (live agents here: %q)", name, h.names)
	}
	if ctx == nil {
		ctx = context.Background()
	}
	a := &Agent{hub: h, index: i, ctx: ctx, match: -1}
	a.req.done = make(chan struct{}, 1)
	a.Reset(0)
	return a, nil
}

// Reset starts a match's stream of draws from seed (env.Seeded).
func (a *Agent) Reset(seed uint64) { a.rng = rand.New(env.SeededSource(seed, streamLive)) }

// StartMatch names the match that begins (env.Numbered): its decisions carry the ID.
func (a *Agent) StartMatch(id int64) { a.match = id }

// Err is the agent's first failure (env.Failing): the hub closed, its context done, or an
// answer refused.
func (a *Agent) Err() error { return a.err }

// Act queues the decision, waits for its answer and plays it: the action answered, or one
// drawn from the probabilities answered. After a failure it answers the first legal action.
func (a *Agent) Act(obs env.Observation, legal env.Mask) int {
	if a.err != nil {
		return legal.Nth(0)
	}
	r := &a.req
	r.Obs, r.Legal, r.Match, r.First = obs, legal, a.match, obs.Decision == env.KickOff
	a.hub.push(a.index, r)
	select {
	case <-r.done:
	case <-a.hub.closed:
		a.err = a.hub.err
		return legal.Nth(0)
	case <-a.ctx.Done():
		a.err = a.ctx.Err()
		return legal.Nth(0)
	}
	if r.byAction {
		if r.action < 0 || r.action >= env.NumLineups || !legal.Has(int(r.action)) {
			a.err = a.fault(obs, fmt.Errorf("action %d is not legal there", r.action))
			return legal.Nth(0)
		}
		return int(r.action)
	}
	if err := Normalise(r.row[:], legal); err != nil {
		a.err = a.fault(obs, fmt.Errorf("the answer %w", err))
		return legal.Nth(0)
	}
	u := a.rng.Float64()
	last := 0
	for l, q := range r.row {
		if q == 0 {
			continue
		}
		if u < q {
			return l
		}
		u -= q
		last = l
	}
	return last // rounding left u above the row's sum
}

// AnswerError is an answer an agent refused (an illegal action, a row that is not a mix over
// the legal line-ups): the fault of the program answering, named by its decision.
type AnswerError struct{ Err error }

func (e *AnswerError) Error() string { return e.Err.Error() }
func (e *AnswerError) Unwrap() error { return e.Err }

// fault is a refused answer's error, naming the decision.
func (a *Agent) fault(obs env.Observation, err error) error {
	return &AnswerError{fmt.Errorf("live: %s: match %d, %s's %s: %w", a.hub.names[a.index], a.match, obs.Player, obs.Decision, err)}
}
