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
	"runtime"
	"sync/atomic"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/exploit"
	"github.com/kingoal/kingoal/internal/safefile"
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
	python [2]bool // the sides Python plays (game.Keeper stands on another)
	table  *game.PolicyTable
	check  game.Check
	err    error
	// the solve's layers done and in all, for Python's progress line (policy_progress)
	layersDone, layers atomic.Int64
}

func init() {
	calls["policy_start"] = policyStartCall
	calls["policy_result"] = policyResultCall
	calls["policy_progress"] = policyProgressCall
}

func policyStartCall(in []byte) (any, error) {
	var a struct {
		Sides    []string        `json:"sides"` // the sides Python's policies play
		Rules    json.RawMessage `json:"rules"`
		MaxGiB   float64         `json:"max_gib"`
		Tabulate string          `json:"tabulate"` // if set, the table's name: both sides recorded
		Rows     int             `json:"rows"`     // the rows of Python's buffers: a batch's most
		Workers  int             `json:"workers"`  // the solve's goroutines (0: one a core)
		Masked   *bool           `json:"masked"`   // false: the rows may weigh illegal line-ups (dropped); default true
	}
	a.MaxGiB = 12
	if err := decode(in, &a, "exploitability"); err != nil {
		return nil, err
	}
	r, err := parseRules(a.Rules)
	if err != nil {
		return nil, err
	}
	python, err := pythonSides(a.Sides, a.Tabulate != "")
	if err != nil {
		return nil, err
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
	if a.Rows < 1 || a.Rows > maxBatchRows || a.Workers < 0 || a.Workers > 64 {
		return nil, inputf("exploitability: rows=%d, workers=%d: want 1..%d rows and 0..64 workers", a.Rows, a.Workers, maxBatchRows)
	}
	ctx, cancel := context.WithCancel(context.Background())
	job := &policyJob{cancel: cancel, asks: make(chan *policyBatch), done: make(chan struct{}), rules: r, python: python}
	if a.Tabulate != "" {
		if job.table, err = game.NewPolicyTable(r, a.Tabulate); err != nil {
			return nil, inputError{err}
		}
		// The table shares max_gib with the solve: what its peak leaves (a softmax's table at
		// the default rules is refused on the way, not grown past the machine).
		job.table.SetMaxBytes(max(int64(a.MaxGiB*(1<<30))-size.PeakResponses(), 1))
	}
	workers := a.Workers
	if workers == 0 {
		workers = runtime.GOMAXPROCS(0) // Python's thread answers while they solve: measured faster at three moves
	}
	pairs := make([][2]game.Policy, workers) // a worker's own: a pyPolicy keeps its batch's buffers
	for w := range pairs {
		for s := range pairs[w] {
			pairs[w][s] = game.Keeper{}
			if python[s] {
				pairs[w][s] = &pyPolicy{job: job, ctx: ctx, side: env.Player(s), r: r, rows: a.Rows, batch: policyBatch{unmasked: a.Masked != nil && !*a.Masked}}
			}
			if job.table != nil {
				pairs[w][s] = job.table.Record(env.Player(s), pairs[w][s])
			}
		}
	}
	go func() {
		defer close(job.done)
		defer cancel()
		// A side Python does not play stands still (game.Keeper): the best response to it is not
		// wanted, nor its sums at every break.
		job.check, job.err = game.RespondToPolicies(game.PolicyProblem{Rules: r, Payoff: payoff, Context: ctx, Workers: workers,
			Batch: batchBreaks, MaxBytes: int64(a.MaxGiB * (1 << 30)), Progress: job.progress, Skip: [2]bool{!python[env.Away], !python[env.Home]},
			Policies: func(w int) (home, away game.Policy, err error) { return pairs[w][env.Home], pairs[w][env.Away], nil }})
	}()
	return map[string]any{"job": uint64(register(job)), "break_states": size.BreakStates}, nil
}

// pythonSides are the sides Python's policies play: home, away, or both (both to tabulate).
func pythonSides(sides []string, tabulate bool) ([2]bool, error) {
	var python [2]bool
	for _, s := range sides {
		switch s {
		case "home":
			python[env.Home] = true
		case "away":
			python[env.Away] = true
		default:
			return python, inputf("player=%q: want home or away", s)
		}
	}
	if python == [2]bool{} || (tabulate && python != [2]bool{true, true}) {
		return python, inputf("exploitability: sides %v: want home, away, or both (both to tabulate)", sides)
	}
	return python, nil
}

// progress keeps the solve's progress for policy_progress.
func (job *policyJob) progress(done, total int) {
	job.layers.Store(int64(total))
	job.layersDone.Store(int64(done))
}

// policyProgressCall is a job's layers solved and in all (0 of 0 before the first ends).
func policyProgressCall(in []byte) (any, error) {
	var a struct {
		Job uint64 `json:"job"`
	}
	if err := decode(in, &a, "exploitability"); err != nil {
		return nil, err
	}
	job, err := lookup[*policyJob](a.Job, "exploitability job")
	if err != nil {
		return nil, err
	}
	return map[string]int64{"done": job.layersDone.Load(), "total": job.layers.Load()}, nil
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
		f := exploit.FiguresOfScoreNashConv(conv)
		out["nash_conv"], out["exploitability"] = conv, conv/2 // the score scale's, as before
		out["score_nash_conv"], out["score_exploitability"] = f.ScoreNashConv, f.ScoreExploitability
		out["openspiel_nash_conv"], out["openspiel_exploitability"] = f.OpenSpielNashConv, f.OpenSpielExploitability
	}
	if job.table != nil && a.Out != "" {
		job.table.SetExploitability(max(c.Exploitability, 0) / 4)
		if err := safefile.WriteAtomic(a.Out, func(w io.Writer) error { _, err := job.table.WriteTo(w); return err }); err != nil {
			return nil, err
		}
		out["states"] = job.table.States()
	}
	return out, nil
}
