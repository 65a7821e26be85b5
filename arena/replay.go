package arena

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/kingoal/kingoal/datasets"
	"github.com/kingoal/kingoal/env"
)

// ConfigOf is the configuration that plays the matches info describes (run.json): the same
// agents, rules, seed and sampler, so any of its matches can be played again.
func ConfigOf(info RunInfo) (Config, error) {
	f, err := ParseFormat(info.Competition)
	if err != nil {
		return Config{}, fmt.Errorf("arena: run.json: %w", err)
	}
	c := Config{Format: f, Agents: info.Agents, Rules: info.RulesConfig, Matches: info.MatchesPerPairing, DrawBracket: info.DrawBracket,
		GroupSize: info.GroupSize, Seed: info.Seed, LogThrows: info.LogThrows, Dice: info.Dice, LogDecisions: info.LogDecisions,
		NoExploitability: info.NoExploitability}
	c.EveryThrow = info.DrawnBy() == "throws" && c.Sampler() != "throws"
	if info.DrawnBy() != c.Sampler() {
		return Config{}, fmt.Errorf("arena: run.json: sampler %q is not one this build plays", info.Sampler)
	}
	return c, nil
}

// config reads the run's run.json and the configuration that plays its matches.
func (r RunFiles) config() (RunInfo, Config, error) {
	info, err := r.Info()
	if err != nil {
		return info, Config{}, err
	}
	c, err := ConfigOf(info)
	return info, c, err
}

// Replay is one match played again: its row, the state at kick-off and every event (one a
// throw, or a jump goal to goal where the run drew goals: env.Event.Jump).
type Replay struct {
	Match  datasets.MatchRow
	Start  env.State
	Events []env.Event
}

// A Replayer plays a run's matches again from their seeds, with agents of its own; safe for
// concurrent use (one match at a time).
type Replayer struct {
	run    RunFiles // its own directory, open while the Replayer is (Close, or the GC, closes it)
	info   RunInfo
	mu     sync.Mutex
	worker *Worker
}

// Replayer builds the agents of the run within limits. Once ctx is done, replays fail with
// its error. The Replayer reads the run's matches through a directory of its own (the run's,
// opened again): Close it when done.
func (r RunFiles) Replayer(ctx context.Context, limits Limits) (*Replayer, error) {
	dir := r.Path()
	info, c, err := r.config()
	if err != nil {
		return nil, err
	}
	p, err := newPlan(ctx, c, limits)
	if err != nil {
		return nil, err
	}
	if again := p.info(info.TotalMatches, info.Complete); !sameRun(again, info) {
		return nil, fmt.Errorf("arena: %s/run.json describes a run this build cannot plan again", dir)
	}
	w, err := NewWorker(ctx, p)
	if err != nil {
		return nil, err
	}
	own, err := r.dir.OpenRoot(".")
	if err != nil {
		return nil, fmt.Errorf("arena: %w", err)
	}
	return &Replayer{run: RunFiles{own}, info: info, worker: w}, nil
}

// Close releases the Replayer's directory.
func (r *Replayer) Close() error { return r.run.dir.Close() }

// ErrNoSuchMatch is what Match refuses an ID outside the run with.
var ErrNoSuchMatch = errors.New("arena: no such match")

// Info is the run's description (run.json).
func (r *Replayer) Info() RunInfo { return r.info }

// Match plays match id again (its whole unit: a cup's later rounds follow from its earlier
// ones) and checks that it ends as its row in matches.parquet says: a replay that does not is
// an error, never a picture of another match.
func (r *Replayer) Match(id int64) (Replay, error) {
	if id < 0 || id >= int64(r.info.TotalMatches) {
		return Replay{}, fmt.Errorf("%w: %d (the run has 0..%d)", ErrNoSuchMatch, id, r.info.TotalMatches-1)
	}
	stored, err := r.run.storedMatch(id)
	if err != nil {
		return Replay{}, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	w := r.worker
	w.watch, w.watched = id, Replay{}
	defer func() { w.watch, w.watched = -1, Replay{} }()
	played, err := w.PlayUnit(int(id/int64(w.plan.perUnit)), nil)
	if err != nil {
		return Replay{}, err
	}
	rep := w.watched
	for _, m := range played {
		if m.Match.MatchID == id {
			rep.Match = m.Match
		}
	}
	if rep.Match != stored {
		return Replay{}, fmt.Errorf("arena: match %d plays again as %d-%d (%s v %s), but matches.parquet holds %d-%d (%s v %s): not a match this build reproduces",
			id, rep.Match.HomeGoals, rep.Match.AwayGoals, rep.Match.HomeAgent, rep.Match.AwayAgent, stored.HomeGoals, stored.AwayGoals, stored.HomeAgent, stored.AwayAgent)
	}
	return rep, nil
}

// storedMatch reads match id's row from matches.parquet (rows are in ID order).
func (r RunFiles) storedMatch(id int64) (datasets.MatchRow, error) {
	var row datasets.MatchRow
	found := false
	seen := int64(0)
	errFound := errors.New("found")
	err := r.ScanMatches(func(batch []datasets.MatchRow) error {
		if id < seen+int64(len(batch)) {
			row, found = batch[id-seen], true
			return errFound
		}
		seen += int64(len(batch))
		return nil
	})
	if err != nil && !errors.Is(err, errFound) {
		return row, fmt.Errorf("arena: reading match %d: %w", id, err)
	}
	if !found || row.MatchID != id {
		return row, fmt.Errorf("arena: matches.parquet has no row for match %d", id)
	}
	return row, nil
}

// NewReplayer builds the agents of the finished run in dir (through limits, as the run
// did) to play its matches again (see RunFiles.Replayer).
func NewReplayer(ctx context.Context, dir string, limits Limits) (*Replayer, error) {
	return withRun(dir, func(r RunFiles) (*Replayer, error) { return r.Replayer(ctx, limits) })
}
