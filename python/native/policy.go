package main

/*
#include <stdint.h>
*/
import "C"

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/solver"
)

// The exact exploitability of a Python policy (kingoal.exploitability): the best response
// is solved in Go (solver.RespondToPolicies) while Python answers the policy's mixes batch by
// batch — Go asks (kg_policy_request fills the observations and masks of a batch of break
// states), Python evaluates its policy and answers (kg_policy_answer), until the solve ends.
// Python waits in short steps, so Ctrl-C cancels it.

// policyJob is a best-response solve against a Python policy, with the batch in flight.
type policyJob struct {
	cancel context.CancelFunc
	asks   chan *policyBatch // Go → Python
	done   chan struct{}
	batch  *policyBatch // the batch Python is answering
	rules  env.Rules
	side   env.Player // the side the policy plays
	check  solver.GameCheck
	err    error
}

// policyBatch is a batch of decisions: their observations and masks, then the mixes.
type policyBatch struct {
	obs    []env.Observation
	legal  []env.Mask
	mixes  [][]solver.Weighted
	answer chan error
}

func init() {
	calls["policy_start"] = policyStartCall
	calls["policy_result"] = policyResultCall
}

func policyStartCall(in []byte) (any, error) {
	var a struct {
		Player string          `json:"player"`
		Rules  json.RawMessage `json:"rules"`
		MaxGiB float64         `json:"max_gib"`
	}
	a.Player, a.MaxGiB = "home", 12
	if err := decode(in, &a, "exploitability"); err != nil {
		return nil, err
	}
	r, err := parseRules(a.Rules)
	if err != nil {
		return nil, err
	}
	side := env.Home
	switch a.Player {
	case "home":
	case "away":
		side = env.Away
	default:
		return nil, inputf("player=%q: want home or away", a.Player)
	}
	payoff := solver.PayoffWinLoss
	if r.Knockout {
		payoff = solver.PayoffAdvance
	}
	size, err := solver.EstimateGame(r, payoff)
	if err != nil {
		return nil, inputError{err}
	}
	if peak := size.PeakResponses(); float64(peak) > a.MaxGiB*(1<<30) {
		return nil, inputf("exploitability: the best response under %s holds %d break states and needs ~%.1f GiB at its peak, over max_gib=%v",
			r, size.BreakStates, float64(peak)/(1<<30), a.MaxGiB)
	}
	ctx, cancel := context.WithCancel(context.Background())
	job := &policyJob{cancel: cancel, asks: make(chan *policyBatch), done: make(chan struct{}), rules: r, side: side}
	py := &pyPolicy{job: job, ctx: ctx, side: side, r: r}
	keep := keeper{r}
	go func() {
		defer close(job.done)
		defer cancel()
		job.check, job.err = solver.RespondToPolicies(solver.PolicyProblem{Rules: r, Payoff: payoff, Context: ctx, Workers: 1,
			MaxBytes: int64(a.MaxGiB * (1 << 30)),
			Policies: func(int) (home, away solver.GamePolicy, err error) {
				if side == env.Home {
					return py, keep, nil
				}
				return keep, py, nil
			}})
	}()
	return map[string]any{"job": uint64(register(job)), "break_states": size.BreakStates}, nil
}

// keeper stands on the side the policy does not play: its best response is not asked for.
type keeper struct{ r env.Rules }

func (keeper) KickOff() ([]solver.Weighted, error) {
	return []solver.Weighted{{Lineup: env.AllLineups()[0], Prob: 1}}, nil
}

func (keeper) Breaks(side env.Player, states []solver.GameState, mixes [][]solver.Weighted) error {
	for i, s := range states {
		own := s.Home
		if side == env.Away {
			own = s.Away
		}
		mixes[i] = append(mixes[i][:0], solver.Weighted{Lineup: own, Prob: 1})
	}
	return nil
}

// pyPolicy is the Python policy as a solver.GamePolicy: each call is a batch Python answers.
type pyPolicy struct {
	job  *policyJob
	ctx  context.Context
	side env.Player
	r    env.Rules
}

func (p *pyPolicy) KickOff() ([]solver.Weighted, error) {
	start, err := env.NewState(p.r)
	if err != nil {
		return nil, err
	}
	mixes := [][]solver.Weighted{nil}
	if err := p.ask([]env.Observation{start.Observe(p.side)}, []env.Mask{start.Legal(p.side)}, mixes); err != nil {
		return nil, err
	}
	return mixes[0], nil
}

func (p *pyPolicy) Breaks(side env.Player, states []solver.GameState, mixes [][]solver.Weighted) error {
	obs, legal := make([]env.Observation, len(states)), make([]env.Mask, len(states))
	for i, s := range states {
		obs[i], legal[i] = solver.BreakObservation(s, side, p.r)
	}
	return p.ask(obs, legal, mixes)
}

// ask hands a batch to Python and waits for its answer (or the end of the job).
func (p *pyPolicy) ask(obs []env.Observation, legal []env.Mask, mixes [][]solver.Weighted) error {
	b := &policyBatch{obs: obs, legal: legal, mixes: mixes, answer: make(chan error, 1)}
	select {
	case p.job.asks <- b:
	case <-p.ctx.Done():
		return p.ctx.Err()
	}
	select {
	case err := <-b.answer:
		return err
	case <-p.ctx.Done():
		return p.ctx.Err()
	}
}

// kg_policy_request waits up to ms for the next batch: it writes its observations
// (float32[n, 36]) and masks (int8[n, 121]) and returns n in *n; 0 when the wait ran out,
// −1 when the solve has ended (policy_result has it). cap is the buffers' rows.
//
//export kg_policy_request
func kg_policy_request(h C.uint64_t, ms C.int, obs *C.float, mask *C.int8_t, capRows C.int64_t, n *C.int64_t, errBuf *C.char, errSize C.int) (rc C.int) {
	defer guard(&rc, errBuf, errSize)
	job, err := lookup[*policyJob](uint64(h), "exploitability job")
	if err != nil {
		return report(err, errBuf, errSize)
	}
	var b *policyBatch
	select {
	case b = <-job.asks:
	case <-job.done:
		*n = -1
		return ok
	case <-time.After(time.Duration(ms) * time.Millisecond):
		*n = 0
		return ok
	}
	if int64(len(b.obs)) > int64(capRows) {
		b.answer <- errors.New("kingoal: exploitability: a batch larger than the buffers")
		return report(inputf("exploitability: a batch of %d decisions for buffers of %d", len(b.obs), capRows), errBuf, errSize)
	}
	job.batch = b
	o, m := floats(obs, len(b.obs)*obsSize), int8s(mask, len(b.obs)*maskSize)
	for i := range b.obs {
		b.obs[i].AppendVector(o[i*obsSize : i*obsSize])
		for a := range maskSize {
			m[i*maskSize+a] = 0
			if b.legal[i].Has(a) {
				m[i*maskSize+a] = 1
			}
		}
	}
	*n = C.int64_t(len(b.obs))
	return ok
}

// kg_policy_answer gives the batch's probabilities (float64[n, 121], checked in Python: rows
// over the legal line-ups summing to 1); a non-empty message instead fails the solve with it.
//
//export kg_policy_answer
func kg_policy_answer(h C.uint64_t, probs *C.double, fail *C.char, errBuf *C.char, errSize C.int) (rc C.int) {
	defer guard(&rc, errBuf, errSize)
	job, err := lookup[*policyJob](uint64(h), "exploitability job")
	if err != nil {
		return report(err, errBuf, errSize)
	}
	b := job.batch
	if b == nil {
		return report(errors.New("kingoal: exploitability: no batch to answer"), errBuf, errSize)
	}
	job.batch = nil
	if msg := C.GoString(fail); msg != "" {
		job.cancel()
		b.answer <- inputError{errors.New(msg)}
		return ok
	}
	p := doubles(probs, len(b.obs)*maskSize)
	for i := range b.obs {
		b.mixes[i] = b.mixes[i][:0]
		for a := range maskSize {
			if q := p[i*maskSize+a]; q != 0 {
				b.mixes[i] = append(b.mixes[i], solver.Weighted{Lineup: env.LineupAt(a), Prob: q})
			}
		}
	}
	b.answer <- nil
	return ok
}

// policyResultCall is the solve's result once kg_policy_request said it ended: for the side
// the policy plays, the best response's score (P(win) + ½ P(draw), or P(advance)) and
// starting line-up, and the exploitability (that score − ½).
func policyResultCall(in []byte) (any, error) {
	var a struct {
		Job    uint64 `json:"job"`
		Cancel bool   `json:"cancel"`
	}
	if err := decode(in, &a, "exploitability"); err != nil {
		return nil, err
	}
	job, err := lookup[*policyJob](a.Job, "exploitability job")
	if err != nil {
		return nil, err
	}
	if a.Cancel {
		job.cancel()
	}
	<-job.done
	if job.err != nil {
		if errors.Is(job.err, context.Canceled) && a.Cancel {
			return nil, errors.New("kingoal: exploitability: interrupted")
		}
		return nil, job.err
	}
	c := job.check
	score, reply := (1-c.AwayBest)/2, c.AwayReply // away best-responds to the home policy
	if job.side == env.Away {
		score, reply = (1+c.HomeBest)/2, c.HomeReply
	}
	if score < 0.5-1e-12 { // a best response scores at least the game's value
		return nil, fmt.Errorf("kingoal: exploitability: the best response scores %.15f, below ½: the solve is inconsistent", score)
	}
	return map[string]any{"exploitability": max(score-0.5, 0), "best_response": score, "best_response_kickoff": reply.String(),
		"player": job.side.String(), "rules": job.rules.String(), "exact": true}, nil
}
