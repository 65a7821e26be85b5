package arena

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/kingoal/kingoal/datasets"
)

// A RunDir is the directory of one planned run (Plan.Dir): it owns run.json, the shards
// and their manifests, starting, resuming and finishing. Nothing else writes there.
type RunDir struct {
	Path  string
	files RunFiles // set when the directory is only read (RunFiles.Progress): its files are read through it
	plan  *Plan
}

// run plays the plan into the directory (Plan.Run).
func (d RunDir) run(ctx context.Context, opt Options) (*Tally, error) {
	c, dir := d.plan, d.Path
	if err := d.Start(opt.Resume); err != nil {
		return nil, err
	}
	if opt.Resume {
		if info, err := ReadInfo(dir); err == nil && info.Complete {
			return ReadTally(dir, info)
		}
	}
	tally := c.NewTally()
	onDisk := make([]bool, c.Shards()) // complete shards from an earlier attempt
	open := map[int]*shard{}           // partly played shards
	done := 0
	if opt.Resume {
		var err error
		if done, err = d.resumeShards(tally, onDisk, open); err != nil {
			return nil, err
		}
	}
	if opt.Events.Matches != nil {
		opt.Events.Matches(done, c.TotalMatches())
	}
	if err := d.play(ctx, onDisk, open, tally, done, opt); err != nil {
		return nil, err
	}
	return tally, d.Finish()
}

// resumeShards reads what an earlier attempt left: each whole shard is marked onDisk, each
// partly played one goes in open; their matches are added to tally, and their number returned.
func (d RunDir) resumeShards(tally *Tally, onDisk []bool, open map[int]*shard) (done int, err error) {
	for s := range onDisk {
		b, ok, err := d.readShard(s)
		if err != nil {
			return 0, err
		}
		if !ok {
			continue // torn or unreadable: played again
		}
		for i, m := range b.matches {
			if b.filled[i] {
				if err := tally.Add(m); err != nil {
					return 0, err
				}
			}
		}
		done += b.n
		if b.complete() {
			onDisk[s] = true
		} else if b.n > 0 {
			open[s] = b
		}
	}
	return done, nil
}

// Start prepares the directory for the run and writes its run.json (incomplete). The
// directory is the one Run (or Generate) prepared: locked, and for a fresh run holding no
// run's files (Existing is checked there, once). A resumed run must be the same run as the
// one there (ErrNoRun if there is none, and nothing is created then), and it keeps the
// shards that run began with: the plan takes run.json's shard size.
func (d RunDir) Start(resume bool) error {
	dir := d.Path
	info := d.plan.info(d.plan.TotalMatches(), false)
	if resume {
		old, err := ReadInfo(dir)
		if errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("%w in %s (it has no run.json)", ErrNoRun, dir)
		}
		if err != nil {
			return err
		}
		if old.ShardSize > 0 && old.ShardSize != info.ShardSize { // started by a build with other shards
			d.plan.useShardSize(old.ShardSize)
			info = d.plan.info(d.plan.TotalMatches(), false)
		}
		if !sameRun(old, info) {
			return fmt.Errorf("arena: %s holds another run (agents, rules, seed, matches or sampler differ — a run whose run.json names no sampler draws every throw: Config.EveryThrow, --sampler throws); resume it with its own settings", dir)
		}
		if old.Complete {
			return nil // nothing to play; run.json stays as it is
		}
	}
	if err := os.MkdirAll(filepath.Join(dir, "shards"), 0o755); err != nil {
		return fmt.Errorf("arena: %w", err)
	}
	return writeInfo(dir, info)
}

// Finish concatenates the shards into the run's files (matches.parquet and the logs),
// removes the shards and marks run.json complete. A missing or short shard is an error:
// nothing is finished then.
func (d RunDir) Finish() error {
	c, dir := d.plan, d.Path
	shards := c.Shards()
	for s := range shards { // every shard whole before anything is written
		if whole, err := d.ShardComplete(s); err != nil {
			return err
		} else if !whole {
			return fmt.Errorf("arena: shard %d of %s is missing or incomplete", s, dir)
		}
	}
	if err := concat[datasets.MatchRow](dir, "matches", datasets.MatchesSchema, shards); err != nil {
		return err
	}
	if c.LogThrows {
		if err := concat[datasets.ThrowRow](dir, "throws", datasets.ThrowsSchema, shards); err != nil {
			return err
		}
	}
	if c.LogDecisions {
		if err := concat[datasets.DecisionRow](dir, "decisions", datasets.DecisionsSchema, shards); err != nil {
			return err
		}
	}
	if err := os.RemoveAll(filepath.Join(dir, "shards")); err != nil {
		return fmt.Errorf("arena: %w", err)
	}
	return writeInfo(dir, c.info(c.TotalMatches(), true))
}

// ExistingRunError is returned by Start (and Run) for a fresh run into a directory that
// already holds a run's files: a command never replaces results it did not create unless
// asked to. Resume the run, or Clear the directory first.
type ExistingRunError struct {
	Dir      string
	Complete bool // run.json says the run finished
	Done     int  // matches on disk (interrupted runs)
	Total    int  // matches in the run, if run.json says
	Unknown  bool // the files are there but run.json is missing or unreadable
}

func (e *ExistingRunError) Error() string { return "arena: " + e.Situation() }

// Situation says what the directory holds, without the package's prefix (for messages that
// go on to say what to do).
func (e *ExistingRunError) Situation() string {
	switch {
	case e.Unknown:
		return fmt.Sprintf("%s holds files of an earlier run", e.Dir)
	case e.Complete:
		if e.Total == 1 {
			return fmt.Sprintf("%s holds a finished run (1 match)", e.Dir)
		}
		return fmt.Sprintf("%s holds a finished run (%d matches)", e.Dir, e.Total)
	}
	return fmt.Sprintf("%s holds an interrupted run (%d of %d matches finished)", e.Dir, e.Done, e.Total)
}

// ErrNoRun is returned when a run is to be resumed from a directory that holds none.
var ErrNoRun = errors.New("arena: no run to resume")

// Existing describes the run whose files are in dir, or returns nil if there are none.
func Existing(dir string) *ExistingRunError {
	found := false
	for _, f := range append([]string{"run.json"}, runFiles...) {
		if _, err := os.Lstat(filepath.Join(dir, f)); err == nil {
			found = true
		}
	}
	shards, _ := os.ReadDir(filepath.Join(dir, "shards"))
	if !found && len(shards) == 0 {
		return nil
	}
	info, err := ReadInfo(dir)
	if err != nil {
		return &ExistingRunError{Dir: dir, Unknown: true}
	}
	e := &ExistingRunError{Dir: dir, Complete: info.Complete, Total: info.TotalMatches}
	for _, s := range shards {
		if strings.HasPrefix(s.Name(), "matches-") && strings.HasSuffix(s.Name(), ".parquet") {
			if n, err := datasets.CountRows(filepath.Join(dir, "shards", s.Name()), datasets.MatchesSchema); err == nil {
				e.Done += int(n)
			}
		}
	}
	return e
}

// Clear removes the files of a run from dir — run.json, the shards, the data files and the
// leaderboard's — and nothing else, so that a fresh run may start there.
func Clear(dir string) error {
	for _, f := range append([]string{"shards", "run.json"}, runFiles...) {
		if err := os.RemoveAll(filepath.Join(dir, f)); err != nil {
			return fmt.Errorf("arena: clearing %s: %w", dir, err)
		}
	}
	return nil
}

// Tally reads the tally of a finished run from matches.parquet, checking every match
// against the agents of run.json (info).
func (r RunFiles) Tally(info RunInfo) (*Tally, error) {
	dir := r.Path()
	if !info.Complete {
		return nil, fmt.Errorf("arena: the run in %s is not finished", dir)
	}
	tally := NewTally(len(info.Agents))
	if f, err := ParseFormat(info.Competition); err == nil {
		tally = Config{Format: f, Agents: info.Agents, GroupSize: info.GroupSize}.NewTally()
	}
	err := r.ScanMatches(func(batch []datasets.MatchRow) error {
		for _, m := range batch {
			if err := tally.Add(m); err != nil {
				return fmt.Errorf("%w (in %s, whose run.json lists %d agents)", err, dir, tally.N)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if tally.Matches() != info.TotalMatches {
		return nil, fmt.Errorf("arena: %s/matches.parquet holds %d matches, run.json says %d", dir, tally.Matches(), info.TotalMatches)
	}
	return tally, nil
}

// Run plays the plan into dir (see the package-level Run).
func (c *Plan) Run(ctx context.Context, dir string, opt Options) (*Tally, error) {
	return c.Dir(dir).run(ctx, opt)
}

// ReadTally reads the tally of a finished run from dir/matches.parquet, checking every
// match against the agents of run.json.
func ReadTally(dir string, info RunInfo) (*Tally, error) {
	return withRun(dir, func(r RunFiles) (*Tally, error) { return r.Tally(info) })
}
