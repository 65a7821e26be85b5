package cli

import (
	"context"
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/kingoal/kingoal/analysis"
	"github.com/kingoal/kingoal/arena"
	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/frontend/cli/command"
	"github.com/kingoal/kingoal/solver/game"
	"github.com/kingoal/kingoal/solver/lineup"
)

// TestAnalyse: kingoal analyse --json prints the library's report of the replayed match —
// the game solved here and read from a table alike — and its text names every decision;
// bad input is one line with the documented exit code.
func TestAnalyse(t *testing.T) {
	dir := t.TempDir()
	runDir, table, other := filepath.Join(dir, "run"), filepath.Join(dir, "g.kgt"), filepath.Join(dir, "other.kgt")
	small := []string{"--throws-per-half", "3", "--moves", "1"}
	if code, _, stderr := run(t, append([]string{"arena", "--agents", "random;heuristic", "--matches", "2", "--out", runDir, "--no-exploitability"}, small...)...); code != 0 {
		t.Fatal(stderr)
	}
	if code, _, stderr := run(t, append([]string{"solve", "game", "--out", table}, small...)...); code != 0 {
		t.Fatal(stderr)
	}
	if code, _, stderr := run(t, "solve", "game", "--out", other, "--throws-per-half", "2", "--moves", "1"); code != 0 {
		t.Fatal(stderr)
	}
	r := env.Rules{ThrowsPerHalf: 3, Moves: 1}
	g, err := game.Solve(game.Problem{Rules: r, Payoff: lineup.PayoffWinLoss})
	if err != nil {
		t.Fatal(err)
	}
	rp, err := arena.NewReplayer(context.Background(), runDir, arena.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := rp.Match(1)
	if err != nil {
		t.Fatal(err)
	}
	want, err := analysis.Replay(context.Background(), g, rep)
	if err != nil {
		t.Fatal(err)
	}
	for _, extra := range [][]string{nil, {"--table", table}} {
		code, out, stderr := run(t, append([]string{"analyse", runDir, "--match", "1", "--json"}, extra...)...)
		if code != 0 {
			t.Fatalf("%v: %s", extra, stderr)
		}
		var got analysis.Report
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatal(err)
		}
		if len(got.Decisions) != len(want.Decisions) || len(got.Curve) != len(want.Curve) || len(want.Decisions) < 2 {
			t.Fatalf("%v: %d decisions, %d points; the library's %d and %d", extra, len(got.Decisions), len(got.Curve), len(want.Decisions), len(want.Curve))
		}
		tol := 0.0 // solved here: the same numbers
		if extra != nil {
			tol = 1e-6 // a table keeps float32 values
		}
		for i, d := range got.Decisions {
			w := want.Decisions[i]
			if d.Chose != w.Chose || d.Side != w.Side || d.Event != w.Event || abs(d.Loss-w.Loss) > tol || abs(d.Got-w.Got) > tol {
				t.Errorf("%v: decision %d: %+v, the library's %+v", extra, i, d, w)
			}
		}
		for i, p := range got.Curve {
			if abs(p.Value-want.Curve[i].Value) > tol || p.Event != want.Curve[i].Event {
				t.Errorf("%v: point %d: %+v, the library's %+v", extra, i, p, want.Curve[i])
			}
		}
		if extra == nil && !reflect.DeepEqual(got, want) {
			t.Errorf("report %+v, the library's %+v", got, want)
		}
	}
	// --all sums every match by agent: the mean of the matches' own reports.
	var sums []analysis.Summary
	code, out, stderr := run(t, "analyse", runDir, "--all", "--json")
	if code != 0 || json.Unmarshal([]byte(out), &sums) != nil || len(sums) != 2 {
		t.Fatalf("--all: %d %s\n%s", code, stderr, out)
	}
	var tally analysis.Tally
	for id := range int64(2) {
		rep, err := rp.Match(id)
		if err != nil {
			t.Fatal(err)
		}
		r, err := analysis.Replay(context.Background(), g, rep)
		if err != nil {
			t.Fatal(err)
		}
		tally.Add(r)
	}
	if want := tally.Agents(); !reflect.DeepEqual(sums, want) || sums[0].Matches != 2 {
		t.Errorf("--all: %+v, the library's %+v", sums, want)
	}
	code, out, _ = run(t, "analyse", runDir, "--match", "1")
	if code != 0 || !strings.Contains(out, "points lost") || !strings.Contains(out, "random") || strings.Count(out, "kick-off") < 2 {
		t.Errorf("text: %d\n%s", code, out)
	}
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"analyse", runDir}, command.ExitUsage, "give one of --match ID"},
		{[]string{"analyse", runDir, "--match", "0", "--all"}, command.ExitUsage, "give one of --match ID"},
		{[]string{"analyse", runDir, "--match", "99"}, command.ExitUsage, "99"}, // a value the run does not have, as -1 (issue 64)
		{[]string{"analyse", runDir, "--match", "0", "--payoff", "points"}, command.ExitUsage, `--payoff "points"`},
		{[]string{"analyse", runDir, "--match", "0", "--table", other}, 1, "was made under"},
		{[]string{"analyse", runDir, "--match", "0", "--table", table, "--payoff", "advance"}, 1, "holds payoff win-loss, not advance"},
		{[]string{"analyse", filepath.Join(dir, "none"), "--match", "0"}, 1, "none"},
	} {
		code, _, stderr := run(t, c.args...)
		if code != c.code || !strings.Contains(stderr, c.want) || strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
			t.Errorf("%v: exit %d %q; want %d and %q", c.args, code, stderr, c.code, c.want)
		}
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
