package cli

import (
	"encoding/json"
	"math"
	"path/filepath"
	"strings"
	"testing"
)

// TestSolveGameDynamic: with a Dynamic side solve game solves that game: Dynamic v Dynamic
// is worth 0 (symmetric rules) and verified; Basic v Dynamic and Dynamic v Basic are each
// other's negatives (the pitch is symmetric) in --json; --out and --png are refused with
// one line and exit 2, as is a game over --max-gib.
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
		{"--out", filepath.Join(dir, "g.kgt")},
		{"--png", filepath.Join(dir, "g.png")},
		{"--throws-per-half", "45", "--max-gib", "0.5"},
	} {
		code, _, stderr := run(t, append([]string{"solve", "game", "--throws-per-half", "4", "--away-mode", "dynamic"}, args...)...)
		if code != 2 || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
			t.Errorf("%v: exit %d, %q", args, code, stderr)
		}
	}
}
