package bench_test

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kingoal/kingoal/agents"
	"github.com/kingoal/kingoal/bench"
	"github.com/kingoal/kingoal/datasets"
	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/exploit/exploittest"
)

// mini is a suite of every learner at 3-throw halves (2-throw halves have no goal to learn from), a few steps each.
var mini = bench.Suite{Name: "mini", Entries: []bench.Entry{
	{Learner: "solver", Rules: env.Rules{ThrowsPerHalf: 3, Moves: 1}},
	{Learner: "fictitious", Rules: env.Rules{ThrowsPerHalf: 3, Moves: 1}, Budget: 3},
	{Learner: "regret", Rules: env.Rules{ThrowsPerHalf: 3, Moves: 1}, Budget: 2},
	{Learner: "psro", Rules: env.Rules{ThrowsPerHalf: 3, Moves: 1}, Budget: 2},
	{Learner: "qlearning", Rules: env.Rules{ThrowsPerHalf: 3, Moves: 1}, Budget: 3000, Points: 3, Seed: 4},
	{Learner: "mcts", Rules: env.Rules{ThrowsPerHalf: 3, Moves: 1}, Budget: 20, Points: 20},
}}

// TestSuiteIsReproducibleAndResumes: a suite run twice gives the same figures but the
// seconds; the solver's row is the verified equilibrium (NashConv 0) and every learner's
// first point is above it; a run over a directory whose parts are there reads them back
// (the same rows, seconds too) — one part removed is run again; the report's files are
// written and its Markdown has a row a run.
func TestSuiteIsReproducibleAndResumes(t *testing.T) {
	if testing.Short() {
		t.Skip("-short (the race stage): the learners' goroutines are raced in their own packages")
	}
	bench.ZooMatches = 200 // the cards' scores: the path, not the figures
	dir := t.TempDir()
	first, err := bench.Run(context.Background(), mini, bench.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	again, err := bench.Run(context.Background(), mini, bench.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(first) != len(again) || len(first) != 1+3+2+2+3+1 {
		t.Fatalf("%d rows, then %d", len(first), len(again))
	}
	for i := range first {
		a, b := first[i], again[i]
		a.Seconds, b.Seconds = 0, 0
		if a != b {
			t.Errorf("row %d: %+v, then %+v", i, a, b)
		}
		if a.Learner == "solver" && a.OpenSpielNashConv > 1e-9 || a.Learner != "solver" && a.Iteration == 1 && !(a.OpenSpielNashConv > 1e-6) || a.Exact != (a.Learner != "mcts") {
			t.Errorf("row %d: %+v", i, a)
		}
		// the units: OpenSpiel's NashConv is twice the score scale's, its exploitability half its NashConv
		if a.OpenSpielNashConv != 2*a.ScoreNashConv || a.OpenSpielExploitability != a.ScoreNashConv || a.ScoreExploitability != a.ScoreNashConv/2 ||
			a.Exact && a.OpenSpielNashConvCI95 != 0 || !a.Exact && !(a.OpenSpielNashConvCI95 > 0) {
			t.Errorf("row %d's units: %+v", i, a)
		}
	}
	parts, _ := filepath.Glob(filepath.Join(dir, "parts", "*.parquet"))
	if len(parts) != len(mini.Entries) {
		t.Fatalf("%d parts", len(parts))
	}
	if err := os.Remove(parts[0]); err != nil {
		t.Fatal(err)
	}
	ran := 0
	resumed, err := bench.Run(context.Background(), mini, bench.Options{Dir: dir, Progress: func(_, _ int, _ bench.Entry, last *datasets.BenchCurveRow) {
		if last == nil {
			ran++
		}
	}})
	if err != nil || ran != 1 || len(resumed) != len(first) {
		t.Fatalf("resumed: %v, %d entries run, %d rows", err, ran, len(resumed))
	}
	if err := bench.Report(dir, resumed); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{bench.Files.Table, bench.Files.BySeconds, bench.Files.ByPasses, bench.Files.BySamples, bench.Files.Markdown} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() < 100 {
			t.Errorf("%s: %v", f, err)
		}
	}
	if md := bench.Markdown(resumed); strings.Count(md, "\n") != 2+len(mini.Entries)+2 || !strings.Contains(md, "NashConv (OpenSpiel, ±1)") || !strings.Contains(md, "OpenSpiel NashConv / 4") { // header, rows, the units' note
		t.Errorf("markdown:\n%s", md)
	}
	checkZoo(t, filepath.Join(dir, "zoo"))
}

// checkZoo: the zoo holds a card a learner (the solver's equilibrium and a search are not), each
// table playing under its spec with the exploitability its card says (measured again,
// exactly, by the table agent); a table changed after its card is refused.
func checkZoo(t *testing.T, zoo string) {
	cards, err := bench.ReadZoo(zoo)
	if err != nil || len(cards) != len(mini.Entries)-2 { // neither the solver's equilibrium nor a search is a learner's table
		t.Fatalf("zoo: %d cards (%v)", len(cards), err)
	}
	r := mini.Entries[0].Rules
	for _, c := range cards {
		got := exploittest.Measure(t, c.Spec(zoo), r, 0)
		if !got.Exact || math.Abs(got.Value-c.Exploitability) > 1e-6 || len(c.Scores) != len(bench.ZooOpponents) {
			t.Errorf("%s: measured %+v, its card %+v", c.Name, got, c)
		}
	}
	table := filepath.Join(zoo, cards[0].Table)
	b, _ := os.ReadFile(table)
	b[len(b)/2] ^= 1
	if err := os.WriteFile(table, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := bench.ReadZoo(zoo); err == nil || !strings.Contains(err.Error(), "not the policy its card") {
		t.Errorf("a changed table: %v", err)
	}
}

// TestZooKeepsNetworks: a network file (a Python learner's, where its table would not fit)
// gets a card like a table's — listed by ReadZoo, played by network:file=, its exploitability
// the one measured again and the one CardFigure gives for it — and a file that is neither a
// table nor a network is refused.
func TestZooKeepsNetworks(t *testing.T) {
	r := env.Rules{ThrowsPerHalf: 3, Moves: 1}
	zoo := t.TempDir()
	logits := agents.NetworkLayer{In: env.ObservationSize, Out: env.NumActions, Weight: make([]float32, env.ObservationSize*env.NumActions), Bias: make([]float32, env.NumActions)}
	for i := range logits.Bias {
		logits.Bias[i] = float32(i%7) / 3 // a fixed soft preference
	}
	net := []agents.NetworkMember{{Weight: 1, Layers: []agents.NetworkLayer{logits}}}
	f := agents.NetworkFile{Format: agents.NetworkFormat, Name: "biases", Rules: r, Home: net, Away: net}
	out, err := os.Create(filepath.Join(zoo, "biases_seed1"+bench.NetworkExt))
	if err != nil {
		t.Fatal(err)
	}
	if err := errors.Join(f.Write(out), out.Close()); err != nil {
		t.Fatal(err)
	}
	x := exploittest.Measure(t, "network:file="+out.Name(), r, 0)
	if err := bench.KeepPolicy(context.Background(), zoo, "biases_seed1.txt", bench.Card{Learner: "biases"}, r); err == nil {
		t.Error("a .txt kept as a zoo policy")
	}
	if err := bench.KeepPolicy(context.Background(), zoo, "biases_seed1"+bench.NetworkExt, bench.Card{Name: "biases", Learner: "biases", Exploitability: x.Value}, r); err != nil {
		t.Fatal(err)
	}
	cards, err := bench.ReadZoo(zoo)
	if err != nil || len(cards) != 1 {
		t.Fatalf("%d cards, %v", len(cards), err)
	}
	if spec := cards[0].Spec(zoo); spec != "network:file="+out.Name() {
		t.Fatalf("spec %q", spec)
	}
	if again := exploittest.Measure(t, cards[0].Spec(zoo), r, 0); !again.Exact || again.Value != cards[0].Exploitability || again.Value <= 0 {
		t.Errorf("measured again %+v, its card %+v", again, cards[0])
	}
	// CardFigure: the card's figure for its file under its rules; nothing for another spec,
	// file or rules; an error once the file is not the one the card describes.
	spec := cards[0].Spec(zoo) + "#mine"
	if e, ok, err := bench.CardFigure(spec, r); !ok || err != nil || !e.Exact || e.Value != cards[0].Exploitability || !strings.Contains(e.Method, "zoo card biases_seed1.card.json") {
		t.Errorf("the card's figure: %+v, %v, %v", e, ok, err)
	}
	for _, c := range []struct {
		spec  string
		rules env.Rules
	}{{spec, env.Rules{ThrowsPerHalf: 4, Moves: 1}}, {"heuristic", r}, {"network:file=" + filepath.Join(zoo, "absent"+bench.NetworkExt), r}, {"network:file=" + out.Name() + ".txt", r}} {
		if e, ok, err := bench.CardFigure(c.spec, c.rules); ok || err != nil {
			t.Errorf("%s under %v: %+v, %v, %v", c.spec, c.rules, e, ok, err)
		}
	}
	b, _ := os.ReadFile(out.Name())
	if err := os.WriteFile(out.Name(), append(b, ' '), 0o644); err != nil {
		t.Fatal(err)
	}
	if e, ok, err := bench.CardFigure(spec, r); ok || err == nil || !strings.Contains(err.Error(), "not the policy its card") {
		t.Errorf("a changed network: %+v, %v, %v", e, ok, err)
	}
}

// TestReportOnlyRunsNothing: a report-only run returns the external rows and no entry's,
// running none (no part written), and needs a directory.
func TestReportOnlyRunsNothing(t *testing.T) {
	dir := t.TempDir()
	ext := []datasets.BenchCurveRow{{Suite: "mini", Learner: "mine", Seed: 1, Iteration: 1, Samples: 10, Exact: true, ScoreNashConv: 0.25}}
	if err := os.MkdirAll(filepath.Join(dir, "external"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := datasets.WriteParquet(filepath.Join(dir, "external", "mine_seed1.parquet"), datasets.BenchCurveSchema, ext); err != nil {
		t.Fatal(err)
	}
	rows, err := bench.Run(context.Background(), mini, bench.Options{Dir: dir, ReportOnly: true, Progress: func(int, int, bench.Entry, *datasets.BenchCurveRow) {
		t.Error("an entry ran")
	}})
	if err != nil || len(rows) != 1 || rows[0].Learner != "mine" || rows[0].ScoreNashConv != 0.25 {
		t.Fatalf("%v: %+v", err, rows)
	}
	if _, err := os.Stat(filepath.Join(dir, "parts")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("parts: %v", err)
	}
	if _, err := bench.Run(context.Background(), mini, bench.Options{ReportOnly: true}); err == nil {
		t.Error("a report-only run without a directory")
	}
}

// TestUnknownLearnerIsRefused: an entry naming no learner is an error, not a skip.
func TestUnknownLearnerIsRefused(t *testing.T) {
	_, err := bench.Run(context.Background(), bench.Suite{Name: "x", Entries: []bench.Entry{{Learner: "cfr"}}}, bench.Options{})
	if err == nil || !strings.Contains(err.Error(), `unknown learner "cfr"`) {
		t.Errorf("%v", err)
	}
}
