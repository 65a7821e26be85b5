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

// Suite is a named list of entries.
type Suite struct {
	Name    string
	Entries []Entry
}

// learners are the kinds an Entry may name.
var learners = []string{"fictitious", "regret", "psro", "qlearning", "mcts", "solver"}

// learnerTitles are the learners' names in prose (the help, the pages).
var learnerTitles = map[string]string{"fictitious": "fictitious play", "regret": "regret matching+", "psro": "PSRO",
	"qlearning": "tabular Q-learning self-play", "mcts": "SM-MCTS", "solver": "the exact solver"}

// Learners names, in prose and in the order they first appear, the learners s runs.
func (s Suite) Learners() []string {
	var names []string
	for _, e := range s.Entries {
		if t := learnerTitles[e.Learner]; !slices.Contains(names, t) {
			names = append(names, t)
		}
	}
	return names
}

// Suites are the declared suites: tiny (3-throw halves, one move: seconds, run in CI),
// standard (10-throw halves, one move: the published figures, ~half an hour on 2 cores) and
// default (the real rules, where only the sampling learners fit: the full-width learners'
// strategies would hold every break state's mixes, ~100 GB; ~half an hour, ~5 GB).
var Suites = map[string]Suite{
	"tiny": {Name: "tiny", Entries: []Entry{
		{Learner: "solver", Rules: tinyRules},
		{Learner: "fictitious", Rules: tinyRules, Budget: 12},
		{Learner: "regret", Rules: tinyRules, Budget: 8},
		{Learner: "psro", Rules: tinyRules, Budget: 6},
		{Learner: "qlearning", Rules: tinyRules, Budget: 20000, Points: 4, Seed: 1},
		{Learner: "qlearning", Rules: tinyRules, Budget: 20000, Points: 4, Seed: 2},
		{Learner: "mcts", Rules: tinyRules, Budget: 100, Points: 100},
	}},
	"standard": {Name: "standard", Entries: []Entry{
		{Learner: "solver", Rules: standardRules},
		{Learner: "fictitious", Rules: standardRules, Budget: 40},
		{Learner: "regret", Rules: standardRules, Budget: 20},
		{Learner: "psro", Rules: standardRules, Budget: 10},
		{Learner: "qlearning", Rules: standardRules, Budget: 2_000_000, Points: 10, Seed: 1},
		{Learner: "qlearning", Rules: standardRules, Budget: 2_000_000, Points: 10, Seed: 2},
		{Learner: "qlearning", Rules: standardRules, Budget: 2_000_000, Points: 10, Seed: 3},
		{Learner: "mcts", Rules: standardRules, Budget: 100, Points: 20000},
		{Learner: "mcts", Rules: standardRules, Budget: 1000, Points: 20000},
	}},
	"default": {Name: "default", Entries: []Entry{
		{Learner: "solver", Rules: env.Rules{}},
		{Learner: "qlearning", Rules: env.Rules{}, Budget: 1_000_000, Points: 2, Seed: 1},
	}},
}

var (
	tinyRules     = env.Rules{ThrowsPerHalf: 3, Moves: 1}
	standardRules = env.Rules{ThrowsPerHalf: 10, Moves: 1}
)

// Options are a run's: where its part files go, and whom to tell.
type Options struct {
	// Dir holds a part file for every finished entry (dir/parts/KEY.parquet), and each
	// learner's final policy with its card (dir/zoo: ReadZoo); a part found there is read,
	// not run again. Rows that learners outside Go wrote into dir/external
	// (bench-curve/2 files: kingoal.bench in Python, python/examples/selfplay_maskable_ppo.py --bench DIR) join the
	// suite's. "" runs everything and keeps nothing.
	Dir string
	// Progress, if set, is told when an entry starts (done entries so far, of total) and
	// after each of its measurements.
	Progress func(done, total int, e Entry, last *datasets.BenchCurveRow)
	// ReportOnly runs nothing: the rows are the finished entries' parts and the external
	// rows found in Dir (re-rendering a report after Python learners added theirs).
	ReportOnly bool
}

// Run runs s's entries in order and returns all their rows. Interrupted by ctx, it returns
// ctx's error; finished entries' parts stay for the next run.
func Run(ctx context.Context, s Suite, o Options) ([]datasets.BenchCurveRow, error) {
	if o.ReportOnly && o.Dir == "" {
		return nil, errors.New("bench: a report-only run needs a directory")
	}
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
		if o.ReportOnly {
			continue
		}
		if o.Progress != nil {
			o.Progress(i, len(s.Entries), e, nil)
		}
		zoo := ""
		if o.Dir != "" {
			zoo = filepath.Join(o.Dir, "zoo")
		}
		rows, err := runEntry(ctx, e, zoo, func(r datasets.BenchCurveRow) {
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
	if o.Dir == "" {
		return all, nil
	}
	external, err := filepath.Glob(filepath.Join(o.Dir, "external", "*.parquet"))
	if err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	for _, path := range external {
		rows, err := datasets.ReadParquet[datasets.BenchCurveRow](path, datasets.BenchCurveSchema)
		if err != nil {
			return nil, fmt.Errorf("bench: an external learner's rows: %w", err)
		}
		all = append(all, rows...)
	}
	return all, nil
}
