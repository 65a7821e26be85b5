package arena

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
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

// readConfig reads dir/run.json and the configuration that plays its matches.
func readConfig(dir string) (RunInfo, Config, error) {
	info, err := ReadInfo(dir)
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
	dir    string
	info   RunInfo
	mu     sync.Mutex
	worker *Worker
}

// NewReplayer builds the agents of the run in dir within limits. Once ctx is done, replays
// fail with its error.
func NewReplayer(ctx context.Context, dir string, limits Limits) (*Replayer, error) {
	info, c, err := readConfig(dir)
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
	return &Replayer{dir: dir, info: info, worker: w}, nil
}

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
	stored, err := storedMatch(r.dir, id)
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

// storedMatch reads match id's row from dir/matches.parquet (rows are in ID order).
func storedMatch(dir string, id int64) (datasets.MatchRow, error) {
	var row datasets.MatchRow
	found := false
	seen := int64(0)
	errFound := errors.New("found")
	err := datasets.ScanParquet(filepath.Join(dir, "matches.parquet"), datasets.MatchesSchema, func(batch []datasets.MatchRow) error {
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
