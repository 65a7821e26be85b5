package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync/atomic"
	"time"

	"github.com/kingoal/kingoal/agents"
	"github.com/kingoal/kingoal/arena"
	"github.com/kingoal/kingoal/bench"
	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/exploit"
	"github.com/kingoal/kingoal/internal/safefile"
	"github.com/kingoal/kingoal/live"
	"github.com/kingoal/kingoal/rank"
)

// What Python's kingoal.arena and kingoal.evaluate do, by the library's own calls (arena.Run,
// exploit.Evaluate): the same run directories, Parquet files and leaderboards as the kingoal
// command, in a background job Python waits on in short steps, so that its Ctrl-C cancels
// the run (Go installs no signal handler here). The result comes back as the JSON the
// command prints (arena.LeaderboardJSON, exploit.EvaluationJSON), not through the command.

// competeJob is an arena run or an evaluation in the background.
type competeJob struct {
	cancel      context.CancelFunc
	done        chan struct{}
	progress    atomic.Int64 // matches (arena) or opponents (evaluate) done
	total       atomic.Int64
	measuring   atomic.Bool // the exploitability column is being measured
	result      any
	err         error
	interrupted string    // how the run goes on after a Ctrl-C
	warnings    []string  // said to Python's warnings when the job ends (zoo cards not used); written before done closes
	hub         *live.Hub // the run's live policies, answered by Python (nil: none)
	live        liveBatch
}

// liveWorkers is the matches an arena with a live policy plays at once when Python leaves
// workers at 0: the decisions of every match waiting on the policy make one batch.
const liveWorkers = 128

// liveHub is the hub of the live policies named (nil for none) and the agents.Setup.Live
// that builds their agents under ctx.
func liveHub(ctx context.Context, names []string) (*live.Hub, func(string) (agents.Agent, error), error) {
	if len(names) == 0 {
		return nil, nil, nil
	}
	hub, err := live.NewHub(names)
	if err != nil {
		return nil, nil, inputError{err}
	}
	return hub, func(name string) (agents.Agent, error) { return hub.Agent(ctx, name) }, nil
}

// closeHub ends the job's live policies' batches: kg_live_request then says the run ended.
func (job *competeJob) closeHub() {
	if job.hub != nil {
		job.hub.Close(errors.New("kingoal: live: the run has ended"))
	}
}

func init() {
	calls["arena_start"] = arenaStartCall
	calls["evaluate_start"] = evaluateStartCall
	calls["compete_wait"] = competeWaitCall
	calls["rank"] = rankCall
}

// arenaArgs are arena_start's arguments.
type arenaArgs struct {
	Agents         []string                          `json:"agents"`
	Out            string                            `json:"out"`
	Matches        int                               `json:"matches"`
	Format         string                            `json:"format"`
	Seed           uint64                            `json:"seed"`
	Resume         bool                              `json:"resume"`
	Force          bool                              `json:"force"`
	Workers        int                               `json:"workers"`
	Exploitability bool                              `json:"exploitability"`
	Rules          json.RawMessage                   `json:"rules"`
	Live           []string                          `json:"live"`            // the live policies' names: agents live:NAME
	Known          map[string]exploit.Exploitability `json:"known"`           // their exploitability, by spec
	AlphaRankM     int                               `json:"alpharank_m"`     // α-Rank's population (0: the default)
	AlphaRankAlpha float64                           `json:"alpharank_alpha"` // α-Rank's intensity (0: the default)
}

// config is the run a describes, checked.
func (a *arenaArgs) config() (arena.Config, error) {
	r, err := parseRules(a.Rules)
	if err != nil {
		return arena.Config{}, err
	}
	format, err := arena.ParseFormat(a.Format)
	switch {
	case err != nil:
		return arena.Config{}, inputf("arena: format=%q: %w", a.Format, err)
	case a.Matches <= 0:
		return arena.Config{}, inputf("arena: matches=%d: want at least 1 match", a.Matches)
	case a.Workers < 0:
		return arena.Config{}, inputf("arena: workers=%d: want 0 (every core) or more", a.Workers)
	case a.Out == "":
		return arena.Config{}, inputf("arena: out: want a directory name")
	case a.Resume && a.Force:
		return arena.Config{}, inputf("arena: resume=True and force=True: choose one")
	}
	specs := make([]string, len(a.Agents))
	for i, spec := range a.Agents {
		if specs[i] = strings.TrimSpace(spec); specs[i] == "" {
			return arena.Config{}, inputf("arena: agents[%d] is empty: want a registry spec", i)
		}
	}
	if a.Workers == 0 && len(a.Live) > 0 {
		a.Workers = liveWorkers
	}
	cfg := arena.Config{Format: format, Agents: arena.Labelled(specs), Rules: format.RulesFor(r), Matches: a.Matches, Seed: a.Seed,
		Workers: a.Workers, NoExploitability: !a.Exploitability}
	if err := cfg.Validate(); err != nil {
		return arena.Config{}, inputError{err} // "arena: …" already
	}
	return cfg, nil
}

func arenaStartCall(in []byte) (any, error) {
	var a arenaArgs
	a.Matches, a.Format, a.Seed, a.Exploitability = 20, "league", 1, true
	if err := decode(in, &a, "arena"); err != nil {
		return nil, err
	}
	cfg, err := a.config()
	if err != nil {
		return nil, err
	}
	alpharank := rank.AlphaRankParams{Population: a.AlphaRankM, Intensity: a.AlphaRankAlpha}
	if _, err := alpharank.Resolved(); err != nil {
		return nil, inputError{err}
	}
	ctx, cancel := context.WithCancel(context.Background())
	hub, newLive, err := liveHub(ctx, a.Live)
	if err != nil {
		cancel()
		return nil, err
	}
	job := &competeJob{cancel: cancel, done: make(chan struct{}), hub: hub,
		interrupted: "arena: interrupted; the finished matches are kept: arena(..., resume=True) continues the run"}
	go func() {
		defer close(job.done)
		defer job.closeHub()
		defer cancel()
		// The agents are built here, not before the call returns: one that solves a game for
		// minutes (nash) is then stopped by Python's Ctrl-C like the matches.
		p, err := arena.NewPlanWithin(ctx, cfg, arena.Limits{Live: newLive})
		if err != nil {
			if ctx.Err() == nil {
				err = inputf("arena: %w", err)
			}
			job.err = err
			return
		}
		job.total.Store(int64(p.TotalMatches()))
		// Here too, not before the call returns: a card's policy file is hashed.
		known := job.cardFigures(cfg.Agents, cfg.Rules, a.Exploitability)
		for spec, e := range a.Known { // Python's own figures (its live policies') come first
			known[spec] = e
		}
		lb, err := arena.Run(ctx, a.Out, p, arena.Options{Resume: a.Resume, Force: a.Force, KnownExploitability: known, Events: arena.Events{
			Matches:   func(done, _ int) { job.progress.Store(int64(done)) },
			Measuring: func(int) { job.measuring.Store(true) },
		}})
		var existing *arena.ExistingRunError
		var locked *safefile.LockedError
		var answer *live.AnswerError
		switch {
		case errors.As(err, &existing), errors.As(err, &locked), errors.Is(err, arena.ErrNoRun), errors.As(err, &answer):
			err = inputError{err}
		case err == nil:
			if lb, err = lb.WithAlphaRank(alpharank); err == nil {
				job.result = lb.JSON()
			}
		}
		job.err = err
	}()
	return map[string]any{"job": uint64(register(job))}, nil
}

func evaluateStartCall(in []byte) (any, error) {
	var a struct {
		Spec           string          `json:"spec"`
		Vs             []string        `json:"vs"`
		Matches        int             `json:"matches"`
		Seed           uint64          `json:"seed"`
		Exploitability bool            `json:"exploitability"`
		Rules          json.RawMessage `json:"rules"`
		Live           []string        `json:"live"` // the live policy's name, if spec is live:NAME
	}
	a.Matches, a.Seed, a.Exploitability = 1000, 1, true
	if err := decode(in, &a, "evaluate"); err != nil {
		return nil, err
	}
	r, err := parseRules(a.Rules)
	if err != nil {
		return nil, err
	}
	switch {
	case a.Matches <= 0:
		return nil, inputf("evaluate: matches=%d: want at least 1", a.Matches)
	case len(a.Vs) == 0:
		return nil, inputf("evaluate: vs: no opponents")
	}
	ctx, cancel := context.WithCancel(context.Background())
	hub, newLive, err := liveHub(ctx, a.Live)
	if err != nil {
		cancel()
		return nil, err
	}
	setup := agents.Setup{Rules: r, Context: ctx, Live: newLive}
	newAgent := func() (agents.Agent, error) { return agents.New(a.Spec, setup) }
	job := &competeJob{cancel: cancel, done: make(chan struct{}), hub: hub,
		interrupted: "evaluate: interrupted (a partial evaluation is not a result)"}
	job.total.Store(int64(len(a.Vs)))
	go func() {
		defer close(job.done)
		defer job.closeHub()
		defer cancel()
		// Every spec is built once first (here, where Ctrl-C reaches it): one that does not
		// build is the caller's error, not a failure of the evaluation.
		for _, spec := range append([]string{a.Spec}, a.Vs...) {
			if _, err := agents.New(spec, setup); err != nil {
				if ctx.Err() == nil {
					err = inputf("evaluate: %w", err)
				}
				job.err = err
				return
			}
		}
		var card *exploit.Exploitability
		if e, ok := job.cardFigures([]string{a.Spec}, r, a.Exploitability)[a.Spec]; ok {
			card = &e
		}
		lanes := 0
		if hub != nil {
			lanes = liveWorkers
		}
		ev, err := exploit.Evaluate(ctx, newAgent, a.Vs, r, exploit.EvalOptions{Matches: a.Matches, Seed: a.Seed, NoExploitability: !a.Exploitability, Known: card, Lanes: lanes,
			Evaluated: func(done, _ int) { job.progress.Store(int64(done)) },
			Measuring: func() { job.measuring.Store(true) }})
		var answer *live.AnswerError
		if errors.As(err, &answer) {
			err = inputError{err}
		}
		if err == nil {
			job.result = ev.JSON()
		}
		job.err = err
	}()
	return map[string]any{"job": uint64(register(job)), "opponents": len(a.Vs)}, nil
}

// competeWaitCall waits up to ms for a job: its progress, or when done its result. With
// cancel it stops the job and returns when the job has saved what it finished.
func competeWaitCall(in []byte) (any, error) {
	var a struct {
		Job    uint64 `json:"job"`
		Ms     int    `json:"ms"`
		Cancel bool   `json:"cancel"`
	}
	if err := decode(in, &a, "compete_wait"); err != nil {
		return nil, err
	}
	job, err := lookup[*competeJob](a.Job, "run")
	if err != nil {
		return nil, err
	}
	if a.Cancel {
		job.cancel()
		<-job.done
		return map[string]any{"done": true, "cancelled": true}, nil
	}
	select {
	case <-job.done:
	case <-time.After(time.Duration(max(a.Ms, 0)) * time.Millisecond):
		return map[string]any{"done": false, "progress": job.progress.Load(), "total": job.total.Load(), "measuring": job.measuring.Load()}, nil
	}
	if errors.Is(job.err, context.Canceled) {
		return nil, errors.New("kingoal: " + job.interrupted)
	}
	if job.err != nil {
		return nil, job.err
	}
	return map[string]any{"done": true, "result": job.result, "warnings": job.warnings}, nil
}

// cardFigures are the exact exploitabilities on the zoo cards of the policy files the specs
// play (bench.CardFigures), none when the column is left out; a card that cannot be used is
// a warning for Python (its policy is measured instead).
func (job *competeJob) cardFigures(specs []string, r env.Rules, measured bool) map[string]exploit.Exploitability {
	if !measured {
		return map[string]exploit.Exploitability{}
	}
	known, unusable := bench.CardFigures(specs, r)
	for _, err := range unusable {
		job.warnings = append(job.warnings, fmt.Sprintf("kingoal: %v: its exploitability is measured instead", err))
	}
	return known
}

// maxRankedAgents bounds the tables nash_average and alpharank take from Python (Nash
// averaging solves 2n linear programs of 2n variables).
const maxRankedAgents = 128

// rankCall is kingoal.nash_average and kingoal.alpharank: a population's ranking from its
// head-to-head table (h[i][j]: i's score against j, in [0, 1], i's and j's summing to 1;
// null where they never met; the diagonal is not read).
func rankCall(in []byte) (any, error) {
	var a struct {
		Method string       `json:"method"`
		Table  [][]*float64 `json:"table"`
		M      int          `json:"m"`     // α-Rank's population (0: the default)
		Alpha  float64      `json:"alpha"` // α-Rank's intensity (0: the default)
	}
	if err := decode(in, &a, "rank"); err != nil {
		return nil, err
	}
	n := len(a.Table)
	if n == 0 || n > maxRankedAgents {
		return nil, inputf("%s: a table of %d agents: want 1..%d", a.Method, n, maxRankedAgents)
	}
	h := make([][]float64, n)
	for i, row := range a.Table {
		if len(row) != n {
			return nil, inputf("%s: row %d has %d entries: want a square table (%d)", a.Method, i, len(row), n)
		}
		h[i] = make([]float64, n)
		for j, v := range row {
			switch {
			case i == j:
			case v == nil:
				h[i][j] = math.NaN()
			case !(*v >= 0 && *v <= 1):
				return nil, inputf("%s: table[%d][%d] = %v: want a score in [0, 1]", a.Method, i, j, *v)
			default:
				h[i][j] = *v
			}
		}
	}
	for i := range n {
		for j := range i {
			if !math.IsNaN(h[i][j]) && !math.IsNaN(h[j][i]) && math.Abs(h[i][j]+h[j][i]-1) > 1e-9 {
				return nil, inputf("%s: table[%d][%d] + table[%d][%d] = %v: the two scores of a pair sum to 1", a.Method, i, j, j, i, h[i][j]+h[j][i])
			}
		}
	}
	switch a.Method {
	case "nash_average":
		mix, avg, err := rank.NashAverage(h)
		if errors.Is(err, rank.ErrIncomplete) {
			return nil, inputError{err}
		}
		return map[string]any{"mix": mix, "average": avg}, err
	case "alpharank":
		p, err := rank.AlphaRankParams{Population: a.M, Intensity: a.Alpha}.Resolved()
		if err != nil {
			return nil, inputError{err}
		}
		mass, err := rank.AlphaRank(h, p)
		if errors.Is(err, rank.ErrIncomplete) {
			return nil, inputError{err}
		}
		return map[string]any{"mass": mass, "m": p.Population, "alpha": p.Intensity}, err
	}
	return nil, inputf("rank: method %q: want nash_average or alpharank", a.Method)
}
