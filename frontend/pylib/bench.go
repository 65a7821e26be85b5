package main

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"regexp"

	"github.com/kingoal/kingoal/agents"
	"github.com/kingoal/kingoal/bench"
	"github.com/kingoal/kingoal/datasets"
	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/exploit"
	"github.com/kingoal/kingoal/internal/safefile"
	"github.com/kingoal/kingoal/solver/game"
	"github.com/kingoal/kingoal/solver/lineup"
)

// kingoal.bench: a Python learner's curve under a suite's rules, measured by nash_conv in
// Python and written here as bench-curve rows — the units filled in by exploit's one
// conversion, the file by the writer `kingoal bench` reads — so that it joins the report.

func init() {
	calls["bench_suites"] = benchSuitesCall
	calls["bench_write"] = benchWriteCall
	calls["bench_card"] = benchCardCall
	calls["bench_network"] = benchNetworkCall
}

// cardArgs are a zoo card's fields as kingoal.bench hands them over.
type cardArgs struct {
	Dir            string          `json:"dir"`
	Key            string          `json:"key"`
	Name           string          `json:"card_name"` // the card's name (N.call takes name itself)
	Learner        string          `json:"learner"`
	Rules          json.RawMessage `json:"rules"`
	Budget         int             `json:"budget"`
	Seed           uint64          `json:"seed"`
	Exploitability float64         `json:"exploitability"` // the score scale's, as measured exactly
}

// card checks the fields and is the card they describe, with its rules.
func (a cardArgs) card() (bench.Card, env.Rules, error) {
	r, err := parseRules(a.Rules)
	if err != nil {
		return bench.Card{}, r, err
	}
	switch {
	case a.Dir == "" || !learnerName.MatchString(a.Key):
		return bench.Card{}, r, inputf("bench: card %q in %q: want a directory and a key of 1..64 letters, digits, '_', '.', '+' or '-'", a.Key, a.Dir)
	case !learnerName.MatchString(a.Learner) || a.Name == "" || len(a.Name) > 200:
		return bench.Card{}, r, inputf("bench: card of learner %q named %q: want a learner's name and a name of 1..200 bytes", a.Learner, a.Name)
	case a.Budget < 0 || !(a.Exploitability >= 0 && a.Exploitability <= 1):
		return bench.Card{}, r, inputf("bench: card: budget %d, exploitability %v: want budget ≥ 0 and exploitability 0..1", a.Budget, a.Exploitability)
	}
	return bench.Card{Name: a.Name, Learner: a.Learner, Budget: a.Budget, Seed: a.Seed, Exploitability: a.Exploitability}, r, nil
}

// keep writes the card of the policy a.Dir/a.Key+ext, written already.
func (a cardArgs) keep(c bench.Card, r env.Rules, ext string) (any, error) {
	if err := bench.KeepPolicy(context.Background(), a.Dir, a.Key+ext, c, r); err != nil {
		return nil, err
	}
	return map[string]any{"card": filepath.Join(a.Dir, a.Key+".card.json"), "policy": filepath.Join(a.Dir, a.Key+ext)}, nil
}

// benchCardCall writes the zoo card of a policy table a Python learner saved as DIR/KEY.kgp
// (kingoal.save_policy): `kingoal agents --zoo DIR` lists it, arenas play it.
func benchCardCall(in []byte) (any, error) {
	var a cardArgs
	if err := decode(in, &a, "bench"); err != nil {
		return nil, err
	}
	c, r, err := a.card()
	if err != nil {
		return nil, err
	}
	return a.keep(c, r, ".kgp")
}

// benchNetworkCall writes a Python learner's final network as DIR/KEY.kgn (agents.NetworkFile,
// atomically) and its zoo card: `kingoal agents --zoo DIR` lists it, network:file= plays it.
// The network is checked (shapes, numbers, bounds) before anything is written.
func benchNetworkCall(in []byte) (any, error) {
	a, c, f, err := parseNetwork(in)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(a.Dir, 0o755); err != nil {
		return nil, err
	}
	if err := safefile.WriteAtomic(filepath.Join(a.Dir, a.Key+bench.NetworkExt), f.Write); err != nil {
		return nil, err
	}
	return a.keep(c, f.Rules, bench.NetworkExt)
}

// parseNetwork reads bench_network's request: the card's fields and the checked network.
func parseNetwork(in []byte) (cardArgs, bench.Card, *agents.NetworkFile, error) {
	var a struct {
		cardArgs
		Home []agents.NetworkMember `json:"home"`
		Away []agents.NetworkMember `json:"away"`
	}
	if err := decode(in, &a, "bench"); err != nil {
		return a.cardArgs, bench.Card{}, nil, err
	}
	c, r, err := a.card()
	if err != nil {
		return a.cardArgs, c, nil, err
	}
	f := &agents.NetworkFile{Format: agents.NetworkFormat, Name: a.Name, Rules: r, Home: a.Home, Away: a.Away}
	if err := f.Check(); err != nil {
		return a.cardArgs, c, nil, inputError{err}
	}
	return a.cardArgs, c, f, nil
}

// benchSuitesCall is every declared suite's rules (as rule knobs) and their words.
func benchSuitesCall([]byte) (any, error) {
	out := map[string]any{}
	for name, s := range bench.Suites {
		rules := s.Entries[0].Rules // a suite's entries share its rules
		size, err := game.Estimate(rules, lineup.PayoffWinLoss)
		if err != nil {
			return nil, err
		}
		out[name] = map[string]any{"rules": rules, "rules_text": rules.String(), "learners": s.Learners(), "break_states": size.BreakStates}
	}
	return out, nil
}

// maxBenchRows bounds the rows one bench_write takes (a curve has tens of points).
const maxBenchRows = 100_000

// learnerName is what a learner's name may hold: it names a file and a chart's legend.
var learnerName = regexp.MustCompile(`^[A-Za-z0-9_.+-]{1,64}$`)

// benchWriteCall writes a Python learner's measurements to path as a bench-curve file,
// atomically, each row's figures from its score-scale NashConv.
func benchWriteCall(in []byte) (any, error) {
	var a struct {
		Path string `json:"path"`
		Rows []struct {
			Suite         string  `json:"suite"`
			Learner       string  `json:"learner"`
			Rules         string  `json:"rules"`
			Seed          int64   `json:"seed"`
			Iteration     int64   `json:"iteration"`
			Samples       int64   `json:"samples"`
			Passes        int64   `json:"passes"`
			Seconds       float64 `json:"seconds"`
			ScoreNashConv float64 `json:"score_nash_conv"`
		} `json:"rows"`
	}
	if err := decode(in, &a, "bench"); err != nil {
		return nil, err
	}
	if a.Path == "" || len(a.Rows) == 0 || len(a.Rows) > maxBenchRows {
		return nil, inputf("bench: write %d rows to %q: want 1..%d rows and a path", len(a.Rows), a.Path, maxBenchRows)
	}
	rows := make([]datasets.BenchCurveRow, len(a.Rows))
	for i, r := range a.Rows {
		switch {
		case bench.Suites[r.Suite].Name == "" && r.Suite != "external":
			return nil, inputf("bench: row %d: suite %q: want tiny, standard, default or external", i, r.Suite)
		case !learnerName.MatchString(r.Learner):
			return nil, inputf("bench: row %d: learner %q: want 1..64 letters, digits, '_', '.', '+' or '-'", i, r.Learner)
		case r.Rules == "" || len(r.Rules) > 1000:
			return nil, inputf("bench: row %d: rules: want their words (env.Rules.String)", i)
		case r.Iteration < 1 || r.Samples < 0 || r.Passes < 0 || r.Seed < 0:
			return nil, inputf("bench: row %d: iteration %d, samples %d, passes %d, seed %d: want iteration ≥ 1, the others ≥ 0", i, r.Iteration, r.Samples, r.Passes, r.Seed)
		case !(r.Seconds >= 0) || math.IsInf(r.Seconds, 0):
			return nil, inputf("bench: row %d: seconds %v: want a finite number ≥ 0", i, r.Seconds)
		case !(r.ScoreNashConv >= 0 && r.ScoreNashConv <= 2):
			return nil, inputf("bench: row %d: score_nash_conv %v: want 0..2 (the score scale's NashConv)", i, r.ScoreNashConv)
		}
		f := exploit.FiguresOfScoreNashConv(r.ScoreNashConv)
		rows[i] = datasets.BenchCurveRow{Suite: r.Suite, Learner: r.Learner, Rules: r.Rules, Seed: r.Seed, Iteration: r.Iteration,
			Samples: r.Samples, Passes: r.Passes, Seconds: r.Seconds, OpenSpielNashConv: f.OpenSpielNashConv,
			OpenSpielExploitability: f.OpenSpielExploitability, ScoreNashConv: f.ScoreNashConv, ScoreExploitability: f.ScoreExploitability, Exact: true}
	}
	if err := datasets.WriteParquet(a.Path, datasets.BenchCurveSchema, rows); err != nil {
		return nil, err
	}
	return map[string]any{"path": a.Path, "rows": len(rows)}, nil
}
