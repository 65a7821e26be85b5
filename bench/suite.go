package bench

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/kingoal/kingoal/datasets"
	"github.com/kingoal/kingoal/env"
)

// Entry is one learner's run in a suite.
type Entry struct {
	// Learner is fictitious, regret, psro, qlearning (tabular self-play), or solver (the
	// exact equilibrium: solved and verified, the truth the others are measured against).
	Learner string
	Rules   env.Rules
	// Budget is the iterations of a full-width learner, the episodes of Q-learning.
	Budget int
	// Points is how many times Q-learning is measured along its budget (0: 10).
	Points int
	Seed   uint64 // Q-learning's (full-width learners and the solver are deterministic)
}

// key names e's part file: what it ran, so a part is never another entry's.
func (e Entry) key() string {
	r := strings.NewReplacer(" ", "", ",", "_", "+", "p", "/", "-")
	return fmt.Sprintf("%s_%s_b%d_p%d_s%d", e.Learner, r.Replace(e.Rules.String()), e.Budget, e.Points, e.Seed)
}

// Suite is a named list of entries.
type Suite struct {
	Name    string
	Entries []Entry
}

// learners are the kinds an Entry may name.
var learners = []string{"fictitious", "regret", "psro", "qlearning", "solver"}

// Suites are the declared suites: tiny (3-throw halves, one move: seconds, run in CI) and
// standard (10-throw halves, one move: the published figures, ~an hour on 2 cores).
var Suites = map[string]Suite{
	"tiny": {Name: "tiny", Entries: []Entry{
		{Learner: "solver", Rules: tinyRules},
		{Learner: "fictitious", Rules: tinyRules, Budget: 12},
		{Learner: "regret", Rules: tinyRules, Budget: 8},
		{Learner: "psro", Rules: tinyRules, Budget: 6},
		{Learner: "qlearning", Rules: tinyRules, Budget: 20000, Points: 4, Seed: 1},
		{Learner: "qlearning", Rules: tinyRules, Budget: 20000, Points: 4, Seed: 2},
	}},
	"standard": {Name: "standard", Entries: []Entry{
		{Learner: "solver", Rules: standardRules},
		{Learner: "fictitious", Rules: standardRules, Budget: 40},
		{Learner: "regret", Rules: standardRules, Budget: 20},
		{Learner: "psro", Rules: standardRules, Budget: 10},
		{Learner: "qlearning", Rules: standardRules, Budget: 2_000_000, Points: 10, Seed: 1},
		{Learner: "qlearning", Rules: standardRules, Budget: 2_000_000, Points: 10, Seed: 2},
		{Learner: "qlearning", Rules: standardRules, Budget: 2_000_000, Points: 10, Seed: 3},
	}},
}

var (
	tinyRules     = env.Rules{ThrowsPerHalf: 3, Moves: 1}
	standardRules = env.Rules{ThrowsPerHalf: 10, Moves: 1}
)

// Options are a run's: where its part files go, and whom to tell.
type Options struct {
	// Dir holds a part file for every finished entry (dir/parts/KEY.parquet); a part found
	// there is read, not run again. "" runs everything and keeps nothing.
	Dir string
	// Progress, if set, is told when an entry starts (done entries so far, of total) and
	// after each of its measurements.
	Progress func(done, total int, e Entry, last *datasets.BenchCurveRow)
}

// Run runs s's entries in order and returns all their rows. Interrupted by ctx, it returns
// ctx's error; finished entries' parts stay for the next run.
func Run(ctx context.Context, s Suite, o Options) ([]datasets.BenchCurveRow, error) {
	var all []datasets.BenchCurveRow
	for i, e := range s.Entries {
		if !slices.Contains(learners, e.Learner) {
			return nil, fmt.Errorf("bench: unknown learner %q (want one of %s)", e.Learner, strings.Join(learners, ", "))
		}
		part := ""
		if o.Dir != "" {
			part = filepath.Join(o.Dir, "parts", e.key()+".parquet")
			rows, err := datasets.ReadParquet[datasets.BenchCurveRow](part, datasets.BenchCurveSchema)
			if err == nil && len(rows) > 0 && rows[0].Suite == s.Name {
				all = append(all, rows...)
				continue
			}
			if err != nil && !errors.Is(err, os.ErrNotExist) {
				return nil, fmt.Errorf("bench: %w (remove it to run its entry again)", err)
			}
		}
		if o.Progress != nil {
			o.Progress(i, len(s.Entries), e, nil)
		}
		rows, err := runEntry(ctx, e, func(r datasets.BenchCurveRow) {
			if o.Progress != nil {
				o.Progress(i, len(s.Entries), e, &r)
			}
		})
		if err != nil {
			return nil, fmt.Errorf("bench: %s under %s: %w", e.Learner, e.Rules, err)
		}
		for j := range rows {
			rows[j].Suite = s.Name
		}
		if part != "" {
			if err := os.MkdirAll(filepath.Dir(part), 0o755); err != nil {
				return nil, fmt.Errorf("bench: %w", err)
			}
			if err := datasets.WriteParquet(part, datasets.BenchCurveSchema, rows); err != nil {
				return nil, err
			}
		}
		all = append(all, rows...)
	}
	return all, nil
}
