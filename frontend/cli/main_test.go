package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/frontend/cli/command"
)

// run executes the CLI in-process, as a user would from a shell.
func run(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	return runCLI(args...)
}

// runCLI is run for a goroutine other than the test's.
func runCLI(args ...string) (code int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	code = Execute(args, strings.NewReader(""), &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestLineupsJSON(t *testing.T) {
	code, out, _ := run(t, "lineups", "--json")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	var rows []struct {
		Index  int    `json:"index"`
		Lineup string `json:"lineup"`
	}
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatal(err)
	}
	if len(rows) != 121 || rows[0].Lineup != "1-1-1-2-5" || rows[120].Index != 120 || rows[120].Lineup != "5-2-1-1-1" {
		t.Fatalf("rows: %d, first %+v, last %+v", len(rows), rows[0], rows[len(rows)-1])
	}
	code, out, _ = run(t, "lineups")
	if code != 0 || !strings.Contains(out, "5-2-1-1-1") || strings.Count(out, "\n") < 121 {
		t.Fatalf("table: exit %d\n%s", code, out)
	}
}

func TestRules(t *testing.T) {
	code, out, _ := run(t, "rules", "--knockout", "--moves", "0", "--points", "2,1,0")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{"121 legal line-ups", "--ties-count", "--dynamic-trigger", "knockout (extra time 15+15", "0 moves", "points 2,1,0"} {
		if !strings.Contains(out, want) {
			t.Errorf("rules output lacks %q\n%s", want, out)
		}
	}
}

func TestSimulateJSONIsReproducible(t *testing.T) {
	args := []string{"simulate", "1-2-3-3-1", "2-2-2-2-2", "-n", "5000", "--seed", "9", "--knockout", "--json"}
	code, a, stderr := run(t, append(args, "--workers", "1")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "seed 9") {
		t.Errorf("the seed must be printed: %q", stderr)
	}
	_, b, _ := run(t, append(args, "--workers", "3")...)
	if a != b {
		t.Fatal("same seed, different output")
	}
	var res map[string]any
	if err := json.Unmarshal([]byte(a), &res); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"home", "away", "matches", "seed", "home_win", "draw", "away_win", "home_goals_mean", "away_goals_mean", "home_advance"} {
		if _, ok := res[k]; !ok {
			t.Errorf("JSON lacks %q", k)
		}
	}
	if res["matches"].(float64) != 5000 || res["seed"].(float64) != 9 || res["home"] != "1-2-3-3-1" {
		t.Errorf("JSON: %v", res)
	}
	sum := res["home_win"].(float64) + res["draw"].(float64) + res["away_win"].(float64)
	if sum < 0.9999999 || sum > 1.0000001 {
		t.Errorf("shares sum to %v", sum)
	}
	_, c, _ := run(t, "simulate", "1-2-3-3-1", "2-2-2-2-2", "-n", "5000", "--seed", "10", "--knockout", "--json")
	if c == a {
		t.Error("a different seed gave the same output")
	}
}

func TestSimulateDefaults(t *testing.T) {
	code, out, stderr := run(t, "simulate", "-n", "3000")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"2-2-2-2-2 (home) v 2-2-2-2-2 (away): 3000 matches, seed 1", "home win", "mean goals", "goal difference", "█"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q\n%s", want, out)
		}
	}
	if code, out, _ := run(t, "simulate", "-n", "3000", "--dice", "--ties-count", "--knockout", "--extra-throws", "0"); code != 0 || !strings.Contains(out, "penalties") {
		t.Errorf("rule flags: exit %d\n%s", code, out)
	}
}

func TestBadInputExitsTwo(t *testing.T) {
	for _, args := range [][]string{
		{"simulate", "6-1-1-1-1"},
		{"simulate", "2-2-2-2-2", "1-2-3"},
		{"simulate", "-n", "0"},
		{"simulate", "-n", "-5"},
		{"simulate", "-n", "many"},
		{"simulate", "--workers", "-1"},
		{"rules", "--home-mode", "attack"},
		{"rules", "--dynamic-trigger", "sometimes"},
		// Knobs of formation changes, where the line-ups never change.
		{"simulate", "--home-mode", "dynamic"},
		{"simulate", "--moves", "1"},
		{"solve", "odds", "--away-mode", "dynamic"},
		{"solve", "odds", "--dynamic-trigger", "turnover"},
		{"simulate", "--points", "3,1"},
		{"simulate", "--points", "0,1,3"},
		{"simulate", "--throws-per-half", "0"},
		{"simulate", "--extra-throws", "-1"},
		{"rules", "--moves", "-1"},
		{"simulate", "a", "b", "c"},
		{"simulate", "--no-such-flag"},
		{"no-such-command"},
		{"lineups", "extra"},
		{"rules", "--knockout=maybe"},
		// No silent defaults under a name the user chose.
		{"eval", "qlearning", "--vs", "random"},
		{"eval", "mcts:explore=NaN", "--vs", "random"},
		{"eval", "heuristic:late=Inf", "--vs", "random"},
		{"eval", "fixed:", "--vs", "random"},
		{"eval", "mcts:iters=", "--vs", "random"},
		{"eval", "mcts:iters=5,", "--vs", "random"},
		{"solve", "odd"},
		{"datasets", "odd"},
		{"arena", "--markdown", "--json"},
		{"arena", "--format", "worldcup", "--group-size", "0"},
		{"arena", "--format", "worldcup", "--group-size", "1"},
		{"arena", "--agents", "random#;random"},
		{"help", "bogus"},
		{"help", "solve", "bogus"},
		{"arena", "--out", ""},
		{"arena", "--matches", "9223372036854775807"},
		{"arena", "--exploitability-matches", "0"},
		{"eval", "mcts:width=0", "--vs", "random"},
		{"eval", "mcts:prior=-1", "--vs", "random"},
		{"leaderboard", "x", "--markdown", "--json"},
	} {
		code, out, stderr := run(t, args...)
		lines := strings.Split(strings.TrimSpace(stderr), "\n")
		if code != command.ExitUsage || out != "" || len(lines) != 1 || !strings.HasPrefix(stderr, "kingoal: ") || strings.Contains(stderr, "goroutine") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and one line", args, code, out, stderr)
		}
	}
}

// TestErrorsSpeakTheUsersLanguage holds the messages to words a user can act on: no Go
// parse errors, no doubled prefixes, no rename errors, no "1 arguments".
func TestErrorsSpeakTheUsersLanguage(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"simulate", "-n", "many"}, "--matches many: want a whole number"},
		{[]string{"simulate", "--seed", "-1"}, "--seed -1: want a whole number ≥ 0"},
		{[]string{"eval", "optimal:lineup=x", "--vs", "random"}, `agents: "optimal:lineup=x": line-up "x": want 5 numbers`},
		{[]string{"solve", "odds", "a", "b", "c"}, `kingoal solve odds takes HOME and AWAY line-ups (or none for the defaults); got ["a" "b" "c"]`},
		{[]string{"solve", "equilibrium", "--throws-per-half", "3", "--out", dir}, "is a directory; want a file name"},
		{[]string{"solve", "odd"}, `unknown command "odd" for "kingoal solve"; its commands: catalogue, counter, equilibrium, game, matrix, odds, policy`},
		{[]string{"eval", "qlearning", "--vs", "random"}, "qlearning needs a model"},
		{[]string{"solve", "policy", "--throws-per-half", "10000"}, "too large for memory: 10000-throw halves need"},
	} {
		code, _, stderr := run(t, c.args...)
		msg := strings.TrimSpace(stderr)
		if code == 0 || !strings.Contains(msg, c.want) || strings.Contains(msg, "strconv.") || strings.Contains(msg, "rename ") ||
			strings.Count(msg, "agents:") > 1 || strings.Contains(msg, "env: ") || strings.Contains(msg, " 1 arguments") {
			t.Errorf("%v: %q; want %q", c.args, msg, c.want)
		}
	}
	// Labels tell repeated agents apart; a list with ',' is read as a list.
	code, out, stderr := run(t, "arena", "--agents", "random,random,uct:iters=5,c=1.2", "--matches", "2", "--throws-per-half", "3", "--json", "--out", filepath.Join(dir, "a"))
	if code != 0 || !strings.Contains(out, `"random#2"`) || !strings.Contains(out, `"uct:iters=5,c=1.2"`) {
		t.Errorf("labels: exit %d %s\n%s", code, stderr, out)
	}
	code, out, _ = run(t, "--version")
	if code != 0 || !strings.HasPrefix(out, "kingoal 0.") {
		t.Errorf("--version: %d %q", code, out)
	}
	if code, out, stderr := run(t, "--version", "extra"); code != command.ExitUsage || out != "" || !strings.Contains(stderr, `"extra"`) {
		t.Errorf("--version extra: %d %q %q", code, out, stderr)
	}
	code, out, _ = run(t, "help", "exit-codes")
	if code != 0 || !strings.Contains(out, "130") {
		t.Errorf("help exit-codes: %d %q", code, out)
	}
}

func FuzzRuleFlags(f *testing.F) {
	f.Add("basic", "dynamic", "win", "3,1,0", 45, 15, 3)
	f.Add("Dynamic", "basic ", "turnover", "2, 1, 0", 1, 0, 0)
	f.Add("", "x", "every-win", "1,1,1", -1, -1, 101)
	f.Fuzz(func(t *testing.T, home, away, trigger, points string, throws, extra, moves int) {
		fl := command.RuleFlags{Knobs: env.Knobs{HomeMode: home, AwayMode: away, Trigger: trigger, Points: points, ThrowsPerHalf: throws, ExtraThrows: extra, Moves: moves}}
		r, err := fl.Rules()
		if err != nil {
			var u command.UsageError
			if !errors.As(err, &u) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("not a one-line usage error: %v", err)
			}
			return
		}
		if err := r.Validate(); err != nil {
			t.Fatalf("accepted invalid rules: %v", err)
		}
		if r.HalfThrows() != throws || (moves == 0) != (r.MoveBudget() == 0) {
			t.Fatalf("flags %d/%d → rules %+v", throws, moves, r)
		}
	})
}

// A model file a spec names that is missing, corrupt or for other rules is a file that
// failed (exit 1, as kingoal help exit-codes says), not bad usage.
func TestModelFileFailuresExitOne(t *testing.T) {
	dir := t.TempDir()
	garbage := filepath.Join(dir, "garbage.json")
	os.WriteFile(garbage, []byte("{}"), 0o644)
	other := filepath.Join(dir, "other.json")
	if code, _, stderr := run(t, "train", "qlearning", "--episodes", "200", "--throws-per-half", "4", "--out", other); code != 0 {
		t.Fatal(stderr)
	}
	for _, model := range []string{filepath.Join(dir, "missing.json"), garbage, other} {
		code, _, stderr := run(t, "eval", "qlearning:model="+model, "--vs", "random", "-n", "10")
		if code != command.ExitFailure || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
			t.Errorf("%s: exit %d, %q", filepath.Base(model), code, stderr)
		}
	}
}

func TestCountsAgreeWithTheirNouns(t *testing.T) {
	code, out, stderr := run(t, "watch", "fixed:2-2-2-2-2", "fixed:1-3-3-2-1", "--moves", "1", "--throws-per-half", "4")
	if code != 0 || !strings.Contains(out, ", 1 move,") || strings.Contains(out, "1 moves") {
		t.Fatalf("exit %d %s\n%s", code, stderr, out)
	}
}

// TestMarkdownTablesStandAlone: GFM renders a table only after a blank line and swallows a
// line right after one as a row; the head-to-head follows the table's ranking.
func TestMarkdownTablesStandAlone(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	code, out, stderr := run(t, "arena", "--format", "gauntlet", "--agents", "random;heuristic;fixed:1-3-3-2-1", "--matches", "6",
		"--throws-per-half", "6", "--markdown", "--out", dir)
	if code != 0 {
		t.Fatal(stderr)
	}
	lines := strings.Split(out, "\n")
	for i := 1; i < len(lines); i++ {
		table, before := strings.HasPrefix(lines[i], "|"), strings.HasPrefix(lines[i-1], "|")
		if table != before && lines[i] != "" && lines[i-1] != "" {
			t.Fatalf("line %d %q touches a table without a blank line:\n%s", i+1, lines[i], out)
		}
	}
	var ranked, h2h []string
	for _, l := range lines {
		if !strings.HasPrefix(l, "|") {
			continue
		}
		cells := strings.Split(strings.Trim(l, "|"), "|")
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		switch {
		case len(cells) == 11 && cells[0] >= "1" && cells[0] <= "9": // the gauntlet table: # agent P W D L GF GA GD Pts Pts/P
			ranked = append(ranked, cells[1])
		case len(cells) == 4 && cells[0] >= "1" && cells[0] <= "9": // head to head: "k agent" and three cells
			h2h = append(h2h, strings.Fields(cells[0])[1])
		}
	}
	if len(ranked) != 3 || !slices.Equal(ranked, h2h) {
		t.Fatalf("head to head %v, table %v\n%s", h2h, ranked, out)
	}
}

// TestTooLargeIsUsageEverywhere: a policy too large for the machine exits 2, as kingoal help
// exit-codes says, from every command — train qlearning exited 1 (issue 56).
func TestTooLargeIsUsageEverywhere(t *testing.T) {
	out := filepath.Join(t.TempDir(), "q.json")
	for _, args := range [][]string{
		{"train", "qlearning", "--throws-per-half", "400", "--episodes", "1", "--out", out},
		{"train", "fictitious", "--throws-per-half", "400", "--out", out + ".kgp"},
		{"eval", "optimal", "--vs", "random", "-n", "2", "--throws-per-half", "400"},
		{"solve", "policy", "--throws-per-half", "2000"},
		{"train", "psro", "--out", out + ".psro.kgp"}, // a learner's strategies at the default rules: no policy (issue 64)
	} {
		code, _, stderr := run(t, args...)
		if code != command.ExitUsage || !strings.Contains(stderr, "too large") || strings.Contains(stderr, "policy too large") {
			t.Errorf("%v: exit %d, %q; want %d and the size, not called a policy", args, code, stderr, command.ExitUsage)
		}
	}
}

// TestOneIsSingular: a count of one reads "1 match", "1 inaccuracy", never "1 matches"
// (issue 64: "1 inaccuracies", "serving 1 run directories").
func TestOneIsSingular(t *testing.T) {
	dir := t.TempDir()
	plural := regexp.MustCompile(`\b1 (matches|opponents|inaccuracies|mistakes|blunders|decisions|entries|frames|run directories)\b`)
	for _, args := range [][]string{
		{"simulate", "-n", "1"},
		{"eval", "random", "--vs", "heuristic", "-n", "1", "--throws-per-half", "3", "--moves", "1"},
		{"arena", "--agents", "random;heuristic", "--format", "gauntlet", "--matches", "1", "--throws-per-half", "3", "--no-exploitability", "--out", filepath.Join(dir, "run")},
		{"analyse", filepath.Join(dir, "run"), "--match", "0"},
	} {
		code, stdout, stderr := run(t, args...)
		if code != 0 {
			t.Fatalf("%q: exit %d: %s", args, code, stderr)
		}
		if m := plural.FindString(stdout + stderr); m != "" {
			t.Errorf("%q says %q:\n%s%s", args, m, stdout, stderr)
		}
	}
	for n, want := range map[int]string{1: "1 run directory", 2: "2 run directories", 3: "3 run directories"} {
		if got := command.Plural(n, "run directory"); got != want {
			t.Errorf("Plural(%d) = %q, want %q", n, got, want)
		}
	}
	for noun, want := range map[string]string{"match": "2 matches", "inaccuracy": "2 inaccuracies", "entry": "2 entries", "day": "2 days", "die": "2 dice", "move": "2 moves"} {
		if got := command.Plural(2, noun); got != want {
			t.Errorf("Plural(2, %q) = %q, want %q", noun, got, want)
		}
	}
}
