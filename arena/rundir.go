package arena

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/kingoal/kingoal/datasets"
)

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

// ReadTally reads the tally of a finished run from dir/matches.parquet, checking every
// match against the agents of run.json.
func ReadTally(dir string, info RunInfo) (*Tally, error) {
	if !info.Complete {
		return nil, fmt.Errorf("arena: the run in %s is not finished", dir)
	}
	tally := NewTally(len(info.Agents))
	if f, err := ParseFormat(info.Competition); err == nil {
		tally = Config{Format: f, Agents: info.Agents, GroupSize: info.GroupSize}.NewTally()
	}
	err := datasets.ScanParquet(filepath.Join(dir, "matches.parquet"), datasets.MatchesSchema, func(batch []datasets.MatchRow) error {
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
