package cli

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/frontend/cli/command"
	"github.com/kingoal/kingoal/solver/game"
)

// TestWordsSayWhatTheyMean: the small wrongs of issue 39 item 17.
func TestWordsSayWhatTheyMean(t *testing.T) {
	if got := command.SignedFixed(-1e-17, 9); got != "+0.000000000" {
		t.Errorf("a solver's −1e-17: %q", got)
	}
	if got := command.SignedFixed(-0.25, 2); got != "-0.25" {
		t.Errorf("-0.25: %q", got)
	}
	s := game.State{Period: env.SecondHalf, ThrowsLeft: 1, GoalDiff: 2, Home: env.MustParseLineup("2-2-2-2-2"), Away: env.MustParseLineup("1-2-3-3-1"), HomeMoves: 1, AwayMoves: 0}
	if got := s.String(); got != "second half, 1 throw left, difference +2, 2-2-2-2-2 (1 move) v 1-2-3-3-1 (0 moves)" {
		t.Errorf("a break in words: %q", got)
	}
	// watch counts dice without showing them: "3 dice v 2", never "3v2" (read as values).
	code, out, stderr := run(t, "watch", "heuristic", "random", "--throws-per-half", "3")
	if code != 0 || !strings.Contains(out, " dice v ") || strings.Contains(out, "1 dice") {
		t.Errorf("watch: exit %d %s\n%s", code, stderr, out)
	}
	// play as away: the ball in the transcript's numbering and its own.
	obs := env.Observation{Player: env.Away, Ball: 4}
	if got := ballWords(obs); !strings.Contains(got, "sector 2 ") || !strings.Contains(got, "your sector 4") {
		t.Errorf("away's ball: %q", got)
	}
	// datasets inspect DIR lists the directory's Parquet files.
	dir := filepath.Join(t.TempDir(), "run")
	if code, _, stderr := run(t, "arena", "--agents", "random;heuristic", "--matches", "2", "--throws-per-half", "3", "--out", dir); code != 0 {
		t.Fatal(stderr)
	}
	code, out, stderr = run(t, "datasets", "inspect", dir)
	if code != 0 || !strings.Contains(out, "matches.parquet") || !strings.Contains(out, "matches/2") {
		t.Errorf("inspect DIR: exit %d %s\n%s", code, stderr, out)
	}
}

// TestTooLargeIsRefusedBeforeStarting: train fictitious under rules whose best responses do
// not fit refuses at once, exit 2, writing nothing (it started, then failed with exit 1).
func TestTooLargeIsRefusedBeforeStarting(t *testing.T) {
	out := filepath.Join(t.TempDir(), "f.kgp")
	code, _, stderr := run(t, "train", "fictitious", "--throws-per-half", "10000", "--iterations", "1", "--out", out)
	if code != command.ExitUsage || !strings.Contains(stderr, "too large") || strings.Contains(stderr, "self-play under") {
		t.Errorf("exit %d: %s", code, stderr)
	}
	if left, _ := filepath.Glob(out + "*"); len(left) != 0 {
		t.Errorf("a refused run left %v", left)
	}
}
