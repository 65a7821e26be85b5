package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kingoal/kingoal/arena"
	"github.com/kingoal/kingoal/bench"
	"github.com/kingoal/kingoal/datasets"
	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/exploit"
	"github.com/kingoal/kingoal/frontend/cli/command"
	"github.com/kingoal/kingoal/internal/jsonfile"
	"github.com/kingoal/kingoal/internal/testtool"
)

func TestTrainAndResume(t *testing.T) {
	dir := t.TempDir()
	whole, half := filepath.Join(dir, "whole.json"), filepath.Join(dir, "half.json")
	common := []string{"train", "qlearning", "--throws-per-half", "6", "--moves", "1", "--eval-every", "5000", "--seed", "3"}
	if code, _, stderr := run(t, append(common, "--episodes", "20000", "--out", whole)...); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if code, _, stderr := run(t, append(common, "--episodes", "10000", "--out", half)...); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	code, out, stderr := run(t, append(common, "--episodes", "20000", "--out", half, "--resume")...)
	if code != 0 {
		t.Fatalf("resume: exit %d: %s", code, stderr)
	}
	a, _ := os.ReadFile(whole)
	b, _ := os.ReadFile(half)
	if len(a) == 0 || !bytes.Equal(a, b) {
		t.Fatal("training in two runs did not give the model of one run")
	}
	curve, err := datasets.ReadParquet[datasets.LearningCurveRow](filepath.Join(dir, "half.curve.parquet"), datasets.LearningCurveSchema)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := datasets.ReadParquet[datasets.LearningCurveRow](filepath.Join(dir, "whole.curve.parquet"), datasets.LearningCurveSchema)
	if len(curve) != 4 || len(want) != 4 || curve[3].Episodes != 20000 {
		t.Fatalf("curve rows: %d and %d", len(curve), len(want))
	}
	for i := range curve {
		if curve[i].Score != want[i].Score || !curve[i].Exact || math.IsNaN(curve[i].Regret) || curve[i].Regret < -1e-9 ||
			!(curve[i].ScoreExploitability > 0) || curve[i].ScoreExploitability != want[i].ScoreExploitability {
			t.Fatalf("row %d: resumed %+v, whole %+v", i, curve[i], want[i])
		}
	}
	if !strings.Contains(out, "best response") || !strings.Contains(out, "exploitability") {
		t.Errorf("summary:\n%s", out)
	}
	// The last row's exploitability is eval's exact figure for the model.
	code, evalOut, stderr := run(t, "eval", "qlearning:model="+whole, "--vs", "fixed:2-2-2-2-2", "--json", "--throws-per-half", "6", "--moves", "1")
	var rep struct{ Exploitability struct{ Value float64 } }
	if err := json.Unmarshal([]byte(evalOut), &rep); code != 0 || err != nil || rep.Exploitability.Value != want[3].ScoreExploitability {
		t.Errorf("eval: exit %d %s: %v, the curve's last %v", code, stderr, rep.Exploitability.Value, want[3].ScoreExploitability)
	}
	if st, err := os.Stat(filepath.Join(dir, "whole.curve.png")); err != nil || st.Size() < 1000 {
		t.Errorf("chart: %v", err)
	}
	// A Monte Carlo evaluation against a stochastic opponent.
	code, out, stderr = run(t, "train", "qlearning", "--vs", "random", "--throws-per-half", "4", "--episodes", "2000", "--eval-every", "1000", "--eval-matches", "200", "--out", filepath.Join(dir, "r.json"))
	if code != 0 || !strings.Contains(out, "—") {
		t.Fatalf("v random: exit %d %s\n%s", code, stderr, out)
	}
}

func TestTrainBadInput(t *testing.T) {
	dir := t.TempDir()
	garbage := filepath.Join(dir, "garbage.json")
	os.WriteFile(garbage, []byte("not a model"), 0o644)
	for _, args := range [][]string{
		{"train", "sarsa"},
		{"train", "qlearning", "--episodes", "0"},
		{"train", "qlearning", "--vs", "nobody"},
		{"train", "qlearning", "--epsilon", "2"},
		{"train", "qlearning", "--out", "model.txt"},
		{"train", "qlearning", "--out", filepath.Join(dir, "missing", "q.json")},
		{"solve", "policy", "--png", filepath.Join(dir, "missing", "p.png")},
		{"datasets", "export", garbage, "--out", filepath.Join(dir, "missing", "x.csv")},
	} {
		if code, out, stderr := run(t, args...); code != command.ExitUsage || out != "" || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
			t.Errorf("%v: exit %d, stderr %q", args, code, stderr)
		}
	}
	code, _, stderr := run(t, "train", "qlearning", "--resume", "--out", garbage, "--episodes", "10")
	if code != command.ExitFailure || !strings.Contains(stderr, "not a Q-learning model") {
		t.Errorf("corrupt model: exit %d, %q", code, stderr)
	}
	if b, _ := os.ReadFile(garbage); string(b) != "not a model" {
		t.Error("a failed resume changed the file")
	}
}

// TestTrainResumeKeepsItsTargetAndEveryCurveRow: a resumed training without --episodes
// trains to the target the model records (it trained to the default 500,000 before); a kill
// between the curve's save and the model's loses no curve row; a total below what the model
// has trained is refused in one line.
func TestTrainResumeKeepsItsTargetAndEveryCurveRow(t *testing.T) {
	dir := t.TempDir()
	common := []string{"train", "qlearning", "--throws-per-half", "6", "--moves", "1", "--eval-every", "5000", "--seed", "3"}
	whole := filepath.Join(dir, "whole.json")
	if code, _, stderr := run(t, append(common, "--episodes", "20000", "--out", whole)...); code != 0 {
		t.Fatal(stderr)
	}
	// A model interrupted at 10,000 of 20,000, whose curve got its 15,000 row before the kill
	// (the curve is saved first): the state a kill between the two saves leaves.
	half := filepath.Join(dir, "half.json")
	if code, _, stderr := run(t, append(common, "--episodes", "10000", "--out", half)...); code != 0 {
		t.Fatal(stderr)
	}
	var model map[string]any
	b, _ := os.ReadFile(half)
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber() // the table's uint64 keys survive the round trip
	if err := dec.Decode(&model); err != nil {
		t.Fatal(err)
	}
	model["training"].(map[string]any)["episodes"] = "20000"
	delete(model, "checksum")
	var edited bytes.Buffer
	if err := jsonfile.Encode(&edited, model, false); err != nil { // signed again, as the interrupted build wrote it
		t.Fatal(err)
	}
	os.WriteFile(half, edited.Bytes(), 0o644)
	wantCurve, _ := datasets.ReadParquet[datasets.LearningCurveRow](filepath.Join(dir, "whole.curve.parquet"), datasets.LearningCurveSchema)
	if err := datasets.WriteParquet(filepath.Join(dir, "half.curve.parquet"), datasets.LearningCurveSchema, wantCurve[:3]); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := run(t, "train", "qlearning", "--out", half, "--resume"); code != 0 {
		t.Fatalf("resume: %s", stderr)
	}
	if !sameFile(t, whole, half) {
		t.Fatal("the resumed model is not the uninterrupted one (its target was not kept?)")
	}
	curve, _ := datasets.ReadParquet[datasets.LearningCurveRow](filepath.Join(dir, "half.curve.parquet"), datasets.LearningCurveSchema)
	if len(curve) != 4 {
		t.Fatalf("the resumed curve has %d rows, want 4", len(curve))
	}
	for i := range curve {
		if curve[i].Episodes != wantCurve[i].Episodes || curve[i].Score != wantCurve[i].Score {
			t.Fatalf("curve row %d: %+v, want %+v", i, curve[i], wantCurve[i])
		}
	}
	code, _, stderr := run(t, "train", "qlearning", "--out", half, "--resume", "--episodes", "5000")
	if code != command.ExitUsage || strings.Count(strings.TrimSpace(stderr), "\n") != 0 || !strings.Contains(stderr, "trained 20000 already") {
		t.Fatalf("--episodes below the model's count: exit %d, %q", code, stderr)
	}
}

// TestTrainFictitious: for fictitious play, regret matching+ and PSRO, the curve (Parquet
// and chart, with its passes) and the policy table, whose exact exploitability eval reports as the run's final
// figure; a second run without --force and Q-learning's flags are refused.
func TestTrainFictitious(t *testing.T) {
	for _, algo := range []string{"fictitious", "regret", "psro"} {
		if algo != "fictitious" && (testing.Short() || !testtool.Heavy()) {
			continue // the race stage and a plain go test: the same run as fictitious play's, more passes
		}
		t.Run(algo, func(t *testing.T) { trainFullWidth(t, algo) })
	}
}

func trainFullWidth(t *testing.T, algo string) {
	dir := t.TempDir()
	out := filepath.Join(dir, "fsp.kgp")
	rules := []string{"--throws-per-half", "3", "--moves", "1"}
	code, stdout, stderr := run(t, append([]string{"train", algo, "--iterations", "4", "--out", out}, rules...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	curve, err := datasets.ReadParquet[datasets.ExploitabilityCurveRow](filepath.Join(dir, "fsp.curve.parquet"), datasets.ExploitabilityCurveSchema)
	if err != nil || len(curve) != 4 || curve[3].Iteration != 4 || curve[3].Passes < 4 || !(curve[3].ScoreExploitability < curve[0].ScoreExploitability) ||
		curve[3].OpenSpielNashConv != 4*curve[3].ScoreExploitability {
		t.Fatalf("curve %+v (%v)", curve, err)
	}
	if st, err := os.Stat(filepath.Join(dir, "fsp.curve.png")); err != nil || st.Size() < 1000 {
		t.Errorf("chart: %v", err)
	}
	code, evalOut, stderr := run(t, append([]string{"eval", "table:file=" + out, "--vs", "random", "-n", "2", "--json"}, rules...)...)
	if code != 0 {
		t.Fatalf("eval: exit %d: %s", code, stderr)
	}
	var rep struct{ Exploitability struct{ Value float64 } }
	if err := json.Unmarshal([]byte(evalOut), &rep); err != nil {
		t.Fatal(err)
	}
	var final float64 // │ final │ OpenSpiel NashConv │ score-scale NashConv │ score-scale exploitability │ …
	if i := strings.Index(stdout, "final"); i < 0 {
		t.Fatalf("no final row:\n%s", stdout)
	} else if _, err := fmt.Sscan(strings.Fields(stdout[i:])[6], &final); err != nil {
		t.Fatal(err)
	}
	if math.Abs(final-rep.Exploitability.Value) > 2e-6 || final <= 0 {
		t.Errorf("eval's exploitability %v, the run's final %v\n%s", rep.Exploitability.Value, final, stdout)
	}
	if code, _, stderr := run(t, append([]string{"train", algo, "--iterations", "1", "--out", out}, rules...)...); code != command.ExitUsage || !strings.Contains(stderr, "--force") {
		t.Errorf("a second run: exit %d: %s", code, stderr)
	}
	if code, _, stderr := run(t, "train", algo, "--episodes", "5"); code != command.ExitUsage || !strings.Contains(stderr, "Q-learning's") {
		t.Errorf("--episodes: exit %d: %s", code, stderr)
	}
}

// TestAgentsZoo: agents --zoo lists a zoo's cards (as JSON too) with the spec that plays each;
// a directory without cards is an error in one line, exit 1.
func TestAgentsZoo(t *testing.T) {
	dir := t.TempDir()
	suite := bench.Suite{Name: "cli", Entries: []bench.Entry{{Learner: "fictitious", Rules: env.Rules{ThrowsPerHalf: 3, Moves: 1}, Budget: 2}}}
	bench.ZooMatches = 100
	if _, err := bench.Run(context.Background(), suite, bench.Options{Dir: dir}); err != nil {
		t.Fatal(err)
	}
	zoo := filepath.Join(dir, "zoo")
	code, stdout, stderr := run(t, "agents", "--zoo", zoo, "--json")
	var cards []bench.Card
	if code != 0 || json.Unmarshal([]byte(stdout), &cards) != nil || len(cards) != 1 || cards[0].Learner != "fictitious" {
		t.Fatalf("exit %d: %s %s", code, stdout, stderr)
	}
	if code, stdout, _ := run(t, "agents", "--zoo", zoo); code != 0 || !strings.Contains(stdout, cards[0].Spec(zoo)) {
		t.Errorf("exit %d:\n%s", code, stdout)
	}
	if code, _, stderr := run(t, "agents", "--zoo", t.TempDir()); code != 1 || strings.Count(strings.TrimSpace(stderr), "\n") != 0 || !strings.Contains(stderr, "no zoo cards") {
		t.Errorf("no cards: exit %d: %q", code, stderr)
	}
	// eval and arena show a zoo policy's exploitability from its card, and say so; a card
	// that cannot be used (here: edited) is said in a line, and the policy measured instead.
	spec, rules := cards[0].Spec(zoo), []string{"--throws-per-half", "3", "--moves", "1"}
	var ev struct{ Exploitability exploit.Exploitability }
	code, stdout, stderr = run(t, append([]string{"eval", spec, "--vs", "random", "-n", "20", "--json"}, rules...)...)
	if code != 0 || json.Unmarshal([]byte(stdout), &ev) != nil || ev.Exploitability.Value != cards[0].Exploitability || !strings.Contains(ev.Exploitability.Method, "from its zoo card") {
		t.Errorf("eval: exit %d: %+v\n%s", code, ev, stderr)
	}
	var lb arena.LeaderboardJSON
	code, stdout, stderr = run(t, append([]string{"arena", "--agents", spec + ";random", "--matches", "4", "--json", "--out", filepath.Join(dir, "run")}, rules...)...)
	if code != 0 || json.Unmarshal([]byte(stdout), &lb) != nil || len(lb.Ratings) != 2 {
		t.Fatalf("arena: exit %d: %s", code, stderr)
	}
	for _, r := range lb.Ratings {
		if fromCard := strings.Contains(r.Exploitability.Method, "from its zoo card"); fromCard != (r.Agent == spec) || fromCard && r.Exploitability.Value != cards[0].Exploitability {
			t.Errorf("arena: %s: %+v", r.Agent, r.Exploitability)
		}
	}
	card := filepath.Join(zoo, strings.TrimSuffix(cards[0].Table, ".kgp")+".card.json")
	b, _ := os.ReadFile(card)
	if err := os.WriteFile(card, bytes.Replace(b, []byte(cards[0].SHA256), []byte(strings.Repeat("0", 64)), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr = run(t, append([]string{"eval", spec, "--vs", "random", "-n", "20", "--json"}, rules...)...)
	if code != 0 || !strings.Contains(stderr, "is not a zoo card (its checksum does not match its content: edited or damaged after it was written): its exploitability is measured instead") || json.Unmarshal([]byte(stdout), &ev) != nil || strings.Contains(ev.Exploitability.Method, "zoo card") || !ev.Exploitability.Exact {
		t.Errorf("an edited card: exit %d: %+v\n%s", code, ev, stderr)
	}
}
