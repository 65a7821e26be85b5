package cli

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/kingoal/kingoal/datasets"
	"github.com/kingoal/kingoal/frontend/cli/command"
	"github.com/kingoal/kingoal/frontend/cli/solvecmd"
)

func TestSolveOddsJSON(t *testing.T) {
	code, out, stderr := run(t, "solve", "odds", "2-2-2-2-2", "2-2-2-2-2", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var j map[string]any
	if err := json.Unmarshal([]byte(out), &j); err != nil {
		t.Fatal(err)
	}
	// rules §10's reference figure, through the CLI.
	if math.Abs(j["home_win"].(float64)-0.4263056) > 5e-8 || math.Abs(j["home_goals_mean"].(float64)-3.7227816) > 5e-8 {
		t.Fatalf("reference figure: %v", j)
	}
	for _, k := range []string{"home_win", "draw", "away_win", "home_goals_mean", "away_goals_mean", "home_advance", "likeliest"} {
		if _, ok := j[k]; !ok {
			t.Errorf("JSON lacks %q", k)
		}
	}
	code, out, _ = run(t, "solve", "odds", "1-2-3-3-1", "2-2-2-2-2", "--knockout", "--top", "3")
	if code != 0 || !strings.Contains(out, "home advances") || !strings.Contains(out, "the 3 likeliest scores") {
		t.Fatalf("text: exit %d\n%s", code, out)
	}
}

func TestSolveMatrixWritesFiles(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "m")
	code, out, stderr := run(t, "solve", "matrix", "--out", dir, "--throws-per-half", "6")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	rows, err := datasets.ReadParquet[datasets.MatrixRow](filepath.Join(dir, "matrix.parquet"), datasets.MatrixSchema)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 121*121 || rows[0].Home != "1-1-1-2-5" || rows[121*121-1].Away != "5-2-1-1-1" {
		t.Fatalf("%d rows, first %+v", len(rows), rows[0])
	}
	for _, r := range rows {
		if s := r.HomeWin + r.Draw + r.AwayWin; math.Abs(s-1) > 1e-12 {
			t.Fatalf("row %+v sums to %v", r, s)
		}
	}
	if st, err := os.Stat(filepath.Join(dir, "matrix.png")); err != nil || st.Size() < 1000 {
		t.Fatalf("png: %v", err)
	}
	if !strings.Contains(out, "best average win-loss") {
		t.Errorf("stdout:\n%s", out)
	}
}

func TestSolveEquilibriumJSON(t *testing.T) {
	code, out, stderr := run(t, "solve", "equilibrium", "--throws-per-half", "3", "--ties-count", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var j struct {
		Payoff         string  `json:"payoff"`
		Value          float64 `json:"value"`
		Exploitability float64 `json:"exploitability"`
		Strategy       []struct {
			Lineup string  `json:"lineup"`
			Prob   float64 `json:"prob"`
		} `json:"strategy"`
	}
	if err := json.Unmarshal([]byte(out), &j); err != nil {
		t.Fatal(err)
	}
	total := 0.0
	for _, s := range j.Strategy {
		total += s.Prob
	}
	if j.Payoff != "win-loss" || len(j.Strategy) != 3 || math.Abs(total-1) > 1e-9 || j.Exploitability > 1e-9 {
		t.Fatalf("%+v", j)
	}
}

func TestSolveCounterAndPolicy(t *testing.T) {
	code, out, _ := run(t, "solve", "counter", "2-2-2-2-2", "--top", "3", "--throws-per-half", "10")
	if code != 0 || strings.Count(out, "\n") < 5 {
		t.Fatalf("counter: exit %d\n%s", code, out)
	}
	dir := t.TempDir()
	pq, png := filepath.Join(dir, "p.parquet"), filepath.Join(dir, "p.png")
	code, out, stderr := run(t, "solve", "policy", "--throws-per-half", "10", "--json", "--out", pq, "--png", png)
	if code != 0 {
		t.Fatalf("policy: exit %d: %s", code, stderr)
	}
	var j struct {
		Value    float64 `json:"value"`
		NoChange float64 `json:"no_change_value"`
		Recs     []any   `json:"recommendations"`
	}
	if err := json.Unmarshal([]byte(out), &j); err != nil {
		t.Fatal(err)
	}
	if j.Value < j.NoChange || j.Value <= 0 || j.Value >= 1 || len(j.Recs) == 0 {
		t.Fatalf("policy JSON %+v", j)
	}
	rows, err := datasets.ReadParquet[datasets.PolicyRow](pq, datasets.PolicySchema)
	if err != nil || len(rows) == 0 || rows[0].Kind != "basic" {
		t.Fatalf("policy parquet: %d rows, %v", len(rows), err)
	}
	code, out, _ = run(t, "solve", "policy", "--throws-per-half", "8", "--away-mode", "dynamic", "--player", "away", "--objective", "points")
	if code != 0 || !strings.Contains(out, "optimal dynamic policy for away") {
		t.Fatalf("dynamic policy: exit %d\n%s", code, out)
	}
}

func TestSolveBadInput(t *testing.T) {
	for _, args := range [][]string{
		{"solve", "odds", "1-2-3"},
		{"solve", "odds", "--top", "-1"},
		{"solve", "equilibrium", "--payoff", "fun"},
		{"solve", "equilibrium", "--payoff", "advance"},
		{"solve", "counter"},
		{"solve", "counter", "9-9-9-9-9"},
		{"solve", "counter", "2-2-2-2-2", "--top", "0"},
		{"solve", "policy", "--player", "both"},
		{"solve", "policy", "--objective", "glory"},
		{"solve", "policy", "--objective", "advance"},
		{"solve", "policy", "--home", "1-1"},
		{"solve", "matrix", "extra-arg"},
		{"solve", "game", "--payoff", "points"},
		{"solve", "game", "--payoff", "advance"},
		{"solve", "game", "--workers", "-1"},
		{"solve", "game", "--throws-per-half", "90", "--moves", "5"}, // beyond the memory bound
		{"solve", "game", "--max-gib", "0"},
		{"solve", "game", "--home-mode", "dynamic", "--throws-per-half", "3", "--out", "game.parquet"}, // no rows for a Dynamic side yet
		{"solve", "game", "--throws-per-half", "3", "--out", "game.csv"},
		{"solve", "game", "--throws-per-half", "3", "--verify"},
		{"solve", "catalogue", "--knockout"}, // every row sets it
		{"solve", "catalogue", "--away-mode", "dynamic"},
		{"solve", "catalogue", "--max-gib", "0"},
		{"solve", "catalogue", "--out", ""},
	} {
		code, out, stderr := run(t, args...)
		if code != command.ExitUsage || out != "" || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and one line", args, code, out, stderr)
		}
	}
}

// TestSolveGame: the text names the value, the verification and the summary; --json holds
// the same value and a verified exploitability; --out's rows are every break's mixes (each
// side's probabilities sum to 1 per break) and --png is a PNG.
func TestSolveGame(t *testing.T) {
	dir := t.TempDir()
	out, png := filepath.Join(dir, "game.parquet"), filepath.Join(dir, "game.png")
	code, text, stderr := run(t, "solve", "game", "--throws-per-half", "3", "--moves", "1", "--out", out, "--png", png)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"value to home: +0.000000000", "— verified", "the right to substitute", "only home", "half time, home 1 up"} {
		if !strings.Contains(text, want) {
			t.Errorf("the text lacks %q:\n%s", want, text)
		}
	}
	code, js, stderr := run(t, "solve", "game", "--throws-per-half", "3", "--moves", "1", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rep struct {
		Value float64
		Worth []struct {
			Who   string
			Value float64
		} `json:"right_to_substitute"`
		Verification struct{ Exploitability float64 }
		Stats        struct {
			BreakStates int64 `json:"break_states"`
		}
	}
	if err := json.Unmarshal([]byte(js), &rep); err != nil {
		t.Fatal(err)
	}
	if math.Abs(rep.Value) > 1e-12 || rep.Verification.Exploitability > 1e-9 || len(rep.Worth) != 4 || rep.Worth[1].Value <= 0 || rep.Stats.BreakStates == 0 {
		t.Errorf("JSON: %+v", rep)
	}
	rows, err := datasets.ReadParquet[datasets.GameRow](out, datasets.GameSchema)
	if err != nil {
		t.Fatal(err)
	}
	sums := map[string]float64{}
	for _, r := range rows {
		key := fmt.Sprintf("%s %d %d %d %d %d %d %s", r.Period, r.ThrowsLeft, r.GoalDiff, r.HomeIndex, r.HomeMoves, r.AwayIndex, r.AwayMoves, r.Side)
		sums[key] += r.Probability
	}
	for k, s := range sums {
		if math.Abs(s-1) > 1e-9 {
			t.Fatalf("%s: the mix sums to %v", k, s)
		}
	}
	if len(sums) < 2*3*121*121 {
		t.Errorf("%d (break, side) mixes in %d rows", len(sums), len(rows))
	}
	if b, err := os.ReadFile(png); err != nil || !strings.HasPrefix(string(b), "\x89PNG") {
		t.Errorf("--png: %v", err)
	}
}

// TestSolveGameTable: --out FILE.kgt writes a table from which --in prints the solve's
// report without solving (the same value, kick-off, right to substitute and check; the
// summary's values to float32) and --verify checks it again; a truncated table, another
// file, rule flags beside --in and a table as --in's --out are refused with one line.
func TestSolveGameTable(t *testing.T) {
	dir := t.TempDir()
	table := filepath.Join(dir, "game.kgt")
	rules := []string{"--throws-per-half", "4", "--moves", "2"}
	if testing.Short() { // the race stage
		rules = []string{"--throws-per-half", "3", "--moves", "1"}
	}
	code, solved, stderr := run(t, append([]string{"solve", "game", "--out", table, "--json"}, rules...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	code, loaded, stderr := run(t, "solve", "game", "--in", table, "--verify", "--json", "--out", filepath.Join(dir, "game.parquet"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var a, b solvecmd.GameReport
	if err := json.Unmarshal([]byte(solved), &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(loaded), &b); err != nil {
		t.Fatal(err)
	}
	if a.Value != b.Value || !reflect.DeepEqual(a.KickOffHome, b.KickOffHome) || !reflect.DeepEqual(a.Worth, b.Worth) || a.Stats != b.Stats ||
		b.Table != table || !b.Reverified || b.Verification == nil || math.Abs(b.Verification.HomeBest-a.Verification.HomeBest) > 1e-12 {
		t.Errorf("solved %s\nloaded %s", solved, loaded)
	}
	if len(a.Summary) != len(b.Summary) || len(a.Summary) == 0 {
		t.Fatalf("summaries of %d and %d lines", len(a.Summary), len(b.Summary))
	}
	for i := range a.Summary {
		x, y := a.Summary[i], b.Summary[i]
		if x.Situation != y.Situation || x.Home != y.Home || x.Away != y.Away || math.Abs(x.Value-y.Value) > 1e-7 {
			t.Errorf("summary line %d: %+v solved, %+v loaded", i, x, y)
		}
	}
	raw, err := os.ReadFile(table)
	if err != nil {
		t.Fatal(err)
	}
	short := filepath.Join(dir, "short.kgt")
	if err := os.WriteFile(short, raw[:len(raw)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--in", short}, command.ExitFailure, "truncated"},
		{[]string{"--in", filepath.Join(dir, "game.parquet")}, command.ExitFailure, "not a Kingoal game table"},
		{[]string{"--in", table, "--moves", "1"}, command.ExitUsage, "drop --moves"},
		{[]string{"--in", table, "--out", filepath.Join(dir, "copy.kgt")}, command.ExitUsage, "already"},
	} {
		code, out, stderr := run(t, append([]string{"solve", "game"}, c.args...)...)
		if code != c.code || out != "" || strings.Count(strings.TrimSpace(stderr), "\n") != 0 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit %d and one line with %q", c.args, code, out, stderr, c.code, c.want)
		}
	}
}

func TestSolveEquilibriumMakesItsDirectory(t *testing.T) {
	out := filepath.Join(t.TempDir(), "new", "eq.parquet")
	if code, _, stderr := run(t, "solve", "equilibrium", "--throws-per-half", "6", "--moves", "0", "--out", out); code != 0 {
		t.Fatal(stderr)
	}
	if _, err := os.Stat(out); err != nil {
		t.Fatal(err)
	}
}
