package agents_test

import (
	"context"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kingoal/kingoal/agents"
	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/exploit/exploittest"
	"github.com/kingoal/kingoal/internal/testtool"
)

// shadow plays a, asking b too at every decision and counting where they differ.
type shadow struct {
	a, b     agents.Agent
	asked    int
	mismatch int
}

func (s *shadow) Act(obs env.Observation, legal env.Mask) int {
	x, y := s.a.Act(obs, legal), s.b.Act(obs, legal)
	s.asked++
	if x != y {
		s.mismatch++
	}
	return x
}

// TestTableAgentRefusals: other rules, no file, a file that is not a table: one line each.
func TestTableAgentRefusals(t *testing.T) {
	r := env.Rules{ThrowsPerHalf: 2, Moves: 1}
	path, _ := exploittest.SaveTable(t, "heuristic", r)
	other := env.Rules{ThrowsPerHalf: 3, Moves: 1}
	for spec, want := range map[string]string{
		"table:file=" + path: `the policy was tabulated for "league, 2+2 throws`,
		"table":              "table needs a policy table file",
		"table:" + filepath.Join(t.TempDir(), "none.kgp"): "no such file",
		"table:" + os.Args[0]:                             "not a Kingoal policy table",
	} {
		_, err := agents.New(spec, agents.Setup{Rules: other})
		if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v, want one line with %q", spec, err, want)
		}
	}
}

// TestTablesAnswerWhereverAMatchStands: tables of a mixed, a deterministic and a learned
// policy, league and cup, play 24,000 matches against random and heuristic, both sides,
// without one decision they cannot answer — before issue 39 a table had no answer at a break
// whose result was already decided (second half, 1 throw left, 2 up), which a match reaches.
func TestTablesAnswerWhereverAMatchStands(t *testing.T) {
	if testing.Short() {
		t.Skip("-short (the race stage): no goroutines here; it runs in go test ./...")
	}
	league, cup := env.Rules{ThrowsPerHalf: 4, Moves: 1}, env.Rules{ThrowsPerHalf: 3, Moves: 1, Knockout: true, ExtraThrowsPerHalf: 2}
	var specs []string
	var rules []env.Rules
	for _, r := range []env.Rules{league, cup} {
		for _, spec := range []string{"random", "heuristic"} {
			path, _ := exploittest.SaveTable(t, spec, r)
			specs, rules = append(specs, "table:file="+path), append(rules, r)
		}
	}
	f, err := agents.NewFictitious(league)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Train(context.Background(), 2, nil); err != nil {
		t.Fatal(err)
	}
	learned, _, err := f.Table(context.Background(), "fictitious")
	if err != nil {
		t.Fatal(err)
	}
	specs, rules = append(specs, "table:file="+exploittest.WriteTable(t, learned)), append(rules, league)
	matches, total := 0, 24000
	if !testtool.Heavy() { // a quarter of the matches: go test ./... within a minute a package (issue 64)
		total = 6000
	}
	for i, spec := range specs {
		table, err := agents.New(spec, agents.Setup{Rules: rules[i]})
		if err != nil {
			t.Fatal(err)
		}
		env.Reseed(table, uint64(i))
		heuristic, _ := agents.New("heuristic", agents.Setup{Rules: rules[i]})
		for m := range total / len(specs) {
			start, _ := env.NewState(rules[i])
			players := []env.Policy{table, agents.NewRandom(uint64(m))}
			if m%4 >= 2 {
				players[1] = heuristic
			}
			if m%2 == 1 {
				players[0], players[1] = players[1], players[0]
			}
			if _, err := env.Play(start, players[0], players[1], env.NewFastSampler(rand.NewPCG(uint64(m), uint64(i))), nil); err != nil {
				t.Fatal(err)
			}
			if err := env.ErrOf(table); err != nil {
				t.Fatalf("%s under %s, match %d: %v", spec, rules[i], m, err)
			}
			matches++
		}
	}
	t.Logf("%d matches of %d tables, every decision answered", matches, len(specs))
}

// TestTableAgentIsTheTabulatedAgent: heuristic tabulated and played back as table:file= makes
// heuristic's choice at every decision of matches on both sides, and has its exact
// exploitability (to 1e-12, and the one the header keeps); random's table is a mix with
// random's exploitability to float32's rounding.
func TestTableAgentIsTheTabulatedAgent(t *testing.T) {
	r := env.Rules{ThrowsPerHalf: 3, Moves: 1}
	path, x := exploittest.SaveTable(t, "heuristic", r)
	table, err := agents.New("table:file="+path, agents.Setup{Rules: r})
	if err != nil {
		t.Fatal(err)
	}
	if !env.IsDeterministic(table) || table.(*agents.Table).Policy.Info().Exploitability != x.Value {
		t.Fatalf("heuristic's table: deterministic %v, header %+v, measured %v", env.IsDeterministic(table), table.(*agents.Table).Policy.Info(), x)
	}
	heuristic, _ := agents.New("heuristic", agents.Setup{Rules: r})
	for i := range 40 {
		start, _ := env.NewState(r)
		s := &shadow{a: heuristic, b: table}
		players := []env.Policy{s, agents.NewRandom(uint64(i))}
		if i%2 == 1 {
			players[0], players[1] = players[1], players[0]
		}
		if _, err := env.Play(start, players[0], players[1], env.NewFastSampler(rand.NewPCG(uint64(i), 7)), nil); err != nil {
			t.Fatal(err)
		}
		if s.mismatch != 0 || s.asked < 2 || env.ErrOf(table) != nil {
			t.Fatalf("match %d: %d of %d decisions differ (%v)", i, s.mismatch, s.asked, env.ErrOf(table))
		}
	}
	want := exploittest.Measure(t, "heuristic", r, 0)
	if got := exploittest.Measure(t, "table:file="+path, r, 0); !got.Exact || math.Abs(got.Value-want.Value) > 1e-12 || math.Abs(x.Value-want.Value) > 1e-12 {
		t.Errorf("table %+v, tabulating %+v, heuristic %+v", got, x, want)
	}
	path, _ = exploittest.SaveTable(t, "random", r)
	want = exploittest.Measure(t, "random", r, 0)
	if got := exploittest.Measure(t, "table:"+path, r, 0); !got.Exact || math.Abs(got.Value-want.Value) > 1e-6 || want.Value < 0.01 {
		t.Errorf("random's table %+v, random %+v", got, want)
	}
}
