package cli

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/kingoal/kingoal/frontend/cli/command"
)

func TestAgentsList(t *testing.T) {
	code, out, _ := run(t, "agents", "--json")
	var list []struct {
		Name   string `json:"name"`
		Params []struct {
			Name, Default string
		} `json:"params"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &list) != nil || len(list) < 5 {
		t.Fatalf("exit %d: %s", code, out)
	}
	code, out, _ = run(t, "agents")
	for _, want := range []string{"random", "fixed", "heuristic", "optimal", "equilibrium", "lineup=2-2-2-2-2", "the line-up, like"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("agents output lacks %q", want)
		}
	}
	for i, line := range strings.Split(out, "\n") {
		if n := utf8.RuneCountInString(line); n > agentsWidth {
			t.Errorf("line %d is %d columns wide (at most %d): %q", i+1, n, agentsWidth, line)
		}
	}
}

func TestWatch(t *testing.T) {
	args := []string{"watch", "heuristic", "random", "--seed", "4", "--dice", "--throws-per-half", "10", "--knockout"}
	code, a, stderr := run(t, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	_, b, _ := run(t, args...)
	if a != b {
		t.Fatal("the same seed gave another transcript")
	}
	for _, want := range []string{"home heuristic v away random, seed 4", "kick-off: home 1-2-3-3-1", "H1 10 ball 3", "final score"} {
		if !strings.Contains(a, want) {
			t.Errorf("transcript lacks %q\n%s", want, a)
		}
	}
	_, c, _ := run(t, "watch", "heuristic", "random", "--seed", "5", "--dice", "--throws-per-half", "10", "--knockout")
	if c == a {
		t.Error("another seed gave the same transcript")
	}
	for _, bad := range [][]string{{"watch", "heuristic"}, {"watch", "nobody", "random"}, {"watch", "fixed:9-9", "random"}} {
		if code, out, stderr := run(t, bad...); code != command.ExitUsage || out != "" || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
			t.Errorf("%v: exit %d, stderr %q", bad, code, stderr)
		}
	}
}

func TestEval(t *testing.T) {
	code, out, stderr := run(t, "eval", "heuristic", "--vs", "fixed:2-2-2-2-2;random", "-n", "100", "--throws-per-half", "10", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var res struct {
		Reports []struct {
			Opponent string   `json:"opponent"`
			Exact    bool     `json:"exact"`
			Score    float64  `json:"score"`
			Regret   *float64 `json:"regret"`
		} `json:"reports"`
		Exploitability *struct {
			Value float64 `json:"value"`
			Exact bool    `json:"exact"`
		} `json:"exploitability"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil || len(res.Reports) != 2 {
		t.Fatalf("%v\n%s", err, out)
	}
	reps := res.Reports
	if !reps[0].Exact || reps[0].Regret == nil || *reps[0].Regret < 0 || reps[1].Exact || reps[1].Regret != nil {
		t.Fatalf("%+v", reps)
	}
	if e := res.Exploitability; e == nil || !e.Exact || e.Value <= 0 {
		t.Fatalf("heuristic's exploitability: %+v, want exact and positive", e)
	}
	// --no-exploitability leaves it out; the text table says it in words.
	if _, out, _ := run(t, "eval", "heuristic", "--vs", "fixed:2-2-2-2-2", "--throws-per-half", "10", "--json", "--no-exploitability"); strings.Contains(out, "exploitability") {
		t.Errorf("--no-exploitability printed it:\n%s", out)
	}
	if _, out, _ := run(t, "eval", "random", "--vs", "fixed:2-2-2-2-2", "-n", "50", "--throws-per-half", "10"); !strings.Contains(out, "exploitability: ≥ ") || !strings.Contains(out, "lower bound") {
		t.Errorf("random's exploitability is not shown as an estimate:\n%s", out)
	}
	for _, bad := range [][]string{{"eval", "nobody"}, {"eval", "heuristic", "--vs", "nobody"}, {"eval", "heuristic", "-n", "0"}, {"eval", "heuristic", "--vs", " ; "}} {
		if code, _, stderr := run(t, bad...); code != command.ExitUsage || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
			t.Errorf("%v: exit %d %q", bad, code, stderr)
		}
	}
}
