package arena_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/kingoal/kingoal/arena"
	"github.com/kingoal/kingoal/datasets"
	"github.com/kingoal/kingoal/env"
)

// TestReplayPlaysEveryMatchAgain: in a league drawn goal by goal, a knockout and a World Cup
// with every die logged, every match plays again to its row in matches.parquet (Match checks
// the whole row), its events end at the final score, and a logged run's throws are the
// replay's chance events, die for die.
func TestReplayPlaysEveryMatchAgain(t *testing.T) {
	for _, c := range []arena.Config{
		{Agents: []string{"random", "heuristic", "fixed:2-2-2-2-2"}, Rules: env.Rules{ThrowsPerHalf: 8}, Matches: 6, Seed: 4},
		{Format: arena.Knockout, Agents: []string{"random", "heuristic", "fixed:1-2-3-3-1"}, Rules: env.Rules{ThrowsPerHalf: 5, Knockout: true, ExtraThrowsPerHalf: 2},
			Matches: 4, Seed: 3, LogThrows: true, Dice: true},
		{Format: arena.WorldCup, Agents: []string{"random", "heuristic", "fixed:1-2-3-3-1", "fixed:2-2-2-2-2", "fixed:1-1-3-3-2"},
			Rules: env.Rules{ThrowsPerHalf: 4, Knockout: true}, Matches: 1, GroupSize: 4, Seed: 9, EveryThrow: true},
	} {
		dir := t.TempDir()
		if _, err := arena.Play(context.Background(), c, dir, arena.Options{}); err != nil {
			t.Fatal(err)
		}
		rep, err := arena.NewReplayer(context.Background(), dir, arena.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		rows, err := datasets.ReadParquet[datasets.MatchRow](filepath.Join(dir, "matches.parquet"), datasets.MatchesSchema)
		if err != nil {
			t.Fatal(err)
		}
		var throws []datasets.ThrowRow
		if c.LogThrows {
			if throws, err = datasets.ReadParquet[datasets.ThrowRow](filepath.Join(dir, "throws.parquet"), datasets.ThrowsSchema); err != nil {
				t.Fatal(err)
			}
		}
		jumps := 0
		for _, row := range rows {
			m, err := rep.Match(row.MatchID)
			if err != nil {
				t.Fatalf("%v: %v", c.Format, err)
			}
			end := m.Events[len(m.Events)-1].After
			if end.Node() != env.Terminal || end.Goals(env.Home) != int(row.HomeGoals) || end.Goals(env.Away) != int(row.AwayGoals) || m.Start.Node() != env.Decision {
				t.Fatalf("%v match %d: events end at %s, the row says %d-%d", c.Format, row.MatchID, end, row.HomeGoals, row.AwayGoals)
			}
			k := 0
			for _, e := range m.Events {
				if e.Jump > 0 {
					jumps++
				}
				if !e.Chance || !c.LogThrows {
					continue
				}
				for k < len(throws) && throws[k].MatchID != row.MatchID {
					k++
				}
				if k == len(throws) || int(e.Roll.HomeCount) != len(throws[k].HomeValues) || e.After.Goals(env.Home) != int(throws[k].HomeGoals) {
					t.Fatalf("match %d: a replayed throw is not the logged one", row.MatchID)
				}
				k++
			}
		}
		if drawnByGoals := c.Format == arena.League; drawnByGoals != (jumps > 0) {
			t.Errorf("%v: %d jumps", c.Format, jumps)
		}
		if _, err := rep.Match(int64(len(rows))); !errors.Is(err, arena.ErrNoSuchMatch) {
			t.Errorf("match %d of %d: %v", len(rows), len(rows), err)
		}
	}
}
