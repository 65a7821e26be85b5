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
	"io"
	"time"

	"github.com/kingoal/kingoal/datasets"
	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/solver/game"
	"github.com/kingoal/kingoal/solver/lineup"
)

// The exact exploitability of Python policies (kingoal.exploitability, nash_conv,
// save_policy): the best responses are solved in Go (game.RespondToPolicies) while Python
// answers the policies' mixes batch by batch — Go asks (kg_policy_request fills the
// observations and masks of a batch of break states and names the side), Python evaluates
// that side's policy and answers (kg_policy_answer), until the solve ends. Python waits in
// short steps, so Ctrl-C cancels it. save_policy records both sides' answers as a policy
// table (game.PolicyTable), written when the solve has measured it.

// policyJob is a best-response solve against a Python policy, with the batch in flight.
type policyJob struct {
	cancel context.CancelFunc
	asks   chan *policyBatch // Go → Python
	done   chan struct{}
	batch  *policyBatch // the batch Python is answering
	rules  env.Rules
	python [2]bool // the sides Python plays (a keeper stands on another)
	table  *game.PolicyTable
	check  game.Check
	err    error
}

// policyBatch is a batch of decisions: their observations and masks, then the mixes.
type policyBatch struct {
	obs    []env.Observation
	legal  []env.Mask
	mixes  [][]env.Weighted
	side   env.Player
	answer chan error
}

func init() {
	calls["policy_start"] = policyStartCall
	calls["policy_result"] = policyResultCall
}

func policyStartCall(in []byte) (any, error) {
	var a struct {
		Sides    []string        `json:"sides"` // the sides Python's policies play
		Rules    json.RawMessage `json:"rules"`
		MaxGiB   float64         `json:"max_gib"`
		Tabulate string          `json:"tabulate"` // if set, the table's name: both sides recorded
	}
	a.MaxGiB = 12
	if err := decode(in, &a, "exploitability"); err != nil {
		return nil, err
	}
	r, err := parseRules(a.Rules)
	if err != nil {
		return nil, err
	}
	var python [2]bool
	for _, s := range a.Sides {
		switch s {
		case "home":
			python[env.Home] = true
		case "away":
			python[env.Away] = true
		default:
			return nil, inputf("player=%q: want home or away", s)
		}
	}
	if python == [2]bool{} || (a.Tabulate != "" && python != [2]bool{true, true}) {
		return nil, inputf("exploitability: sides %v: want home, away, or both (both to tabulate)", a.Sides)
	}
	payoff := lineup.PayoffWinLoss
	if r.Knockout {
		payoff = lineup.PayoffAdvance
	}
	size, err := game.Estimate(r, payoff)
	if err != nil {
		return nil, inputError{err}
	}
	if peak := size.PeakResponses(); float64(peak) > a.MaxGiB*(1<<30) {
		return nil, inputf("exploitability: the best response under %s holds %d break states and needs ~%.1f GiB at its peak, over max_gib=%v",
			r, size.BreakStates, float64(peak)/(1<<30), a.MaxGiB)
	}
	ctx, cancel := context.WithCancel(context.Background())
	job := &policyJob{cancel: cancel, asks: make(chan *policyBatch), done: make(chan struct{}), rules: r, python: python}
	var sides [2]game.Policy
	for s := range sides {
		sides[s] = keeper{}
		if python[s] {
			sides[s] = &pyPolicy{job: job, ctx: ctx, side: env.Player(s), r: r}
		}
	}
	if a.Tabulate != "" {
		if job.table, err = game.NewPolicyTable(r, a.Tabulate); err != nil {
			return nil, inputError{err}
		}
		for s := range sides {
			sides[s] = job.table.Record(env.Player(s), sides[s])
		}
	}
	go func() {
		defer close(job.done)
		defer cancel()
		job.check, job.err = game.RespondToPolicies(game.PolicyProblem{Rules: r, Payoff: payoff, Context: ctx, Workers: 1,
			MaxBytes: int64(a.MaxGiB * (1 << 30)),
			Policies: func(int) (home, away game.Policy, err error) { return sides[env.Home], sides[env.Away], nil }})
	}()
	return map[string]any{"job": uint64(register(job)), "break_states": size.BreakStates}, nil
}

// keeper stands on a side no policy plays: its best response is not asked for.
type keeper struct{}

func (keeper) KickOff() ([]env.Weighted, error) {
	return []env.Weighted{{Lineup: env.AllLineups()[0], Prob: 1}}, nil
}

func (keeper) Breaks(side env.Player, states []game.State, mixes [][]env.Weighted) error {
	for i, s := range states {
		own := s.Home
		if side == env.Away {
			own = s.Away
		}
		mixes[i] = append(mixes[i][:0], env.Weighted{Lineup: own, Prob: 1})
	}
	return nil
}

// pyPolicy is the Python policy as a game.Policy: each call is a batch Python answers.
type pyPolicy struct {
	job  *policyJob
	ctx  context.Context
	side env.Player
	r    env.Rules
}

func (p *pyPolicy) KickOff() ([]env.Weighted, error) {
	start, err := env.NewState(p.r)
	if err != nil {
		return nil, err
	}
	mixes := [][]env.Weighted{nil}
	if err := p.ask([]env.Observation{start.Observe(p.side)}, []env.Mask{start.Legal(p.side)}, mixes); err != nil {
		return nil, err
	}
	return mixes[0], nil
}

func (p *pyPolicy) Breaks(side env.Player, states []game.State, mixes [][]env.Weighted) error {
	obs, legal := make([]env.Observation, len(states)), make([]env.Mask, len(states))
	for i, s := range states {
		obs[i], legal[i] = game.BreakObservation(s, side, p.r)
	}
	return p.ask(obs, legal, mixes)
}

// ask hands a batch to Python and waits for its answer (or the end of the job).
func (p *pyPolicy) ask(obs []env.Observation, legal []env.Mask, mixes [][]env.Weighted) error {
	b := &policyBatch{obs: obs, legal: legal, mixes: mixes, side: p.side, answer: make(chan error, 1)}
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
// (float32[n, 36]) and masks (int8[n, 121]), returns n in *n and the side whose policy is
// asked in *side (0 home, 1 away); n is 0 when the wait ran out, −1 when the solve has ended
// (policy_result has it). cap is the buffers' rows.
//
//export kg_policy_request
func kg_policy_request(h C.uint64_t, ms C.int, obs *C.float, mask *C.int8_t, capRows C.int64_t, n *C.int64_t, side *C.int, errBuf *C.char, errSize C.int) (rc C.int) {
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
	*n, *side = C.int64_t(len(b.obs)), C.int(b.side)
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
				b.mixes[i] = append(b.mixes[i], env.Weighted{Lineup: env.LineupAt(a), Prob: q})
			}
		}
	}
	b.answer <- nil
	return ok
}

// policyResultCall is the solve's result once kg_policy_request said it ended: for each side
// Python plays, the score of the best response to it (P(win) + ½ P(draw), or P(advance)) and
// that response's starting line-up; with both sides, nash_conv (the two best responses'
// gains over the policies' own play: (HomeBest − AwayBest)/2) and exploitability
// (nash_conv / 2). A tabulating job writes its table to out, atomically, with that
// exploitability in its header.
func policyResultCall(in []byte) (any, error) {
	var a struct {
		Job    uint64 `json:"job"`
		Cancel bool   `json:"cancel"`
		Out    string `json:"out"`
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
	out := map[string]any{"rules": job.rules.String(), "exact": true}
	for side, best := range map[env.Player]struct { // the best response to side's policy, by the other side
		score float64
		reply env.Lineup
	}{env.Home: {(1 - c.AwayBest) / 2, c.AwayReply}, env.Away: {(1 + c.HomeBest) / 2, c.HomeReply}} {
		if !job.python[side] {
			continue
		}
		if best.score < 0.5-1e-12 { // a best response scores at least the game's value
			return nil, fmt.Errorf("kingoal: exploitability: the best response scores %.15f, below ½: the solve is inconsistent", best.score)
		}
		out[side.String()] = map[string]any{"best_response": best.score, "best_response_kickoff": best.reply.String(),
			"exploitability": max(best.score-0.5, 0)}
	}
	if job.python == [2]bool{true, true} {
		conv := max(c.Exploitability, 0) / 2
		out["nash_conv"], out["exploitability"] = conv, conv/2
	}
	if job.table != nil && a.Out != "" {
		job.table.SetExploitability(max(c.Exploitability, 0) / 4)
		if err := datasets.WriteAtomic(a.Out, func(w io.Writer) error { _, err := job.table.WriteTo(w); return err }); err != nil {
			return nil, err
		}
		out["states"] = job.table.States()
	}
	return out, nil
}
