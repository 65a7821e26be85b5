package cli

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/kingoal/kingoal/frontend/cli/command"
)

// TestSolveGameDynamic: with a Dynamic side solve game solves that game: Dynamic v Dynamic
// is worth 0 (symmetric rules) and verified; Basic v Dynamic and Dynamic v Basic are each
// other's negatives (the pitch is symmetric) in --json; --out FILE.parquet and --png are
// refused with one line and exit 2, as is a game over --max-gib.
func TestSolveGameDynamic(t *testing.T) {
	code, text, stderr := run(t, "solve", "game", "--throws-per-half", "4", "--home-mode", "dynamic", "--away-mode", "dynamic")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"home dynamic v away dynamic", "value to home: +0.000000000", "— verified", "kick-off mix", "wins a throw to midfield"} {
		if !strings.Contains(text, want) {
			t.Errorf("the text lacks %q:\n%s", want, text)
		}
	}
	values := map[string]float64{}
	for _, side := range []string{"--home-mode", "--away-mode"} {
		code, js, stderr := run(t, "solve", "game", "--throws-per-half", "4", "--moves", "1", side, "dynamic", "--dynamic-trigger", "turnover", "--json")
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", side, code, stderr)
		}
		var rep struct {
			Value        float64
			Modes        [2]string
			Verification struct{ Exploitability float64 }
			Decisions    []struct{ Situation, Side, Plays string }
		}
		if err := json.Unmarshal([]byte(js), &rep); err != nil {
			t.Fatal(err)
		}
		if rep.Verification.Exploitability > 1e-9 || len(rep.Decisions) == 0 {
			t.Errorf("%s: %+v", side, rep)
		}
		values[side] = rep.Value
	}
	if a, b := values["--home-mode"], values["--away-mode"]; a <= 0 || math.Abs(a+b) > 1e-12 {
		t.Errorf("Dynamic v Basic %+.12f, Basic v Dynamic %+.12f: want opposite, Dynamic ahead", a, b)
	}
	dir := t.TempDir()
	for _, args := range [][]string{
		{"--out", filepath.Join(dir, "g.parquet")},
		{"--png", filepath.Join(dir, "g.png")},
		{"--throws-per-half", "45", "--max-gib", "0.5"},
	} {
		code, _, stderr := run(t, append([]string{"solve", "game", "--throws-per-half", "4", "--away-mode", "dynamic"}, args...)...)
		if code != 2 || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
			t.Errorf("%v: exit %d, %q", args, code, stderr)
		}
	}
}

// TestSolveGameDynamicTable: --out FILE.kgt keeps a Dynamic side's game; --in reads back the
// solve's value, kick-off, statistics and check, and says it read the table; --in --verify
// finds the solve's best responses again; a damaged table is refused with one line.
func TestSolveGameDynamicTable(t *testing.T) {
	dir := t.TempDir()
	table := filepath.Join(dir, "dynamic.kgt")
	code, solved, stderr := run(t, "solve", "game", "--throws-per-half", "4", "--moves", "1", "--away-mode", "dynamic", "--dynamic-trigger", "turnover", "--out", table, "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	code, loaded, stderr := run(t, "solve", "game", "--in", table, "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	type report struct {
		Value        float64
		KickOffHome  []struct{ Lineup string }          `json:"kickoff_home"`
		Stats        struct{ BreakStates, Bytes int64 } `json:"stats"`
		Verification struct{ Exploitability, HomeBest float64 }
		Decisions    []struct{ Situation, Side, Plays string }
		Table        string
	}
	var a, b report
	if err := json.Unmarshal([]byte(solved), &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(loaded), &b); err != nil {
		t.Fatal(err)
	}
	if a.Value != b.Value || !reflect.DeepEqual(a.KickOffHome, b.KickOffHome) || a.Stats != b.Stats || a.Verification != b.Verification ||
		!reflect.DeepEqual(a.Decisions, b.Decisions) || b.Table != table || a.Table != "" || a.Stats.Bytes == 0 {
		t.Errorf("solved %s\nloaded %s", solved, loaded)
	}
	code, text, _ := run(t, "solve", "game", "--in", table)
	if code != 0 || !strings.Contains(text, "read from "+table) || !strings.Contains(text, "run by the solve that wrote the table") {
		t.Errorf("--in text: exit %d\n%s", code, text)
	}
	code, again, stderr := run(t, "solve", "game", "--in", table, "--verify", "--json")
	var c struct {
		Verification struct{ Exploitability, HomeBest float64 }
		Reverified   bool
	}
	if err := json.Unmarshal([]byte(again), &c); code != 0 || err != nil || !c.Reverified || math.Abs(c.Verification.HomeBest-a.Verification.HomeBest) > 1e-12 {
		t.Errorf("--in --verify: exit %d, %s%s", code, again, stderr)
	}
	raw, err := os.ReadFile(table)
	if err != nil {
		t.Fatal(err)
	}
	short := filepath.Join(dir, "short.kgt")
	if err := os.WriteFile(short, raw[:len(raw)-10], 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--in", short}, command.ExitFailure, "bad dynamic game table: truncated"},
		{[]string{"--in", table, "--png", filepath.Join(dir, "x.png")}, command.ExitUsage, "not available"},
	} {
		code, out, stderr := run(t, append([]string{"solve", "game"}, c.args...)...)
		if code != c.code || out != "" || strings.Count(strings.TrimSpace(stderr), "\n") != 0 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit %d and one line with %q", c.args, code, out, stderr, c.code, c.want)
		}
	}
}
